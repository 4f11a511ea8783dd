/* A migrated computation run as an optimistic active message at its region's home (kernel/
 * region.c) writes through a null pointer: user code, run in user mode in its process's address
 * space, so the fault is the process's, never the kernel's. Earth's kernel says so in one line
 * and removes the process on every board, as for a fault of one of its threads; earth's board
 * goes on (the run's end: every board done with all its frames and TCBs free) and counts the
 * fault on its end-of-run line. */
#include <tos/region.h>
#include "tos_check.h"

#define ME "oam_fault_ends_process"
static rid_t id;

static long null_write(void *rgn, long arg) {
  (void)rgn;
  *(volatile long *)arg = 1;
  return 0;
}

static void client(void *unused) {
  (void)unused;
  void *r = rgn_map(id);
  CHECK(r, "rgn_map: %s", tos_strerror(tos_errno));
  printf("%s: migrating a computation that writes to address 0\n", ME);
  cm_call(r, TOS_CM_WRITE, null_write, 0);
  printf("%s: FAIL: the caller went on\n", ME);
  exit(1);
}

int main(void) {
  cm_oam(1);
  id = rgn_create(16);
  void *r = rgn_map(id);
  CHECK(id && r, "rgn_create: %s", tos_strerror(tos_errno));
  CHECK(rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "rgn_policy");
  CHECK(cm_serve_start(4), "cm_serve_start");
  CHECK(create(1, 4, 2, client, NULL), "client on air");
  wait();
  printf("%s: FAIL: the process outlived its handler's fault\n", ME);
  return 1;
}
