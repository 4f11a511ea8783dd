// Linux's SCHED_OTHER as seed 004's chapter 6 describes it (sw/smpsim/linux_sched.h), against
// decisions worked out by hand from the seed's Algorithms 1-5. Unless a case says otherwise the
// parameters are the seed's chapters 7-9 values for q = 100 cycles (6.6.2, Linux 2.2's shares of
// the quantum): PROC_CHANGE_PENALTY 75, SAME_ADDRESS_SPACE_BONUS 5, PREEMPTION_THRESHOLD 5, and
// every task has nice 0, so NICE_TO_TICKS = priority = 100 cycles.
#include "linux_sched.h"
#include "smp_config.h"
#include "smp_simulator.h"

#include <gtest/gtest.h>

using namespace smpsim;
using namespace smpsim::linux_sched;

namespace {

const Params kP{75, 5, 5};

Task task(int64_t counter, int processor, int64_t mm) { return Task{counter, 100, processor, mm}; }

Cpu busy(int current, int64_t last_active = 0) { return Cpu{current, false, last_active}; }
Cpu idle(int64_t last_active, bool flagged = false) { return Cpu{-1, flagged, last_active}; }

}  // namespace

// Algorithm 1 (+ the static priority of Linux's goodness): counter 40, last ran on cpu 2, job 7.
//  cpu 2, current job 7: 40 + 75 (same cpu) + 5 (same mm) + 100 = 220
//  cpu 1, current job 7: 40 + 5 + 100 = 145;   cpu 2, current job 3: 40 + 75 + 100 = 215
//  cpu 1, idle (no mm): 40 + 100 = 140;         counter 0: 0 whatever the bonuses (lines 3-4)
TEST(LinuxScheduler, GoodnessAddsTheSameCpuPenaltyAndTheAddressSpaceBonus) {
  const Task t = task(40, 2, 7);
  EXPECT_EQ(goodness(kP, t, 2, 7), 220);
  EXPECT_EQ(goodness(kP, t, 1, 7), 145);
  EXPECT_EQ(goodness(kP, t, 2, 3), 215);
  EXPECT_EQ(goodness(kP, t, 1, kNoMm), 140);
  EXPECT_EQ(goodness(kP, task(0, 2, 7), 2, 7), 0);
  // The idle task has no address space: a task without one (kNoMm) gets no bonus from it.
  EXPECT_EQ(goodness(kP, task(40, 1, kNoMm), 2, kNoMm), 140);
}

// NICE_TO_TICKS in cycles (6.4.4): Linux 2.2's static priority 20 - nice ticks of a 20-tick
// quantum. q=100: nice 0 -> 100, nice -20 -> 200, nice 19 -> 5; q=10, nice 19 -> 0.5, kept at 1.
TEST(LinuxScheduler, NiceScalesTheQuantum) {
  EXPECT_EQ(nice_to_cycles(0, 100), 100);
  EXPECT_EQ(nice_to_cycles(-20, 100), 200);
  EXPECT_EQ(nice_to_cycles(19, 100), 5);
  EXPECT_EQ(nice_to_cycles(19, 10), 1);
  // goodness counts the priority too, so a niced task loses to an equal counter.
  Task a = task(50, -1, 1), b = task(50, -1, 2);
  b.priority = nice_to_cycles(10, 100);  // 50
  EXPECT_EQ(goodness(kP, a, 0, kNoMm), 150);
  EXPECT_EQ(goodness(kP, b, 0, kNoMm), 100);
}

// Algorithm 4, line 21: counter <- counter/2 + NICE_TO_TICKS, integer halving, blocked tasks
// included. 0 -> 100, 1 -> 0 + 100, 37 -> 18 + 100 = 118, 200 -> 200; 199 -> 99 + 100 = 199, so
// a task that never runs climbs towards but stays below twice its quantum (6.5.4, 7.5.3).
TEST(LinuxScheduler, EpochRecalculationHalvesAndRefills) {
  std::vector<Task> ts = {task(0, 0, 1), task(1, 0, 1), task(37, 0, 1), task(200, 0, 1), task(199, 0, 1)};
  recalculate(ts);
  EXPECT_EQ(ts[0].counter, 100);
  EXPECT_EQ(ts[1].counter, 100);
  EXPECT_EQ(ts[2].counter, 118);
  EXPECT_EQ(ts[3].counter, 200);
  EXPECT_EQ(ts[4].counter, 199);
  std::vector<Task> sleeper = {task(0, 0, 1)};
  for (int e = 0; e < 12; ++e) recalculate(sleeper);  // 100, 150, 175, 187, 193, 196, 198, 199, 199...
  EXPECT_EQ(sleeper[0].counter, 199);
}

// Algorithm 4, lines 5-15, on cpu 0 whose current task (job 1) is blocking:
//  A: counter 100, last on cpu 1, job 9  -> 100 + 100           = 200
//  B: counter  30, last on cpu 0, job 8  ->  30 + 75 + 100       = 205  <- PROC_CHANGE_PENALTY
//  C: counter  90, last on cpu 3, job 1  ->  90 + 5 + 100        = 195
// B wins although 70 cycles poorer; without the penalty A does (200 vs 130 vs 195).
TEST(LinuxScheduler, ProcChangePenaltyKeepsATaskOnItsProcessor) {
  std::vector<Task> ts = {task(0, 0, 1), task(100, 1, 9), task(30, 0, 8), task(90, 3, 1)};
  Pick pk = pick_next(kP, ts, {1, 2, 3}, 0, 0, false);
  EXPECT_EQ(pk.next, 2);
  EXPECT_EQ(pk.g, 205);
  Params no_pcp = kP;
  no_pcp.proc_change_penalty = 0;
  pk = pick_next(no_pcp, ts, {1, 2, 3}, 0, 0, false);
  EXPECT_EQ(pk.next, 1);
  EXPECT_EQ(pk.g, 200);
}

// Ties (strict > in line 13): a runnable prev keeps the processor; otherwise the first in run
// queue order wins; the address-space bonus breaks an otherwise equal pair (7.5.2's staircase).
//  prev P: counter 20, cpu 0, job 1 -> 20 + 75 + 5 + 100 = 200; E: counter 25, cpu 0, job 2 -> 200.
//  F: counter 50, cpu 1, job 9 -> 150 and G: counter 50, cpu 1, job 1 -> 155 (blocking prev's job).
TEST(LinuxScheduler, TiesGoToPrevThenToTheRunQueueOrder) {
  std::vector<Task> ts = {task(20, 0, 1), task(25, 0, 2), task(50, 1, 9), task(50, 1, 1), task(50, 1, 9)};
  EXPECT_EQ(pick_next(kP, ts, {1}, 0, 0, true).next, 0);
  EXPECT_EQ(pick_next(kP, ts, {2, 4}, 0, 0, false).next, 2);
  EXPECT_EQ(pick_next(kP, ts, {4, 2}, 0, 0, false).next, 4);
  EXPECT_EQ(pick_next(kP, ts, {2, 3}, 0, 0, false).next, 3);
  // Everyone exhausted: 0, the caller's cue for a new epoch; nobody at all: -1 (lines 17-19).
  std::vector<Task> dry = {task(0, 0, 1), task(0, 1, 2)};
  EXPECT_EQ(pick_next(kP, dry, {1}, 0, 0, true).g, 0);
  EXPECT_EQ(pick_next(kP, dry, {}, 0, 0, false).g, -1);
}

// Algorithm 2's order of choice (6.6.1, steps 1-3) for t (counter 100, last on cpu 2, job 9).
TEST(LinuxScheduler, RescheduleIdlePrefersItsOwnIdleCpuThenTheOldestIdleThenTheBestVictim) {
  std::vector<Task> ts = {task(100, 2, 9), task(50, 0, 5), task(50, 1, 6), task(50, 2, 7), task(50, 3, 8)};
  // Step 1: its previous processor is idle -> cpu 2, although cpu 1 has been idle longer.
  std::vector<Cpu> cs = {busy(1), idle(10), idle(40), busy(4)};
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 2);
  EXPECT_TRUE(cs[2].need_resched);
  EXPECT_FALSE(cs[1].need_resched);
  // Step 2: cpu 2 busy; idle cpus 1 (last active 50) and 3 (20) -> the least recently active, 3.
  cs = {busy(1), idle(50), busy(3), idle(20)};
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 3);
  cs = {busy(1), idle(20), busy(3), idle(20)};  // equal: the lower id
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 1);
  // Step 3: all busy. goodness(t, c) - goodness(current, c), both against current's mm:
  //  cpu 0, X0 (counter 10, cpu 0, job 5): 200 - (10 + 75 + 5 + 100 = 190)   =  10
  //  cpu 1, X1 (counter 60, cpu 1, job 9, t's job): 205 - 240                 = -35
  //  cpu 2, X2 (counter  2, cpu 2, job 6): (100 + 75 + 100) - 182              =  93
  //  cpu 3, X3 (counter 50, cpu 3, job 4): 200 - 230                          = -30
  ts = {task(100, 2, 9), task(10, 0, 5), task(60, 1, 9), task(2, 2, 6), task(50, 3, 4)};
  cs = {busy(1), busy(2), busy(3), busy(4)};
  EXPECT_EQ(preemption_goodness(kP, ts, cs, 0, 0), 10);
  EXPECT_EQ(preemption_goodness(kP, ts, cs, 0, 1), -35);
  EXPECT_EQ(preemption_goodness(kP, ts, cs, 0, 2), 93);
  EXPECT_EQ(preemption_goodness(kP, ts, cs, 0, 3), -30);
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 2);
  // Without cpu 2's penalty-carrying victim the next best is cpu 0 (10 > 5).
  ts[3] = task(100, 2, 6);  // X2 now 280: diff -5
  cs = {busy(1), busy(2), busy(3), busy(4)};
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 0);
}

// PREEMPTION_THRESHOLD is strict (line 12): t (cpu 0, job 9) against X (counter 45, cpu 0, job 5),
// goodness(X) = 45 + 75 + 5 + 100 = 225. t counter 55: 230 - 225 = 5, not above 5; 56: 6, taken.
// Linux 2.4's parameters (15 ticks = 300% of a 5-tick quantum) make a migrating preemption
// impossible (6.6.2): t from cpu 1 with a full 200-cycle counter, X with 1 cycle left:
// 200 + 100 - (1 + 300 + 20 + 100) < 0.
TEST(LinuxScheduler, PreemptionThresholdIsStrictAndLinux24ForbidsMigratingPreemption) {
  std::vector<Task> ts = {task(55, 0, 9), task(45, 0, 5)};
  std::vector<Cpu> cs = {busy(1)};
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), -1);
  EXPECT_FALSE(cs[0].need_resched);
  ts[0].counter = 56;
  EXPECT_EQ(reschedule_idle(kP, ts, cs, 0, false), 0);
  EXPECT_TRUE(cs[0].need_resched);
  const Params linux24{300, 20, 20};
  // t last ran on cpu 2; cpus 0-2 run X (counter 1), Y (100, on cpu 1), Z (200, on cpu 2).
  //  2.4: cpu 0: 300 - 421 < 0; cpu 1: 300 - 520 < 0; cpu 2 (t's own): 600 - 620 < 0 -> none.
  //  2.2's shares: cpu 0: 300 - 181 = 119; cpu 1: 300 - 280 = 20; cpu 2: 375 - 380 -> cpu 0.
  std::vector<Task> t24 = {task(200, 2, 9), task(1, 0, 5), task(100, 1, 3), task(200, 2, 4)};
  std::vector<Cpu> c24 = {busy(1), busy(2), busy(3)};
  EXPECT_LT(preemption_goodness(linux24, t24, c24, 0, 0), 0);
  EXPECT_EQ(reschedule_idle(linux24, t24, c24, 0, false), -1);
  EXPECT_EQ(reschedule_idle(kP, t24, c24, 0, false), 0);  // 2.2's shares: 300 - 181 = 119
}

// The race of 6.6.1 (its example): cpus 0-3 busy running t_i's old siblings, 4-7 idle, cpu 7 the
// least recently active; t_0..t_3 (last on cpus 0-3) wake. SILLY: every reschedule_idle sees cpu 7
// idle -> all four on cpu 7, three cpus lost. AIP: a flagged idle cpu is taken -> 7, 6, 5, 4.
// SMART: idle processors least recently active first -> the same.
TEST(LinuxScheduler, SillyWakeUpLosesIdleCpusThatAipAndSmartUse) {
  std::vector<Task> ts;
  for (int i = 0; i < 4; ++i) ts.push_back(task(100, i, 1));
  for (int i = 0; i < 4; ++i) ts.push_back(task(100, i, 2 + i));  // the running tasks of cpus 0-3
  auto cpus = [] {
    return std::vector<Cpu>{busy(4), busy(5), busy(6), busy(7), idle(40), idle(30), idle(20), idle(10)};
  };
  std::vector<Cpu> cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1, 2, 3}, Scheme::Silly), (std::vector<int>{7, 7, 7, 7}));
  int flagged = 0;
  for (auto& c : cs) flagged += c.need_resched;
  EXPECT_EQ(flagged, 1);
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1, 2, 3}, Scheme::Aip), (std::vector<int>{7, 6, 5, 4}));
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1, 2, 3}, Scheme::Smart), (std::vector<int>{7, 6, 5, 4}));
}

// Step 1 made global (SMART): idle cpus 0 (last active 5) and 1 (50); t0 last ran on busy cpu 2,
// t1 on cpu 0. SILLY: t0 -> oldest idle cpu 0, t1 -> its own cpu 0, still "idle" -> [0, 0].
// AIP: t1's cpu 0 is flagged -> next oldest idle, 1 -> [0, 1]. SMART: t1 gets its own cpu 0
// first, t0 the other idle one -> [1, 0].
TEST(LinuxScheduler, SmartGivesEachWokenTaskItsOwnIdleCpuFirst) {
  std::vector<Task> ts = {task(100, 2, 1), task(100, 0, 1), task(100, 2, 2)};
  auto cpus = [] { return std::vector<Cpu>{idle(5), idle(50), busy(2)}; };
  std::vector<Cpu> cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1}, Scheme::Silly), (std::vector<int>{0, 0}));
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1}, Scheme::Aip), (std::vector<int>{0, 1}));
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1}, Scheme::Smart), (std::vector<int>{1, 0}));
}

// The same wake-up walked the other way (wake_order=lifo: t1 blocked last, so it is woken first).
// AIP: t1 gets its own idle cpu 0, t0 (cpu 2 busy) the oldest idle one left, 1 -> [0, 1] for
// [t1, t0]: SMART's assignment, which does not depend on the order. The simulator walks the
// blocked threads in the order they blocked unless the curve says wake_order=lifo.
TEST(LinuxScheduler, AipsAssignmentDependsOnTheWakeOrderSmartsDoesNot) {
  std::vector<Task> ts = {task(100, 2, 1), task(100, 0, 1), task(100, 2, 2)};
  auto cpus = [] { return std::vector<Cpu>{idle(5), idle(50), busy(2)}; };
  std::vector<Cpu> cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {1, 0}, Scheme::Aip), (std::vector<int>{0, 1}));
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {1, 0}, Scheme::Smart), (std::vector<int>{0, 1}));
  const std::string job = "\nsync=3 barrier=1 spin=block cmput=10\n";
  Config c = parse_config("p=3 q=100 in=3 out=3 nosync=0 sched=linux wakeup=aip" + job +
                          "p=3 q=100 in=3 out=3 nosync=0 sched=linux wakeup=aip wake_order=lifo" + job, "t.cfg");
  EXPECT_FALSE(expand_curve(c.curves.at(0)).at(0).spec.wake_lifo);
  EXPECT_TRUE(expand_curve(c.curves.at(1)).at(0).spec.wake_lifo);
}

// Algorithm 5 (SMART's last phase): no idle cpu; t0 and t1 (counter 100, job 9, last on cpus 2
// and 3) against X0 (counter 1 on cpu 0: 181), X1 (counter 12 on cpu 1: 192), X2, X3 (counter
// 200 on their cpus: 380). d(t, cpu 0) = 200 - 181 = 19, d(t, cpu 1) = 8, cpus 2-3 negative.
// Sequential reschedule_idle (AIP, SILLY): both pick the best, cpu 0 -> [0, 0]. SMART sorts the
// triplets (19, t0, 0), (19, t1, 0), (8, t0, 1), (8, t1, 1) -> t0 on 0, t1 on 1.
TEST(LinuxScheduler, SmartAssignsBusyCpusByDecreasingGoodnessDifference) {
  std::vector<Task> ts = {task(100, 2, 9), task(100, 3, 9), task(1, 0, 5), task(12, 1, 6), task(200, 2, 7),
                          task(200, 3, 8)};
  auto cpus = [] { return std::vector<Cpu>{busy(2), busy(3), busy(4), busy(5)}; };
  std::vector<Cpu> cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1}, Scheme::Aip), (std::vector<int>{0, 0}));
  cs = cpus();
  EXPECT_EQ(wake_up(kP, ts, cs, {0, 1}, Scheme::Smart), (std::vector<int>{0, 1}));
  EXPECT_TRUE(cs[0].need_resched && cs[1].need_resched && !cs[2].need_resched && !cs[3].need_resched);
}

// The whole simulator under sched=linux, one processor, free switches, q=10: a one-thread job J
// computing 25 and one non-synchronizing thread N, start order J N, both counters 10.
//  0-10 J runs; counter 0: N (10 + 10 = 20) beats J (0).        switch 2
//  10-20 N runs; counter 0, J still 0: new epoch (1): both 0/2 + 10 = 10; N, prev and on its
//        processor with its own mm (10 + 8 + 1 + 10 = 29 vs J 10 + 8 + 10 = 28), keeps running.
//  20-30 N; counter 0, J has 10 left: J.                        switch 3
//  30-40 J (20 of 25 done); counter 0, N 0: epoch 2; J keeps the processor; 40-45 J finishes.
// (PROC_CHANGE_PENALTY 75% of q = 7.5 and the bonus 5% = 0.5 round to 8 and 1 cycles.) SCHED_RR
// switches at 0, 10, 20, 30 and 40: 5 switches, also done at 45.
TEST(LinuxScheduler, EpochsLetTheRunningTaskKeepItsProcessor) {
  auto run = [](const std::string& sched) {
    Config c = parse_config("p=1 q=10 in=0 out=0 nosync=1 reach=0 " + sched + "\nsync=1 barrier=1 spin=block cmput=25\n",
                            "t.cfg");
    return simulate(expand_curve(c.curves.at(0)).at(0).spec);
  };
  RunResult lx = run("sched=linux");
  EXPECT_TRUE(lx.completed);
  EXPECT_EQ(lx.elapsed, 45);
  EXPECT_EQ(lx.epochs, 2);
  EXPECT_EQ(lx.switches, 3);
  RunResult rr = run("sched=rr");
  EXPECT_EQ(rr.elapsed, 45);
  EXPECT_EQ(rr.epochs, 0);
  EXPECT_EQ(rr.switches, 5);
}
