#include "speculation_pool.h"

#include "asan_main_stack.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace testbed {

SpeculationPool* SpeculationPool::instance_ = nullptr;

namespace {
// How long an idle worker looks for work before it sleeps: several boards' runs, so a worker
// stays awake from one quantum's jobs to the next, and short enough that an idle pool gives its
// core back at once to whatever else the host runs.
constexpr auto kSpinFor = std::chrono::microseconds(200);

// A short pause, then the core offered to whatever else is runnable: on a host busy with other
// programs (a test suite run with -j) the spinning worker must not take their time.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 16; ++i) __builtin_ia32_pause();
#endif
  std::this_thread::yield();
}

std::unique_ptr<SpeculationPool>& owned() {
  static std::unique_ptr<SpeculationPool> p;
  return p;
}
}  // namespace

void SpeculationPool::configure(unsigned threads) {
  if (threads == 0) threads = 1;
  if (instance_ && instance_->threads() == threads) return;
  owned() = std::make_unique<SpeculationPool>(threads);
  instance_ = owned().get();
}

unsigned SpeculationPool::host_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

SpeculationPool::SpeculationPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

SpeculationPool::~SpeculationPool() {
  if (instance_ == this) instance_ = nullptr;
  {
    std::lock_guard<std::mutex> l(m_);
    stop_ = true;
    stopping_.store(true, std::memory_order_release);
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void SpeculationPool::submit(SpeculationJob& job) {
  job.state_.store(SpeculationJob::kQueued, std::memory_order_release);
  if (workers_.empty()) return;  // the kernel's thread alone: it runs the job when it joins
  if (held_ && held_ != &job) publish(*held_);  // it has company: the two can run at once
  held_ = &job;
}

void SpeculationPool::publish(SpeculationJob& job) {
  bool wake;
  {
    std::lock_guard<std::mutex> l(m_);
    queue_.push_back(&job);
    queued_.fetch_add(1, std::memory_order_release);
    // One notification per sleeping worker: a worker that has been told to wake but has not yet
    // taken the lock is no longer counted, so the next jobs do not call into the kernel again.
    wake = sleeping_ > 0;
    if (wake) {
      --sleeping_;
      ++wakes_;
    }
  }
  if (wake) cv_.notify_one();
}

void SpeculationPool::forget(SpeculationJob& job) {
  if (pending(job)) join(job);
  if (held_ == &job) held_ = nullptr;
  std::lock_guard<std::mutex> l(m_);
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (*it == &job) {
      it = queue_.erase(it);
      queued_.fetch_sub(1, std::memory_order_relaxed);
    } else {
      ++it;
    }
  }
}

bool SpeculationPool::take(SpeculationJob& job) {
  int queued = SpeculationJob::kQueued;
  return job.state_.compare_exchange_strong(queued, SpeculationJob::kRunning, std::memory_order_acq_rel);
}

void SpeculationPool::finish(SpeculationJob& job) { job.state_.store(SpeculationJob::kDone, std::memory_order_release); }

SpeculationJob* SpeculationPool::next(unsigned self) {
  if (queued_.load(std::memory_order_acquire) == 0) return nullptr;
  // Only the queue's head is searched for the thread's own jobs: with hundreds of boards the
  // caches hold none of them anyway, and the search is made under the lock.
  constexpr size_t kAffinityWindow = 32;
  std::lock_guard<std::mutex> l(m_);
  size_t window = std::min(queue_.size(), kAffinityWindow);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < window;) {
      SpeculationJob* j = queue_[i];
      if (pass == 0 && j->last_thread_.load(std::memory_order_relaxed) != self) {
        ++i;
        continue;
      }
      queue_.erase(queue_.begin() + long(i));
      queued_.fetch_sub(1, std::memory_order_relaxed);
      --window;
      if (take(*j)) return j;  // else a stale entry: its board ran it on joining
    }
    window = queue_.size();  // none of its own near the head: any job
  }
  return nullptr;
}

void SpeculationPool::run(SpeculationJob& job, unsigned self) {
  if (job.last_thread_.load(std::memory_order_relaxed) == self) ++job.ran_where_before_;
  job.last_thread_.store(self, std::memory_order_relaxed);
  job.execute();
  finish(job);
}

void SpeculationPool::join(SpeculationJob& job) {
  [[maybe_unused]] AsanMainStack stack;  // the runs below may execute (and throw) on the main stack
  if (held_ == &job) {
    held_ = nullptr;  // no worker has seen it: it runs below, here
  } else if (held_) {
    publish(*held_);  // a worker may run it while this thread waits for `job`
    held_ = nullptr;
  }
  if (take(job)) {  // nobody has started it: run it here
    ++job.ran_joining_;
    run(job, 0);
  }
  // A worker runs it: meanwhile this thread runs what is queued, then spins (a run is a chunk of
  // instructions: microseconds).
  bool waited = false;
  while (job.state_.load(std::memory_order_acquire) == SpeculationJob::kRunning) {
    if (SpeculationJob* other = next(0)) {
      ++other->ran_joining_;
      run(*other, 0);
    } else {
      waited = true;
      std::this_thread::yield();
    }
  }
  join_waits_ += waited;
  job.state_.store(SpeculationJob::kIdle, std::memory_order_relaxed);
}

void SpeculationPool::work(unsigned self) {
  for (;;) {
    auto until = std::chrono::steady_clock::now() + kSpinFor;
    for (unsigned i = 0; queued_.load(std::memory_order_acquire) == 0 && !stopping_.load(std::memory_order_acquire); ++i) {
      relax();
      if ((i & 15) == 15 && std::chrono::steady_clock::now() > until) break;
    }
    if (SpeculationJob* job = next(self)) {
      ++job->ran_on_worker_;
      run(*job, self);
      continue;
    }
    std::unique_lock<std::mutex> l(m_);
    while (queue_.empty() && !stop_) {
      // The submit that wakes it takes it off sleeping_ (the job may be gone when it looks: it
      // counts itself again); a spurious wake-up leaves it counted twice, which costs one
      // needless notification later, never a missed one.
      ++sleeping_;
      ++sleeps_;
      cv_.wait(l);
    }
    if (stop_) return;
  }
}

}  // namespace testbed
