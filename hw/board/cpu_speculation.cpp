#include "cpu_speculation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace testbed {

using sc_core::sc_time;

SpeculativeEngine::~SpeculativeEngine() {
  if (SpeculationPool* p = SpeculationPool::instance()) p->forget(*this);
}

void SpeculativeEngine::start() {
  journal_.start();
  need_ckpt_ = true;
}

bool SpeculativeEngine::boundary() {
  if (rollback_to_ != kNone) rollback();
  if (rollback_to_ != kNone) return false;  // rolled back again during the rerun
  if (dma_pending_) {
    // The CPU is at the first boundary at or after now: let the DMA master move its bytes
    // and claim the port (after_dma_claim stalls the CPU) before the next instruction.
    dma_pending_ = false;
    replayed_.notify();
    sc_core::wait(sc_core::SC_ZERO_TIME);
    need_ckpt_ = true;
    return false;
  }
  return true;
}

// The IPL is an input of the run from here: the checkpoint must hold it.
bool SpeculativeEngine::take_ipl() {
  bool new_ipl = apply_ipl();
  if (need_ckpt_ || new_ipl) checkpoint();
  return new_ipl;
}

// The level the lines had at the CPU's present boundary, from the log.
bool SpeculativeEngine::apply_ipl() {
  size_t n = 0;
  int level = applied_ipl_;
  while (n < ipl_log_.size() && ipl_log_[n].first <= cpu_.cycles()) level = ipl_log_[n++].second;
  ipl_log_.erase(ipl_log_.begin(), ipl_log_.begin() + long(n));
  if (level == applied_ipl_) return false;
  applied_ipl_ = level;
  cpu_.set_ipl(level);
  if (s_.log.observed()) s_.log.ipl(s_.local_time(), level);
  return true;
}

void SpeculativeEngine::idle() {
  if (!sync_exact(Site::IdleSync)) return;
  idle_wait();
}

void SpeculativeEngine::idle_wait() {
  stop_waiting_ = true;
  if (ipl_log_.empty()) {
    site_ = Site::IdleIpl;
    sc_core::wait(s_.ipl_changed);
    site_ = Site::None;
  }
  idle_tail();
}

void SpeculativeEngine::idle_tail() {
  stop_waiting_ = false;
  s_.take_dma();  // DMA while the bus was idle stole nothing
  rebase_to_now();
  uint64_t c = cycle_of(sc_core::sc_time_stamp());  // woken at the next clock edge
  if (cpu_.cycles() < c) cpu_.sleep(c - cpu_.cycles());
  fresh_ = false;
  need_ckpt_ = true;
}

// A later change of the lines, known already (after a rollback): the run stops there.
void SpeculativeEngine::clip_chunk(uint64_t now) {
  if (!ipl_log_.empty() && ipl_log_.front().first < s_.chunk_end) {
    s_.chunk_end = std::max(now + 1, ipl_log_.front().first);
    s_.limits_dirty = true;
  }
}

bool SpeculativeEngine::sync() {
  if (!sync_exact(Site::Sync)) return false;
  need_ckpt_ = true;
  return true;
}

void SpeculativeEngine::end() {
  // From here on nothing is rolled back; a DMA master waiting for the CPU goes on.
  exact_over_ = true;
  if (!s_.log.empty()) s_.log.flush(sc_core::sc_max_time());
  if (dma_pending_) {
    dma_pending_ = false;
    replayed_.notify();
  }
  sc_time local = s_.local_time(), now = sc_core::sc_time_stamp();
  if (local > now) sc_core::wait(local - now);
}

// A run that ends while a CPU is ahead: what it did up to the end is certain now.
void SpeculativeEngine::end_of_simulation() {
  join();
  if (!s_.log.empty()) s_.log.flush(sc_core::sc_time_stamp());
}

void SpeculativeEngine::ipl_changed(int level) {
  join();
  if (exact_over_) return;
  // The lines' history since the CPU last saw them: after a rollback to an earlier change,
  // each later one must be seen at its own time again.
  uint64_t c = cycle_of(sc_core::sc_time_stamp());
  if (!ipl_log_.empty() && ipl_log_.back().first == c) ipl_log_.back().second = level;
  else ipl_log_.emplace_back(c, level);
  request_rollback();
}

// A commit: nothing can reach the CPU before its present boundary any more. The epoch's
// journal is dropped and the pages it let through are protected again.
void SpeculativeEngine::checkpoint() {
  need_ckpt_ = false;
  ++commits_;
  cpu_.save(ckpt_);
  if (!s_.log.empty()) s_.log.flush(sc_core::sc_max_time());
  journal_.commit();
  fresh_ = true;
}

// From a fresh checkpoint the run to `end` goes to the pool, and the CPU's thread lets the
// other processes of this delta cycle run (the other boards queue theirs) before it joins. Every
// choice here depends on the board's state only, never on the host's threads or their timing,
// so a run gives the same results with any number of threads. A run whose board records
// for an observer, a trace or a profile, or that must be done again after a device access, stays here.
void SpeculativeEngine::run(uint64_t end) {
  SpeculationPool* pool = SpeculationPool::instance();
  if (!pool || !fresh_ || run_here_ || skip_ || s_.log.observed() || s_.log.tracing() ||
      s_.log.profiling()) {
    run_here_ = false;
    if (skip_ && fresh_) --skip_;
    if (run_ahead(end) && last_run_reached_) widen();
    return;
  }
  job_target_ = end;
  job_out_ = true;
  ++offloaded_;
  pool->submit(*this);
  sc_core::wait(sc_core::SC_ZERO_TIME);
  join();
}

void SpeculativeEngine::execute() {
  in_job_ = true;
  job_aborted_ = false;
  s_.in_run = true;
  try {
    cpu_.run_until(job_target_);
  } catch (const Offload&) {
    job_aborted_ = true;
  } catch (...) {
    job_error_ = std::current_exception();
  }
  s_.in_run = false;
  in_job_ = false;
  fresh_ = false;
}

void SpeculativeEngine::finish_job() {
  SpeculationPool::instance()->join(*this);
  job_out_ = false;
  if (job_error_) {
    std::exception_ptr e = job_error_;
    job_error_ = nullptr;
    std::rethrow_exception(e);
  }
  if (job_aborted_) {
    // A device access: back to the checkpoint (the journal holds every page the run wrote), and
    // the run is done again on the CPU's thread, where the access waits for its time.
    journal_.undo();
    cpu_.restore(ckpt_);
    ++aborted_;
    narrow();
    run_here_ = true;
    // A board that keeps touching devices (TOS's kernel between interrupts) wastes the run it
    // sends: it sends fewer, backing off exponentially while they keep failing.
    backoff_ = backoff_ ? std::min<uint32_t>(backoff_ * 2, kMaxBackoff) : 1;
    skip_ = backoff_;
    return;
  }
  backoff_ = 0;
  last_target_ = job_target_;
  last_run_reached_ = cpu_.cycles() >= job_target_;
  if (last_run_reached_) widen();
}

void SpeculativeEngine::widen() {
  if (s_.quanta > 1) ++widened_;
  s_.quanta = std::min<uint64_t>(s_.quanta * 2, kMaxQuanta);
}

void SpeculativeEngine::narrow() { s_.quanta = 1; }

uint64_t SpeculativeEngine::cycle_of(const sc_time& t) const {
  uint64_t from = s_.sync_time.value(), at = t.value();
  if (at <= from) return s_.sync_cycle;
  return s_.sync_cycle + (at - from + s_.period_ps - 1) / s_.period_ps;
}

// Moves the reference point (sync_cycle_, sync_time_) to the last clock edge at or before now.
// In exact mode the core's clock grid never moves: a clock is always the same kernel time, so
// an event between two edges has the same effect in every run (it is seen at the next edge);
// time the CPU spends in STOP or stalled is counted in clocks.
void SpeculativeEngine::rebase_to_now() {
  uint64_t now = sc_core::sc_time_stamp().value();
  uint64_t k = (now - s_.sync_time.value()) / s_.period_ps;
  s_.sync_cycle += k;
  s_.sync_time = sc_time::from_value(s_.sync_time.value() + k * s_.period_ps);
  s_.after_sync();
}

// Something happens now (an IPL change, a DMA access): if the CPU has run past now, it must be
// taken back to the first instruction boundary at or after now.
void SpeculativeEngine::request_rollback() {
  if (exact_over_ || stop_waiting_ || committed_in_run_) return;
  uint64_t c = cycle_of(sc_core::sc_time_stamp());
  // Not past now. (Inside an instruction that has not yet committed, "now" may be its first
  // clock: the change then comes before it, and only a rerun can tell.)
  if (c > cpu_.cycles() || (c == cpu_.cycles() && !s_.in_run)) return;
  // At the end of a run that reached its target, the present boundary is the first at or
  // after any time from that target on.
  if (!s_.in_run && last_run_reached_ && c >= last_target_) return;
  if (c < rollback_to_) rollback_to_ = c;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void SpeculativeEngine::rollback() {
  fresh_ = false;
  rebase_to_now();
  uint64_t target = rollback_to_;
  rollback_to_ = kNone;
  journal_.undo();
  cpu_.restore(ckpt_);
  s_.log.drop();  // what the observer and the tracer would have been told is undone
  ++rollbacks_;
  narrow();
  committed_in_run_ = false;
  last_run_reached_ = false;
  if (cpu_.cycles() < target && !run_ahead(target)) return;  // rollback_to_ is set again
  need_ckpt_ = true;
  s_.limits_dirty = true;
}

// The core runs speculatively to `target`. A device access that committed the running
// instruction asks for a checkpoint at its end.
bool SpeculativeEngine::run_ahead(uint64_t target) {
  fresh_ = false;
  try {
    s_.in_run = true;
    cpu_.run_until(target);
    s_.in_run = false;
  } catch (const Rollback&) {
    s_.in_run = false;
    committed_in_run_ = false;
    return false;
  }
  last_target_ = target;
  last_run_reached_ = !committed_in_run_ && cpu_.cycles() >= target;
  if (committed_in_run_) {
    committed_in_run_ = false;
    need_ckpt_ = true;
  }
  return true;
}

// Waits for the kernel to reach the CPU's local time; false if a rollback was requested
// meanwhile (the loop then carries it out).
bool SpeculativeEngine::sync_exact(Site site, bool resumed) {
  for (;;) {
    uint64_t local = (s_.sync_time + s_.lead(cpu_.cycles())).value();
    uint64_t now = sc_core::sc_time_stamp().value();
    if (local <= now) break;
    if (!resumed) ++s_.syncs;
    resumed = false;
    site_ = site;
    sc_core::wait(sc_time::from_value(local - now), wake_);
    site_ = Site::None;
    if (rollback_to_ != kNone || dma_pending_) return false;
    rebase_to_now();
  }
  rebase_to_now();
  return true;
}

void SpeculativeEngine::state(StateArchive& a) {
  if (job_out_) throw std::logic_error(std::string(s_.name) + ": a snapshot while a speculative run is out");
  a.section("speculative engine").io(site_).io(applied_ipl_);
  cpu_state_io(a, ckpt_, ckpt_halt_);
  a.io(ipl_log_).io(need_ckpt_).io(stop_waiting_).io(exact_over_).io(dma_pending_).io(committed_in_run_);
  a.io(last_run_reached_).io(last_target_).io(rollback_to_).io(rollbacks_).io(commits_).io(fresh_).io(run_here_);
  a.io(job_target_).io(backoff_).io(skip_).io(offloaded_).io(aborted_).io(widened_);
  journal_.state(a, s_.blocks);
}

// The waits of sync_exact recompute what they wait for from the state, so a restored engine
// waits again where it waited; idle's wait for the lines is taken up after it.
bool SpeculativeEngine::resume() {
  Site site = site_;
  site_ = Site::None;
  switch (site) {
    case Site::Sync:
      if (!sync_exact(site, true)) return false;
      need_ckpt_ = true;
      return true;
    case Site::HaltSync:
      return sync_exact(site, true);
    case Site::IdleSync:
      if (sync_exact(site, true)) idle_wait();
      return true;
    case Site::IdleIpl:  // (stop_waiting_ restored as it was: set)
      site_ = Site::IdleIpl;
      sc_core::wait(s_.ipl_changed);
      site_ = Site::None;
      idle_tail();
      return true;
    case Site::None:
      break;
  }
  throw std::logic_error(std::string(s_.name) + ": restored without a site to resume from");
}

// Inside run_until, before a bus cycle at `cycle` that leaves the fast path: the device must see
// it at its time. The first such cycle of a run commits the instruction; a rollback requested
// before that abandons the run.
void SpeculativeEngine::before_device(uint64_t cycle) {
  if (in_job_) throw Offload{};
  narrow();
  if (cycle < s_.sync_cycle)
    throw std::logic_error(std::string(s_.name) + ": exact mode: a rerun reached a device access in the past "
                           "(the rerun diverged from the first run)");
  for (;;) {
    uint64_t local = (s_.sync_time + s_.lead(cycle)).value();
    uint64_t now = sc_core::sc_time_stamp().value();
    if (local <= now) break;
    ++s_.syncs;
    if (committed_in_run_) {
      sc_core::wait(sc_time::from_value(local - now));
    } else {
      sc_core::wait(sc_time::from_value(local - now), wake_);
      if (rollback_to_ != kNone) throw Rollback{};
    }
    rebase_to_now();
  }
  if (!committed_in_run_) {
    // What other processes do at this very time (a timer expiring, an NI raising its
    // interrupt) comes before the access, whichever of them the kernel happens to run first.
    for (int i = 0; i < 2 && sc_core::sc_pending_activity_at_current_time(); ++i) {
      sc_core::wait(sc_core::SC_ZERO_TIME);
      if (rollback_to_ != kNone) throw Rollback{};
    }
    committed_in_run_ = true;
    cpu_.request_yield();  // a checkpoint at the end of this instruction
  }
}

void SpeculativeEngine::before_dma() {
  join();
  if (exact_over_ || stop_waiting_) return;
  if (committed_in_run_) return;  // takes effect at the end of the running instruction
  request_rollback();
  dma_pending_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
  while (dma_pending_) sc_core::wait(replayed_);
}

void SpeculativeEngine::after_dma_claim() {
  join();
  sc_time stolen = s_.take_dma();
  if (stolen == sc_core::SC_ZERO_TIME) return;
  if (stop_waiting_ || exact_over_) return;  // the bus is idle in STOP
  s_.dma_stall += stolen;
  fresh_ = false;
  cpu_.stall((stolen.value() + s_.period_ps - 1) / s_.period_ps);
}

}  // namespace testbed
