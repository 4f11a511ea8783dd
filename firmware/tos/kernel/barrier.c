/* Barriers for the threads of a process on any boards, with seed 004's waiting algorithms
 * (Tsafrir 2001: block at once, spin, or two-phase: spin up to a limit, then block).
 *
 * The home board (where the process started) counts the arrivals: a thread there arrives in
 * its own system call, a thread on another board by a kernel message (NET_BAR_ARRIVE). At the
 * n-th arrival the home completes the barrier: its generation moves on, its own waiters are
 * released, and every other board that had an arrival in this generation is told
 * (NET_BAR_RELEASE), where the same happens. A board keeps, per barrier, the generations it has
 * seen complete; a waiter remembers the count when it arrived, so a spinner's test is one
 * comparison on its own board (barrier_poll: a trap that returns at once unless the main loop
 * has work, such as the release message that has just come in). A waiter that blocks (T_BARRIER)
 * is released with ready_woken(): the scheduler's wake-up placement (sched_wakeup) decides
 * where it goes, which seed 004's result rests on.
 *
 * Every arriving message is hostile: an arrival is taken only from the board the home knows the
 * arriving thread is on, for a barrier the process made, once per thread and generation; a
 * release only from the process's home, for a newer generation. Events (class barrier) let the
 * monitor count spins, their successes and blocks: the SSR. */
#include "defs.h"

struct barrier {
  uint32_t serial;     /* the process incarnation (proc.serial) it belongs to; another: unused */
  uint8_t made;        /* home: barrier_init made it */
  uint16_t n, count;   /* home: threads it waits for, arrivals in this generation */
  uint32_t gen;        /* completions seen on this board */
  uint32_t arrived[2]; /* home: thread slots that arrived in this generation */
  bset_t boards;       /* home: other boards with an arrival in this generation */
  uint16_t last_tid;   /* the thread whose arrival completed the newest generation */
};
static struct barrier bars[TOS_MAX_PROCESSES][TOS_MAX_BARRIERS];
_Static_assert(TOS_MAX_THREADS <= 64, "arrived[] holds a bit per thread slot");
#define BAR_MAX_BOARDS TOS_MAX_BOARDS /* `boards` is a bit per board */

/* The barrier record of process p on this board (cleared when p's slot has a new process). */
static struct barrier *bar_of(struct proc *p, uint32_t b) {
  struct barrier *x = &bars[p->pid][b];
  if (x->serial != p->serial) {
    memset(x, 0, sizeof *x);
    x->serial = p->serial;
  }
  return x;
}

/* The completed generation's blocked waiters here go on; spinners see the count change. */
static void release_here(struct proc *p, struct barrier *x, uint32_t b) {
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *w = p->slots[i];
    if (!w || w->state != T_BARRIER || w->bar_wait != b + 1 || w->bar_gen == x->gen) continue;
    w->bar_wait = 0;
    if (w->tid == x->last_tid) { /* off the home, the last arriver waited for its own arrival's news */
      w->ctx.regs[TCB_REGS_D0] = 3;
      EVENT2(DGL_BARRIER, EV_BAR_LAST, w->tid);
    } else {
      w->ctx.regs[TCB_REGS_D0] = 2; /* released after blocking */
      EVENT2(DGL_BARRIER, EV_BAR_RELEASE, w->tid);
    }
    ready_woken(w);
  }
}

/* The home: thread `tid` (slot) arrived, on board `from`. 1 if its arrival completed the barrier. */
static int arrive_home(struct proc *p, struct barrier *x, uint32_t b, uint32_t slot, uint32_t tid, uint32_t from) {
  x->arrived[slot / 32] |= 1u << (slot % 32);
  if (from != net_me()) x->boards |= BSET(from);
  if (++x->count < x->n) return 0;
  ++x->gen;
  x->count = 0;
  x->arrived[0] = x->arrived[1] = 0;
  x->last_tid = (uint16_t)tid;
  EVENT2(DGL_BARRIER, EV_BAR_COMPLETE, b);
  release_here(p, x, b);
  for (uint32_t d = 0; d < nboards; ++d) {
    if (!(x->boards >> d & 1)) continue;
    uint32_t ops[6] = {p->home_board, p->home_pid, p->home_serial, b, x->gen, tid};
    net_send_wait(d, NET_BAR_RELEASE, ops, 6);
  }
  x->boards = 0;
  return 1;
}

static void block(struct tcb *t) {
  EVENT2(DGL_BARRIER, EV_BAR_BLOCK, t->tid);
  t->state = T_BARRIER; /* the main loop takes it off the CPU; release_here() brings it back */
}

/* ---- messages ---- */
static void on_arrive(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops; /* o: home board, pid, serial, barrier, TID */
  if (o[1] >= TOS_MAX_PROCESSES) return (void)net_bad(from, NET_BAR_ARRIVE, "process", o[1]);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p || p->guest) return (void)net_bad(from, NET_BAR_ARRIVE, "an arrival for a process that has gone, pid", o[1]);
  if (o[3] >= TOS_MAX_BARRIERS) return (void)net_bad(from, NET_BAR_ARRIVE, "barrier", o[3]);
  struct barrier *x = bar_of(p, o[3]);
  uint32_t tid = o[4], slot = tid & (TOS_MAX_THREADS - 1);
  if (!tid_of(tid, o[0], o[1]))
    return (void)net_bad(from, NET_BAR_ARRIVE, "an arrival of another process's thread, TID", tid);
  /* the home knows where its threads are: an arrival comes only from its thread's board */
  if (from >= BAR_MAX_BOARDS || !(p->remote_mask[slot / 32] >> (slot % 32) & 1) || p->where[slot] != from)
    return (void)net_bad(from, NET_BAR_ARRIVE, "an arrival of a thread not on the sender, TID", tid);
  if (!x->made) { /* the program's own mistake (a guest cannot tell): its thread is told, as at home */
    uint32_t ops[5] = {o[0], o[1], o[2], o[3], tid};
    net_send_wait(from, NET_BAR_REFUSED, ops, 5);
    return;
  }
  if (x->arrived[slot / 32] >> (slot % 32) & 1)
    return (void)net_bad(from, NET_BAR_ARRIVE, "a second arrival in one generation, TID", tid);
  arrive_home(p, x, o[3], slot, tid, from);
}

static void on_release(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops; /* o: home board, pid, serial, barrier, generation, last arriver's TID */
  if (o[1] >= TOS_MAX_PROCESSES) return (void)net_bad(from, NET_BAR_RELEASE, "process", o[1]);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p || !p->guest) return (void)net_bad(from, NET_BAR_RELEASE, "a release for a process not here, pid", o[1]);
  if (o[3] >= TOS_MAX_BARRIERS) return (void)net_bad(from, NET_BAR_RELEASE, "barrier", o[3]);
  struct barrier *x = bar_of(p, o[3]);
  if ((int32_t)(o[4] - x->gen) <= 0) return (void)net_bad(from, NET_BAR_RELEASE, "an old generation", o[4]);
  if (o[5] > 0xFFFF) return (void)net_bad(from, NET_BAR_RELEASE, "last arriver", o[5]);
  x->gen = o[4];
  x->last_tid = (uint16_t)o[5];
  release_here(p, x, o[3]);
}

/* The home refused an arrival of a thread here: the barrier was never made. The thread, blocked
 * or spinning, ends its barrier_wait with EINVAL. */
static void on_refused(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops; /* o: home board, pid, serial, barrier, TID */
  struct proc *p = o[1] < TOS_MAX_PROCESSES ? proc_by_gpid(o[0], o[1], o[2]) : NULL;
  if (!p || !p->guest) return (void)net_bad(from, NET_BAR_REFUSED, "a refusal for a process not here, pid", o[1]);
  struct tcb *t = p->slots[o[4] & (TOS_MAX_THREADS - 1)];
  if (!t || t->tid != o[4] || o[3] >= TOS_MAX_BARRIERS || t->bar_wait != o[3] + 1)
    return (void)net_bad(from, NET_BAR_REFUSED, "a refusal for a thread not waiting there, TID", o[4]);
  t->bar_wait = 0;
  if (t->state == T_BARRIER) {
    t->ctx.regs[TCB_REGS_D0] = (uint32_t)-TOS_EINVAL;
    ready_woken(t);
  } /* a spinner's next poll finds bar_wait clear: EINVAL */
}

void barrier_setup(void) {
  net_register(NET_BAR_ARRIVE, on_arrive, 5);
  net_register(NET_BAR_RELEASE, on_release, 6);
  net_register(NET_BAR_REFUSED, on_refused, 5);
}

/* ---- system calls ---- */
SYSCALL(barrier_init) {
  struct proc *p = t->proc;
  if (p->guest) return -TOS_EREMOTE; /* the home counts the arrivals */
  if (a1 < 1 || a1 > TOS_MAX_THREADS) return -TOS_EINVAL;
  for (uint32_t b = 0; b < TOS_MAX_BARRIERS; ++b) {
    struct barrier *x = bar_of(p, b);
    if (x->made) continue;
    x->made = 1;
    x->n = (uint16_t)a1;
    return (int32_t)b;
  }
  return -TOS_ENOSPC;
}

SYSCALL(barrier_arrive) {
  struct proc *p = t->proc;
  if (a1 >= TOS_MAX_BARRIERS || a2 > TOS_BARRIER_TWO_PHASE || a3 > TOS_BARRIER_SPIN_MAX_US || t->bar_wait)
    return -TOS_EINVAL;
  struct barrier *x = bar_of(p, a1);
  if (!p->guest && !x->made) return -TOS_EINVAL; /* a guest cannot tell: its home refuses the arrival */
  EVENT2(DGL_BARRIER, EV_BAR_ARRIVE, t->tid);
  t->bar_gen = x->gen;
  if (!p->guest) {
    if (x->arrived[t->slot / 32] >> (t->slot % 32) & 1) return -TOS_EINVAL;
    if (arrive_home(p, x, a1, t->slot, t->tid, net_me())) return 0; /* the last: nothing to wait for */
  } else {
    uint32_t ops[5] = {p->home_board, p->home_pid, p->home_serial, a1, t->tid};
    net_send_wait(p->home_board, NET_BAR_ARRIVE, ops, 5);
  }
  t->bar_wait = (uint8_t)(a1 + 1);
  t->bar_policy = (uint8_t)a2;
  if (a2 == TOS_BARRIER_BLOCK) {
    block(t);
    return 0;
  }
  EVENT2(DGL_BARRIER, EV_BAR_SPIN, t->tid);
  t->bar_deadline = uptime_us() + a3;
  return 1;
}

SYSCALL(barrier_poll) {
  if (!t->bar_wait || a1 >= TOS_MAX_BARRIERS || t->bar_wait != a1 + 1 || t->bar_policy == TOS_BARRIER_BLOCK)
    return -TOS_EINVAL;
  struct barrier *x = bar_of(t->proc, a1);
  if (x->gen != t->bar_gen) {
    t->bar_wait = 0;
    if (x->last_tid == t->tid) { /* off the home, the last arriver learns it from the home */
      EVENT2(DGL_BARRIER, EV_BAR_LAST, t->tid);
      return 3;
    }
    EVENT2(DGL_BARRIER, EV_BAR_SPIN_OK, t->tid);
    return 0;
  }
  if (t->bar_policy == TOS_BARRIER_TWO_PHASE && (int32_t)(uptime_us() - t->bar_deadline) >= 0) {
    block(t); /* a failed spin */
    return 0;
  }
  return 1;
}

SYSCALL(sched_wakeup) {
  if ((int32_t)a1 == -1) return wake_placement;
  if (a1 > TOS_WAKE_HEAD) return -TOS_EINVAL;
  if (!proc_privileged(t->proc)) return -TOS_EPERM; /* the board's scheduler is everyone's */
  int32_t old = wake_placement;
  wake_placement = (uint8_t)a1;
  return old;
}
