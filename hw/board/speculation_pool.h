// Host threads for exact mode's speculative runs (issue #36). Between synchronisations a board's
// run to the end of its chunk touches nothing but the board's own core, RAM and journal, so it
// can run on another host core while the SystemC kernel (one thread, as SystemC requires) goes
// on with the other processes of the same delta cycle; the board joins the run before anything
// else looks at it. The kernel's thread is one of the pool's threads: joining a job nobody has
// started yet, it runs it itself, and while a worker runs the one it waits for it runs others
// that are queued. One thread is the kernel's alone (no worker, no hand-over). A job submitted
// alone is held back from the workers until another is submitted or joined: the kernel's thread
// would only wait for it, so a worker taking it buys nothing and costs a hand-over, the board's
// state moving to another core and the futex calls (one board alone: 0.7-0.9x the bare core's
// speed with them, issue #64).
//
// Results do not depend on the number of threads: a job's result is a function of the board's
// state when it was queued alone, and it is joined at points of the SystemC schedule that do not
// depend on the host (see SpeculativeEngine::run). No lock on the core's hot path: the queue's
// lock is taken once per job, never while the core runs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace testbed {

class SpeculationJob {
 public:
  virtual ~SpeculationJob() = default;
  // Runs the job on whichever thread takes it.
  virtual void execute() = 0;

 private:
  friend class SpeculationPool;
  enum State : int { kIdle, kQueued, kRunning, kDone };
  std::atomic<int> state_{kIdle};
  // The pool thread that ran it last (0: the kernel's): a thread takes the jobs it ran before
  // first, so a board's core, page tables and RAM stay in one host core's caches from one
  // quantum to the next (which thread runs a job never changes its result).
  std::atomic<unsigned> last_thread_{0};  // read under the queue's lock while a stale entry runs
  uint64_t ran_on_worker_ = 0, ran_joining_ = 0;  // how the work spread (read after the run)
  uint64_t ran_where_before_ = 0;  // ... and how often on the thread that ran it last
 public:
  uint64_t ran_on_worker() const { return ran_on_worker_; }
  uint64_t ran_joining() const { return ran_joining_; }
  uint64_t ran_where_before() const { return ran_where_before_; }
};

class SpeculationPool {
 public:
  // The pool of the process: `threads` threads in all (the kernel's and threads - 1 workers),
  // or none (nullptr) until the platform configures it (CpuTiming::apply). Configure before the
  // simulation starts.
  static void configure(unsigned threads);
  static SpeculationPool* instance() { return instance_; }
  static unsigned host_threads();  // the host's cores, at least one

  explicit SpeculationPool(unsigned threads);
  ~SpeculationPool();
  SpeculationPool(const SpeculationPool&) = delete;
  SpeculationPool& operator=(const SpeculationPool&) = delete;

  unsigned threads() const { return unsigned(workers_.size()) + 1; }
  void submit(SpeculationJob& job);
  // The job is going away: no stale entry of it may stay in the queue.
  void forget(SpeculationJob& job);
  // Returns when `job` is done (running it here if no worker has taken it). No-op if it is
  // not queued or running.
  void join(SpeculationJob& job);
  // The host's side of the hand-overs (not the machine's: they vary from run to run): how often
  // a submit woke a sleeping worker, and how often a worker went to sleep. Read after the run.
  uint64_t wakes() const { return wakes_; }
  uint64_t sleeps() const { return sleeps_; }
  // Joins that found their job running on a worker and nothing queued to do meanwhile: the
  // kernel's thread idled (a worker still busy, or descheduled by the host).
  uint64_t join_waits() const { return join_waits_; }
  static bool pending(const SpeculationJob& job) {
    int s = job.state_.load(std::memory_order_acquire);
    return s == SpeculationJob::kQueued || s == SpeculationJob::kRunning;
  }

 private:
  void work(unsigned self);
  void publish(SpeculationJob& job);  // into queue_, where the workers take it
  static bool take(SpeculationJob& job);
  // A queued job nobody has taken, the thread's own (last run by `self`) first, or nullptr.
  SpeculationJob* next(unsigned self);
  static void run(SpeculationJob& job, unsigned self);
  static void finish(SpeculationJob& job);
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<SpeculationJob*> queue_;
  // The last job submitted, not yet in queue_ (the kernel's thread alone submits and joins, so
  // it takes no lock).
  SpeculationJob* held_ = nullptr;
  // Jobs in queue_, readable without the lock: a worker that has just finished spins on it for
  // a while before it sleeps, because a board's run is microseconds long and waking a sleeping
  // thread costs as much (six boards at a 1 ms quantum: about 10 us of work each per quantum).
  std::atomic<unsigned> queued_{0};
  std::atomic<bool> stopping_{false};
  bool stop_ = false;
  unsigned sleeping_ = 0;
  uint64_t wakes_ = 0, sleeps_ = 0;  // under m_
  uint64_t join_waits_ = 0;          // the kernel's thread's alone
  std::vector<std::thread> workers_;
  static SpeculationPool* instance_;
};

}  // namespace testbed
