/* Routing tables kept by the master (seed 001, DynamicPVM: section 3.4 and Figure 2).
 *
 * The seed virtualizes task ids: every pvmd keeps a table of where the migrated tasks are; after
 * a move the master pvmd updates its own table and broadcasts the change to the others, and
 * every inter-task message is routed by the sender's table. Here a task is a thread, a tid its
 * TOS TID (it names the home board, as a PVM tid names the host that enrolled the task), and
 * each board keeps the table in its part of the process (route[], route_seq[]):
 *
 *   - the home is where every placement is first known (a thread created on another board, or a
 *     thread's arrival after a migration: NET_MOVED, migrate.c); it numbers the placements of
 *     each slot (route_seq) and tells the master (NET_ROUTE_MOVED), with the boards that have
 *     held a part of the process;
 *   - the master keeps the table of each such job (jobs[]) and sends the change to every one of
 *     those boards (NET_ROUTE); the board the thread is now on gets the whole table, since its
 *     part may be new;
 *   - psend (chan.c) asks the sender's table where the receiver is (rchan.c sends the focus
 *     there); a board the receiver has left forwards the focus after it (gone[], or the home,
 *     which always knows) and counts it: a stale entry costs a hop, never a message.
 *
 * Every routing message is hostile until checked where it is used: an update is taken only from
 * the master, a placement only from the job's home; boards, slots and processes in range; an
 * update for a job with no part here refused; an update older than the entry it would replace
 * ignored (counted). */
#include "defs.h"

static uint32_t n_updates, n_refused, n_stale, n_old;

void route_stale(void) { ++n_stale; }

static int refuse(uint32_t from, uint32_t type, const char *why, uint32_t v) {
  ++n_refused;
  return net_bad(from, type, why, v);
}

uint32_t route_lookup(const struct proc *p, uint32_t slot) {
  if (slot < TOS_MAX_THREADS && p->route[slot]) return p->route[slot] - 1u;
  return p->home_board;
}

/* A routed token for thread `slot`, which is not here: the board it should go on to (a board it
 * left from here, else the home; at the home, the board it is on), or -1: nowhere known (the
 * token is kept, as an unrouted one is). */
int route_forward_to(const struct proc *p, uint32_t slot) {
  if (slot >= TOS_MAX_THREADS) return -1;
  if (p->guest) return p->gone[slot] ? (int)p->gone[slot] - 1 : (int)p->home_board;
  if (p->remote_mask[slot / 32] >> (slot % 32) & 1) return p->where[slot] != net_me() ? (int)p->where[slot] : -1;
  return -1;
}

static void apply(struct proc *p, uint32_t slot, uint32_t board, uint32_t seq) {
  if (p->route[slot] && (int16_t)(seq - p->route_seq[slot]) <= 0) {
    ++n_old;
    return;
  }
  p->route[slot] = (uint8_t)(board + 1);
  p->route_seq[slot] = (uint16_t)seq;
  ++n_updates;
}

/* ---- the master's tables ---- */
#define JOBS 16
static struct job {
  uint8_t used, hb, hp;
  uint32_t hs;
  uint8_t route[TOS_MAX_THREADS];
  uint16_t seq[TOS_MAX_THREADS];
} jobs[JOBS];
static int next_job;

static struct job *job_of(uint32_t hb, uint32_t hp, uint32_t hs) {
  for (int i = 0; i < JOBS; ++i)
    if (jobs[i].used && jobs[i].hb == hb && jobs[i].hp == hp && jobs[i].hs == hs) return &jobs[i];
  int k = -1;
  for (int i = 0; i < JOBS && k < 0; ++i)
    if (!jobs[i].used) k = i;
  if (k < 0) { /* full: the oldest job's table goes (its boards keep theirs) */
    k = next_job;
    next_job = (next_job + 1) % JOBS;
  }
  struct job *j = &jobs[k];
  memset(j, 0, sizeof *j);
  j->used = 1;
  j->hb = (uint8_t)hb;
  j->hp = (uint8_t)hp;
  j->hs = hs;
  return j;
}

static void send_entry(uint32_t dest, const struct job *j, uint32_t slot) {
  uint32_t o[6] = {j->hb, j->hp, j->hs, slot, j->route[slot] - 1u, j->seq[slot]};
  if (dest == net_me()) {
    struct proc *p = proc_by_gpid(j->hb, j->hp, j->hs);
    if (p) apply(p, slot, o[4], o[5]);
    return;
  }
  net_send_wait(dest, NET_ROUTE, o, 6);
}

/* The master: the home of a job says where one of its threads now is. */
static void on_route_moved(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (net_me() != NET_MASTER) return (void)refuse(from, NET_ROUTE_MOVED, "a placement sent to a board not the master, home", o[0]);
  if (o[0] >= nboards || o[0] != from) return (void)refuse(from, NET_ROUTE_MOVED, "a placement not from the job's home, home", o[0]);
  if (o[1] >= TOS_MAX_PROCESSES) return (void)refuse(from, NET_ROUTE_MOVED, "process", o[1]);
  if (o[3] >= TOS_MAX_THREADS) return (void)refuse(from, NET_ROUTE_MOVED, "thread slot", o[3]);
  if (o[4] >= nboards) return (void)refuse(from, NET_ROUTE_MOVED, "board", o[4]);
  for (uint32_t b = nboards; b < 64; ++b)
    if (o[6 + b / 32] >> (b % 32) & 1) return (void)refuse(from, NET_ROUTE_MOVED, "boards mask: no such board", b);
  struct job *j = job_of(o[0], o[1], o[2]);
  uint32_t slot = o[3];
  if (j->route[slot] && (int16_t)(o[5] - j->seq[slot]) <= 0) {
    ++n_old;
    return;
  }
  j->route[slot] = (uint8_t)(o[4] + 1);
  j->seq[slot] = (uint16_t)o[5];
  for (uint32_t b = 0; b < nboards; ++b) {
    if (!(o[6 + b / 32] >> (b % 32) & 1) || b == o[0]) continue; /* the home knows: it said so */
    if (b == o[4]) { /* the thread's board: its part may be new, so the whole table */
      for (uint32_t s = 0; s < TOS_MAX_THREADS; ++s)
        if (j->route[s]) send_entry(b, j, s);
    } else {
      send_entry(b, j, slot);
    }
  }
}

/* Every board: the master's update of a job's table. */
static void on_route(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (from != NET_MASTER) return (void)refuse(from, NET_ROUTE, "a routing update not from the master, home", o[0]);
  if (o[0] >= nboards) return (void)refuse(from, NET_ROUTE, "home board", o[0]);
  if (o[1] >= TOS_MAX_PROCESSES) return (void)refuse(from, NET_ROUTE, "process", o[1]);
  if (o[3] >= TOS_MAX_THREADS) return (void)refuse(from, NET_ROUTE, "thread slot", o[3]);
  if (o[4] >= nboards) return (void)refuse(from, NET_ROUTE, "board", o[4]);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p) return (void)refuse(from, NET_ROUTE, "a routing update for a job with no part here, process", o[1]);
  apply(p, o[3], o[4], o[5]);
}

/* The home: thread `slot` is now on `board` (created there, or arrived there). */
void route_placed(struct proc *p, uint32_t slot, uint32_t board) {
  if (p->guest || slot >= TOS_MAX_THREADS || board >= nboards) return;
  uint32_t seq = (uint16_t)(p->route_seq[slot] + 1);
  p->route[slot] = (uint8_t)(board + 1);
  p->route_seq[slot] = (uint16_t)seq;
  p->route_boards[board / 32] |= 1u << (board % 32);
  if (!(p->route_boards[0] & ~(1u << net_me() % 32) || p->route_boards[1])) return; /* only here */
  uint32_t o[8] = {p->home_board, p->home_pid, p->home_serial, slot, board, seq, p->route_boards[0], p->route_boards[1]};
  if (net_me() == NET_MASTER) on_route_moved(net_me(), o, 8);
  else net_send_wait(NET_MASTER, NET_ROUTE_MOVED, o, 8);
}

/* route_info(what, tid) */
SYSCALL(route_info) {
  struct proc *p = t->proc;
  switch (a1) {
  case TOS_ROUTE_BOARD: {
    uint32_t tid = a2, slot = tid & (TOS_MAX_THREADS - 1);
    if (!tid_of(tid, p->home_board, p->home_pid)) return -TOS_EINVAL;
    return (int32_t)route_lookup(p, slot);
  }
  case TOS_ROUTE_UPDATES: return (int32_t)n_updates;
  case TOS_ROUTE_REFUSED: return (int32_t)n_refused;
  case TOS_ROUTE_STALE: return (int32_t)n_stale;
  case TOS_ROUTE_OLD: return (int32_t)n_old;
  default: return -TOS_EINVAL;
  }
}

void route_init(void) {
  net_register(NET_ROUTE_MOVED, on_route_moved, 8);
  net_register(NET_ROUTE, on_route, 6);
}
