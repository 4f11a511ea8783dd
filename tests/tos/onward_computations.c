/* A migrated computation goes on from home to home (cm_onward; seed 003 7.3.1, the counting
 * network's computation moving from balancer to balancer; kernel/region.c RGN_CM_FWD), run as
 * optimistic active messages as the seed ran them. Three regions, A homed on air, B on fire, C on
 * water (policy RPC: always the computation); air's kernel has mapped B with the CM-5's message
 * limit, fire has mapped C without it. A client on space calls A: A's step goes on to B, B's to
 * C, and C's result is what the client's cm_call returns, sent to space by water.
 *  - Each result is exactly the chain's (A, B and C each written once a call, in that order).
 *  - Inside a computation: a bad mode is EINVAL, a region not mapped on the board ENOENT (A's
 *    step asks for C, which air has not mapped), a second step onward EBUSY (B's). Outside one
 *    (the client's own thread) the call is EINVAL.
 *  - Every step that goes on makes a system call, so none of A's and B's computations completes as
 *    a handler: each is aborted once (its cause counted); C's complete or abort, once each.
 *  - air's kernel counts one set-up round trip per step to B, and sends as many onward (its
 *    end-of-run line, checked by the test); none is lost.
 * Nothing leaks (ALL_FREE). */
#include <tos/region.h>
#include "tos_check.h"

#define ME "onward_computations"
#define N 6
#define CLIENT_BOARD 5 /* space */

enum { READY = 1, GO = 4, MAPPED = 7, STOP = 10, COUNTED = 13, DONE = 16 }; /* + the home (0..2) */

long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);
struct cell {
  long v, bad_mode, unmapped, second;
};
static volatile rid_t id[3];
static volatile long counts[3][2]; /* each home's: completed as handlers, aborted (any cause) */

static long step_c(void *rgn, long arg) {
  struct cell *c = rgn;
  c->v += 100;
  return c->v * 1000 + arg;
}
static long step_b(void *rgn, long arg) {
  struct cell *c = rgn;
  c->v += 10;
  if (cm_onward(id[2], TOS_CM_WRITE, step_c, arg) < 0) return -1;
  c->second = cm_onward(id[2], TOS_CM_WRITE, step_c, arg) < 0 ? tos_errno : 0;
  return -2; /* (dropped: the result comes from C) */
}
static long step_a(void *rgn, long arg) {
  struct cell *c = rgn;
  c->v += 1;
  c->bad_mode = cm_onward(id[1], 7, step_b, arg) < 0 ? tos_errno : 0;
  c->unmapped = cm_onward(id[2], TOS_CM_WRITE, step_c, arg) < 0 ? tos_errno : 0;
  if (cm_onward(id[1], TOS_CM_WRITE, step_b, arg) < 0) return -1;
  return -3;
}

/* Home k (air, fire, water): its region, the next region mapped here, then the counts (its server
 * is made by main: only the process's home gives thread slots). */
static void home(void *arg) {
  int k = (int)arg, x;
  id[k] = rgn_create(sizeof(struct cell));
  struct cell *c = rgn_map(id[k]);
  CHECK(id[k] && c && rgn_policy(c, TOS_CM_POLICY_RPC) == 0, "home %d: its region: %s", k, tos_strerror(tos_errno));
  CHECK(send_block(READY + k, &k, sizeof k) == 0 && receive(GO + k, &x, sizeof x) == sizeof x, "home %d: go", k);
  if (k < 2) {
    void *next = rgn_map(id[k + 1]);
    CHECK(next, "home %d: rgn_map of the next region: %s", k, tos_strerror(tos_errno));
    if (k == 0)
      CHECK(__tos_syscall(SYS_RGN_POLICY, (long)next, 1, TOS_CM_SHORT_MESSAGES, 0, 0, 0) == 0, "air: the CM-5's limit");
  }
  CHECK(send_block(MAPPED + k, &k, sizeof k) == 0 && receive(STOP + k, &x, sizeof x) == sizeof x, "home %d: stop", k);
  cm_serve_stop(); /* (its server is main's child: main waits for it) */
  long aborted = 0;
  for (int w = TOS_CM_COUNT_ABORT_BUSY; w <= TOS_CM_COUNT_ABORT_CALL; ++w) aborted += rgn_count(c, w);
  counts[k][0] = rgn_count(c, TOS_CM_COUNT_OAM);
  counts[k][1] = aborted;
  CHECK(send_block(COUNTED + k, &k, sizeof k) == 0, "home %d: counted", k);
  exit(0);
}

static void client(void *unused) {
  (void)unused;
  struct cell *a = rgn_map(id[0]), *b = rgn_map(id[1]), *c = rgn_map(id[2]);
  CHECK(a && b && c, "space: rgn_map: %s", tos_strerror(tos_errno));
  CHECK(cm_onward(id[0], TOS_CM_WRITE, step_a, 0) < 0 && tos_errno == TOS_EINVAL,
        "space: onward from a thread that runs no migrated computation");
  int how = 0;
  for (long i = 1; i <= N; ++i) {
    long got = cm_call_how(a, TOS_CM_WRITE, step_a, i, &how);
    CHECK(got == 100 * i * 1000 + i && how == TOS_CM_DONE, "space: call %ld: %ld (how %d)", i, got, how);
  }
  const struct cell *cell[3] = {a, b, c};
  struct cell v[3];
  for (int k = 0; k < 3; ++k) { /* (read copies: the homes send the data) */
    CHECK(rgn_start_read((void *)cell[k]) == 0, "space: read %d", k);
    v[k] = *cell[k];
    rgn_end_read((void *)cell[k]);
  }
  CHECK(v[0].v == N && v[1].v == 10 * N && v[2].v == 100 * N, "space: the regions %ld %ld %ld", v[0].v, v[1].v, v[2].v);
  CHECK(v[0].bad_mode == TOS_EINVAL, "air: onward with a bad mode: %ld", v[0].bad_mode);
  CHECK(v[0].unmapped == TOS_ENOENT, "air: onward to a region not mapped there: %ld", v[0].unmapped);
  CHECK(v[1].second == TOS_EBUSY, "fire: a second step onward: %ld", v[1].second);
  printf("%s: %d calls went from air to fire to water and back to space\n", ME, N);
  int one = 1;
  CHECK(send_block(DONE, &one, sizeof one) == 0, "space: done");
  exit(0);
}

int main(void) {
  cm_oam(1); /* (before the servers start) */
  for (int k = 0; k < 3; ++k)
    CHECK(create(k, 4, 2 + k, home, (void *)k) && cm_serve_start_on(2 + k, 4), "home %d: %s", k, tos_strerror(tos_errno));
  int x;
  for (int k = 0; k < 3; ++k) CHECK(receive(READY + k, &x, sizeof x) == sizeof x, "ready %d", k);
  for (int k = 0; k < 3; ++k) CHECK(send_block(GO + k, &k, sizeof k) == 0, "go %d", k);
  for (int k = 0; k < 3; ++k) CHECK(receive(MAPPED + k, &x, sizeof x) == sizeof x, "mapped %d", k);
  CHECK(create(3, 4, CLIENT_BOARD, client, NULL), "client on space");
  CHECK(receive(DONE, &x, sizeof x) == sizeof x, "the client's end");
  for (int k = 0; k < 3; ++k) CHECK(send_block(STOP + k, &k, sizeof k) == 0, "stop %d", k);
  for (int k = 0; k < 3; ++k) CHECK(receive(COUNTED + k, &x, sizeof x) == sizeof x, "counted %d", k);
  CHECK(wait() == 0, "a home or the client failed (its board's console says why)");
  CHECK(counts[0][0] == 0 && counts[0][1] == N && counts[1][0] == 0 && counts[1][1] == N,
        "every step onward aborts its handler once: air %ld completed %ld aborted, fire %ld completed %ld aborted",
        counts[0][0], counts[0][1], counts[1][0], counts[1][1]);
  CHECK(counts[2][0] + counts[2][1] == N, "water: %ld completed, %ld aborted", counts[2][0], counts[2][1]);
  printf("%s: handlers: air %ld aborted, fire %ld aborted, water %ld completed and %ld aborted\n", ME, counts[0][1],
         counts[1][1], counts[2][0], counts[2][1]);
  tos_pass(ME);
  return 0;
}
