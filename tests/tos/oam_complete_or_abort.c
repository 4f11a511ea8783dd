/* Optimistic active messages (seed 003 6.2.3; kernel/region.c): a computation migrated to its
 * region's home runs there on its arrival, without a thread, and is aborted to the home's server
 * thread -- which runs it from its start -- when it would block or runs long. A client on air
 * migrates computations to a region homed here (policy RPC: always the computation); after each
 * one the home's counts of completed and aborted handlers, by cause, are exactly as expected:
 *   - a write and a read that complete as handlers;
 *   - a write while fire holds the region's only copy (it wrote it by data migration): the home
 *     cannot start the access without a recall, which blocks: aborted (region busy);
 *   - a write that increments the region and then computes for far longer than the budget
 *     (TOS_OAM_BUDGET_US): aborted (budget); it continues in the server thread, so the increment
 *     is done once (a rerun from the start would do it twice);
 *   - a write that makes a system call: aborted (call); the call is made in the server thread
 *     that continues it, at the home.
 * With "off" the same computations run in the server thread: every result the same, the handler
 * counts all 0. Frames and TCBs on this board are back to their start at the end (the handler
 * stack goes with the servers), and every board's at the run's end (ALL_FREE). */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define ME "oam_complete_or_abort"
#define AIR 2
#define FIRE 3
#define CMD 1   /* +board: main -> the client there */
#define REPLY 8 /* +board: its answers */
#define LONG_ITERS 20000 /* ~100 ms of a 68010: a hundred budgets */

enum { OP_CM, OP_WRITE, OP_QUIT };
enum { F_ADD, F_READ, F_LONG, F_CALL };
struct cmd {
  int op, fn, mode;
  long arg;
};
struct reply {
  long result;
  int how;
};
static rid_t id;

static long add_fn(void *rgn, long arg) {
  long *v = rgn;
  return v[0] += arg;
}
static long read_fn(void *rgn, long arg) { return ((long *)rgn)[0] + arg; }
static long long_fn(void *rgn, long arg) {
  long *v = rgn;
  long r = ++v[0];
  for (volatile long i = 0; i < arg; ++i) {
  }
  return r;
}
static long call_fn(void *rgn, long arg) { /* the board it ran on, from a system call */
  long *v = rgn;
  v[0] += arg;
  return v[0] + 1000 * (long)HERE;
}
static const cm_fn fns[] = {add_fn, read_fn, long_fn, call_fn};

static void client(void *arg) {
  int me = (int)(long)arg;
  long *r = rgn_map(id);
  CHECK(r, "board %d: rgn_map: %s", me, tos_strerror(tos_errno));
  for (;;) {
    struct cmd c;
    CHECK(receive(CMD + me, &c, sizeof c) == sizeof c, "board %d: receive", me);
    struct reply a = {0, 0};
    if (c.op == OP_QUIT) break;
    if (c.op == OP_CM) {
      a.result = cm_call_how(r, c.mode, fns[c.fn], c.arg, &a.how);
    } else { /* data migration: this board's copy becomes the only one */
      CHECK(rgn_start_write(r) == 0, "board %d: start_write: %s", me, tos_strerror(tos_errno));
      a.result = r[0] += c.arg;
      rgn_end_write(r);
    }
    CHECK(send_block(REPLY + me, &a, sizeof a) == 0, "board %d: send", me);
  }
  exit(0);
}

static long ask(int board, int op, int fn, int mode, long arg, int *how) {
  struct cmd c = {op, fn, mode, arg};
  struct reply a;
  CHECK(send_block(CMD + board, &c, sizeof c) == 0, "send to board %d", board);
  CHECK(receive(REPLY + board, &a, sizeof a) == sizeof a, "receive from board %d", board);
  if (how) *how = a.how;
  return a.result;
}

/* The home's counts: completed handlers and aborts by cause (busy, page, budget, call). */
static void counts(void *r, int on, const char *after, long done, long busy, long budget, long call) {
  long got[5] = {rgn_count(r, TOS_CM_COUNT_OAM), rgn_count(r, TOS_CM_COUNT_ABORT_BUSY),
                 rgn_count(r, TOS_CM_COUNT_ABORT_BUDGET), rgn_count(r, TOS_CM_COUNT_ABORT_CALL),
                 rgn_count(r, TOS_CM_COUNT_ABORT_PAGE)};
  long want[5] = {on ? done : 0, on ? busy : 0, on ? budget : 0, on ? call : 0, 0};
  for (int i = 0; i < 5; ++i)
    CHECK(got[i] == want[i], "after %s: count %d (completed, busy, budget, call, page) is %ld, not %ld", after, i,
          got[i], want[i]);
  printf("%s: after %s: %ld completed, aborted %ld busy, %ld budget, %ld call\n", ME, after, got[0], got[1], got[2],
         got[3]);
}

static long home_value(void *r) {
  CHECK(rgn_start_read(r) == 0, "home start_read: %s", tos_strerror(tos_errno));
  long v = ((long *)r)[0];
  rgn_end_read(r);
  return v;
}

int main(int argc, char **argv) {
  int on = !(argc > 1 && !strcmp(argv[1], "off"));
  printf("%s: optimistic active messages %s\n", ME, on ? "on" : "off");
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES), tcbs0 = tos_info(TOS_INFO_FREE_TCBS);
  cm_oam(on);
  id = rgn_create(64);
  void *r = rgn_map(id);
  CHECK(id && r, "rgn_create: %s", tos_strerror(tos_errno));
  CHECK(rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "rgn_policy");
  CHECK(cm_serve_start(4), "cm_serve_start: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, (void *)(long)AIR), "client on air");
  CHECK(create(FIRE, 4, FIRE, client, (void *)(long)FIRE), "client on fire");
  int how = 0;

  long v = ask(AIR, OP_CM, F_ADD, TOS_CM_WRITE, 5, &how);
  CHECK(v == 5 && how == TOS_CM_DONE, "write: %ld (how %d)", v, how);
  counts(r, on, "a write", 1, 0, 0, 0);
  v = ask(AIR, OP_CM, F_READ, TOS_CM_READ, 1, &how);
  CHECK(v == 6 && how == TOS_CM_DONE, "read: %ld (how %d)", v, how);
  counts(r, on, "a read", 2, 0, 0, 0);

  CHECK(ask(FIRE, OP_WRITE, 0, 0, 10, NULL) == 15, "fire's write");
  v = ask(AIR, OP_CM, F_ADD, TOS_CM_WRITE, 7, &how);
  CHECK(v == 22 && how == TOS_CM_DONE, "write with fire's copy: %ld (how %d)", v, how);
  counts(r, on, "a write while fire held the copy", 2, 1, 0, 0);

  v = ask(AIR, OP_CM, F_LONG, TOS_CM_WRITE, LONG_ITERS, &how);
  CHECK(v == 23 && how == TOS_CM_DONE, "long write: %ld (how %d)", v, how);
  CHECK(home_value(r) == 23, "the long write's increment is not once: %ld", home_value(r));
  counts(r, on, "a long write", 2, 1, 1, 0);

  v = ask(AIR, OP_CM, F_CALL, TOS_CM_WRITE, 2, &how);
  CHECK(v == 1025 && how == TOS_CM_DONE, "write with a call: %ld (how %d)", v, how);
  counts(r, on, "a write with a call", 2, 1, 1, 1);

  v = ask(AIR, OP_CM, F_ADD, TOS_CM_WRITE, 1, &how);
  CHECK(v == 26 && how == TOS_CM_DONE, "last write: %ld (how %d)", v, how);
  counts(r, on, "a last write", 3, 1, 1, 1);

  struct cmd quit = {OP_QUIT, 0, 0, 0};
  CHECK(send_block(CMD + AIR, &quit, sizeof quit) == 0 && send_block(CMD + FIRE, &quit, sizeof quit) == 0, "quit");
  cm_serve_stop();
  CHECK(wait() == 0, "a client or the server failed (its board's console says why)");
  CHECK(rgn_delete(r) == 0, "rgn_delete");
  long frames1 = tos_info(TOS_INFO_FREE_FRAMES), tcbs1 = tos_info(TOS_INFO_FREE_TCBS);
  CHECK(frames1 == frames0 && tcbs1 == tcbs0, "frames free %ld -> %ld, TCBs free %ld -> %ld", frames0, frames1, tcbs0,
        tcbs1);
  tos_pass(ME);
  return 0;
}
