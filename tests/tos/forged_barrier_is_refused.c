/* Barrier messages are hostile (issue 34): a thread of this process waits at a barrier on air; a
 * thread on water (the test kernel's net_inject) forges the arrival of air's thread to the home
 * (earth), which would complete the barrier of two, and a release to air from water, which is
 * not the process's home. Both must be refused (counted on the receiving boards), the waiting
 * thread must not go on until this thread's own arrival completes the barrier, and then it must. */
#include <testbed/tos_net.h>
#include "tos_check.h"

static volatile int passed;
static int bar, helper_tid;
static uint32_t me, pid;

static void helper(void *arg) {
  (void)arg;
  CHECK(barrier_wait(bar) == 0, "helper's wait: %s", tos_strerror(tos_errno));
  passed = 1;
  exit(0);
}

static void forger(void *arg) {
  (void)arg;
  int earth = 1, air = 2;
  for (uint32_t serial = 1; serial <= 4; ++serial) {
    const uint32_t arrive[5] = {me, pid, serial, (uint32_t)bar, (uint32_t)helper_tid};
    CHECK(net_inject(earth, NET_BAR_ARRIVE, arrive, 5) == 0, "inject arrive");
    const uint32_t release[6] = {me, pid, serial, (uint32_t)bar, 1, (uint32_t)helper_tid};
    CHECK(net_inject(air, NET_BAR_RELEASE, release, 6) == 0, "inject release");
  }
  exit(0);
}

static void count_refused(void *arg) { /* on air: what its kernel refused */
  (void)arg;
  int n = (int)tos_info(TOS_INFO_NET_REFUSED);
  send_block(5, &n, sizeof n);
  exit(0);
}

static void pause_ms(unsigned ms) {
  for (unsigned long t0 = time_us(); time_us() - t0 < ms * 1000ul;) yield();
}

int main(void) {
  int air = 2, water = 4;
  me = (uint32_t)tos_info(TOS_INFO_BOARD);
  pid = (uint32_t)gettid() >> 6 & 15;
  bar = barrier_init(2);
  CHECK(bar >= 0, "barrier_init");
  int refused0 = (int)tos_info(TOS_INFO_NET_REFUSED);
  helper_tid = create(1, 2, air, helper, NULL);
  CHECK(helper_tid > 0, "create on air: %s", tos_strerror(tos_errno));
  pause_ms(300); /* the helper arrives and blocks */
  CHECK(create(2, 2, water, forger, NULL) > 0, "create on water");
  pause_ms(300); /* the forgeries land */
  CHECK(!passed, "the helper went on: a forged arrival completed the barrier or a forged release freed it");
  int refused = (int)tos_info(TOS_INFO_NET_REFUSED) - refused0;
  CHECK(refused >= 4, "earth refused %d forged arrivals of 4", refused);
  CHECK(create(3, 2, air, count_refused, NULL) > 0, "create on air");
  int on_air = 0;
  CHECK(receive(5, &on_air, sizeof on_air) == sizeof on_air, "air's count");
  CHECK(on_air >= 4, "air refused %d forged releases of 4", on_air);
  CHECK(barrier_wait(bar) == 0, "main's wait");
  CHECK(wait() == 0, "a child failed");
  CHECK(passed, "the helper was not released by the barrier's completion");
  printf("refused: %d arrivals on earth, %d releases on air\n", refused, on_air);
  tos_pass("forged_barrier_is_refused");
  return 0;
}
