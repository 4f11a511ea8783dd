/* Remote channels: occam communication between threads on different boards over Centrenet,
 * with the report's Message Protocol Components (seed 000 section 3, footnote 1; Figure 6;
 * Tables 3 and 4):
 *
 *   focus   sender's board -> receiver's board: a sender waits on channel c (its length)
 *   advert  the same, broadcast, when the sender's board does not yet know where the receiver
 *           is (the first communication on a channel)
 *   rtr     receiver's board -> sender's board: the receiver is ready (how much it takes)
 *   msg     sender's board -> receiver's board: the data, in page-sized pieces. In 1994 mode
 *           the rtr service packs them into the controller's buffer, the one memory the DMA
 *           reaches, queues them and releases the sender (COMMS): the next send phase sends
 *           them (report 3.3.2: "a msg is queued for transmission and the sender is restarted
 *           after a constant delay"). With dma-anywhere the pieces go straight from the
 *           sender's pages and the sender is released once the last has left. The receiver
 *           (COMMR) is released once the last piece has arrived.
 *
 * Each board keeps, in its CCB of the channel, the thread blocked there, the board where the
 * other side was last heard of (peer, board + 1; 0: not yet), and one token that came before its thread did: a remote
 * sender waiting (focus) or a remote receiver ready (rtr). The sender locates the receiver;
 * receivers are passive, as in the report. A process's channels are named on every board by the
 * process's home identity and the channel number. The DMA mode never shows here: net.c hides it.
 *
 * Migration (migrate.c) moves a thread's share of its channels with it: a token meant for it
 * (a focus for a receiver, an rtr for a sender) travels in its packed CCB entries, and the
 * board it left keeps, per channel and role, where it went (fwd_r, fwd_s): a focus or an rtr
 * arriving for a thread that has left is forwarded after it, carrying the board it came from
 * (its origin), so the reply goes straight there. A token whose origin is this board is one
 * of our own come back: both sides are here now and meet in chan.c's local path. */
#include "defs.h"

#define NONE TOS_MAX_BOARDS /* send_token: to every other board (no board has this number) */

/* An advert for a process this board has no part of yet: kept until a part is made here. */
#define ORPHANS 32
static struct {
  uint8_t used, from;
  uint8_t hb, hp;
  uint32_t hs, chan, tid, len;
} orphans[ORPHANS];

static void gpid_ops(uint32_t *o, const struct proc *p, uint32_t chan) {
  o[0] = p->home_board;
  o[1] = p->home_pid;
  o[2] = p->home_serial;
  o[3] = chan;
}

/* The outgoing msg of a sender whose rtr has come: pieces leave from the send phase. */
#ifndef TOS_OUTQ
#define TOS_OUTQ 8 /* (the test kernel tos-outq2.elf has 2: tests/tos/sends_beyond_the_outq_go.c) */
#endif
#define OUTQ TOS_OUTQ
static struct out {
  struct tcb *t; /* the sender, blocked until its pieces are packed (1994) or have left */
  uint32_t dest, rtid, total, sent, cap;
  int queued;    /* every piece is in the network queue: sent_all frees the entry */
} outq[OUTQ];

static void release(struct out *o, struct tcb *t) {
  o->t = NULL;
  o->queued = 0;
  if (!t || t->state != T_SEND) return;
  t->last_link = (uint8_t)(o->dest + 1);
  EVENT(DGL_COMMS, EV_COMMS);
  finish(t, 0);
}

static void sent_all(void *ctx) { /* dma-anywhere: the last piece has left the sender's pages */
  struct out *o = ctx;
  release(o, o->t);
}

static struct out *start_msg(struct tcb *s, uint32_t dest, uint32_t rtid, uint32_t cap) {
  for (int i = 0; i < OUTQ; ++i)
    if (!outq[i].t) {
      outq[i] = (struct out){s, dest, rtid, s->op_len, 0, cap, 0};
      return &outq[i];
    }
  return NULL;
}

/* The sender's buffer lost a page while it waited (sbrk(-n), another thread's exit): the msg is
 * abandoned. The receiver is told by a last msg piece that carries no data and an eighth
 * operand (MSG_ABANDONED): it gets EFAULT; so does the sender. */
#define MSG_ABANDONED 1u
static void abandon(struct out *o, uint32_t *ops) {
  struct tcb *s = o->t;
  ops[7] = MSG_ABANDONED;
  net_queue(o->dest, NET_MSG, ops, 8, 0, 0, NULL, NULL); /* room for 2 was checked by the caller */
  o->t = NULL;
  o->queued = 0;
  kprintf("tos: %s: process %u (%s) thread %x: send buffer 0x%x lost a page before its msg left: EFAULT\n",
          board_name, s->proc->pid, s->proc->name, s->tid, s->op_buf);
  finish(s, -TOS_EFAULT);
}

/* A sender's rtr came while every outq entry was busy: the sender stays the channel's waiter
 * with the rtr kept as its token, and its msg starts when an entry is free. Nothing else would
 * start it: the receiver has had its answer (rtr_sent), so a focus sent again instead was kept
 * unanswered and both waited for ever. */
static int rtr_kept;

static int outq_free(void) {
  for (int i = 0; i < OUTQ; ++i)
    if (!outq[i].t) return 1;
  return 0;
}

/* w, the waiter on c with its rtr kept as c's token, sends now if an outq entry is free; else the
 * rtr stays kept. Returns whether it went. */
static int send_kept(struct ccb *c, struct tcb *w) {
  if (!start_msg(w, c->token_from, c->token_tid, c->token_len)) {
    rtr_kept = 1;
    return 0;
  }
  c->token = T_TOKEN_NONE;
  c->waiter = NULL; /* it waits for its pieces to leave, not on the channel */
  return 1;
}

static void start_kept(void) {
  rtr_kept = 0;
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    if (!proc_alive(p) || (!p->guest && !p->spread)) continue; /* (no remote channel: ccb_of) */
    for (int ch = 0; ch < TOS_MAX_CHANNELS; ++ch) {
      struct ccb *c = &p->chan[ch];
      struct tcb *w = c->waiter;
      if (!w || w->state != T_SEND || c->token != T_TOKEN_RTR) continue;
      if (!send_kept(c, w)) return; /* still full: the rest wait for the next free entry */
    }
  }
}

int rchan_pending(void) {
  if (rtr_kept && outq_free()) return 1;
  for (int i = 0; i < OUTQ; ++i)
    if (outq[i].t && !outq[i].queued) return 1;
  return 0;
}

/* o's msg into the network queue, a page piece at a time, as far as the queue (and in 1994
 * mode the controller's piece buffers) have room: 0 if some is left for the next send phase.
 * In 1994 mode each piece is copied into the controller's buffer now (the packing) and the
 * sender is released with the last; with dma-anywhere the pieces are the sender's pages. */
static int queue_msg(struct out *o) {
  struct tcb *s = o->t;
  uint32_t n = o->total < o->cap ? o->total : o->cap; /* the receiver takes at most cap */
  do {
    if (net_queue_room() < 2) return 0; /* (room for an abandon's piece too) */
    uint32_t va = s->op_buf + o->sent, k = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1));
    if (k > n - o->sent) k = n - o->sent;
    uint32_t ops[8] = {0};
    gpid_ops(ops, s->proc, (uint32_t)s->op_chan);
    ops[4] = o->rtid;
    ops[5] = n;
    ops[6] = o->sent;
    uint32_t pa = 0, piece = 0;
    if (k && !vm_send_pa(s->proc, va, &pa)) { /* a page went while the sender waited */
      abandon(o, ops);
      return 1;
    }
    if (k && net_packs()) {
      if (!(piece = net_piece_alloc())) return 0; /* every piece buffer is on its way */
      memcpy((void *)piece, (const void *)pa, k);
    }
    int last = o->sent + k == n;
    o->sent += k;
    if (piece)
      net_queue(o->dest, NET_MSG, ops, 7, piece, k, net_piece_sent, (void *)piece);
    else
      net_queue(o->dest, NET_MSG, ops, 7, pa, k, last && !net_packs() ? sent_all : NULL, o);
    if (last) {
      o->queued = 1;
      if (net_packs()) release(o, s); /* packed: the sender goes on (report 3.3.2) */
      return 1;
    }
  } while (o->sent < n);
  return 1;
}

void rchan_send_phase(void) {
  if (rtr_kept && outq_free()) start_kept();
  for (int i = 0; i < OUTQ; ++i) {
    struct out *o = &outq[i];
    if (o->t && !o->queued && !queue_msg(o)) return;
  }
}

#define TOKEN_OPS 7 /* home (board, pid, serial), channel, TID, length, origin board */

static void send_token(uint32_t dest, uint32_t type, const struct proc *p, uint32_t chan, uint32_t tid, uint32_t len) {
  uint32_t ops[TOKEN_OPS];
  gpid_ops(ops, p, chan);
  ops[4] = tid;
  ops[5] = len;
  ops[6] = net_me();
  if (dest == NONE) {
    for (uint32_t b = 0; b < nboards; ++b)
      if (b != net_me()) net_send_wait(b, type, ops, TOKEN_OPS);
  } else {
    net_send_wait(dest, type, ops, TOKEN_OPS);
  }
}

uint32_t rchan_forwarded;

/* A token for a thread that has migrated from here goes after it, unchanged. */
static int forward(uint32_t fwd, uint32_t type, const uint32_t *o, uint32_t nops) {
  if (!fwd) return 0;
  ++rchan_forwarded;
  net_send_wait(fwd - 1u, type, o, nops);
  return 1;
}

/* A psend's focus (route.c) carries two more operands: the receiver's TID, and the hops it has
 * made after a receiver that had left (a bound: a thread in flight can send it back and forth
 * between the board it goes to and its home until it lands). */
#define ROUTED_OPS 9
#define ROUTED_HOPS 32
static uint32_t tid_of_slot(const struct proc *p, uint32_t slot) { return tid_make(p->home_board, p->home_pid, slot); }

/* Is another thread of t's process here using channel c the other way? */
/* Asked at every remote send (focus_out): the scan stops once it has seen every thread the
 * process has here. Looking at all 64 slots took about 2,300 68010 cycles a send, which made a
 * plain send dearer than a routed one (psend skips this for an array index in the routing
 * table): seed 001's ping-pong had the routed layer 190 us quicker a message (cycle profiles of
 * pvmpong running each layer alone: focus_out +929,000 cycles over 400 sends on earth). */
static int partner_here(const struct tcb *t, uint32_t c, int sending) {
  const struct proc *p = t->proc;
  for (uint32_t i = 0, seen = 0; i < TOS_MAX_THREADS && seen < p->nthreads; ++i) {
    const struct tcb *o = p->slots[i];
    if (!o) continue;
    ++seen;
    if (o != t && CHAN_USED(sending ? o->ctx.recv_mask : o->ctx.send_mask, c)) return 1;
  }
  return 0;
}

/* A blocked sender's focus: a psend's to where this board's routing table says its receiver is,
 * a send's to the channel's known peer, else an advert to every board. None when the channel's
 * receiver is a thread here: chan.c pairs them when it asks, and should it leave first, the
 * sender's focus goes with it (pack_chan). Announced, every local pair of a spread process put
 * an advert on every link at each send (issue #32: the balancer read those as link overloads). */
static void focus_out(const struct tcb *w, const struct ccb *c, const struct proc *p, uint32_t chan) {
  if (!w->op_route && partner_here(w, chan, 1)) return;
  if (w->op_route) {
    uint32_t slot = w->op_route - 1u, b = route_lookup(p, slot);
    int ok = 1;
    if (b == net_me()) {
      const struct tcb *r = p->slots[slot];
      if (r && r->tid == tid_of_slot(p, slot)) return; /* here: chan.c pairs them (rchan_pack takes the focus along) */
      int f = route_forward_to(p, slot); /* the entry is stale: after the thread */
      if (f < 0 || (uint32_t)f == net_me()) ok = 0;
      else {
        route_stale();
        b = (uint32_t)f;
      }
    }
    if (ok) {
      uint32_t ops[ROUTED_OPS];
      gpid_ops(ops, p, chan);
      ops[4] = w->tid;
      ops[5] = w->op_len;
      ops[6] = net_me();
      ops[7] = tid_of_slot(p, slot);
      ops[8] = 0;
      net_send_wait(b, NET_FOCUS, ops, ROUTED_OPS);
      return;
    }
  }
  if (c->peer && c->peer - 1u != net_me()) send_token(c->peer - 1u, NET_FOCUS, p, chan, w->tid, w->op_len);
  else send_token(NONE, NET_ADVERT, p, chan, w->tid, w->op_len);
}

/* chan.c: no local partner is waiting on channel c; t blocks and its request goes remote. */
void rchan_request(struct tcb *t, struct ccb *c, int sending) {
  struct proc *p = t->proc;
  uint32_t chan = (uint32_t)t->op_chan;
  c->waiter = t;
  c->quiet = 0;
  t->state = sending ? T_SEND : T_RECV;
  if (sending) {
    if (c->token == T_TOKEN_RTR) { /* a remote receiver is ready: the data goes now, or when */
      send_kept(c, t);             /* an outq entry is free */
      return;
    }
    focus_out(t, c, p, chan);
  } else if (c->token == T_TOKEN_FOCUS) { /* a remote sender waits: tell it we are ready */
    c->token = T_TOKEN_NONE;
    if (c->token_from == net_me()) return; /* our own: the sender is here and finds us waiting */
    c->rtr_sent = 1;
    send_token(c->token_from, NET_RTR, p, chan, t->tid, t->op_len);
  }
}

/* The home's process now has a thread on another board (created there, or `mover` migrating
 * there). A sender that blocked here while the process had no thread elsewhere took chan.c's
 * local path and told no board; receivers are passive, so a receiver there would wait for ever.
 * Each such sender is now announced as it would have been had the process been spread when it
 * blocked (a focus to the channel's known peer, else an advert to every board: kept as an orphan
 * where the process has no part yet). A channel `mover` has received on is skipped: its focus
 * travels with it (rchan_pack). */
void rchan_spread(struct proc *p, const struct tcb *mover) {
  if (p->guest) return;
  for (uint32_t ch = 0; ch < TOS_MAX_CHANNELS; ++ch) {
    struct ccb *c = &p->chan[ch];
    struct tcb *w = c->waiter;
    if (!c->quiet || !w || w->state != T_SEND || (mover && CHAN_USED(mover->ctx.recv_mask, ch))) continue;
    c->quiet = 0;
    focus_out(w, c, p, ch);
  }
}

/* An MPC's names must be possible ones: else it is corrupt (net_bad counts and reports it). */
static int mpc_ok(uint32_t from, uint32_t type, const uint32_t *o) {
  if (o[0] >= nboards) net_bad(from, type, "home board", o[0]);
  else if (o[1] >= TOS_MAX_PROCESSES) net_bad(from, type, "process", o[1]);
  else if (o[3] >= TOS_MAX_CHANNELS) net_bad(from, type, "channel", o[3]);
  else if (type != NET_MSG && o[6] >= nboards) net_bad(from, type, "origin board", o[6]);
  else return 1;
  return 0;
}

static struct ccb *ccb_of(const uint32_t *o, struct proc **pp) {
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p || o[3] >= TOS_MAX_CHANNELS) return NULL;
  if (!p->guest && !p->spread) return NULL; /* no thread of it was ever elsewhere: no board talks for it */
  *pp = p;
  return &p->chan[o[3]];
}

/* focus / advert: a remote sender waits on the channel. */
/* A routed focus whose receiver is not here goes on (route.c): 1 if it went. */
static int route_on(const struct proc *p, const uint32_t *o, int to) {
  if (to < 0 || (uint32_t)to == net_me()) return 0;
  if (o[8] >= ROUTED_HOPS) { /* kept here as an unrouted focus would be */
    net_bad(net_me(), NET_FOCUS, "a routed focus that found no receiver in 32 hops, TID", o[7]);
    return 0;
  }
  uint32_t f[ROUTED_OPS];
  memcpy(f, o, sizeof f);
  ++f[8];
  route_stale();
  ++rchan_forwarded;
  net_send_wait((uint32_t)to, NET_FOCUS, f, ROUTED_OPS);
  (void)p;
  return 1;
}

static void on_focus(uint32_t net_from, const uint32_t *o, uint32_t nops) {
  uint32_t from = o[6]; /* the sender's board (the message may have been forwarded) */
  EVENT(DGL_COMMS, EV_RX_MPC);
  EVENT(DGL_COMMS, EV_RX_FOCUS);
  if (!mpc_ok(net_from, NET_FOCUS, o)) return;
  int routed = nops >= ROUTED_OPS;
  if (routed && !tid_of(o[7], o[0], o[1]))
    return (void)net_bad(net_from, NET_FOCUS, "a routed focus for a thread not of its process, TID", o[7]);
  struct proc *p;
  struct ccb *c = ccb_of(o, &p);
  if (!c && routed && o[0] != net_me()) { /* no part of the job here: its home knows where the receiver is */
    struct proc *g = proc_by_gpid(o[0], o[1], o[2]);
    if (route_on(g, o, (int)o[0])) return;
  }
  if (!c) { /* kept, replacing one for the same channel, else the oldest */
    static int next;
    int i = next;
    for (int k = 0; k < ORPHANS; ++k)
      if (orphans[k].used && orphans[k].hb == o[0] && orphans[k].hp == o[1] && orphans[k].hs == o[2] &&
          orphans[k].chan == o[3])
        i = k;
    if (i == next) next = (next + 1) % ORPHANS;
    {
        orphans[i].used = 1;
        orphans[i].from = (uint8_t)from;
        orphans[i].hb = (uint8_t)o[0];
        orphans[i].hp = (uint8_t)o[1];
        orphans[i].hs = o[2];
        orphans[i].chan = o[3];
        orphans[i].tid = o[4];
        orphans[i].len = o[5];
    }
    return;
  }
  struct tcb *w = c->waiter;
  int waiting = w && w->state == T_RECV;
  int here = 0; /* a routed focus's receiver is on this board: the token stays for it */
  if (!waiting && routed) { /* after its receiver, if that has left (or never was) here */
    const struct tcb *r = p->slots[o[7] & (TOS_MAX_THREADS - 1)];
    here = r && r->tid == o[7];
    if (!here && route_on(p, o, route_forward_to(p, o[7] & (TOS_MAX_THREADS - 1)))) return;
  }
  /* (the channel's forward is its last receiver's: a routed focus whose receiver is here is not
   * sent after an earlier thread of that slot that left, a task made in a freed slot) */
  if (!waiting && !here && forward(c->fwd_r, NET_FOCUS, o, nops < ROUTED_OPS ? TOKEN_OPS : ROUTED_OPS)) {
    if (routed) route_stale();
    return; /* the receiver has migrated: after it */
  }
  if (from == net_me()) return; /* our own come back: both sides are here, chan.c pairs them */
  c->peer = (uint8_t)(from + 1);
  int32_t usable = waiting && !c->rtr_sent ? user_buffer(w, w->op_buf, w->op_len, 1) : 1;
  if (usable <= 0) {
    /* its buffer's page went to another board meanwhile (pages.c): the focus is kept and the
     * receive runs again once the page is back, which sends the rtr */
    c->waiter = NULL;
    if (usable < 0) finish(w, -TOS_EFAULT);
    waiting = 0;
  }
  if (waiting && !c->rtr_sent) { /* the receiver waits: rtr at once */
    c->rtr_sent = 1;
    send_token(from, NET_RTR, p, o[3], w->tid, w->op_len);
    return;
  }
  c->token = T_TOKEN_FOCUS;
  c->token_from = (uint8_t)from;
  c->token_tid = (uint16_t)o[4];
  c->token_len = o[5];
  c->token_rtid = routed ? (uint16_t)o[7] : TID_NONE; /* should that thread leave first, it takes the focus along */
  if (routed) p->routed = 1;
}

/* A guest part was made here: adverts that came before it are its now. */
void rchan_adopt(struct proc *p) {
  for (int i = 0; i < ORPHANS; ++i) {
    if (!orphans[i].used || orphans[i].hb != p->home_board || orphans[i].hp != p->home_pid ||
        orphans[i].hs != p->home_serial)
      continue;
    struct ccb *c = &p->chan[orphans[i].chan];
    c->peer = (uint8_t)(orphans[i].from + 1);
    c->token = T_TOKEN_FOCUS;
    c->token_rtid = TID_NONE;
    c->token_from = orphans[i].from;
    c->token_tid = (uint16_t)orphans[i].tid;
    c->token_len = orphans[i].len;
    orphans[i].used = 0;
  }
}

/* rtr: the remote receiver is ready; a waiting sender's data goes (the rtr service). */
static void on_rtr(uint32_t net_from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  uint32_t from = o[6]; /* the receiver's board */
  EVENT(DGL_COMMS, EV_RX_MPC);
  EVENT(DGL_COMMS, EV_RX_RTR);
  if (!mpc_ok(net_from, NET_RTR, o)) return;
  struct proc *p;
  struct ccb *c = ccb_of(o, &p);
  if (!c) {
    net_bad(net_from, NET_RTR, "no part of its process here, process", o[1]);
    return;
  }
  struct tcb *w = c->waiter;
  int waiting = w && w->state == T_SEND;
  if (!waiting && forward(c->fwd_s, NET_RTR, o, TOKEN_OPS)) return; /* the sender has migrated: after it */
  if (from == net_me()) { /* our receiver's, come back: the sender is here, chan.c pairs them */
    c->rtr_sent = 0;      /* and should the sender leave first, its focus from there is answered */
    return;
  }
  c->peer = (uint8_t)(from + 1);
  if (waiting) {
    c->waiter = NULL;
    struct out *m = start_msg(w, from, o[4], o[5]);
    if (m) { /* 1994: packed and queued now, the sender released; the send phase sends it */
      if (net_packs()) queue_msg(m);
      return;
    }
    c->waiter = w; /* no room to send now: keep the rtr for later */
    rtr_kept = 1;
  }
  c->token = T_TOKEN_RTR;
  c->token_from = (uint8_t)from;
  c->token_tid = (uint16_t)o[4];
  c->token_len = o[5];
}

/* msg: a piece of the data for the receiver blocked here (the msg service). */
static void on_msg(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  EVENT(DGL_COMMS, EV_RX_MSG);
  if (!mpc_ok(from, NET_MSG, o)) return;
  struct proc *p;
  struct ccb *c = ccb_of(o, &p);
  if (!c) {
    net_bad(from, NET_MSG, "no part of its process here, process", o[1]);
    return;
  }
  struct tcb *r = c->waiter;
  if (!r || r->state != T_RECV || r->tid != o[4]) {
    ++rchan_stray;
    kprintf("tos: %s: msg for thread %x on channel %u that no receiver waits for: dropped\n", board_name, o[4], o[3]);
    return;
  }
  uint32_t total = o[5], off = o[6], n = net_data_len();
  if (nops > 7 && o[7] == MSG_ABANDONED) { /* the sender's buffer lost a page on the way */
    c->waiter = NULL;
    c->rtr_sent = 0;
    r->op_fault = 0;
    finish(r, -TOS_EFAULT);
    return;
  }
  if (off + n > r->op_len || off + n > total) {
    ++rchan_stray;
    kprintf("tos: %s: corrupt msg on channel %u (offset %u, %u bytes): dropped\n", board_name, o[3], off, n);
    return;
  }
  for (uint32_t k = 0; k < n && !r->op_fault;) { /* into the receiver's pages, a page piece at a time */
    uint32_t va = r->op_buf + off + k, m = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1)), pa;
    if (m > n - k) m = n - k;
    if (!vm_user_pa(r->proc, va, 1, &pa)) r->op_fault = 1; /* its page went while it waited: the rest is dropped */
    else net_take(k, pa, m);
    k += m;
  }
  if (off + n == total) {
    c->waiter = NULL;
    c->rtr_sent = 0;
    r->last_link = (uint8_t)(from + 1);
    EVENT(DGL_COMMS, EV_COMMR);
    finish(r, r->op_fault ? -TOS_EFAULT : (int32_t)total);
    r->op_fault = 0;
  }
}

uint32_t rchan_stray;

/* ---- migration: a thread's share of its channels (MDisconnect / MConnect) ---- */
/* Channel ch's part of t's migration, if t has used it (or is a routed psend's receiver). */
static void pack_chan(struct tcb *t, uint32_t ch, uint32_t dest, struct mig_chan *e, uint32_t *n) {
  struct ccb *c = &t->proc->chan[ch];
  int s = CHAN_USED(t->ctx.send_mask, ch), r = CHAN_USED(t->ctx.recv_mask, ch);
  /* a psend routed to t (route.c) on a channel t has not received on yet: t is its receiver */
  if (t->proc->routed && ((c->token == T_TOKEN_FOCUS && c->token_rtid == t->tid) ||
                          (c->waiter && c->waiter->state == T_SEND && c->waiter->op_route == t->slot + 1u)))
    r = 1;
  if (!s && !r) return;
  struct mig_chan *m = &e[(*n)++];
  memset(m, 0, sizeof *m);
  m->chan = (uint8_t)ch;
  m->role = (uint8_t)(s | r << 1);
  m->peer = partner_here(t, ch, s) ? (uint8_t)(net_me() + 1) : c->peer;
  if ((r && c->token == T_TOKEN_FOCUS) || (s && c->token == T_TOKEN_RTR)) { /* its token goes with it */
    m->token = c->token;
    m->token_from = c->token_from;
    m->token_tid = c->token_tid;
    m->token_len = c->token_len;
    c->token = T_TOKEN_NONE;
  }
  if (r && c->waiter && c->waiter->state == T_SEND) { /* a sender waits here for it: a focus goes along */
    m->token = T_TOKEN_FOCUS;
    m->token_from = (uint8_t)net_me();
    m->token_tid = c->waiter->tid;
    m->token_len = c->waiter->op_len;
  }
  if (s) c->fwd_s = (uint8_t)(dest + 1);
  if (r) c->fwd_r = (uint8_t)(dest + 1);
  c->peer = (uint8_t)(dest + 1); /* for a partner left here */
}

/* t leaves for board dest: its channel entries into e (n of them), and this board's CCBs
 * remember where it went. */
void rchan_pack(struct tcb *t, uint32_t dest, struct mig_chan *e, uint32_t *n) {
  *n = 0;
  /* Only the channels t has used go, so only those are looked at, a word of its masks at a time
   * (looking at all 128 took 37,540 of a move's 70,000 packing cycles: tos-profile). In a process
   * that routes psends (route.c) a channel t has not used may have t as its receiver: there every
   * channel is looked at. */
  for (uint32_t word = 0; word < TOS_MAX_CHANNELS / 32; ++word) {
    uint32_t used = t->proc->routed ? ~0u : t->ctx.send_mask[word] | t->ctx.recv_mask[word];
    for (uint32_t ch = word * 32; used; ++ch, used >>= 1)
      if (used & 1u) pack_chan(t, ch, dest, e, n);
  }
}

/* t has arrived: its channel entries merge into this board's CCBs. */
void rchan_unpack(struct tcb *t, const struct mig_chan *e, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    const struct mig_chan *m = &e[i];
    if (m->chan >= TOS_MAX_CHANNELS) continue;
    struct ccb *c = &t->proc->chan[m->chan];
    if (m->role & 1) c->fwd_s = 0;
    if (m->role & 2) c->fwd_r = 0;
    if (m->peer && m->peer != net_me() + 1) c->peer = m->peer; /* else the partner is here, or left a forward */
    /* our receiver's rtr, come back with its sender: both are here now and meet in chan.c's
     * local path, and no rtr is out any more. Should the sender leave again before it sends,
     * its focus from there must be answered (as on_rtr's own rtr come back): left set, it was
     * kept unanswered and both waited for ever (tos_migration_stress_seed1 hung so) */
    if (m->token == T_TOKEN_RTR && m->token_from == net_me()) c->rtr_sent = 0;
    if (m->token && m->token_from != net_me()) {
      c->token = m->token;
      c->token_from = m->token_from;
      c->token_tid = m->token_tid;
      c->token_len = m->token_len;
      c->token_rtid = (m->role & 2) ? t->tid : TID_NONE;
      /* A focus on a channel t has not received on can only be a routed one (pack_chan's r): the
       * next move must look at every channel to find it again. On a channel of t's own masks it
       * is found anyway, so the process is not marked for it: marked, every later move of every
       * thread of the process looked at all 128 channels, 12.7 of a move's 14.3 ms of packing in
       * the 1994 profile (section 3's migrate, from events put around rchan_pack) */
      if ((m->role & 2) && !CHAN_USED(t->ctx.recv_mask, m->chan)) t->proc->routed = 1;
    }
  }
}

/* A blocked thread leaves (its process is removed): nothing may still point at it. */
void rchan_forget(struct tcb *t) {
  for (int i = 0; i < OUTQ; ++i)
    if (outq[i].t == t) outq[i].t = NULL;
}

void rchan_init(void) {
  net_register(NET_FOCUS, on_focus, 7);
  net_register(NET_ADVERT, on_focus, 7);
  net_register(NET_RTR, on_rtr, 7);
  net_register(NET_MSG, on_msg, 7); /* (8 for an abandoned msg) */
}
