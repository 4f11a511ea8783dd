/* The loader (issue #30): a program's code pages are the filestore's own blocks, mapped
 * read-only; only frames of the pool are the process's to free. Two executables made by
 * make_bad_executables.py used to return filestore blocks to the free frames (a board ended
 * with more frames free than it has; the next program died with line-F): "odd-order", a valid
 * program whose read-only segments are listed out of order, and "bad-overlap", refused after
 * one of its code pages was mapped. Now every frame comes back, no more; the free count never
 * passes the total (mem.c halts the board on a frame given back that is not the pool's or is
 * free already), and the programs in the filestore still run. */
#include "tos_check.h"

static void frames_as_before(const char *after, long frames0) {
  long now = tos_info(TOS_INFO_FREE_FRAMES), total = tos_info(TOS_INFO_TOTAL_FRAMES);
  CHECK(now <= total, "after %s: %ld frames free of %ld", after, now, total);
  CHECK(now == frames0, "after %s: %ld frames free, %ld before", after, now, frames0);
}

int main(void) {
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  for (int round = 0; round < 3; ++round) {
    int pid = spawn("odd-order", "odd-order");
    CHECK(pid >= 0, "odd-order: spawn %d", pid);
    CHECK(pwait(pid) == 0, "odd-order failed");
    frames_as_before("odd-order", frames0);
    pid = spawn("bad-overlap", "bad-overlap");
    CHECK(pid == -TOS_ENOEXEC, "bad-overlap: spawn %d, not ENOEXEC", pid);
    frames_as_before("bad-overlap", frames0);
  }
  int pid = spawn("hello", "hello after them");
  CHECK(pid >= 0, "hello: %d", pid);
  CHECK(pwait(pid) == 0, "hello failed");
  frames_as_before("hello", frames0);
  tos_pass("loader_frees_only_frames");
  return 0;
}
