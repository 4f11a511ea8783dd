/* An optimistic active message that calls exit aborts to a server thread (its system call is the
 * thread's to make, seed 003 6.2.3), and that server ends inside the continuation: its caller is
 * told (cm_call fails with ENOENT) instead of waiting for ever, and the region's access the
 * handler took ends with it, so the next call on the same region is served (kernel/region.c,
 * region_thread_gone). A region homed here (policy RPC, optimistic active messages on), a server
 * thread, a client on air: its first call completes as a handler, its second aborts and its
 * continuation exits, then a new server serves a third call on the same region. Nothing leaks
 * (ALL_FREE). */
#include <tos/region.h>
#include "tos_check.h"

#define ME "oam_server_exit_fails"
#define AIR 2
enum { DONE = 1, NEXT = 2 };

static rid_t id;

static long add_or_exit(void *rgn, long arg) {
  long *v = rgn;
  if (arg < 0) exit(0); /* a handler aborts here; the server thread running the rest ends */
  return v[0] += arg;
}

static void client(void *unused) {
  (void)unused;
  long *a = rgn_map(id);
  CHECK(a != NULL, "air: rgn_map: %s", tos_strerror(tos_errno));
  int how = 0;
  CHECK(cm_call_how(a, TOS_CM_WRITE, add_or_exit, 5, &how) == 5 && how == TOS_CM_DONE, "air: the first call (how %d)",
        how);
  long got = cm_call_how(a, TOS_CM_WRITE, add_or_exit, -1, &how);
  CHECK(got == 0 && how == -TOS_ENOENT, "air: the call whose continuation's server ended: %ld (how %d)", got, how);
  int one = 1;
  CHECK(send_block(DONE, &one, sizeof one) == 0 && receive(NEXT, &one, sizeof one) == sizeof one, "air: next");
  CHECK(cm_call_how(a, TOS_CM_WRITE, add_or_exit, 7, &how) == 12 && how == TOS_CM_DONE,
        "air: the same region after (how %d)", how);
  printf("%s: the caller was told ENOENT; the region was served again\n", ME);
  CHECK(send_block(DONE, &one, sizeof one) == 0, "air: done");
  exit(0);
}

int main(void) {
  id = rgn_create(32);
  void *r = id ? rgn_map(id) : NULL;
  CHECK(r && rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "region: %s", tos_strerror(tos_errno));
  cm_oam(1);
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, NULL), "client on air");
  int one = 0;
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's failed call");
  CHECK(rgn_count(r, TOS_CM_COUNT_OAM) == 1 && rgn_count(r, TOS_CM_COUNT_ABORT_CALL) == 1,
        "completed handlers %ld, aborted on a call %ld", rgn_count(r, TOS_CM_COUNT_OAM), rgn_count(r, TOS_CM_COUNT_ABORT_CALL));
  CHECK(cm_serve_start(4), "a second server: %s", tos_strerror(tos_errno));
  CHECK(send_block(NEXT, &one, sizeof one) == 0, "next");
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's end");
  cm_serve_stop();
  CHECK(wait() == 0, "the client or a server failed (its board's console says why)");
  tos_pass(ME);
  return 0;
}
