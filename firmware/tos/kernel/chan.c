/* occam channels (seed 000 section 2.1.3, local FSM of Figure 5): unidirectional, unbuffered;
 * the first of sender and receiver to arrive blocks (TRAP70), the second copies the message
 * straight from the sender's buffer into the receiver's (any length, page piece by page
 * piece) and releases both (TRAP72). A receive shorter than the message takes its first
 * `len` bytes; receive returns the count. Each process owns TOS_MAX_CHANNELS channels, shared
 * by its threads: a channel is named by its number. */
#include "defs.h"

/* The copy, checked page piece by page piece as it goes: the buffers were checked when each
 * side called, but the side that blocked may have lost a page since (sbrk(-n), another thread's
 * exit). Then the communication is abandoned and both sides get EFAULT. */
static int32_t transfer(struct tcb *s, struct tcb *r) {
  uint32_t n = s->op_len < r->op_len ? s->op_len : r->op_len;
  if (!vm_copy(r->proc, r->op_buf, s->proc, s->op_buf, n)) return -TOS_EFAULT;
  EVENT(DGL_COMMS, EV_TRAP72);
  return (int32_t)n;
}

/* The second to arrive has copied the message and restarted the first: it is pre-empted, its
 * result in d0, behind its partner in the round robin. The report's threads "may be pre-empted
 * if they call certain operating system services" (section 2.1), and in its `local` experiment
 * "the receiver always blocks before the sender" (3.3.1), although the sender computes only
 * about 10 ms, half a slice, between sends: the restarted receiver ran, and blocked again, before
 * the sender's next send. A caller that kept the CPU would send next into a receiver still in
 * the ready queue, and that message's copy would be the receive's service instead. */
static int32_t preempt_after(struct tcb *t, int32_t result) {
  t->ctx.regs[TCB_REGS_D0] = (uint32_t)result;
  thread_yield(t);
  return result;
}

static int32_t request(struct tcb *t, int32_t chan, uint32_t buf, uint32_t len, int sending) {
  if (chan < 0 || chan >= TOS_MAX_CHANNELS) return -TOS_EINVAL;
  USER_BUFFER(t, buf, len, !sending);
  struct ccb *c = &t->proc->chan[chan];
  (sending ? t->ctx.send_mask : t->ctx.recv_mask)[chan / 32] |= 1u << (chan % 32); /* its CCBs, should it migrate */
  t->op_chan = chan;
  t->op_buf = buf;
  t->op_len = len;
  t->op_fault = 0;
  struct tcb *w = c->waiter;
  if (!w) { /* first to arrive: block */
    if (t->proc->guest || t->proc->remote_threads) rchan_request(t, c, sending); /* the partner may be elsewhere */
    else {
      c->waiter = t;
      c->quiet = (uint8_t)sending; /* should the process spread, rchan_spread tells the others */
      t->state = sending ? T_SEND : T_RECV;
    }
    if (t->state != T_RUNNING) EVENT(DGL_COMMS, EV_TRAP70);
    return 0;
  }
  if ((w->state == T_SEND) == sending) return -TOS_EINVAL; /* two senders (or receivers) on one channel */
  /* the waiting receiver's page went to another board (pages.c): fetched, we call again; gone
   * for good (sbrk(-n), an exit), the transfer below fails and both sides get EFAULT */
  if (sending && user_buffer(t, w->op_buf, w->op_len, 1) == 0) return 0; /* (w's process is t's) */
  c->waiter = NULL;
  c->rtr_sent = 0; /* a receiver's rtr that went out is answered here (rchan.c drops it on return) */
  t->last_link = w->last_link = 0; /* a local communication (Figure 40's last_comm) */
  if (sending) {
    int32_t n = transfer(t, w);
    finish(w, n);
    return preempt_after(t, n < 0 ? n : 0);
  }
  int32_t n = transfer(w, t);
  finish(w, n < 0 ? n : 0);
  return preempt_after(t, n);
}

SYSCALL(send) {
  t->op_route = 0;
  return request(t, (int32_t)a1, a2, a3, 1);
}

/* psend(chan, buf, len, tid): a send whose focus goes where this board's routing table says
 * thread tid is (route.c, rchan.c) */
SYSCALL(psend) {
  const struct proc *p = t->proc;
  if (!tid_of(a4, p->home_board, p->home_pid)) return -TOS_EINVAL;
  t->op_route = (uint8_t)((a4 & (TOS_MAX_THREADS - 1)) + 1);
  t->proc->routed = 1;
  return request(t, (int32_t)a1, a2, a3, 1);
}
SYSCALL(receive) { return request(t, (int32_t)a1, a2, a3, 0); }

/* A blocked thread is being removed: its channel forgets it. */
void chan_forget(struct tcb *t) {
  rchan_forget(t);
  if (t->state != T_SEND && t->state != T_RECV) return;
  struct ccb *c = &t->proc->chan[t->op_chan];
  if (c->waiter == t) c->waiter = NULL;
}
