/* Bad executables (tests/tos/make_bad_executables.py): a truncated file, an x86 ELF, an image
 * larger than 512 KB and one linked at the wrong address are each refused by the kernel with a
 * console message (checked by the ctest regex), spawn says ENOEXEC, and a good program still
 * runs afterwards. */
#include "tos_check.h"

int main(void) {
  static const char *const bad[] = {"bad-truncated", "bad-x86", "bad-large", "bad-address"};
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  for (int i = 0; i < 4; ++i) {
    int pid = spawn(bad[i], bad[i]);
    CHECK(pid == -TOS_ENOEXEC, "%s: spawn returned %d", bad[i], pid);
  }
  CHECK(spawn("no-such-program", "") == -TOS_ENOENT, "a missing program");
  int pid = spawn("hello", "hello after the bad ones");
  CHECK(pid >= 0, "hello: %d", pid);
  CHECK(pwait(pid) == 0, "hello failed");
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames leaked");
  tos_pass("bad_executables_are_refused");
  return 0;
}
