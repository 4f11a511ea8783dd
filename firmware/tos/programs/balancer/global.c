/* The global scheduler's driver (seed 002 section 3): the balancer run with a gsched.h family
 * (-P rhodos-ip|rhodos-twin|rhodos-exit|dpvm, -n slave boards). No sampling: it acts on what the
 * REX managers send it (gs_serve; kernel/rex.c), in the order it came:
 *   a question (TOS_GS_ASK): the family places the process and the board is the answer;
 *   CREATED: the placed process's thread, now made on its board: the scheduler's to count and
 *     move (other threads, shells and the master process, it never hears of);
 *   TWIN: a twin, counted on its board, which may migrate it;
 *   EXIT: one of its processes ended, on the board named (wherever it had moved).
 * A move is TOS's thread migration of the process's one thread (migrate(): the request goes to
 * the thread's board, whose kernel moves it if it may, and answers); a move refused (the thread
 * was not ready: blocked in a receive, say) is tried again each time round until it is made or
 * the process ends. The monitor is still drained (and recorded with -r), but nothing here is
 * decided from it. Each decision is logged; the end line has the counts. */
#include <stdio.h>
#include "balancer.h"
#include "gsched.h"

#define MANAGED 64
static struct {
  int tid, board, to; /* to: where a move was ordered and refused, to ask again (0: none) */
} procs_[MANAGED];

static int find(int tid) {
  for (int i = 0; i < MANAGED; ++i)
    if (procs_[i].tid == tid) return i;
  return -1;
}

static int add(int tid, int board) {
  for (int i = 0; i < MANAGED; ++i)
    if (!procs_[i].tid) {
      procs_[i].tid = tid;
      procs_[i].board = board;
      procs_[i].to = 0;
      return i;
    }
  return -1;
}

/* A process on `from` to move: the newest there not already moving. */
static int pick(int from) {
  for (int i = MANAGED - 1; i >= 0; --i)
    if (procs_[i].tid && procs_[i].board == from && !procs_[i].to) return i;
  return -1;
}

static long refused, retried_ok, unmanaged_lost;
static unsigned long t0;
static unsigned long ms(void) { return (time_us() - t0) / 1000; }

static void order(int i, int to, void (*out)(const char *, ...)) {
  int again = procs_[i].to != 0; /* refused before */
  if (migrate(procs_[i].tid, to) < 0) {
    if (!again) ++refused;
    procs_[i].to = to;
    return;
  }
  if (again) ++retried_ok;
  out("gs: %lu ms: 0x%x leaves %d for %d\n", ms(), procs_[i].tid, procs_[i].board, to);
  procs_[i].board = to; /* (migrate's 0: it has left for `to`) */
  procs_[i].to = 0;
}

/* A process the scheduler now counts (CREATED, TWIN): 1, or 0 when the table is full. */
static int follow(int tid, int board, int *seen, int *live) {
  if (find(tid) >= 0) return 1;
  if (add(tid, board) < 0) {
    ++unmanaged_lost;
    return 0;
  }
  ++*seen;
  ++*live;
  return 1;
}

int global_run(int family, int boards, int gap, long duration_ms, long quiet_ms, void (*out)(const char *, ...)) {
  struct gs g;
  if (gs_init(&g, family, boards) < 0) return 2;
  g.gap = gap;
  assessor_init(1);
  uint32_t q[8];
  if (gs_serve(q, 0) < 0) { /* the scheduler from now on */
    out("balancer: cannot serve as the global scheduler: %s\n", tos_strerror(tos_errno));
    return 2;
  }
  out("balancer: global scheduler %s on boards 1..%d, event-driven by the REX managers' notes, load gap %d\n",
      gs_family_name(family), boards, gap);
  unsigned long idle_since = 0;
  t0 = time_us();
  int seen = 0, live = 0;
  for (;;) {
    int n = gs_serve(q, 8);
    for (int k = 0; k < n; ++k) {
      int kind = (int)(q[k] >> TOS_GS_KIND_SHIFT), board = (int)(q[k] >> TOS_GS_BOARD_SHIFT & 0xFF);
      int tid = (int)(q[k] & 0xFFFF), i = find(tid);
      struct gs_move m;
      if (kind == TOS_GS_ASK) {
        int b = gs_place(&g);
        gs_answer(board, tid, b);
        out("gs: %lu ms: create for 0x%x of %d: board %d\n", ms(), tid, board, b);
      } else if (kind == TOS_GS_CREATED) {
        follow(tid, board, &seen, &live);
      } else if (kind == TOS_GS_TWIN) {
        if (!follow(tid, board, &seen, &live)) continue;
        out("gs: %lu ms: twin 0x%x on %d\n", ms(), tid, board);
        if (gs_on_twin(&g, board, &m)) order(find(tid), m.to, out);
      } else if (kind == TOS_GS_EXIT && i >= 0) {
        if (procs_[i].to) gs_on_moved(&g, procs_[i].to, procs_[i].board); /* the move never happened */
        if (procs_[i].board != board) gs_on_moved(&g, procs_[i].board, board); /* moved by someone else */
        procs_[i].tid = 0;
        --live;
        out("gs: %lu ms: exit 0x%x on %d\n", ms(), tid, board);
        if (gs_on_exit(&g, board, &m)) {
          int j = pick(m.from);
          if (j >= 0) order(j, m.to, out);
          else gs_on_moved(&g, m.to, m.from); /* nothing to move after all */
        }
      }
    }
    assessor_drain(); /* (the monitor: recorded with -r, not read) */
    for (int i = 0; i < MANAGED; ++i) /* refused moves: again */
      if (procs_[i].tid && procs_[i].to) order(i, procs_[i].to, out);
    unsigned long now = (time_us() - t0) / 1000;
    if (duration_ms && now >= (unsigned long)duration_ms) break;
    if (seen && live == 0) {
      if (!idle_since) idle_since = now + 1;
      if (quiet_ms && now + 1 - idle_since >= (unsigned long)quiet_ms) break;
    } else {
      idle_since = 0;
    }
    yield();
  }
  out("balancer: %s: placed %ld, twins %ld, exits %ld, moves %ld (refused at first %ld, made later %ld); "
      "processes not followed %ld (the table of %d was full)\n",
      gs_family_name(family), g.placed, g.twins, g.exits, g.moves, refused, retried_ok, unmanaged_lost, MANAGED);
  return 0;
}
