// Linux SCHED_OTHER's decisions (seed 004, chapter 6). Section numbers are the seed's.
#include "linux_sched.h"

#include <algorithm>
#include <tuple>

namespace smpsim::linux_sched {

int64_t nice_to_cycles(int nice, int64_t q) { return std::max<int64_t>(1, q * (20 - nice) / 20); }

void recalculate(std::vector<Task>& tasks) {
  for (auto& t : tasks) t.counter = t.counter / 2 + t.priority;
}

Pick pick_next(const Params& p, const std::vector<Task>& tasks, const std::vector<int>& candidates, int this_cpu,
               int prev, bool prev_runnable) {
  return pick_next_of(p, tasks, candidates, [](int) { return true; }, this_cpu, prev, prev_runnable);
}

int64_t preemption_goodness(const Params& p, const std::vector<Task>& tasks, const std::vector<Cpu>& cpus, int t,
                            int c) {
  const int cur = cpus[size_t(c)].current;
  const int64_t mm = tasks[size_t(cur)].mm;
  return goodness(p, tasks[size_t(t)], c, mm) - goodness(p, tasks[size_t(cur)], c, mm);
}

namespace {

bool free_idle(const Cpu& c, bool avoid_flagged) { return c.idle() && !(avoid_flagged && c.need_resched); }

}  // namespace

int reschedule_idle(const Params& p, const std::vector<Task>& tasks, std::vector<Cpu>& cpus, int t,
                    bool avoid_flagged_idle) {
  const int n = int(cpus.size());
  int next = -1;
  const int prev = tasks[size_t(t)].processor;
  if (prev >= 0 && free_idle(cpus[size_t(prev)], avoid_flagged_idle)) {
    next = prev;  // lines 4-5: its cache may still be warm
  } else {
    for (int c = 0; c < n; ++c)  // lines 6-7: "it will have the least active cache context"
      if (free_idle(cpus[size_t(c)], avoid_flagged_idle) &&
          (next < 0 || cpus[size_t(c)].last_active < cpus[size_t(next)].last_active))
        next = c;
  }
  if (next < 0) {  // lines 9-14: no idle processor, preempt the least desirable current task
    int64_t max_prio = p.preemption_threshold;
    for (int c = 0; c < n; ++c) {
      if (cpus[size_t(c)].idle()) continue;  // AIP: an idle processor already claimed
      int64_t diff = preemption_goodness(p, tasks, cpus, t, c);
      if (diff > max_prio) {
        max_prio = diff;
        next = c;
      }
    }
  }
  if (next >= 0) cpus[size_t(next)].need_resched = true;  // lines 16-20
  return next;
}

std::vector<int> wake_up(const Params& p, const std::vector<Task>& tasks, std::vector<Cpu>& cpus,
                         const std::vector<int>& woken, Scheme scheme) {
  std::vector<int> chosen(woken.size(), -1);
  if (scheme != Scheme::Smart) {
    // Algorithm 3 with the race of 6.6.1: no schedule() runs until every woken task has been
    // through reschedule_idle, so an idle processor keeps looking idle (SILLY) unless its
    // need_resched already counts (AIP).
    for (size_t i = 0; i < woken.size(); ++i)
      chosen[i] = reschedule_idle(p, tasks, cpus, woken[i], scheme == Scheme::Aip);
    return chosen;
  }
  const size_t n = cpus.size();
  std::vector<char> used(n, 0);
  auto claim = [&](size_t i, int c) {
    chosen[i] = c;
    used[size_t(c)] = 1;
  };
  // Step 1 made global: every task whose previous processor is idle gets it.
  for (size_t i = 0; i < woken.size(); ++i) {
    int pc = tasks[size_t(woken[i])].processor;
    if (pc >= 0 && !used[size_t(pc)] && free_idle(cpus[size_t(pc)], true)) claim(i, pc);
  }
  // Step 2: the other idle processors, least recently active first, to the rest in wake order.
  std::vector<int> idle;
  for (size_t c = 0; c < n; ++c)
    if (!used[c] && free_idle(cpus[c], true)) idle.push_back(int(c));
  std::stable_sort(idle.begin(), idle.end(),
                   [&](int a, int b) { return cpus[size_t(a)].last_active < cpus[size_t(b)].last_active; });
  size_t k = 0;
  for (size_t i = 0; i < woken.size() && k < idle.size(); ++i)
    if (chosen[i] < 0) claim(i, idle[k++]);
  // Step 3, Algorithm 5: the triplets (d, t, c) with d above the threshold, larger d first (ties:
  // wake order, then processor id), each task and each processor assigned at most once.
  std::vector<std::tuple<int64_t, size_t, int>> tri;
  for (size_t i = 0; i < woken.size(); ++i) {
    if (chosen[i] >= 0) continue;
    for (size_t c = 0; c < n; ++c) {
      if (used[c] || cpus[c].idle()) continue;
      int64_t d = preemption_goodness(p, tasks, cpus, woken[i], int(c));
      if (d > p.preemption_threshold) tri.emplace_back(d, i, int(c));
    }
  }
  std::stable_sort(tri.begin(), tri.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
  for (auto& [d, i, c] : tri)
    if (chosen[i] < 0 && !used[size_t(c)]) claim(i, c);
  // Only now the flags (phase c of 6.6.1.2): the decisions above saw no half-made assignment.
  for (int c : chosen)
    if (c >= 0) cpus[size_t(c)].need_resched = true;
  return chosen;
}

}  // namespace smpsim::linux_sched
