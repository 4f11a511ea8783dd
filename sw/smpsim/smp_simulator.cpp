// The engine of seed 004's SMP simulator. One pending event per processor (the earlier of the
// end of its current activity and the end of its quantum); rescheduling a processor replaces
// its event (EventTable).
#include "smp_simulator.h"

#include "linux_sched.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <climits>

namespace smpsim {

namespace {

namespace lx = linux_sched;

constexpr int64_t kForever = INT64_MAX / 4;

// xoshiro256** seeded by splitmix64: the same bits on every host and library (std's
// distributions are not specified bit for bit).
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      w = z ^ (z >> 31);
    }
  }
  uint64_t next() {
    const uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0,1)
  uint64_t below(uint64_t n) {                                   // uniform in [0,n), no bias
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;
    do v = next();
    while (v >= limit);
    return v % n;
  }
  double normal() {  // Box-Muller
    double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

enum class TState { Ready, Reserved, SwitchIn, Running, SwitchOut, Blocked, Finished };
enum class Phase { Compute, Spin };
enum class CState { Idle, In, Run, Out };
enum class OutWhy { Preempt, PreemptByWake, Block, Exit };

struct Thread {
  int job = -1;  // -1: non-synchronizing
  TState state = TState::Ready;
  Phase phase = Phase::Compute;
  int64_t remaining = 0;   // compute cycles left in the current interval
  int64_t spin_left = 0;   // spin budget left (running time)
  int64_t wait_gen = 0;    // the barrier generation it arrived at
  int64_t passed = 0;      // barriers passed
  int cpu = -1, prev_cpu = -1;
};

struct Job {
  JobSpec spec;
  std::vector<int> threads;
  int64_t gen = 0, arrived = 0, done = 0;
  int64_t spins = 0, successes = 0;
  std::vector<int> blocked;  // in blocking order
  int64_t finish = -1;
};

struct Cpu {
  CState state = CState::Idle;
  int thread = -1;
  int64_t seg_start = 0, quantum_end = 0, act_end = 0;
  bool pending_success = false;
  OutWhy why = OutWhy::Preempt;
  int reserved = -1;
  int lx_prev = -1;  // sched=linux: the runnable prev to offer reschedule_idle once next is in
};

// The pending events, one per processor at most: the next is the earliest, the lower processor
// id on a tie (the serial order of 7.5.4). A heap of every event ever scheduled, outdated ones
// skipped when popped, gave the same order but grew with the outdated events and was the
// simulator's hottest spot; a scan of the processors' times is cheaper than keeping any order.
class EventTable {
 public:
  static constexpr int64_t kNone = INT64_MAX;
  explicit EventTable(size_t n) : time_(n, kNone) {}
  void set(int c, int64_t t) { time_[size_t(c)] = t; }  // t = kNone: nothing pending on c
  // The processor of the next event, or -1.
  int next() const {
    int best = -1;
    int64_t bt = kNone;
    for (size_t c = 0; c < time_.size(); ++c)
      if (time_[c] < bt) {
        bt = time_[c];
        best = int(c);
      }
    return best;
  }
  int64_t time(int c) const { return time_[size_t(c)]; }

 private:
  std::vector<int64_t> time_;
};

class Machine {
 public:
  explicit Machine(const RunSpec& s)
      : s_(s), lx_(s.sched == Sched::Linux), lp_(s.linux_params), rng_(s.seed), cpus_(size_t(s.p)), events_(size_t(s.p)) {
    for (auto& js : s.jobs) {
      Job j;
      j.spec = js;
      for (int64_t i = 0; i < js.size; ++i) {
        j.threads.push_back(int(threads_.size()));
        Thread t;
        t.job = int(jobs_.size());
        threads_.push_back(t);
      }
      jobs_.push_back(std::move(j));
    }
    for (int64_t i = 0; i < s.nosync; ++i) {
      Thread t;
      t.remaining = kForever;
      threads_.push_back(t);
    }
    // Startup order <job-id, thread-id> (chapter 3, footnote 1), shuffled if rand_ord (3.3).
    std::vector<int> order(threads_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    if (s.rand_ord)
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng_.below(i)]);
    // Intervals are drawn after the shuffle so that rand_ord does not change them.
    for (auto& t : threads_)
      if (t.job >= 0) t.remaining = draw(jobs_[size_t(t.job)]);
    ready_.assign(order.begin(), order.end());
    if (lx_) {
      // Linux's run queue starts in the same order; every task starts an epoch with a full
      // counter, has run nowhere yet, and owns an address space unless it is a job's thread.
      runlist_.assign(ready_.begin(), ready_.end());
      ready_.clear();
      lc_.resize(cpus_.size());
      lt_.resize(threads_.size());
      for (size_t i = 0; i < threads_.size(); ++i) {
        const Thread& t = threads_[i];
        lx::Task& x = lt_[i];
        x.priority = lx::nice_to_cycles(t.job >= 0 ? jobs_[size_t(t.job)].spec.nice : s.nosync_nice, s.q);
        x.counter = x.priority;
        x.mm = t.job >= 0 ? int64_t(t.job) : int64_t(jobs_.size()) + int64_t(i);
      }
    }
    is_ready_.assign(threads_.size(), 1);  // every thread starts Ready
    res_.threads = int64_t(threads_.size());
    res_.sync_threads = int64_t(threads_.size()) - s.nosync;
    threads_left_ = res_.sync_threads;
    if (s.trace_job >= 0 && size_t(s.trace_job) < jobs_.size()) trace_ = s.trace_job;
  }

  RunResult run() {
    record_trace();
    if (lx_) {
      for (auto& c : lc_) c.need_resched = true;  // every processor runs schedule() at boot
      lx_flagged_ = true;
      lx_flush();
    } else {
      dispatch_idle();
    }
    for (int ec; threads_left_ > 0 && !stopped_ && (ec = events_.next()) >= 0;) {
      const int64_t et = events_.time(ec);
      Cpu& c = cpus_[size_t(ec)];
      if (et > s_.max_cycles) break;
      events_.set(ec, EventTable::kNone);
      now_ = et;
      switch (c.state) {
        case CState::In: start_running(ec); break;
        case CState::Out: finish_switch_out(ec); break;
        case CState::Run: running_event(ec); break;
        case CState::Idle: break;
      }
      if (lx_) lx_flush();
      record_trace();
    }
    res_.completed = threads_left_ == 0 || stopped_;
    for (auto& j : jobs_) {
      res_.job_elapsed.push_back(j.finish);
      res_.job_spins.push_back(j.spins);
      res_.job_successes.push_back(j.successes);
      res_.elapsed = std::max(res_.elapsed, j.finish);
    }
    if (!res_.completed) res_.elapsed = now_;
    return std::move(res_);
  }

 private:
  int64_t draw(const Job& j) {
    double x = j.spec.mu;
    if (j.spec.sigma > 0) x += j.spec.sigma * rng_.normal();
    return std::max<int64_t>(0, std::llround(x)) + s_.reach;
  }

  void schedule(int c) {
    Cpu& cpu = cpus_[size_t(c)];
    int64_t t;
    switch (cpu.state) {
      case CState::Run: t = std::min(cpu.act_end, cpu.quantum_end); break;
      case CState::In: t = now_ + s_.in; break;
      case CState::Out: t = now_ + s_.out; break;
      default: events_.set(c, EventTable::kNone); return;
    }
    events_.set(c, t);
  }

  void set_state(Thread& t, TState st) {
    t.state = st;
    is_ready_[size_t(&t - threads_.data())] = st == TState::Ready;
    if (st == TState::Finished) {
      --threads_left_;
      stopped_ |= s_.stop_first;
      Job& j = jobs_[size_t(t.job)];
      j.finish = std::max(j.finish, now_);
    }
  }

  void dispatch(int c, int tid) {
    Cpu& cpu = cpus_[size_t(c)];
    Thread& t = threads_[size_t(tid)];
    cpu.state = CState::In;
    cpu.thread = tid;
    t.cpu = c;
    t.prev_cpu = c;
    if (lx_) {
      lc_[size_t(c)].current = tid;
      lt_[size_t(tid)].processor = c;
    }
    set_state(t, TState::SwitchIn);
    ++res_.switches;
    schedule(c);
  }

  void dispatch_idle() {
    for (size_t c = 0; c < cpus_.size() && !ready_.empty(); ++c) {
      if (cpus_[c].state != CState::Idle || cpus_[c].reserved >= 0) continue;
      int tid = ready_.front();
      ready_.pop_front();
      dispatch(int(c), tid);
    }
  }

  void start_running(int c) {
    Cpu& cpu = cpus_[size_t(c)];
    Thread& t = threads_[size_t(cpu.thread)];
    cpu.state = CState::Run;
    set_state(t, TState::Running);
    cpu.seg_start = now_;
    // Linux: the quantum is what is left of the counter (6.4.4); SCHED_RR: a fresh q.
    cpu.quantum_end = now_ + (lx_ ? lt_[size_t(cpu.thread)].counter : s_.q);
    cpu.pending_success = false;
    if (t.phase == Phase::Compute) {
      cpu.act_end = now_ + t.remaining;
    } else if (jobs_[size_t(t.job)].gen > t.wait_gen) {
      // Preempted while spinning; the barrier completed meanwhile: its first poll succeeds.
      cpu.pending_success = true;
      cpu.act_end = now_ + 1;
    } else {
      cpu.act_end = now_ + t.spin_left;
    }
    schedule(c);
    if (lx_ && cpu.lx_prev >= 0) {
      // Algorithm 4, line 27: only once next is in does the switched-out prev, if runnable and
      // still waiting, get reschedule_idle (7.6's example: t_8^22 preempts u after u's switch-in).
      int prev = cpu.lx_prev;
      cpu.lx_prev = -1;
      if (threads_[size_t(prev)].state == TState::Ready) lx_offer(prev);
    }
  }

  // Keeps what is left of the running activity when the thread leaves the processor.
  void save_progress(int c) {
    Cpu& cpu = cpus_[size_t(c)];
    Thread& t = threads_[size_t(cpu.thread)];
    if (t.phase == Phase::Compute) t.remaining = cpu.act_end - now_;
    else if (!cpu.pending_success) t.spin_left = cpu.act_end - now_;
  }

  void switch_out(int c, OutWhy why) {
    Cpu& cpu = cpus_[size_t(c)];
    if (lx_) lt_[size_t(cpu.thread)].counter = std::max<int64_t>(0, cpu.quantum_end - now_);
    cpu.state = CState::Out;
    cpu.why = why;
    set_state(threads_[size_t(cpu.thread)], TState::SwitchOut);
    // The general-purpose scheduler of chapter 7 decides the next thread when the processor is
    // given up (schedule() cannot be interrupted: the "wait4cs" state of 7.2), so a thread whose
    // barrier completes during its own switch-out cannot take its processor back.
    if (s_.wakeup == Wakeup::Preempt && cpu.reserved < 0 && !ready_.empty()) {
      cpu.reserved = ready_.front();
      ready_.pop_front();
      set_state(threads_[size_t(cpu.reserved)], TState::Reserved);
    }
    schedule(c);
  }

  void running_event(int c) {
    Cpu& cpu = cpus_[size_t(c)];
    int tid = cpu.thread;
    Thread& t = threads_[size_t(tid)];
    if (now_ >= cpu.act_end) {
      if (t.phase == Phase::Compute) arrive(c, tid);
      else if (cpu.pending_success) spin_success(c, tid);
      else spin_fail(c);
    }
    if (cpu.state == CState::Run && cpu.thread == tid && now_ >= cpu.quantum_end) {
      if (lx_) {
        lx_schedule(c);  // counter 0: the timer sets need_resched (6.4.4)
      } else if (ready_.empty()) {
        cpu.quantum_end = now_ + s_.q;  // nobody waits: a new quantum, no switch
      } else {
        save_progress(c);
        switch_out(c, OutWhy::Preempt);
        return;
      }
    }
    if (cpu.state == CState::Run) schedule(c);
  }

  void begin_compute(int c, Thread& t) {
    Cpu& cpu = cpus_[size_t(c)];
    t.phase = Phase::Compute;
    t.remaining = draw(jobs_[size_t(t.job)]);
    cpu.act_end = now_ + t.remaining;
    cpu.seg_start = now_;
    cpu.pending_success = false;
  }

  // The thread passed a barrier on processor c: computes on, or exits after the last barrier.
  void pass(int c, int tid) {
    Thread& t = threads_[size_t(tid)];
    ++t.passed;
    if (t.passed == jobs_[size_t(t.job)].spec.barriers) {
      give_up(c, OutWhy::Exit);
      set_state(t, TState::Finished);
      return;
    }
    begin_compute(c, t);
  }

  void arrive(int c, int tid) {
    Thread& t = threads_[size_t(tid)];
    Job& j = jobs_[size_t(t.job)];
    t.wait_gen = j.gen;
    if (++j.arrived == j.spec.size) {
      complete_barrier(t.job, c, tid);
      pass(c, tid);
      return;
    }
    if (j.spec.spin == 0) {  // always block
      ++res_.blocks;
      give_up(c, OutWhy::Block);
      return;
    }
    ++res_.spins;
    ++j.spins;
    Cpu& cpu = cpus_[size_t(c)];
    t.phase = Phase::Spin;
    t.spin_left = j.spec.spin;
    cpu.seg_start = now_;
    cpu.act_end = j.spec.spin >= kSpinForever ? kForever : now_ + j.spec.spin;
    cpu.pending_success = false;
  }

  void spin_success(int c, int tid) {
    ++res_.successes;
    ++jobs_[size_t(threads_[size_t(tid)].job)].successes;
    pass(c, tid);
  }

  void spin_fail(int c) {
    ++res_.blocks;
    give_up(c, OutWhy::Block);
  }

  // The running thread stops being runnable (blocks or exits): SCHED_RR switches it out and
  // takes the queue's head; Linux removes it from the run queue and calls schedule().
  void give_up(int c, OutWhy why) {
    if (!lx_) {
      switch_out(c, why);
      return;
    }
    int tid = cpus_[size_t(c)].thread;
    runlist_.erase(std::find(runlist_.begin(), runlist_.end(), tid));
    lx_decide(c, tid, false, why);
  }

  void complete_barrier(int jid, int completer_cpu, int completer) {
    Job& j = jobs_[size_t(jid)];
    ++j.gen;
    j.arrived = 0;
    const bool last = ++j.done == j.spec.barriers;
    for (int tid : j.threads) {
      if (tid == completer) continue;
      Thread& t = threads_[size_t(tid)];
      if (t.state != TState::Running || t.phase != Phase::Spin) continue;
      Cpu& cpu = cpus_[size_t(t.cpu)];
      if (cpu.pending_success) continue;
      // Spinners poll once a cycle from the cycle after they began: a poll at this very cycle
      // sees the completion only if its processor's event comes later in the serial order.
      int64_t ts = t.cpu > completer_cpu ? now_ : now_ + 1;
      ts = std::max(ts, cpu.seg_start + 1);
      if (ts <= cpu.act_end) {
        cpu.pending_success = true;
        cpu.act_end = ts;
        schedule(t.cpu);
      }
    }
    std::vector<int> released;
    released.swap(j.blocked);
    for (int tid : released) {
      Thread& t = threads_[size_t(tid)];
      ++t.passed;
      if (last || t.passed == j.spec.barriers) {
        set_state(t, TState::Finished);
        continue;
      }
      t.phase = Phase::Compute;
      t.remaining = draw(j);
      set_state(t, TState::Ready);
    }
    std::vector<int> to_place;
    for (int tid : released)
      if (threads_[size_t(tid)].state == TState::Ready) to_place.push_back(tid);
    place(to_place);
  }

  // Wake-up placement of released threads.
  void place(const std::vector<int>& tids) {
    if (tids.empty()) return;
    if (lx_) {
      // add_to_runqueue puts each woken task at the head of the run queue; the scheme decides
      // which processors' schedule() will run (at the end of this event: lx_flush). The tasks
      // are walked in the order they blocked, or latest first (wake_order=lifo).
      std::vector<int> order(tids);
      if (s_.wake_lifo) std::reverse(order.begin(), order.end());
      for (int tid : order) runlist_.insert(runlist_.begin(), tid);
      sync_counters();
      std::vector<int> prev(order.size());
      std::vector<char> prev_idle(order.size());
      for (size_t i = 0; i < order.size(); ++i) {
        prev[i] = lt_[size_t(order[i])].processor;
        prev_idle[i] = prev[i] >= 0 && lc_[size_t(prev[i])].idle() && !lc_[size_t(prev[i])].need_resched;
      }
      const std::vector<int> chosen = lx::wake_up(lp_, lt_, lc_, order, scheme());
      if (order.size() > 1) {
        for (size_t i = 0; i < order.size(); ++i) {
          ++res_.woken_many;
          if (chosen[i] >= 0 && chosen[i] == prev[i]) ++res_.woken_to_prev;
          else if (prev_idle[i]) ++res_.woken_prev_idle_lost;
        }
      }
      lx_flagged_ = true;
      return;
    }
    switch (s_.wakeup) {
      case Wakeup::Tail:
        for (int tid : tids) ready_.push_back(tid);
        break;
      case Wakeup::Head:
        ready_.insert(ready_.begin(), tids.begin(), tids.end());
        break;
      case Wakeup::Smart:
      case Wakeup::Aip:
      case Wakeup::Silly:
        break;  // sched=linux's, handled above
      case Wakeup::Preempt: {
        // Runs at once: an idle processor, else the processor of a thread of another job
        // (its previous one if possible, else the one that has run longest in its quantum);
        // the preempted thread waits at the head of the queue. Without a victim: the head.
        int idle = 0;
        for (auto& cpu : cpus_) idle += cpu.state == CState::Idle && cpu.reserved < 0;
        std::vector<int> head;
        for (int tid : tids) {
          if (idle > 0) {
            --idle;
            head.push_back(tid);
            continue;
          }
          int v = victim(tid);
          if (v < 0) {
            head.push_back(tid);
            continue;
          }
          Cpu& cpu = cpus_[size_t(v)];
          cpu.reserved = tid;
          set_state(threads_[size_t(tid)], TState::Reserved);
          save_progress(v);
          switch_out(v, OutWhy::PreemptByWake);
        }
        ready_.insert(ready_.begin(), head.begin(), head.end());
        break;
      }
    }
    dispatch_idle();
  }

  int victim(int tid) {
    const Thread& t = threads_[size_t(tid)];
    auto eligible = [&](int c) {
      const Cpu& cpu = cpus_[size_t(c)];
      return cpu.state == CState::Run && cpu.reserved < 0 && threads_[size_t(cpu.thread)].job != t.job;
    };
    if (t.prev_cpu >= 0 && eligible(t.prev_cpu)) return t.prev_cpu;
    int best = -1;
    for (int c = 0; c < int(cpus_.size()); ++c)
      if (eligible(c) && (best < 0 || cpus_[size_t(c)].quantum_end < cpus_[size_t(best)].quantum_end)) best = c;
    return best;
  }

  void finish_switch_out(int c) {
    Cpu& cpu = cpus_[size_t(c)];
    int tid = cpu.thread;
    Thread& t = threads_[size_t(tid)];
    cpu.thread = -1;
    cpu.state = CState::Idle;
    events_.set(c, EventTable::kNone);
    t.cpu = -1;
    if (lx_) {
      lx_finish_switch_out(c, tid);
      return;
    }
    switch (cpu.why) {
      case OutWhy::Preempt:
        set_state(t, TState::Ready);
        ready_.push_back(tid);
        break;
      case OutWhy::PreemptByWake:
        set_state(t, TState::Ready);
        ready_.push_front(tid);
        break;
      case OutWhy::Exit:
        break;
      case OutWhy::Block:
        if (blocks_or_goes_on(tid)) {
          // Tail and head: queued (its own processor is free, so at the head it takes it back);
          // preempt: runs at once, on an idle processor or by preempting another job's thread.
          if (s_.wakeup == Wakeup::Tail) ready_.push_back(tid);
          else if (s_.wakeup == Wakeup::Head) ready_.push_front(tid);
          else place({tid});
        }
        break;
    }
    if (cpu.reserved >= 0) {
      int r = cpu.reserved;
      cpu.reserved = -1;
      dispatch(c, r);
    }
    dispatch_idle();
  }

  // A thread's switch out to block has ended. When its barrier completed while the processor was
  // being given up (4.3.4), it does not block after all: it passes the barrier, Finished at its
  // job's last one, else Ready for its next compute phase (true: the caller queues it). Else it
  // joins its job's blocked threads (false).
  bool blocks_or_goes_on(int tid) {
    Thread& t = threads_[size_t(tid)];
    Job& j = jobs_[size_t(t.job)];
    if (j.gen <= t.wait_gen) {
      set_state(t, TState::Blocked);
      j.blocked.push_back(tid);
      return false;
    }
    ++t.passed;
    if (t.passed == j.spec.barriers) {
      set_state(t, TState::Finished);
      return false;
    }
    t.phase = Phase::Compute;
    t.remaining = draw(j);
    set_state(t, TState::Ready);
    return true;
  }

  // ---- sched=linux (chapter 6): the machine's side of linux_sched.h

  lx::Scheme scheme() const {
    return s_.wakeup == Wakeup::Silly ? lx::Scheme::Silly : s_.wakeup == Wakeup::Aip ? lx::Scheme::Aip : lx::Scheme::Smart;
  }

  // A running task's counter runs down with its cycles on the processor (cycle accuracy, 6.6.2);
  // the scheduler's functions read it from lt_.
  void sync_counters() {
    for (auto& cpu : cpus_)
      if (cpu.state == CState::Run) lt_[size_t(cpu.thread)].counter = std::max<int64_t>(0, cpu.quantum_end - now_);
  }

  // After a new epoch the running tasks' quanta are their new counters.
  void apply_counters() {
    for (size_t c = 0; c < cpus_.size(); ++c) {
      Cpu& cpu = cpus_[c];
      if (cpu.state != CState::Run) continue;
      cpu.quantum_end = now_ + lt_[size_t(cpu.thread)].counter;
      schedule(int(c));
    }
  }

  // reschedule_idle for one runnable task (Algorithm 4 line 27). Only a wake-up of several tasks
  // can race (6.6.1), so AIP's fix is the only scheme difference here.
  void lx_offer(int tid) {
    sync_counters();
    lx::reschedule_idle(lp_, lt_, lc_, tid, s_.wakeup != Wakeup::Silly);
    lx_flagged_ = true;
  }

  // schedule() on a processor whose need_resched is set (or whose quantum ran out).
  void lx_schedule(int c) {
    const Cpu& cpu = cpus_[size_t(c)];
    if (cpu.state == CState::Run) lx_decide(c, cpu.thread, true, OutWhy::Preempt);
    else if (cpu.state == CState::Idle) lx_decide(c, -1, false, OutWhy::Preempt);
  }

  // Algorithm 4: choose next; a new epoch if every candidate is exhausted; next waits in wait4cs
  // (7.2) while prev is switched out; the decision is taken now and cannot be undone.
  void lx_decide(int c, int prev, bool prev_runnable, OutWhy why) {
    Cpu& cpu = cpus_[size_t(c)];
    lc_[size_t(c)].need_resched = false;
    lc_[size_t(c)].last_active = now_;
    // Of the running tasks' counters only prev's is read before a new epoch's (sync_counters'
    // value is a function of the time, so the others are brought up to date when next read).
    if (cpu.state == CState::Run) lt_[size_t(cpu.thread)].counter = std::max<int64_t>(0, cpu.quantum_end - now_);
    auto ready = [this](int t) { return is_ready_[size_t(t)] != 0; };
    lx::Pick pk = lx::pick_next_of(lp_, lt_, runlist_, ready, c, prev, prev_runnable);
    if (pk.g == 0) {  // lines 19-22
      sync_counters();
      lx::recalculate(lt_);
      ++res_.epochs;
      apply_counters();
      pk = lx::pick_next_of(lp_, lt_, runlist_, ready, c, prev, prev_runnable);
    }
    if (prev >= 0 && prev_runnable && pk.next == prev) {
      cpu.quantum_end = now_ + lt_[size_t(prev)].counter;  // no switch (lines 5-7 win the tie)
      schedule(c);
      return;
    }
    if (pk.next >= 0) {
      set_state(threads_[size_t(pk.next)], TState::Reserved);
      lt_[size_t(pk.next)].processor = c;  // line 24
    }
    if (prev < 0) {
      if (pk.next >= 0) dispatch(c, pk.next);
      return;
    }
    if (prev_runnable) save_progress(c);
    cpu.reserved = pk.next;
    switch_out(c, why);
  }

  void lx_finish_switch_out(int c, int tid) {
    Cpu& cpu = cpus_[size_t(c)];
    Thread& t = threads_[size_t(tid)];
    int runnable = -1;
    switch (cpu.why) {
      case OutWhy::Preempt:
      case OutWhy::PreemptByWake:
        set_state(t, TState::Ready);  // it never left the run queue
        runnable = tid;
        break;
      case OutWhy::Exit: break;
      case OutWhy::Block:
        if (blocks_or_goes_on(tid)) {  // (released while schedule() ran for it: 7.6's t_8^22)
          runlist_.insert(runlist_.begin(), tid);
          runnable = tid;
        }
        break;
    }
    if (cpu.reserved >= 0) {
      int r = cpu.reserved;
      cpu.reserved = -1;
      cpu.lx_prev = runnable;
      dispatch(c, r);
    } else {
      lc_[size_t(c)].current = -1;  // the idle task
      if (runnable >= 0) lx_offer(runnable);
    }
  }

  // Every processor whose need_resched is set and that can act on it now (running, or idle)
  // runs schedule(), in processor order (the serial simulator, 7.5.4). A processor switching
  // keeps its flag until its switch-in ends (the check on return to user mode).
  void lx_flush() {
    if (!lx_flagged_) return;  // no flag set: nothing to scan (most events)
    for (bool again = true; again;) {
      again = false;
      for (size_t c = 0; c < cpus_.size(); ++c) {
        if (!lc_[c].need_resched) continue;
        CState st = cpus_[c].state;
        if (st == CState::Run || st == CState::Idle) {
          lx_schedule(int(c));
          again = true;
        }
      }
    }
    lx_flagged_ = false;  // unless a switching processor keeps its flag
    for (auto& x : lc_) lx_flagged_ |= x.need_resched;
  }

  void record_trace() {
    if (trace_ < 0 || now_ > s_.trace_until) return;
    TracePoint p{now_, 0, 0, 0};
    for (int tid : jobs_[size_t(trace_)].threads) {
      switch (threads_[size_t(tid)].state) {
        case TState::Ready:
        case TState::Reserved: ++p.ready; break;
        case TState::SwitchIn:
        case TState::Running:
        case TState::SwitchOut: ++p.running; break;
        case TState::Blocked: ++p.blocked; break;
        case TState::Finished: break;
      }
    }
    auto& tr = res_.trace;
    if (!tr.empty() && tr.back().ready == p.ready && tr.back().running == p.running && tr.back().blocked == p.blocked)
      return;
    if (!tr.empty() && tr.back().time == p.time) tr.back() = p;
    else tr.push_back(p);
  }

  const RunSpec& s_;
  const bool lx_;
  const lx::Params lp_;
  std::vector<lx::Task> lt_;    // sched=linux: per thread
  std::vector<lx::Cpu> lc_;     // sched=linux: per processor
  std::vector<int> runlist_;    // sched=linux: the run queue, runnable tasks in Linux's order
  bool lx_flagged_ = false;     // sched=linux: some processor's need_resched may be set
  Rng rng_;
  std::vector<Cpu> cpus_;
  std::vector<Thread> threads_;
  std::vector<char> is_ready_;  // threads_[i].state == Ready, packed for lx_decide's scan
  std::vector<Job> jobs_;
  std::deque<int> ready_;
  EventTable events_;
  int64_t now_ = 0;
  int64_t threads_left_ = 0;
  bool stopped_ = false;  // stop_first: a thread has finished
  int trace_ = -1;
  RunResult res_;
};

}  // namespace

RunResult simulate(const RunSpec& spec) { return Machine(spec).run(); }

std::vector<CurvePoint> expand_curve(const CurveSpec& curve) {
  std::vector<CurvePoint> out;
  std::string xp = curve.x_param();
  std::vector<int64_t> xs = xp == "nosync" ? curve.nosync.values() : std::vector<int64_t>{};
  int ranged_job = -1;
  if (xp == "instance_num") {
    for (size_t i = 0; i < curve.jobs.size(); ++i)
      if (curve.jobs[i].instances.ranged()) ranged_job = int(i);
    xs = curve.jobs[size_t(ranged_job)].instances.values();
  }
  if (xs.empty()) xs.push_back(curve.nosync.lo);
  for (int64_t x : xs) {
    RunSpec r;
    r.p = curve.p;
    r.q = curve.q;
    r.in = curve.in;
    r.out = curve.out;
    r.nosync = xp == "nosync" ? x : curve.nosync.lo;
    r.rand_ord = curve.rand_ord;
    r.sched = curve.sched;
    r.wakeup = curve.wakeup;
    r.linux_params = {curve.proc_change_penalty, curve.mm_bonus, curve.preemption_threshold};
    r.nosync_nice = curve.nosync_nice;
    r.wake_lifo = curve.wake_lifo;
    r.stop_first = curve.stop_first;
    r.seed = curve.seed;
    r.reach = curve.reach;
    for (size_t i = 0; i < curve.jobs.size(); ++i) {
      int64_t n = int(i) == ranged_job ? x : curve.jobs[i].instances.lo;
      for (int64_t k = 0; k < n; ++k) r.jobs.push_back(curve.jobs[i]);
    }
    out.push_back({x, std::move(r)});
  }
  return out;
}

}  // namespace smpsim
