/* The global scheduler's driver (seed 002 section 3): the balancer run with a gsched.h family
 * (-P rhodos-ip|rhodos-twin|rhodos-exit|dpvm, -n slave boards). No sampling: it acts on
 *   a REX question (gs_serve): the family places the process and the board is the answer;
 *   THREAD_IN of a thread of the asking process on the board it was placed on: the process is
 *     the scheduler's (it counts and may move it); other threads (shells, the master process)
 *     are not;
 *   TWIN: a twin, counted on its board, which may migrate it;
 *   THREAD_OUT of one of its processes not being moved: the process ended (exit event);
 *   THREAD_IN of one being moved: it arrived.
 * A move is TOS's thread migration of the process's one thread (migrate(), routed to where it
 * is); a move refused (the thread was not ready: blocked in a receive, say) is tried again
 * each time round until it is made or the process ends. With class threads on every slave
 * (`dgl @* +threads`). Each decision is logged; the end line has the counts. */
#include <stdio.h>
#include "balancer.h"
#include "gsched.h"

#define MANAGED 64
static struct {
  int tid, board, to; /* to: a move ordered and not yet seen arriving (0: none) */
  int retry;          /* the move was refused: ask again */
} procs_[MANAGED];
#define PENDING 32
/* placed, not yet seen: key = TID >> 6 (+1) of the asking thread's process, which is never the
 * process placed: TOS makes the worker a thread of the asker's process, and the asker itself,
 * seen arriving on that board (a new run of the program, say), must not be taken for it and
 * moved away from the home it creates from */
static struct { int board, key, asker; } pending[PENDING];

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
      procs_[i].to = procs_[i].retry = 0;
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
  procs_[i].to = to;
  int r = migrate(procs_[i].tid, to);
  if (r < 0) {
    if (!procs_[i].retry) ++refused;
    procs_[i].retry = 1;
    return;
  }
  if (procs_[i].retry) ++retried_ok;
  procs_[i].retry = 0;
  out("gs: %lu ms: 0x%x leaves %d for %d\n", ms(), procs_[i].tid, procs_[i].board, to);
}

int global_run(int family, int boards, int gap, long duration_ms, long quiet_ms, void (*out)(const char *, ...)) {
  struct gs g;
  if (gs_init(&g, family, boards) < 0) return 2;
  g.gap = gap;
  assessor_init(1);
  assessor_keep_events();
  uint32_t q[8];
  if (gs_serve(q, 0) < 0) { /* the scheduler from now on */
    out("balancer: cannot serve as the global scheduler: %s\n", tos_strerror(tos_errno));
    return 2;
  }
  out("balancer: global scheduler %s on boards 1..%d, event-driven, load gap %d\n", gs_family_name(family), boards, gap);
  unsigned long idle_since = 0;
  t0 = time_us();
  int seen = 0, live = 0;
  for (;;) {
    int n = gs_serve(q, 8);
    for (int i = 0; i < n; ++i) {
      int from = (int)(q[i] >> 16), tid = (int)(q[i] & 0xFFFF), b = gs_place(&g);
      int k = 0;
      while (k < PENDING && pending[k].key) ++k;
      if (k < PENDING) {
        pending[k].board = b;
        pending[k].key = (tid >> 6) + 1;
        pending[k].asker = tid;
      }
      gs_answer(from, tid, b);
      out("gs: %lu ms: create for 0x%x of %d: board %d\n", ms(), tid, from, b);
    }
    assessor_drain();
    int code, board, tid;
    while (assessor_event(&code, &board, &tid)) {
      int i = find(tid);
      struct gs_move m;
      if (code == EV_TWIN) {
        if (i < 0) i = add(tid, board);
        if (i < 0) {
          ++unmanaged_lost;
          continue;
        }
        ++seen;
        ++live;
        out("gs: %lu ms: twin 0x%x on %d\n", ms(), tid, board);
        if (gs_on_twin(&g, board, &m)) order(i, m.to, out);
      } else if (code == EV_THREAD_IN) {
        if (i >= 0 && procs_[i].to == board) { /* arrived */
          procs_[i].board = board;
          procs_[i].to = 0;
          out("gs: %lu ms: 0x%x arrives at %d\n", ms(), tid, board);
          continue;
        }
        if (i >= 0) continue;
        for (int k = 0; k < PENDING; ++k)
          if (pending[k].key == (tid >> 6) + 1 && pending[k].board == board && pending[k].asker != tid) {
            pending[k].key = 0;
            if (add(tid, board) < 0) {
              ++unmanaged_lost;
            } else {
              ++seen;
              ++live;
            }
            break;
          }
      } else if (code == EV_THREAD_OUT && i >= 0 && (!procs_[i].to || procs_[i].retry)) { /* ended where it was */
        if (procs_[i].retry) gs_on_moved(&g, procs_[i].to, board); /* the move never happened */
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
    for (int i = 0; i < MANAGED; ++i) /* refused moves: again */
      if (procs_[i].tid && procs_[i].retry) order(i, procs_[i].to, out);
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
      "events lost %ld, processes not followed %ld\n",
      gs_family_name(family), g.placed, g.twins, g.exits, g.moves, refused, retried_ok, assessor_events_lost(),
      unmanaged_lost);
  return 0;
}
