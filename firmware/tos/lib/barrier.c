/* Barriers (seed 004): the library half of barrier_wait. The waiting policy is a setting of
 * the barrier kept in the process's memory (so a thread on any board reads the same one):
 * block, spin, or two-phase with a spin limit in microseconds or as a multiple of the context
 * switch this board measured (CS, CS+, 2CS+). A spinner polls the barrier's state on its own
 * board with barrier_poll, a call the kernel answers without a pass of its main loop. */
#include <tos/tos.h>

static struct {
  int policy;
  unsigned limit_us;
} setting[TOS_MAX_BARRIERS]; /* zero: block, the kernel's channels' only way to wait */

static long check(long r) {
  if (r < 0) tos_errno = (int)-r;
  return r;
}

int barrier_init(int n) { return (int)check(__tos_syscall(SYS_BARRIER_INIT, n, 0, 0, 0, 0, 0)); }

int barrier_policy(int b, int policy, unsigned limit_us) {
  if (b < 0 || b >= TOS_MAX_BARRIERS || policy < TOS_BARRIER_BLOCK || policy > TOS_BARRIER_TWO_PHASE ||
      limit_us > TOS_BARRIER_SPIN_MAX_US)
    return (int)check(-TOS_EINVAL);
  setting[b].policy = policy;
  setting[b].limit_us = limit_us;
  return 0;
}

/* The time of one thread switch on a board: two threads of this process there yield to each
 * other (out of one, into the other: the seed's CS = in + out), with nothing else ready there if
 * the caller wants it pure. Called on the home board (it creates the two threads and waits for
 * its children: before the caller has others); the first value is kept. */
static volatile int cs_stop, cs_ready;
static volatile unsigned cs_us;
static void cs_partner(void *arg) {
  (void)arg;
  cs_ready = 1;
  while (!cs_stop) yield();
  exit(0);
}
static void cs_timer(void *arg) {
  (void)arg;
  enum { ROUNDS = 200 };
  while (!cs_ready) yield();
  unsigned t0 = (unsigned)time_us();
  for (int i = 0; i < ROUNDS; ++i) yield();
  unsigned dt = (unsigned)time_us() - t0;
  cs_us = (dt + ROUNDS) / (2 * ROUNDS); /* each round: to the partner and back */
  if (!cs_us) cs_us = 1;
  cs_stop = 1;
  exit(0);
}
unsigned barrier_measure_cs_on(int board) {
  if (cs_us) return cs_us;
  cs_stop = cs_ready = 0;
  if (!create(0, 2, board, cs_partner, 0)) return 0;
  if (!create(0, 2, board, cs_timer, 0)) {
    cs_stop = 1;
    wait();
    return 0;
  }
  wait();
  return cs_us;
}
unsigned barrier_measure_cs(void) { return barrier_measure_cs_on(HERE); }

int barrier_policy_cs(int b, int policy, unsigned cs_percent) {
  unsigned cs = barrier_measure_cs();
  if (!cs) return -1;
  return barrier_policy(b, policy, (cs * cs_percent + 50) / 100);
}

int barrier_wait_stats(int b, struct barrier_stats *st) {
  if (b < 0 || b >= TOS_MAX_BARRIERS) return (int)check(-TOS_EINVAL);
  long r = __tos_syscall(SYS_BARRIER_ARRIVE, b, setting[b].policy, setting[b].limit_us, 0, 0, 0);
  if (r == 1) {
    while ((r = __tos_syscall(SYS_BARRIER_POLL, b, 0, 0, 0, 0, 0)) == 1) {
    }
    if (st && r == 0) ++st->spins, ++st->spin_ok;
    if (st && r == 2) ++st->spins, ++st->blocks;
    if (st && r == 3) ++st->last;
  } else if (st && r == 2) {
    ++st->blocks;
  } else if (st && (r == 0 || r == 3)) {
    ++st->last;
  }
  return r < 0 ? (int)check(r) : 0;
}

int barrier_wait(int b) { return barrier_wait_stats(b, NULL); }

int sched_wakeup(int placement) { return (int)check(__tos_syscall(SYS_SCHED_WAKEUP, placement, 0, 0, 0, 0, 0)); }
