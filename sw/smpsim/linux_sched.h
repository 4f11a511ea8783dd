// The decisions of Linux's SCHED_OTHER scheduler as seed 004 describes them (Tsafrir 2001,
// chapter 6: Linux 2.2-2.4, kernel/sched.c): goodness (Algorithm 1), reschedule_idle
// (Algorithm 2), the choice inside schedule (Algorithm 4, lines 5-22) with the epoch
// recalculation, and the three wake-up schemes of 6.6.1.2 (SMART, AIP, SILLY) that stand for
// __wake_up_common (Algorithm 3) and its race. Pure functions over a snapshot of the tasks and
// processors, so each decision can be checked by hand; the simulator (smp_simulator.cpp) owns
// time, and asks these functions what Linux would do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace smpsim::linux_sched {

// The tunable parameters of 6.6.2, in cycles: the seed's counter has cycle accuracy and its
// chapters 7-9 use Linux 2.2's values relative to the quantum (PROC_CHANGE_PENALTY 15 ticks =
// 75% of a 20-tick quantum, SAME_ADDRESS_SPACE_BONUS and PREEMPTION_THRESHOLD 1 tick = 5%).
struct Params {
  int64_t proc_change_penalty = 75;
  int64_t mm_bonus = 5;
  int64_t preemption_threshold = 5;
};

// An address space: the threads of one parallel job share one (6.4.4, `mm`); the idle task has
// none, so nothing gets the bonus on an idle processor.
constexpr int64_t kNoMm = -1;

struct Task {
  int64_t counter = 0;   // dynamic priority: cycles left in this epoch (6.4.4)
  int64_t priority = 0;  // static priority as cycles, NICE_TO_TICKS(nice): the epoch's refill
  int processor = -1;    // the last processor it ran on (-1: never ran)
  int64_t mm = kNoMm;
};

struct Cpu {
  int current = -1;           // the task it runs, is switching from or to (-1: the idle task)
  bool need_resched = false;  // schedule() will run on it shortly (6.4.4)
  int64_t last_active = 0;    // the time of its last schedule(): "least recently active" (6.5.2)
  bool idle() const { return current < 0; }
};

enum class Scheme { Smart, Aip, Silly };

// NICE_TO_TICKS of 6.4.4 in cycles: nice 0 (the seed's 6.3: every task) gets the default quantum
// q; Linux 2.2's static priority is 20 - nice ticks of a 20-tick quantum, never below one.
int64_t nice_to_cycles(int nice, int64_t q);

// Algorithm 1, plus Linux's own `weight += p->priority` (2.2; 2.4 adds 20 - nice), which the
// seed leaves out because with equal nice values it is the same constant for every task that
// has not exhausted its quantum and so never changes a comparison.
// (Inline: the simulator evaluates it for every runnable task at every decision.)
inline int64_t goodness(const Params& p, const Task& t, int this_cpu, int64_t this_mm) {
  // Lines 3-4: an exhausted task is worth 0 whatever else holds, so only a new epoch revives it.
  if (t.counter <= 0) return 0;
  int64_t w = t.counter;
  // Lines 5-6: staying on the processor whose cache holds the task is worth PROC_CHANGE_PENALTY.
  if (t.processor == this_cpu) w += p.proc_change_penalty;
  // Lines 7-8: the address space of the processor's current task (a thread of the same job).
  if (t.mm != kNoMm && t.mm == this_mm) w += p.mm_bonus;
  return w + t.priority;
}

// Algorithm 4, lines 20-21 (6.4.4): counter <- counter/2 + NICE_TO_TICKS(nice) for every task,
// running and blocked ones included; the halving keeps it below twice the refill.
void recalculate(std::vector<Task>& tasks);

// Algorithm 4, lines 5-15: the best of `prev` (if still runnable; it wins ties) and the runnable
// tasks that are not executing, in run-list order (the first of equal goodness wins). g = -1: no
// task at all; g = 0: all exhausted, the caller starts a new epoch and asks again (line 22).
struct Pick {
  int next = -1;
  int64_t g = -1;
};
Pick pick_next(const Params& p, const std::vector<Task>& tasks, const std::vector<int>& candidates, int this_cpu,
               int prev, bool prev_runnable);

// pick_next with the candidates the tasks of `list` for which is_candidate(task) holds, in list
// order: the simulator passes its run list as it is rather than copying the candidates out.
template <class IsCandidate>
Pick pick_next_of(const Params& p, const std::vector<Task>& tasks, const std::vector<int>& list,
                  IsCandidate is_candidate, int this_cpu, int prev, bool prev_runnable) {
  // this_cpu's current task is prev even when prev is blocking: its address space still gives the
  // bonus, which is how a blocking thread hands its processor to a sibling (7.5.2).
  const int64_t this_mm = prev >= 0 ? tasks[size_t(prev)].mm : kNoMm;
  Pick r;
  if (prev >= 0 && prev_runnable) r = {prev, goodness(p, tasks[size_t(prev)], this_cpu, this_mm)};
  // goodness() without branches (the run list is long and its tasks' terms vary at random): a
  // non-candidate scores -2, below a Pick without a task (-1), so it never wins.
  for (int t : list) {
    const Task& k = tasks[size_t(t)];
    int64_t w = k.counter + k.priority;
    w += (k.processor == this_cpu) * p.proc_change_penalty;
    w += (k.mm != kNoMm && k.mm == this_mm) * p.mm_bonus;
    int64_t g = k.counter > 0 ? w : 0;
    g = is_candidate(t) ? g : -2;
    if (g > r.g) r = {t, g};  // strict: prev, then the earliest in the run list, wins a tie
  }
  return r;
}

// The goodness difference reschedule_idle uses on a busy processor c (Algorithm 2, line 11):
// goodness(t, c) - goodness(c.current_task, c), both against the current task's address space.
int64_t preemption_goodness(const Params& p, const std::vector<Task>& tasks, const std::vector<Cpu>& cpus, int t,
                            int c);

// Algorithm 2: the processor t's wake-up asks to reschedule, or -1; sets its need_resched flag.
// Order of choice (6.6.1): t's previous processor if idle, else the least recently active idle
// processor (lowest id on a tie), else the busy processor with the largest goodness difference
// above PREEMPTION_THRESHOLD (lowest id on a tie). avoid_flagged_idle: AIP's fix (6.6.1.2), an
// idle processor whose need_resched is already set does not count as idle.
int reschedule_idle(const Params& p, const std::vector<Task>& tasks, std::vector<Cpu>& cpus, int t,
                    bool avoid_flagged_idle);

// The wake-up of a barrier's blocked tasks (woken, in wake order), by scheme (6.6.1.2):
// SILLY: Algorithm 3 as it races, reschedule_idle for every task before any schedule() runs;
// AIP: the same with reschedule_idle's fix; SMART: the same three steps made global over all the
// woken tasks (previous idle processors, then idle ones least recently active first, then busy
// processors by decreasing goodness difference, Algorithm 5), each processor used once.
// Sets the need_resched flags; returns the processors chosen, one entry per woken task (-1: none).
std::vector<int> wake_up(const Params& p, const std::vector<Task>& tasks, std::vector<Cpu>& cpus,
                         const std::vector<int>& woken, Scheme scheme);

}  // namespace smpsim::linux_sched
