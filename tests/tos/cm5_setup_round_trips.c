/* The CM-5's message limit (seed 003 4.2.1 and 7.3.1; kernel/region.c, short_msgs): an active
 * message there carries four words, and every migration request of the dynamic protocol is
 * longer, so each needed a set-up round trip first, during which the sender spun. A client on
 * air migrates writes to two regions homed here (policy RPC: always the computation): region A
 * mapped with the CM-5's limit on (cm_map after cm_short_messages(1)), region B without. Every
 * result is as without the limit; air's kernel counts exactly one set-up round trip per
 * migration of A and none for B (its end-of-run line, checked by the test). At the home, which
 * sends no migration request, the option changes nothing; a value other than 0 or 1 is refused.
 * Nothing leaks (ALL_FREE). */
#include <tos/region.h>
#include "tos_check.h"

#define ME "cm5_setup_round_trips"
#define AIR 2
#define N_A 5
#define N_B 3

#define DONE 1 /* air -> main: done */

long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);
static rid_t ida, idb;

static long add_fn(void *rgn, long arg) {
  long *v = rgn;
  return v[0] += arg;
}

static void client(void *unused) {
  (void)unused;
  cm_short_messages(1);
  long *a = cm_map(ida);
  cm_short_messages(0);
  long *b = cm_map(idb);
  CHECK(a && b, "air: cm_map: %s", tos_strerror(tos_errno));
  CHECK(__tos_syscall(SYS_RGN_POLICY, (long)b, 2, TOS_CM_SHORT_MESSAGES, 0, 0, 0) == -TOS_EINVAL,
        "air: the CM-5's limit set to 2");
  int how = 0;
  for (long i = 1; i <= N_A; ++i)
    CHECK(cm_call_how(a, TOS_CM_WRITE, add_fn, 10, &how) == 10 * i && how == TOS_CM_DONE,
          "air: region A's migration %ld (how %d)", i, how);
  for (long i = 1; i <= N_B; ++i)
    CHECK(cm_call_how(b, TOS_CM_WRITE, add_fn, 1, &how) == i && how == TOS_CM_DONE,
          "air: region B's migration %ld (how %d)", i, how);
  printf("%s: air migrated %d writes with set-ups and %d without\n", ME, N_A, N_B);
  int one = 1;
  CHECK(send_block(DONE, &one, sizeof one) == 0, "air: done");
  exit(0);
}

int main(void) {
  ida = rgn_create(32);
  idb = rgn_create(32);
  void *a = rgn_map(ida), *b = rgn_map(idb);
  CHECK(ida && idb && a && b, "rgn_create: %s", tos_strerror(tos_errno));
  CHECK(rgn_policy(a, TOS_CM_POLICY_RPC) == 0 && rgn_policy(b, TOS_CM_POLICY_RPC) == 0, "rgn_policy");
  CHECK(__tos_syscall(SYS_RGN_POLICY, (long)a, 1, TOS_CM_SHORT_MESSAGES, 0, 0, 0) == 0,
        "the CM-5's limit set at the home (where it changes nothing)");
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, NULL), "client on air");
  int one = 0;
  CHECK(receive(DONE, &one, sizeof one) == sizeof one, "the client's end");
  cm_serve_stop();
  CHECK(wait() == 0, "the client or the server failed (its board's console says why)");
  CHECK(rgn_delete(a) == 0 && rgn_delete(b) == 0, "rgn_delete");
  tos_pass(ME);
  return 0;
}
