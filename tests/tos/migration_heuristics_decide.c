/* The home decides each migratable access by the region's policy (seed 003 section 3.3), on
 * scripted access patterns from other boards: DATA always sends the data (the access then runs
 * on the caller's board, and later reads there are hits); RPC always runs the computation at the
 * home; STATIC runs writes at the home and sends the data for reads; REPEAT runs writes at the
 * home and, after a write, runs reads at the home until some board asks to read twice with no
 * write between, and from then on sends the data until the next write. Each step checks how the
 * access was done (cm_call's `how`), its result, and the home's decision counts. */
#include <tos/region.h>
#include "tos_check.h"

enum { L = TOS_CM_LOCAL, D = TOS_CM_STARTED, C = TOS_CM_DONE };
struct step {
  int board, mode, how;
};
static rid_t id;
static void *home_rgn;
static const struct step *script;
static int nsteps, cursor;

static long increment(void *rgn, long by) { return ((long *)rgn)[0] += by; }
static long get(void *rgn, long unused) {
  (void)unused;
  return ((long *)rgn)[0];
}

/* The shared counter's value after each write: writes add 1. */
static long expected;

static void one(void *arg) {
  const struct step *s = arg;
  long *r = rgn_map(id);
  CHECK(r, "rgn_map: %s", tos_strerror(tos_errno));
  int how = 0;
  long v = s->mode == TOS_CM_WRITE ? cm_call_how(r, TOS_CM_WRITE, increment, 1, &how)
                                   : cm_call_how(r, TOS_CM_READ, get, 0, &how);
  CHECK(how == s->how, "step %d on board %d (%s): done as %d, the policy says %d", cursor, s->board,
        s->mode == TOS_CM_WRITE ? "write" : "read", how, s->how);
  CHECK(v == expected, "step %d on board %d: result %ld, expected %ld", cursor, s->board, v, expected);
  exit(0);
}

static void run(const char *name, int policy, const struct step *steps, int n, int n_data, int n_compute) {
  CHECK(rgn_policy(home_rgn, policy) == 0, "rgn_policy");
  long d0 = rgn_count(home_rgn, TOS_CM_COUNT_DATA), c0 = rgn_count(home_rgn, TOS_CM_COUNT_COMPUTE);
  /* every copy elsewhere goes: the home writes (invalidating them all) */
  rgn_start_write(home_rgn);
  rgn_end_write(home_rgn);
  script = steps;
  nsteps = n;
  for (cursor = 0; cursor < n; ++cursor) {
    if (steps[cursor].mode == TOS_CM_WRITE) ++expected;
    CHECK(create(cursor, 4, steps[cursor].board, one, (void *)&steps[cursor]), "create");
    CHECK(wait() == 0, "%s: step %d failed (board %d's console says why)", name, cursor, steps[cursor].board);
  }
  long dd = rgn_count(home_rgn, TOS_CM_COUNT_DATA) - d0, dc = rgn_count(home_rgn, TOS_CM_COUNT_COMPUTE) - c0;
  CHECK(dd == n_data && dc == n_compute, "%s: the home decided data %ld and computation %ld times, expected %d and %d",
        name, dd, dc, n_data, n_compute);
  printf("heuristics: %s: %d accesses, data %ld, computation %ld\n", name, n, dd, dc);
}

#define R TOS_CM_READ
#define W TOS_CM_WRITE
static const struct step data_steps[] = {{2, R, D}, {2, R, L}, {3, W, D}, {2, R, D}, {2, W, D}, {2, W, L}};
static const struct step rpc_steps[] = {{2, R, C}, {2, R, C}, {3, W, C}, {2, W, C}, {1, R, L}};
static const struct step static_steps[] = {{2, W, C}, {2, R, D}, {2, R, L}, {3, R, D}, {3, W, C}, {2, R, D}, {1, W, L}};
static const struct step repeat_steps[] = {
    {2, W, C}, /* a write: at the home */
    {2, R, C}, /* after a write, reads at the home ... */
    {3, R, C},
    {2, R, D}, /* ... until air reads twice with no write between: the data */
    {2, R, L}, /* a hit */
    {3, R, D}, /* data for every reader now */
    {4, W, C}, /* a write: back to computation for reads */
    {3, R, C}, {3, R, D}, {3, R, L}, {1, R, L}};
#define N(a) (int)(sizeof a / sizeof a[0])

/* The steps run from a driver thread, whose children they are: main's children include the
 * server, which runs until cm_serve_stop. */
static void driver(void *unused) {
  (void)unused;
  CHECK(rgn_policy(home_rgn, 7) == -TOS_EINVAL, "no policy 7");
  run("DATA", TOS_CM_POLICY_DATA, data_steps, N(data_steps), 4, 0);
  run("RPC", TOS_CM_POLICY_RPC, rpc_steps, N(rpc_steps), 0, 4);
  run("STATIC", TOS_CM_POLICY_STATIC, static_steps, N(static_steps), 3, 2);
  run("REPEAT", TOS_CM_POLICY_REPEAT, repeat_steps, N(repeat_steps), 3, 5);
  cm_serve_stop();
  exit(0);
}

int main(void) {
  id = rgn_create(256);
  CHECK(id, "rgn_create: %s", tos_strerror(tos_errno));
  home_rgn = rgn_map(id);
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(99, 4, HERE, driver, NULL), "create the driver");
  CHECK(wait() == 0, "the driver or the server failed");
  tos_pass("migration_heuristics_decide");
  return 0;
}
