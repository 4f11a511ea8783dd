// Seed 004's SMP simulator (sw/smpsim) against runs small enough to follow on paper. Each case
// gives the timeline it was derived from; `reach=0` removes the one-cycle barrier arrival so the
// arithmetic stays short, except where the arrival itself is what is checked.
#include "smp_config.h"
#include "smp_simulator.h"

#include <gtest/gtest.h>

using namespace smpsim;

namespace {

RunResult run_one(const std::string& text) {
  Config c = parse_config(text, "test.cfg");
  auto pts = expand_curve(c.curves.at(0));
  EXPECT_EQ(pts.size(), 1u);
  return simulate(pts.at(0).spec);
}

}  // namespace

// Two threads on two processors, no switch costs, mu=10, spin 5, 3 barriers.
//  t=10: cpu0's thread arrives first (serial order) and spins; cpu1's completes b1. cpu0 < cpu1,
//        so cpu0's poll at 10 came before the completion: it succeeds at its next poll, 11.
//  t=20: cpu1's thread arrives at b2, spins (deadline 25); t=21 cpu0's completes b2, and cpu1 > cpu0
//        so cpu1's poll at 21 already sees it: success at 21.
//  t=31: both arrive at b3; cpu1's completes it (passes at 31), cpu0's succeeds at 32.
TEST(SmpsimHandValues, TwoThreadsSpinAndSucceedInProcessorOrder) {
  RunResult r = run_one("p=2 q=1000 in=0 out=0 nosync=0 reach=0\nsync=2 barrier=3 spin=5 cmput=10\n");
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.elapsed, 32);
  EXPECT_EQ(r.spins, 3);
  EXPECT_EQ(r.successes, 3);
  EXPECT_DOUBLE_EQ(r.ssr(), 100.0);
  EXPECT_EQ(r.blocks, 0);
}

// One processor, always block, in=out=1, mu=10, 2 barriers:
//  t0: in 0-1, compute 1-11, block (out 11-12); t1: in 12-13, compute 13-23 completes b1 (t0 to
//  the tail), compute 23-33, block (out 33-34); t0: in 34-35, compute 35-45 completes b2.
//  Elapsed = 4 mu + 3 in + 2 out = 45; no spins; 2 blocks; 3 switches in.
TEST(SmpsimHandValues, AlwaysBlockOnOneProcessorAlternates) {
  RunResult r = run_one("p=1 q=1000 in=1 out=1 nosync=0 reach=0\nsync=2 barrier=2 spin=block cmput=10\n");
  EXPECT_EQ(r.elapsed, 45);
  EXPECT_EQ(r.spins, 0);
  EXPECT_LT(r.ssr(), 0);  // undefined without spins
  EXPECT_EQ(r.blocks, 2);
  EXPECT_EQ(r.switches, 3);
}

// As above with spin 3: each first arrival spins 3 cycles in vain before its switch-out.
//  t0: 0-1 in, 1-11 compute, 11-14 spin (fails), 14-15 out; t1: 15-16 in, 16-26 compute (b1),
//  26-36 compute, 36-39 spin (fails), 39-40 out; t0: 40-41 in, 41-51 compute (b2). SSR 0 of 2.
TEST(SmpsimHandValues, FailedSpinsCostTheirLimitAndCountInTheSsr) {
  RunResult r = run_one("p=1 q=1000 in=1 out=1 nosync=0 reach=0\nsync=2 barrier=2 spin=3 cmput=10\n");
  EXPECT_EQ(r.elapsed, 51);
  EXPECT_EQ(r.spins, 2);
  EXPECT_EQ(r.successes, 0);
  EXPECT_DOUBLE_EQ(r.ssr(), 0.0);
}

// Quantum 20 shared with one non-synchronizing thread; a one-thread job (every barrier completes
// at arrival) computing 30 per barrier:
//  J: 0-1 in, 1-21 run (10 left), 21-22 out; N: 22-23 in, 23-43, 43-44 out; J: 44-45 in, 45-55
//  (b1), 55-65 (20 left), 65-66 out; N: 66-67 in, 67-87, 87-88 out; J: 88-89 in, 89-109 (b2).
TEST(SmpsimHandValues, QuantumExpiryPreemptsAndResumesTheComputation) {
  RunResult r = run_one("p=1 q=20 in=1 out=1 nosync=1 reach=0\nsync=1 barrier=2 spin=block cmput=30\n");
  EXPECT_EQ(r.elapsed, 109);
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.sync_threads, 1);
  EXPECT_EQ(r.spins, 0);
}

// Wake-up placement, one processor, free switches, q=100, a 2-thread job (mu=10, always block)
// and one non-synchronizing thread N, start order J0 J1 N:
//  J0 0-10 blocks; J1 10-20 completes b1, computes 20-30, blocks at b2.
//  tail: J0 queued behind N; N runs 30-130 (a full quantum), J0 130-140 completes b2: 140.
//  head: J0 queued before N; J0 runs 30-40 and completes b2: 40.
TEST(SmpsimHandValues, TailPlacementWaitsAQuantumThatHeadPlacementSkips) {
  const std::string job = "sync=2 barrier=2 spin=block cmput=10\n";
  EXPECT_EQ(run_one("p=1 q=100 in=0 out=0 nosync=1 reach=0 wakeup=tail\n" + job).elapsed, 140);
  EXPECT_EQ(run_one("p=1 q=100 in=0 out=0 nosync=1 reach=0 wakeup=head\n" + job).elapsed, 40);
}

// Two processors, the same job and N. Both threads arrive at b1 at t=10: J0 (cpu0) blocks and N
// takes cpu0; J1 completes b1 at 10.
//  tail: J0 waits in the queue until J1 blocks at b2 (t=20), then runs 20-30: 30.
//  preempt: J0 preempts N on cpu0 at once, computes 10-20 beside J1, b2 completes at 20.
TEST(SmpsimHandValues, PreemptPlacementRunsTheReleasedThreadAtOnce) {
  const std::string job = "sync=2 barrier=2 spin=block cmput=10\n";
  EXPECT_EQ(run_one("p=2 q=1000 in=0 out=0 nosync=1 reach=0 wakeup=tail\n" + job).elapsed, 30);
  EXPECT_EQ(run_one("p=2 q=1000 in=0 out=0 nosync=1 reach=0 wakeup=preempt\n" + job).elapsed, 20);
}

// The default one-cycle arrival (the seed's 3.2.1.1 and 7.5.4): both threads finish computing at
// 10, reach the barrier at 11; cpu1's completes it, cpu0's first poll at 12 succeeds.
TEST(SmpsimHandValues, ReachingTheBarrierTakesOneCycleByDefault) {
  RunResult r = run_one("p=2 q=1000 in=0 out=0 nosync=0\nsync=2 barrier=1 spin=5 cmput=10\n");
  EXPECT_EQ(r.elapsed, 12);
  EXPECT_EQ(r.successes, 1);
}

// CS, CS+ and 2CS+ as the seed defines them (7.6: CS+ = CS+1 in a simulator), from in and out.
TEST(SmpsimHandValues, SpinNamesResolveFromTheContextSwitchCost) {
  Config c = parse_config(
      "p=32 q=100 in=3% out=3% nosync=0\nsync=2 barrier=1 spin=CS cmput=1\nsync=2 barrier=1 spin=CS+ cmput=1\n"
      "sync=2 barrier=1 spin=2CS+ cmput=1\nsync=2 barrier=1 spin=6% cmput=1%\nsync=2 barrier=1 spin=inf cmput=1\n",
      "t");
  auto& j = c.curves[0].jobs;
  EXPECT_EQ(j[0].spin, 6);
  EXPECT_EQ(j[1].spin, 7);
  EXPECT_EQ(j[2].spin, 13);
  EXPECT_EQ(j[3].spin, 6);
  EXPECT_DOUBLE_EQ(j[3].mu, 1.0);
  EXPECT_EQ(j[4].spin, kSpinForever);
}

// 2.2.2: 90% of N(mu, sigma) within mu +- z means z / sigma = 1.6449 (the normal table's 95th
// percentile); 90/15% of mu=100 is sigma = 15 / 1.6449 = 9.119.
TEST(SmpsimHandValues, SymbolicSigmaConvertsThroughTheNormalTable) {
  EXPECT_NEAR(sigma_from_density(90, 15), 9.1193, 1e-3);
  EXPECT_NEAR(sigma_from_density(68.27, 1), 1.0, 1e-3);
  Config c = parse_config("p=1 q=1000 in=0 out=0 nosync=0\nsync=1 barrier=1 spin=0 cmput=10% rand_cmput_sigma=90/15%\n", "t");
  EXPECT_NEAR(c.curves[0].jobs[0].sigma, 9.1193, 1e-3);
}

// Same configuration and seed: the same run; another seed with a shuffled queue: another run.
TEST(SmpsimHandValues, RunsAreDeterministicPerSeed) {
  const std::string job = "sync=10 barrier=50 spin=6% cmput=10% rand_cmput_sigma=90/15% instance_num=8\n";
  RunResult a = run_one("p=32 q=100 in=3% out=3% nosync=0 rand_ord=1 seed=7\n" + job);
  RunResult b = run_one("p=32 q=100 in=3% out=3% nosync=0 rand_ord=1 seed=7\n" + job);
  RunResult c = run_one("p=32 q=100 in=3% out=3% nosync=0 rand_ord=1 seed=8\n" + job);
  EXPECT_EQ(a.elapsed, b.elapsed);
  EXPECT_EQ(a.successes, b.successes);
  EXPECT_TRUE(a.elapsed != c.elapsed || a.successes != c.successes);
}

// stop=first (5.1.4): two one-thread jobs on two processors, free switches, mu 10 and 30, one
// barrier each (a lone thread completes its barrier on arrival). The first exit is at 10, the
// last at 30. Per-job counts: a 2-thread job beside them, spin 5, mu 10: job 2's cpu-0 thread
// spins once and succeeds (as in the first case above); the one-thread jobs never spin.
TEST(SmpsimHandValues, StopAtTheFirstExitAndCountSpinsPerJob) {
  const std::string jobs = "sync=1 barrier=1 spin=5 cmput=10\nsync=1 barrier=1 spin=5 cmput=30\n";
  RunResult last = run_one("p=2 q=1000 in=0 out=0 nosync=0 reach=0\n" + jobs);
  EXPECT_EQ(last.elapsed, 30);
  RunResult first = run_one("p=2 q=1000 in=0 out=0 nosync=0 reach=0 stop=first\n" + jobs);
  EXPECT_TRUE(first.completed);
  EXPECT_EQ(first.elapsed, 10);
  RunResult per = run_one("p=4 q=1000 in=0 out=0 nosync=0 reach=0\nsync=2 barrier=1 spin=5 cmput=10\n" + jobs);
  ASSERT_EQ(per.job_spins.size(), 3u);
  EXPECT_EQ(per.job_spins[0], 1);
  EXPECT_EQ(per.job_successes[0], 1);
  EXPECT_EQ(per.job_spins[1], 0);
  EXPECT_EQ(per.job_spins[2], 0);
}
