/* Thread migration (seed 000 sections 2.2.1, 2.2.2; Figures 3 and 7).
 *
 * Only a thread in the ready queue moves (or the caller itself, which is as good as ready: it
 * continues on the other board with migrate's 0 in d0). The source board unlinks it from its
 * process's ready queue, packs its TCB, its share of the channels it has used (rchan_pack)
 * into one Centrenet message, and frees the TCB
 * (MDisconnect: MIGRATE .. MIGRATE_SENT). The destination never refuses: it makes the
 * process's part there if there is none, takes a TCB, merges the channel entries and queues
 * the thread (MConnect: RX_MPC RX_THREAD .. MIGRATE_IN).
 *
 * Pages: nothing moves with the thread. Its stack pages stay where they were mapped; its first
 * touch of one on the new board takes a bus error and the page protocol (pages.c) moves it
 * over, as it brings any page a thread needs, the home knowing where each is. When the thread
 * ends, the home has the copies of its stack pages freed.
 *
 * Where a thread is: its home keeps, per thread slot, the board of a thread living elsewhere
 * (where[], newest by migration count); a migrate request, a child's end and ps go by it. A
 * request for a thread on another board travels home and on to the thread's board, which does
 * the migration and answers the requester (NET_MIGRATE_REQ / NET_MIGRATED). */
#include "defs.h"

struct mig_pack { /* the Centrenet message's data */
  struct thread_ctx ctx; /* the thread, as it is wherever it runs (defs.h) */
  uint16_t tid, nchan;
  struct mig_chan chan[TOS_MAX_CHANNELS];
};
#define PACK_HEAD ((uint32_t)__builtin_offsetof(struct mig_pack, chan))

/* Packed threads waiting to leave (several migrations may be under way at once). */
#define OUTBOX 4
static struct mig_pack outbox[OUTBOX];
static uint8_t outbox_busy[OUTBOX];
static struct mig_pack inbox;
uint32_t migrations_out, migrations_in;

static void sent(void *ctx) { outbox_busy[(struct mig_pack *)ctx - outbox] = 0; }

struct tcb *thread_here(uint32_t hb, uint32_t hp, uint32_t tid) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    if (!proc_alive(p) || p->home_board != hb || p->home_pid != hp) continue;
    struct tcb *t = p->slots[tid & (TOS_MAX_THREADS - 1)];
    if (t && t->tid == tid) return t;
  }
  return NULL;
}

/* MDisconnect: t leaves for dest. 0, or -error with t untouched. */
int migrate_out(struct tcb *t, uint32_t dest, struct tcb *caller) {
  if (dest >= nboards) return -TOS_EINVAL;
  if (t != caller && t->state != T_READY) return -TOS_ENOTREADY;
  if (t->bar_wait) return -TOS_ENOTREADY; /* spinning at a barrier: its arrival is this board's (barrier.c) */
  if (t != caller && pmig_in_critical(t)) return -TOS_ENOTREADY; /* inside a PVM call (DynamicPVM): later */
  if (dest == net_me()) return 0;
  if (t->proc->dma_pages) return -TOS_EBUSY; /* its DMA buffers are mapped in this board's part only (dev.c) */
  int k = 0;
  while (k < OUTBOX && outbox_busy[k]) ++k;
  if (k == OUTBOX || net_queue_room() == 0) return -TOS_EAGAIN; /* the last ones have not left yet */
  struct mig_pack *m = &outbox[k];
  struct proc *p = t->proc;
  EVENT2(DGL_COMMS, EV_MIGRATE, t->tid);
  if (t->state == T_READY) unready(t);
  if (t == caller) t->ctx.regs[TCB_REGS_D0] = 0; /* migrate's result, read on the other board */
  m->ctx = t->ctx;
  m->ctx.moves = (uint16_t)(t->ctx.moves + 1);
  m->tid = t->tid;
  uint32_t n;
  rchan_pack(t, dest, m->chan, &n);
  m->nchan = (uint16_t)n;
  for (int i = 0; i < TOS_MAX_THREADS; ++i) /* its children here report to it through the home now */
    if (p->slots[i] && p->slots[i]->parent == t) p->slots[i]->parent = NULL;
  p->gone[t->slot] = (uint8_t)(dest + 1); /* routed tokens for it follow it (route.c) */
  if (!p->guest) { /* the home: its slot is now a thread elsewhere */
    p->remote_mask[t->slot / 32] |= 1u << (t->slot % 32);
    ++p->remote_threads;
    p->where[t->slot] = (uint8_t)dest;
    p->where_moves[t->slot] = m->ctx.moves;
    p->spread = 1;
  }
  uint32_t ops[5] = {p->home_board, p->home_pid, p->home_serial, t->slot, (uint32_t)proc_privileged(p)};
  outbox_busy[k] = 1;
  net_queue(dest, NET_THREAD, ops, 5, (uint32_t)m, PACK_HEAD + n * sizeof m->chan[0], sent, m);
  rchan_spread(p, t); /* (after: the room checked above was for the thread) */
  thread_detach(t);
  ++migrations_out;
  EVENT(DGL_COMMS, EV_MIGRATE_SENT);
  return 0;
}

/* A packed thread from the network is run with RTE of its saved frame: it must be a user
 * thread's frame (user mode, interrupts on, no trace; a $0 frame, or a $8 bus-error frame whose
 * rerun cycle is a user one), else the RTE would enter supervisor mode at the sender's choice.
 * NULL if it is one, else what is wrong. */
static const char *frame_wrong(const struct mig_pack *m) {
  uint16_t sr = (uint16_t)(m->ctx.frame[0] << 8 | m->ctx.frame[1]), fv = (uint16_t)(m->ctx.frame[6] << 8 | m->ctx.frame[7]);
  uint16_t ssw = (uint16_t)(m->ctx.frame[8] << 8 | m->ctx.frame[9]);
  if (sr & 0xFF00) return "status register";
  if (fv >> 12 == 0 && m->ctx.frame_len == 8) return NULL;
  if (fv >> 12 == 8 && m->ctx.frame_len == FRAME_MAX && ((ssw & 7) == 1 || (ssw & 7) == 2)) return NULL;
  return "exception frame";
}

/* MConnect: a thread arrives. */
static void on_thread(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  EVENT(DGL_COMMS, EV_RX_THREAD);
  uint32_t len = net_data_len(), slot = o[3];
  struct mig_pack *m = &inbox;
  if (len < PACK_HEAD || len > sizeof *m || slot >= TOS_MAX_THREADS || o[0] >= nboards) {
    ++remote_lost;
    kprintf("tos: %s: a migrating thread from %s is malformed (%u bytes, slot %u): dropped\n", board_name,
            board_name_of(from), len, slot);
    return;
  }
  if (o[1] >= TOS_MAX_PROCESSES) return (void)net_bad(from, NET_THREAD, "process", o[1]);
  if (o[0] == net_me()) { /* coming home: from the board the home knows it is on */
    struct proc *h = proc_by_gpid(o[0], o[1], o[2]);
    if (h && (h->guest || !(h->remote_mask[slot / 32] >> (slot % 32) & 1) || h->where[slot] != from))
      return (void)net_bad(from, NET_THREAD, "a thread coming home from a board it is not on, slot", slot);
  }
  net_take(0, (uint32_t)m, len);
  const char *wrong = frame_wrong(m);
  if (wrong) return (void)net_bad(from, NET_THREAD, wrong, m->ctx.frame_len);
  if (!tid_of(m->tid, o[0], o[1]) || (m->tid & TOS_TID_SLOT_MASK) != slot) return (void)net_bad(from, NET_THREAD, "TID", m->tid);
  if (m->ctx.stack_pages == 0 || m->ctx.stack_pages > TOS_MAX_STACK_PAGES || m->ctx.children < 0)
    return (void)net_bad(from, NET_THREAD, "stack pages", m->ctx.stack_pages);
  struct proc *p = o[0] == net_me() ? proc_by_gpid(o[0], o[1], o[2]) : remote_guest(o[0], o[1], o[2]);
  if (!p || p->slots[slot] || tcbs_free() == 0 || m->nchan > TOS_MAX_CHANNELS ||
      PACK_HEAD + m->nchan * sizeof m->chan[0] > len) {
    /* a destination never refuses; this one cannot hold it (or its process has ended): say so */
    ++remote_lost;
    kprintf("tos: %s: thread %x migrating from %s cannot be taken (%s): lost\n", board_name, m->tid,
            board_name_of(from), !p ? "no process slot" : tcbs_free() == 0 ? "no TCB" : "bad message");
    return;
  }
  if (p->guest && nops > 4) p->home_privileged = o[4] == 1; /* as the process's part it came from says */
  struct tcb *t = thread_attach(p, slot);
  p->gone[slot] = 0;
  if (!p->guest) { /* home again */
    proc_release_slot(p, (int)slot);
    route_placed(p, slot, net_me());
  }
  t->ctx = m->ctx;
  for (uint32_t i = 0, seen = 0; i < TOS_MAX_THREADS && seen < p->nthreads; ++i) { /* family here: direct reports again */
    struct tcb *x = p->slots[i];
    if (!x || (++seen, x == t)) continue;
    if (x->tid == t->ctx.parent_tid) t->parent = x;
    if (x->ctx.parent_tid == t->tid) x->parent = t;
  }
  rchan_unpack(t, m->chan, m->nchan);
  ready(t);
  ++migrations_in;
  if (p->guest) { /* the home learns where it is */
    uint32_t r[5] = {o[0], o[1], o[2], slot | (uint32_t)t->ctx.moves << 8, net_me()};
    net_send_wait(p->home_board, NET_MOVED, r, 5);
  }
  EVENT2(DGL_COMMS, EV_MIGRATE_IN, t->tid);
}

static void on_moved(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  uint32_t slot = o[3] & 0xFF, moves = o[3] >> 8;
  if (!p) return;
  /* a board says where a thread is: itself only, for a thread of the home's that is away */
  if (o[4] != from || p->guest || slot >= TOS_MAX_THREADS || !(p->remote_mask[slot / 32] >> (slot % 32) & 1))
    return (void)net_bad(from, NET_MOVED, "a thread's arrival told by a board not its new one, slot", slot);
  if ((int16_t)(moves - p->where_moves[slot]) < 0) return; /* older news */
  p->where[slot] = (uint8_t)o[4];
  p->where_moves[slot] = (uint16_t)moves;
  route_placed(p, slot, o[4]); /* the master tells the job's other boards (route.c) */
}

/* ---- asking for a migration: here, or on the thread's board ---- */
enum { RQ_HB, RQ_HP, RQ_TID, RQ_DEST, RQ_FROM, RQ_FROM_TID, RQ_HOPS, RQ_OPS };

static void answer(const uint32_t *o, int32_t result);

/* Do it if the thread is here, else pass the request on (home, then the thread's board). */
static void route(const uint32_t *o) {
  struct tcb *t = thread_here(o[RQ_HB], o[RQ_HP], o[RQ_TID]);
  if (t) {
    answer(o, migrate_out(t, o[RQ_DEST], NULL));
    return;
  }
  uint32_t slot = o[RQ_TID] & (TOS_MAX_THREADS - 1), dest = o[RQ_HB];
  if (o[RQ_HB] == net_me()) { /* the home: where is it? */
    struct proc *p = o[RQ_HP] < TOS_MAX_PROCESSES ? &procs[o[RQ_HP]] : NULL;
    if (!p || !proc_alive(p) || p->guest || !(p->remote_mask[slot / 32] >> (slot % 32) & 1)) {
      answer(o, -TOS_ESRCH);
      return;
    }
    dest = p->where[slot];
  }
  if (o[RQ_HOPS] > 2 * nboards || dest == net_me()) { /* it keeps moving: try again later */
    answer(o, -TOS_EAGAIN);
    return;
  }
  uint32_t r[RQ_OPS];
  memcpy(r, o, sizeof r);
  ++r[RQ_HOPS];
  net_send_wait(dest, NET_MIGRATE_REQ, r, RQ_OPS);
}

static int finish_requester(uint32_t tid, int32_t result) {
  struct tcb *t = thread_here((tid >> TOS_TID_BOARD_SHIFT) & TOS_TID_BOARD_MASK, (tid >> TOS_TID_PROCESS_SHIFT) & TOS_TID_PROCESS_MASK, tid);
  if (!t || t->state != T_REMOTE || t->answer_type != NET_MIGRATED) return 0;
  finish(t, result);
  return 1;
}

static void answer(const uint32_t *o, int32_t result) {
  if (o[RQ_FROM] == net_me()) {
    finish_requester(o[RQ_FROM_TID], result);
    return;
  }
  uint32_t r[2] = {o[RQ_FROM_TID], (uint32_t)result};
  net_send_wait(o[RQ_FROM], NET_MIGRATED, r, 2);
}

static void on_migrate_req(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  /* the requester's board asks first (it checked the requester may, migrate()); after that the
   * request travels home and from the home to the thread's board */
  if (o[RQ_HB] >= nboards || o[RQ_HP] >= TOS_MAX_PROCESSES || o[RQ_TID] > 0xFFFF ||
      o[RQ_DEST] >= nboards || o[RQ_FROM] >= nboards || o[RQ_FROM_TID] > 0xFFFF ||
      o[RQ_HOPS] == 0)
    return (void)net_bad(from, NET_MIGRATE_REQ, "operand out of range, thread", o[RQ_TID]);
  if (o[RQ_HOPS] == 1 ? from != o[RQ_FROM] : (o[RQ_HB] != net_me() && from != o[RQ_HB]))
    return (void)net_bad(from, NET_MIGRATE_REQ, "a migration asked on a route it cannot have taken, requester board",
                         o[RQ_FROM]);
  route(o);
}

static void on_migrated(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if ((int32_t)o[1] > 0 || (int32_t)o[1] < -1000 || !finish_requester(o[0], (int32_t)o[1]))
    net_bad(from, NET_MIGRATED, "an answer to a migration no thread here waits for, thread", o[0]);
}

/* migrate(tid, processor) */
SYSCALL(migrate) {
  uint32_t tid = a1, dest = a2;
  if (dest >= nboards) return -TOS_EINVAL;
  if (tid > 0xFFFF || tid == TID_NONE) return -TOS_ESRCH;
  uint32_t hb = (tid >> TOS_TID_BOARD_SHIFT) & TOS_TID_BOARD_MASK, hp = (tid >> TOS_TID_PROCESS_SHIFT) & TOS_TID_PROCESS_MASK;
  if (!proc_privileged(t->proc) && (hb != t->proc->home_board || hp != t->proc->home_pid))
    return -TOS_EPERM; /* another process's thread: the operator's (or the balancer's) to move */
  struct tcb *target = thread_here(hb, hp, tid);
  if (target) return migrate_out(target, dest, t);
  if (hb >= nboards) return -TOS_ESRCH;
  uint32_t o[RQ_OPS] = {hb, hp, tid, dest, net_me(), t->tid, 0};
  t->state = T_REMOTE; /* until the answer */
  t->answer_type = NET_MIGRATED;
  t->answer_from = 0; /* from whichever board the thread turns out to be on */
  route(o);
  return 0;
}

void migrate_init(void) {
  net_register(NET_THREAD, on_thread, 4);
  net_register(NET_MOVED, on_moved, 5);
  net_register(NET_MIGRATE_REQ, on_migrate_req, 7);
  net_register(NET_MIGRATED, on_migrated, 2);
}
