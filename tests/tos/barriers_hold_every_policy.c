/* Barriers across boards (seed 004, issue 34) under every waiting policy and both wake-up
 * placements: block, spin, two-phase with a short limit (most spins fail) and two-phase with
 * 2CS+ of the measured switch. Ten threads of this process on the five slaves (two per board,
 * placed at random), each computing a random time and yielding at random between barriers, so
 * that arrivals come in every order, locally and by message. Before each barrier a thread writes
 * the round it arrives at into its own word; after passing, it reads another thread's word
 * (chosen at random): a thread that passed early would find a smaller round there. Every thread
 * must pass every barrier (none lost: each returns its count; a lost release leaves the run with
 * no progress, which fails it), and the waits must have taken the ways the policy allows (no
 * spin under block, no block under spin, both under the short two-phase limit). */
#include "tos_check.h"

#define THREADS 10
#define ROUNDS 12
struct slot { volatile int round; char pad[1020]; }; /* a page each: a writer keeps its own page */
static struct slot word[THREADS] __attribute__((aligned(1024)));
static volatile int early, bad_calls;
static struct barrier_stats stats[THREADS];
static int bar;

static unsigned rnd(unsigned *s) { *s = TOS_RAND_NEXT(*s); return *s >> 16; }

static void worker(void *arg) {
  int me = (int)(long)arg;
  unsigned s = 77u + (unsigned)me * 7919u;
  for (int r = 1; r <= ROUNDS; ++r) {
    unsigned long t0 = time_us(), us = rnd(&s) % 3000;
    while (time_us() - t0 < us) {
    }
    if (rnd(&s) % 4 == 0) yield();
    word[me].round = r;
    if (barrier_wait_stats(bar, &stats[me]) != 0) ++bad_calls;
    int other = (int)(rnd(&s) % THREADS);
    if (word[other].round < r) ++early;
  }
  exit(0);
}

static void set_wakeup(void *arg) { exit(sched_wakeup((int)(long)arg) >= 0 ? 0 : 1); }

static void run(const char *name, int policy, unsigned limit_us, int placement) {
  for (int i = 0; i < THREADS; ++i) word[i].round = 0, memset(&stats[i], 0, sizeof stats[i]);
  bar = barrier_init(THREADS);
  CHECK(bar >= 0, "barrier_init: %s", tos_strerror(tos_errno));
  CHECK(barrier_policy(bar, policy, limit_us) == 0, "policy");
  unsigned s = 12345u + (unsigned)policy * 31u + (unsigned)placement;
  int per_board[6] = {0};
  for (int i = 0; i < THREADS; ++i) {
    int b;
    do b = 1 + (int)(rnd(&s) % 5); while (per_board[b] == 2);
    ++per_board[b];
    CHECK(create(i, 4, b, worker, (void *)(long)i) > 0, "create on %d: %s", b, tos_strerror(tos_errno));
  }
  CHECK(wait() == 0, "a worker failed");
  struct barrier_stats sum = {0, 0, 0, 0};
  for (int i = 0; i < THREADS; ++i) {
    CHECK(word[i].round == ROUNDS, "%s: thread %d ended at round %d", name, i, word[i].round);
    sum.spins += stats[i].spins, sum.spin_ok += stats[i].spin_ok, sum.blocks += stats[i].blocks, sum.last += stats[i].last;
  }
  printf("%s (%s wake-up): spins %u, successful %u, blocks %u, last arrivals %u\n", name,
         placement == TOS_WAKE_HEAD ? "head" : "tail", sum.spins, sum.spin_ok, sum.blocks, sum.last);
  CHECK(!early, "%s: %d thread(s) passed a barrier before every thread had arrived", name, early);
  CHECK(!bad_calls, "%s: barrier_wait failed %d times", name, bad_calls);
  /* every wait is counted once: as a spin (won or lost), a block, or the last arrival */
  CHECK(sum.spin_ok + sum.blocks + sum.last == THREADS * ROUNDS,
        "%s: %u waits accounted for, %d made", name, sum.spin_ok + sum.blocks + sum.last, THREADS * ROUNDS);
  CHECK(sum.last == ROUNDS, "%s: %u last arrivals for %d barriers", name, sum.last, ROUNDS);
  if (policy == TOS_BARRIER_BLOCK) CHECK(sum.spins == 0 && sum.blocks > 0, "%s: spun", name);
  if (policy == TOS_BARRIER_SPIN) CHECK(sum.blocks == 0 && sum.spin_ok > 0, "%s: blocked", name);
  if (policy == TOS_BARRIER_TWO_PHASE && limit_us < 100) CHECK(sum.blocks > 0, "%s: no spin failed", name);
}

int main(void) {
  /* refusals: a barrier for no thread, a bad policy, a wait at a barrier never made */
  CHECK(barrier_init(0) < 0 && tos_errno == TOS_EINVAL, "barrier_init(0)");
  CHECK(barrier_init(TOS_MAX_THREADS + 1) < 0 && tos_errno == TOS_EINVAL, "barrier_init(65)");
  CHECK(barrier_policy(0, 7, 0) < 0, "policy 7");
  CHECK(barrier_wait(TOS_MAX_BARRIERS - 1) < 0 && tos_errno == TOS_EINVAL, "a wait at a barrier never made");
  CHECK(__tos_syscall(SYS_BARRIER_POLL, 0, 0, 0, 0, 0, 0) == -TOS_EINVAL, "a poll without an arrival");
  CHECK(sched_wakeup(5) < 0 && tos_errno == TOS_EINVAL, "placement 5");
  unsigned cs = barrier_measure_cs();
  CHECK(cs > 0 && cs < 20000, "measured switch %u us", cs);
  printf("measured thread switch: %u us\n", cs);
  for (int w = TOS_WAKE_TAIL; w <= TOS_WAKE_HEAD; ++w) {
    /* every board's scheduler: a thread of this (privileged) process on each sets it */
    for (int b = 1; b <= 5; ++b) CHECK(create(100 + b, 2, b, set_wakeup, (void *)(long)w) > 0, "setter");
    CHECK(wait() == 0, "sched_wakeup on a slave refused");
    run("block", TOS_BARRIER_BLOCK, 0, w);
    run("spin", TOS_BARRIER_SPIN, 0, w);
    run("two-phase 50 us", TOS_BARRIER_TWO_PHASE, 50, w);
    run("two-phase 2CS+", TOS_BARRIER_TWO_PHASE, cs * 210 / 100, w);
  }
  tos_pass("barriers_hold_every_policy");
  return 0;
}
