/* A process moved on from board to board (seed 001, issue 61: DynamicPVM's scheduler moves a
 * task that has moved before). pmig_task (two threads exchanging checksummed messages over
 * channels, a data array checked word by word) is moved DIRECT to air, then on to fire DIRECT,
 * then on to water INDIRECT, then home: each pmigrate returns 0 with both threads on the board
 * asked, and the task ends with every message and word intact. A move to the board it is on
 * is refused (EBUSY).
 *   pmigrate_onward */
#include <stdlib.h>
#include "tos_check.h"

static void on(int pid, int dest, int mode) {
  static struct tos_pinfo info;
  int r, k;
  for (k = 0; (r = pmigrate(pid, dest, mode)) == -TOS_EAGAIN && k < 50; ++k) yield();
  CHECK(r == 0, "pmigrate to %d (%s): %s", dest, mode ? "indirect" : "direct", tos_strerror(r));
  CHECK(pinfo(pid, &info) == 0 && info.nthreads == 2, "pinfo after the move to %d", dest);
  for (int i = 0; i < info.nthreads; ++i)
    CHECK(info.thread[i].board == dest, "thread %x on board %d after the move to %d", info.thread[i].tid,
          info.thread[i].board, dest);
  printf("pmigrate_onward: on board %d (%s)\n", dest, mode ? "indirect" : "direct");
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me == 1, "run on earth");
  int pid = spawn("pmig_task", "pmig_task 24 800 11");
  CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
  static struct tos_pinfo info;
  unsigned long t0 = time_us();
  while ((pinfo(pid, &info) != 0 || info.nthreads < 2) && time_us() - t0 < 2000000) yield();
  on(pid, 2, TOS_PMIG_DIRECT);
  CHECK(pmigrate(pid, 2, TOS_PMIG_DIRECT) == -TOS_EBUSY, "a move to the board it is on is refused");
  on(pid, 3, TOS_PMIG_DIRECT);
  on(pid, 4, TOS_PMIG_INDIRECT);
  on(pid, me, TOS_PMIG_DIRECT);
  int code = pwait(pid);
  CHECK(code == 0, "the task ended with %d", code);
  tos_pass("pmigrate_onward");
  return 0;
}
