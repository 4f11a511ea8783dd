/* The request that starts a migration is held back while a task is inside a critical section
 * (seed 001: DynamicPVM's library blocks the migration signal inside a PVM call; kernel/
 * pmigrate.c, pmig_critical, lib/pvm.c). pmig_crit_task spends 600 ms inside one from its
 * start: pmigrate, asked in the middle, must wait for the section's end and then move the task
 * (DIRECT to air), so the call takes at least the rest of the section, and the task sees no move
 * inside it. A 3000 ms section outlasts pmigrate's 2 s wait: EAGAIN, the task is still home;
 * asked again (as often as EAGAIN says), the move (INDIRECT to fire) goes once it is out. */
#include "tos_check.h"

static void wait_ms(unsigned long ms) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < ms * 1000) yield();
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me != 0 && me != 2 && me != 3, "run this on a slave other than air and fire");
  static struct tos_pinfo info;
  int pid = spawn("pmig_crit_task", "pmig_crit_task 600");
  CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
  wait_ms(150); /* inside its section now (it enters as it starts) */
  unsigned long t0 = time_us();
  int r = pmigrate(pid, 2, TOS_PMIG_DIRECT);
  unsigned long took = (time_us() - t0) / 1000;
  CHECK(r == 0, "pmigrate during a 600 ms critical section: %s", tos_strerror(r));
  CHECK(took >= 300, "pmigrate moved the task after %lu ms: it did not wait for the section's end", took);
  CHECK(pwait(pid) == 0, "the task moved during its critical section");
  printf("pmig_crit_waits: held back %lu ms, then moved direct\n", took);

  pid = spawn("pmig_crit_task", "pmig_crit_task 3000");
  CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
  wait_ms(150);
  r = pmigrate(pid, 3, TOS_PMIG_INDIRECT);
  CHECK(r == -TOS_EAGAIN, "pmigrate during a 3000 ms critical section: %s, not EAGAIN", tos_strerror(r));
  CHECK(pinfo(pid, &info) == 0 && info.thread[0].board == me, "the refused task left");
  t0 = time_us();
  for (int k = 0; (r = pmigrate(pid, 3, TOS_PMIG_INDIRECT)) == -TOS_EAGAIN && k < 5; ++k) {
  }
  CHECK(r == 0, "pmigrate after the section: %s", tos_strerror(r));
  CHECK(pwait(pid) == 0, "the task moved during its critical section");
  printf("pmig_crit_waits: a section past 2 s refused (EAGAIN), then moved indirect %lu ms later\n",
         (time_us() - t0) / 1000);
  tos_pass("pmig_crit_waits");
  return 0;
}
