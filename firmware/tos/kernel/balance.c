/* A slave's part of load balancing (seed 000 section 4.2): the master's decision maker sees
 * only the monitor's view and says what is wrong (a compute overload here, or an overloaded link
 * between this board and another); this board, which knows its threads, chooses which one moves
 * (Figure 40) and migrates it:
 *
 *   compute overload: the first thread found in the ready queues;
 *   link overload:    a ready thread whose last communication used the overloaded link, else one
 *                     whose last communication was not local;
 *
 * rejecting threads with children (the formal specification does not let parents migrate) and
 * threads not in a ready queue. last_comm(t) is the TCB's last_link, kept by the channel code.
 * The request comes from any board's program (the balancer on the master) as NET_RECONF; the
 * answer goes back at once as NET_RECONF_DONE: the TID that moved, or 0 when no thread fits now.
 * Then, as section 4.2.2 has it, the request waits: it is satisfied the next time a thread that
 * fits is in the ready queue (communication-bound threads are mostly blocked), and discarded
 * after TOS_RECONF_WAIT_TICKS slices' time (the report counts timer interrupts; ours restart
 * with every scheduling, so a busy board may see none for a long time: the clock instead). One request waits at a time; a newer one
 * replaces it (the master's view is newer too). The counts are in the board's done line. */
#include "defs.h"

static struct tcb *candidate(uint32_t kind, uint32_t other) {
  struct tcb *fallback = NULL;
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    if (!proc_alive(p)) continue;
    for (struct tcb *t = p->rq_head; t; t = t->next) {
      if (t->ctx.children) continue;
      if (kind == TOS_RECONF_COMPUTE) return t;
      if (t->last_link == other + 1) return t;
      if (t->last_link && !fallback) fallback = t;
    }
  }
  return fallback;
}

static struct {
  int on;
  uint32_t kind, other, since; /* since: uptime_us when it came */
} waiting;
uint32_t reconf_asked, reconf_moved, reconf_moved_later, reconf_discarded;

static int valid(uint32_t kind, uint32_t other) {
  return (kind == TOS_RECONF_COMPUTE || kind == TOS_RECONF_LINK) && other < nboards && other != net_me();
}

/* Choose and migrate: the TID that moved, or -error. */
static int32_t shed(uint32_t kind, uint32_t other) {
  if (!valid(kind, other)) return -TOS_EINVAL;
  struct tcb *t = candidate(kind, other);
  if (!t) return -TOS_ESRCH;
  uint32_t tid = t->tid;
  int32_t r = migrate_out(t, other, NULL);
  return r < 0 ? r : (int32_t)tid;
}

/* A request from the balancer: now, or it waits. */
static int32_t request(uint32_t kind, uint32_t other) {
  if (!valid(kind, other)) return -TOS_EINVAL;
  ++reconf_asked;
  int32_t r = shed(kind, other);
  if (r > 0) {
    ++reconf_moved;
    waiting.on = 0;
    return r;
  }
  if (r != -TOS_ESRCH) return r;
  if (waiting.on) ++reconf_discarded; /* replaced */
  waiting.on = 1;
  waiting.kind = kind;
  waiting.other = other;
  waiting.since = uptime_us();
  return 0;
}

/* From the main loop: a waiting request is tried while it lasts. */
void balance_poll(void) {
  if (!waiting.on) return;
  if (uptime_us() - waiting.since > TOS_RECONF_WAIT_TICKS * TOS_SLICE_US) {
    waiting.on = 0;
    ++reconf_discarded;
  } else if (shed(waiting.kind, waiting.other) > 0) {
    waiting.on = 0;
    ++reconf_moved_later;
  }
}

/* The thread that asked board `from` and waits for its answer. */
static struct tcb *requester(uint32_t tid, uint32_t from) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    struct tcb *t = proc_alive(p) && tid <= 0xFFFF ? p->slots[tid & (TOS_MAX_THREADS - 1)] : NULL;
    if (t && t->tid == tid && t->state == T_REMOTE && t->answer_type == NET_RECONF_DONE &&
        t->answer_from == from + 1)
      return t;
  }
  return NULL;
}

static void on_reconf(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  /* any board's kernel may ask (its reconfigure() checked the asker is privileged); the
   * operands are request()'s to check, the TID only goes back */
  if (o[2] > 0xFFFF) return (void)net_bad(from, NET_RECONF, "requester TID", o[2]);
  uint32_t r[2] = {o[2], (uint32_t)request(o[0], o[1])};
  net_send_wait(from, NET_RECONF_DONE, r, 2);
}

static void on_reconf_done(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct tcb *t = requester(o[0], from);
  if (!t) return (void)net_bad(from, NET_RECONF_DONE, "an answer no thread here asked the sender for, thread", o[0]);
  finish(t, (int32_t)o[1]);
}

/* reconfigure(processor, kind, arg) */
SYSCALL(reconfigure) {
  if (a1 >= nboards) return -TOS_EINVAL;
  if (a1 == net_me()) return request(a2, a3);
  uint32_t ops[3] = {a2, a3, t->tid};
  t->state = T_REMOTE; /* until the answer */
  t->answer_type = NET_RECONF_DONE;
  t->answer_from = (uint8_t)(a1 + 1);
  net_send_wait(a1, NET_RECONF, ops, 3);
  return 0;
}

void balance_init(void) {
  net_register(NET_RECONF, on_reconf, 3);
  net_register(NET_RECONF_DONE, on_reconf_done, 2);
}
