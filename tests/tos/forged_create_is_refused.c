/* A forged remote create (issue #30): a program's thread on water sends air a NET_CREATE that
 * claims to come from the home of this process (earth): a thread at a chosen address (evil())
 * inside the process's part on air. Thread slots are the home's to give, so a create is taken
 * only from the process's home as the network interface reports the sender: air must refuse it.
 * Before the fix air made the thread inside the process (slot 50): the helper there, looking
 * at every process on air with pinfo, found it, and this program failed (had it run to its
 * end, its exit code 77 would have reached the parent here as a child's).
 * The serial of this process is not known to it; the forger tries the first few (a fresh
 * board's first processes have small ones). */
#include <testbed/tos_net.h>
#include "tos_check.h"

static void evil(void *arg) {
  (void)arg;
  printf("forged thread running inside the process on air\n");
  exit(77);
}

#define SLOT 50
static struct tos_pinfo info;

static void helper(void *arg) { /* makes the process's part on air, keeps it, and looks into it */
  (void)arg;
  int v = 0, forged = 0;
  receive(1, &v, sizeof v);
  for (unsigned long t0 = time_us(); time_us() - t0 < 500000;) yield(); /* air's own time for a forgery */
  int wanted = (gettid() & ~63) | SLOT;
  for (int pid = 0; pid < TOS_MAX_PROCESSES; ++pid)
    if (pinfo(pid, &info) >= 0)
      for (int i = 0; i < info.nthreads; ++i) forged += info.thread[i].tid == wanted;
  send_block(2, &forged, sizeof forged);
  exit(0);
}

static uint32_t me, pid, parent_tid;

static void forger(void *arg) {
  (void)arg;
  int air = 2;
  for (uint32_t serial = 1; serial <= 4; ++serial) {
    const uint32_t ops[10] = {me, pid, serial, SLOT, (uint32_t)evil, 0, 0, 2, parent_tid, 99};
    CHECK(net_inject(air, NET_CREATE, ops, 10) == 0, "inject");
  }
  int done = 1;
  send_block(3, &done, sizeof done);
  exit(0);
}

int main(void) {
  int air = 2, water = 4;
  me = (uint32_t)tos_info(TOS_INFO_BOARD);
  parent_tid = (uint32_t)gettid();
  pid = parent_tid >> 6 & 15;
  CHECK(create(1, 2, air, helper, NULL) > 0, "create on air: %s", tos_strerror(tos_errno));
  CHECK(create(2, 2, water, forger, NULL) > 0, "create on water: %s", tos_strerror(tos_errno));
  int done = 0;
  CHECK(receive(3, &done, sizeof done) == sizeof done, "the forger's word");
  for (unsigned long t0 = time_us(); time_us() - t0 < 300000;) yield(); /* time for a forged thread to run */
  int v = 1;
  CHECK(send_block(1, &v, sizeof v) == 0, "send to air");
  int forged = -1;
  CHECK(receive(2, &forged, sizeof forged) == sizeof forged, "the helper's word");
  CHECK(forged == 0, "a forged thread (slot %d) is inside this process on air", SLOT);
  int code = wait();
  CHECK(code == 0, "a child ended with %d: a forged thread ran inside this process", code);
  tos_pass("forged_create_is_refused");
  return 0;
}
