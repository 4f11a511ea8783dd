/* Whole-process migration's messages are checked (seed 001; kernel/pmigrate.c): earth forges
 * to air an image announced for another board's process, a page of an image nobody sends, a
 * checkpoint page sent to a board that is not the master, and an image's answer for a
 * migration air is not making. Air must refuse each (counted, said on its console) and then
 * still take a real process moved from earth whole, which runs to its end there. The call's
 * own refusals follow, and a process inside a channel operation is not checkpointed (EAGAIN). */
#include <testbed/tos_net.h>
#include "tos_check.h"

int main(void) {
  int air = 2, me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me != air && me != 0, "run this on a slave other than air");
  const uint32_t begin_other[5] = {3, 1, 1, TOS_PMIG_DIRECT, 4};
  const uint32_t stray_page[6] = {(uint32_t)me, 1, 1, 8, 0, 4};
  const uint32_t ckpt_not_master[7] = {(uint32_t)me, 1, 1, 8, 3, 0, 4};
  const uint32_t stray_ready[4] = {(uint32_t)air, 1, 1, 0};
  CHECK(net_inject(air, NET_PMIG_BEGIN, begin_other, 5) == 0, "inject");
  CHECK(net_inject(air, NET_PMIG_PAGE, stray_page, 6) == 0, "inject");
  CHECK(net_inject(air, NET_PMIG_CKPT, ckpt_not_master, 7) == 0, "inject");
  CHECK(net_inject(air, NET_PMIG_READY, stray_ready, 4) == 0, "inject");
  int pid = spawn("pmig_task", "pmig_task 8 60 5");
  CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
  static struct tos_pinfo info;
  unsigned long t0 = time_us();
  while ((pinfo(pid, &info) != 0 || info.nthreads < 2) && time_us() - t0 < 2000000) yield();
  int r;
  for (int k = 0; (r = pmigrate(pid, air, TOS_PMIG_DIRECT)) == -TOS_EAGAIN && k < 20; ++k) {
  }
  CHECK(r == 0, "a real pmigrate after the forgeries: %s", tos_strerror(r));
  CHECK(pmigrate(pid, air, 7) == -TOS_EINVAL, "a bad mode");
  CHECK(pmigrate(pid, 9, TOS_PMIG_DIRECT) == -TOS_EINVAL, "a board that does not exist");
  CHECK(pmigrate(pid, air, TOS_PMIG_DIRECT) == -TOS_EBUSY, "a process already away");
  CHECK(pmigrate(15, air, TOS_PMIG_DIRECT) == -TOS_ESRCH, "no such process");
  CHECK(pwait(pid) == 0, "the moved task failed");
  /* the seed's rule: no checkpoint inside a communication; a thread that stays in one is waited
   * for (2 s), then the call gives up and the process goes on where it is */
  int blocked = spawn("pmig_task", "pmig_task 1 -1 0");
  CHECK(blocked >= 0, "spawn");
  t0 = time_us();
  while (time_us() - t0 < 50000) yield();
  CHECK(pmigrate(blocked, air, TOS_PMIG_INDIRECT) == -TOS_EAGAIN, "a process inside a receive was moved");
  CHECK(time_us() - t0 >= 2000000, "gave up before waiting 2 s");
  CHECK(pinfo(blocked, &info) == 0 && info.thread[0].board == me, "the refused process left");
  CHECK(kill(blocked) == 0 && pwait(blocked) != 0, "kill");
  tos_pass("pmig_forged_refused");
  return 0;
}
