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
 * answer (the TID that moved, or -ESRCH) goes back as NET_RECONF_DONE. */
#include "defs.h"

static struct tcb *candidate(uint32_t kind, uint32_t other) {
  struct tcb *fallback = NULL;
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    if (!proc_alive(p)) continue;
    for (struct tcb *t = p->rq_head; t; t = t->next) {
      if (t->children) continue;
      if (kind == TOS_RECONF_COMPUTE) return t;
      if (t->last_link == other + 1) return t;
      if (t->last_link && !fallback) fallback = t;
    }
  }
  return fallback;
}

/* Choose and migrate: the TID that moved, or -error. */
static int32_t shed(uint32_t kind, uint32_t other) {
  if ((kind != TOS_RECONF_COMPUTE && kind != TOS_RECONF_LINK) || other >= TOS_BOARD_NAME_COUNT || other == net_me())
    return -TOS_EINVAL;
  struct tcb *t = candidate(kind, other);
  if (!t) return -TOS_ESRCH;
  uint32_t tid = t->tid;
  int32_t r = migrate_out(t, other, NULL);
  return r < 0 ? r : (int32_t)tid;
}

static struct tcb *requester(uint32_t tid) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    struct tcb *t = proc_alive(p) ? p->slots[tid & (TOS_MAX_THREADS - 1)] : NULL;
    if (t && t->tid == tid && t->state == T_REMOTE) return t;
  }
  return NULL;
}

static void on_reconf(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  uint32_t r[2] = {o[2], (uint32_t)shed(o[0], o[1])};
  net_send_wait(from, NET_RECONF_DONE, r, 2);
}

static void on_reconf_done(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)from;
  (void)nops;
  struct tcb *t = requester(o[0]);
  if (t) finish(t, (int32_t)o[1]);
}

/* reconfigure(processor, kind, arg) */
SYSCALL(reconfigure) {
  if (a1 >= TOS_BOARD_NAME_COUNT) return -TOS_EINVAL;
  if (a1 == net_me()) return shed(a2, a3);
  uint32_t ops[3] = {a2, a3, t->tid};
  t->state = T_REMOTE; /* until the answer */
  net_send_wait(a1, NET_RECONF, ops, 3);
  return 0;
}

void balance_init(void) {
  net_register(NET_RECONF, on_reconf, 3);
  net_register(NET_RECONF_DONE, on_reconf_done, 2);
}
