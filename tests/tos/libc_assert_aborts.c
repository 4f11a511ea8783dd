/* A failed assert prints C's message (the expression, file, line and function) on stderr and
 * aborts: the process ends as killed (exit code -1 to pwait), its other threads with it, and
 * nothing after the assert runs. The program runs itself as a child to see that from outside. */
#undef NDEBUG /* the firmware is built as Release: these asserts are the test */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "tos_check.h"

static void spin(void *arg) {
  (void)arg;
  for (;;) yield();
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    CHECK(create(1, 2, HERE, spin, NULL) != 0, "a second thread");
    int three = 2;
    assert(three == 3);
    printf("libc_assert_aborts: FAIL: still running after the assert\n");
    return 0;
  }
  int pid = spawn("libc_assert_aborts", "libc_assert_aborts child");
  CHECK(pid >= 0, "spawn: %d", pid);
  int code = pwait(pid);
  CHECK(code == -1, "the child ends as killed: %d", code);
  tos_pass("libc_assert_aborts");
  return 0;
}
