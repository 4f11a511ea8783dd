/* Forged page requests and a forged kill (issue #30): a program's thread on water asks earth,
 * this process's home, for one of its data pages as a migrated thread's stack page would be
 * asked for (the page moves: earth unmaps it and sends it away), asks for a copy of another (its
 * contents would go to water), and tells air that the process has ended (air would remove the
 * process's part there, and the thread it runs). A page goes only to a board one of the
 * process's threads is on, a stack page only to its own thread, and only the home says its
 * process is gone: earth and air must refuse all three. Before the fix the data page was gone
 * (this program was removed at its first touch of it: "unmapped page") and the thread on air
 * was killed (the round trip below never ended: the no-progress detection stopped the run). */
#include <testbed/tos_net.h>
#include "tos_check.h"

static volatile unsigned char data[3 * 1024] __attribute__((aligned(1024)));
static uint32_t me, pid, main_tid;

static void echo(void *arg) {
  (void)arg;
  int v = 0;
  receive(1, &v, sizeof v);
  ++v;
  send_block(2, &v, sizeof v);
  exit(0);
}

static void forger(void *arg) {
  (void)arg;
  int air = 2;
  uint32_t page = (uint32_t)data >> 10;
  for (uint32_t serial = 1; serial <= 4; ++serial) {
    const uint32_t move[6] = {me, pid, serial, page, main_tid, 1};
    const uint32_t copy[6] = {me, pid, serial, page + 1, main_tid, 0};
    const uint32_t gone[3] = {me, pid, serial};
    CHECK(net_inject((int)me, NET_PAGE_REQ, move, 6) == 0, "inject");
    CHECK(net_inject((int)me, NET_PAGE_REQ, copy, 6) == 0, "inject");
    CHECK(net_inject(air, NET_KILL, gone, 3) == 0, "inject");
  }
  int done = 1;
  send_block(3, &done, sizeof done);
  exit(0);
}

int main(void) {
  int air = 2, water = 4;
  for (unsigned i = 0; i < sizeof data; ++i) data[i] = (unsigned char)(i * 7);
  me = (uint32_t)tos_info(TOS_INFO_BOARD);
  main_tid = (uint32_t)gettid();
  pid = main_tid >> 6 & 15;
  CHECK(create(1, 2, air, echo, NULL) > 0, "create on air: %s", tos_strerror(tos_errno));
  CHECK(create(2, 2, water, forger, NULL) > 0, "create on water: %s", tos_strerror(tos_errno));
  int done = 0;
  CHECK(receive(3, &done, sizeof done) == sizeof done, "the forger's word");
  for (unsigned long t0 = time_us(); time_us() - t0 < 300000;) yield(); /* time for forgeries to act */
  for (unsigned i = 0; i < sizeof data; ++i) CHECK(data[i] == (unsigned char)(i * 7), "data byte %u changed", i);
  int v = 41;
  CHECK(send_block(1, &v, sizeof v) == 0, "send to air");
  CHECK(receive(2, &v, sizeof v) == sizeof v && v == 42, "air answered %d", v);
  CHECK(wait() == 0, "a thread failed");
  tos_pass("forged_page_and_kill_fail");
  return 0;
}
