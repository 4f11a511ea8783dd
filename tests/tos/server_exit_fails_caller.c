/* A migrated computation whose server thread ends inside it (the computation calls exit) never
 * answers: its caller is told (cm_call fails with ENOENT) instead of waiting for ever, and a
 * later thread in the server's TCB and TID is handed nothing of the job (kernel/region.c,
 * region_thread_gone). A region homed here (policy RPC: always the computation), a server thread,
 * a client on air: its first call completes, its second runs a computation that exits, then a
 * new server (the same slot) serves a second region's call. Nothing leaks (ALL_FREE). */
#include <tos/region.h>
#include "tos_check.h"

#define ME "server_exit_fails_caller"
#define AIR 2
enum { DONE = 1, NEXT = 2 };

static rid_t id[2]; /* the region whose server ends, and the one served after */

static long add_or_exit(void *rgn, long arg) {
  long *v = rgn;
  if (arg < 0) exit(0); /* the server thread ends inside the computation */
  return v[0] += arg;
}

static void client(void *unused) {
  (void)unused;
  long *a = rgn_map(id[0]), *b = rgn_map(id[1]);
  CHECK(a && b, "air: rgn_map: %s", tos_strerror(tos_errno));
  int how = 0;
  CHECK(cm_call_how(a, TOS_CM_WRITE, add_or_exit, 5, &how) == 5 && how == TOS_CM_DONE, "air: the first call (how %d)",
        how);
  long got = cm_call_how(a, TOS_CM_WRITE, add_or_exit, -1, &how);
  CHECK(got == 0 && how == -TOS_ENOENT, "air: the call whose server ended: %ld (how %d)", got, how);
  int one = 1;
  CHECK(send_block(DONE, &one, sizeof one) == 0 && receive(NEXT, &one, sizeof one) == sizeof one, "air: next");
  CHECK(cm_call_how(b, TOS_CM_WRITE, add_or_exit, 7, &how) == 7 && how == TOS_CM_DONE, "air: the new server (how %d)",
        how);
  printf("%s: the caller was told ENOENT; the next server answered\n", ME);
  CHECK(send_block(DONE, &one, sizeof one) == 0, "air: done");
  exit(0);
}

int main(void) {
  for (int k = 0; k < 2; ++k) {
    id[k] = rgn_create(32);
    void *r = id[k] ? rgn_map(id[k]) : NULL;
    CHECK(r && rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "region %d: %s", k, tos_strerror(tos_errno));
  }
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, NULL), "client on air");
  int one = 0;
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's failed call");
  CHECK(cm_serve_start(4), "a second server: %s", tos_strerror(tos_errno));
  CHECK(send_block(NEXT, &one, sizeof one) == 0, "next");
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's end");
  cm_serve_stop();
  CHECK(wait() == 0, "the client or a server failed (its board's console says why)");
  tos_pass(ME);
  return 0;
}
