/* A migrated computation whose server thread ends inside it (the computation calls exit) never
 * answers: its caller is told (cm_call fails with ENOENT) instead of waiting for ever, and a
 * later thread in the server's TCB and TID is handed nothing of the job (kernel/region.c,
 * region_thread_gone). A region homed here (policy RPC: always the computation), a server thread,
 * a client on air: its first call completes, its second runs a computation that exits, then a
 * new server (the same slot) serves a call on a second region. (The first stays held: a server
 * thread takes the access itself, in cm_serve, and a thread that ends inside an access holds it,
 * as any thread of the process would.) With the argument "oam" the computations run as optimistic
 * active messages: the one that calls exit aborts to the server (its system call is the thread's
 * to make, seed 003 6.2.3) and the server ends inside the continuation; the access the kernel took
 * for the handler ends with it, so the same region is served again. Nothing leaks (ALL_FREE). */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define ME "server_exit_fails_caller"
#define AIR 2
enum { DONE = 1, NEXT = 2 };

static rid_t id[2]; /* the region whose server ends, and a second one */
static int oam;

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
  if (oam)
    CHECK(cm_call_how(a, TOS_CM_WRITE, add_or_exit, 7, &how) == 12 && how == TOS_CM_DONE,
          "air: the same region after (how %d)", how);
  CHECK(cm_call_how(b, TOS_CM_WRITE, add_or_exit, 7, &how) == 7 && how == TOS_CM_DONE, "air: the new server (how %d)",
        how);
  printf("%s: the caller was told ENOENT; the next server answered\n", ME);
  CHECK(send_block(DONE, &one, sizeof one) == 0, "air: done");
  exit(0);
}

int main(int argc, char **argv) {
  oam = argc > 1 && strcmp(argv[1], "oam") == 0;
  for (int k = 0; k < 2; ++k) {
    id[k] = rgn_create(32);
    void *r = id[k] ? rgn_map(id[k]) : NULL;
    CHECK(r && rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "region %d: %s", k, tos_strerror(tos_errno));
  }
  cm_oam(oam);
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, NULL), "client on air");
  int one = 0;
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's failed call");
  void *a = rgn_map(id[0]);
  long handlers = rgn_count(a, TOS_CM_COUNT_OAM), aborted = rgn_count(a, TOS_CM_COUNT_ABORT_CALL);
  CHECK(handlers == oam && aborted == oam, "handlers that completed %ld, aborted on a call %ld", handlers, aborted);
  CHECK(cm_serve_start(4), "a second server: %s", tos_strerror(tos_errno));
  CHECK(send_block(NEXT, &one, sizeof one) == 0, "next");
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's end");
  cm_serve_stop();
  CHECK(wait() == 0, "the client or a server failed (its board's console says why)");
  if (oam) printf("%s: the continuation's server ended: %ld handler aborted on its call\n", ME, aborted);
  tos_pass(ME);
  return 0;
}
