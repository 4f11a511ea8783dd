#include "cpu_initiator.h"
#include "tlm_payload.h"

#include <m68k_disasm.h>

#include <testbed/memory_map.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace testbed {

using sc_core::sc_time;

CpuInitiator::CpuInitiator(sc_core::sc_module_name name, sc_time clock_period, m68k::Model model)
    : sc_module(name), socket("socket"), cpu_(*this, model), period_(clock_period),
      period_ps_(clock_period.value()), lead_clocks_(std::max<uint64_t>(1, max_lead_.value() / period_ps_)),
      ext_(new BusCycleExtension) {
  if (clock_period <= sc_core::SC_ZERO_TIME)
    throw std::invalid_argument(std::string(this->name()) + ": the CPU clock period must be positive");
  socket.register_invalidate_direct_mem_ptr(this, &CpuInitiator::invalidate_direct_mem_ptr);
  payload_.set_extension(ext_);
  SC_THREAD(run);
  set_stack_size(4 << 20);  // the core and the TLM path run on this thread's stack
}

void CpuInitiator::set_ipl(int level) {
  if (level == ipl_) return;
  ipl_ = level;
  ipl_changed_.notify(sc_core::SC_ZERO_TIME);
  if (in_run_) cpu_.request_yield();  // the loop hands it to the core after this instruction
  if (spec_ && !exact_over_) {
    // The lines' history since the CPU last saw them: after a rollback to an earlier change,
    // each later one must be seen at its own time again.
    uint64_t c = cycle_of(sc_core::sc_time_stamp());
    if (!ipl_log_.empty() && ipl_log_.back().first == c) ipl_log_.back().second = level;
    else ipl_log_.emplace_back(c, level);
    request_rollback();
  }
}

// Exact mode: the level the lines had at the CPU's present boundary, from the log.
bool CpuInitiator::apply_ipl_exact() {
  size_t n = 0;
  int level = applied_ipl_;
  while (n < ipl_log_.size() && ipl_log_[n].first <= cpu_.cycles()) level = ipl_log_[n++].second;
  ipl_log_.erase(ipl_log_.begin(), ipl_log_.begin() + long(n));
  if (level == applied_ipl_) return false;
  applied_ipl_ = level;
  cpu_.set_ipl(level);
  if (observer_) records_.push_back(Record{Record::kIpl, {}, local_time(), level, {}});
  return true;
}

void CpuInitiator::flush_records(const sc_time& until) {
  for (const Record& x : records_) {
    if (x.time > until) break;
    if (x.kind == Record::kBus) observer_->bus_cycle(x.bus);
    else if (x.kind == Record::kIpl) observer_->ipl(x.time, x.level);
    else std::fputs(x.text.c_str(), trace_);
  }
  records_.clear();
}

// A run that ends while a CPU is ahead: what it did up to the end is certain now.
void CpuInitiator::end_of_simulation() {
  if (spec_ && !records_.empty()) flush_records(sc_core::sc_time_stamp());
}

bool CpuInitiator::apply_ipl() {
  if (ipl_ == applied_ipl_) return false;
  applied_ipl_ = ipl_;
  cpu_.set_ipl(ipl_);
  if (observer_) observer_->ipl(local_time(), ipl_);
  return true;
}

// From the kernel time of the last synchronisation, not sc_time_stamp(): another process may
// ask while the CPU thread waits for the kernel to catch up.
sc_time CpuInitiator::local_time() const { return sync_time_ + lead(cpu_.cycles()); }

void CpuInitiator::set_fast_path(bool on) {
  fast_path_ = on;
  if (!on) cpu_.unmap_all_fast();
}

void CpuInitiator::set_memory_port(const SharedMemoryPort* port) {
  mem_port_ = port;
  if (port) dma_seen_ = port->stats(SharedMemoryPort::kDma).held;
}

// The core clock at which the CPU's local time reaches kernel time `t` (>= now), rounded up.
uint64_t CpuInitiator::cycle_at(const sc_time& t) const {
  uint64_t now = sc_core::sc_time_stamp().value(), at = t.value();
  if (at <= now) return sync_cycle_;
  static const uint64_t never = sc_core::sc_max_time().value();
  if (at == never) return UINT64_MAX;
  return sync_cycle_ + (at - now + period_ps_ - 1) / period_ps_;
}

// Quantum boundary and lead limit: fixed from one synchronisation to the next. The boundary is
// tlm_global_quantum::compute_local_quantum()'s (the next multiple of the global quantum), in
// integers.
void CpuInitiator::after_sync() {
  uint64_t q = tlm::tlm_global_quantum::instance().get().value();
  uint64_t now = sc_core::sc_time_stamp().value();
  if (q != boundary_quantum_ || now >= next_boundary_) {
    boundary_quantum_ = q;
    next_boundary_ = q ? now - now % q + q : now;
  }
  // At least one clock, so a zero quantum still progresses.
  quantum_end_ = sync_cycle_ + std::max<uint64_t>(1, (next_boundary_ - now) / period_ps_);
  lead_end_ = sync_cycle_ + lead_clocks_;
  limits_dirty_ = true;
}

// The kernel's next activity and the device event horizon. Both can change only when another
// process runs (during a synchronisation) or when the CPU itself calls a device (b_transport).
void CpuInitiator::update_limits() {
  limits_dirty_ = false;
  activity_end_ = sc_core::sc_pending_activity_at_current_time() ? sync_cycle_
                                                                  : cycle_at(sc_core::sc_time_stamp() +
                                                                             sc_core::sc_time_to_pending_activity());
  horizon_end_ = horizon_ ? cycle_at(horizon_()) : UINT64_MAX;
  // Past the quantum boundary only while nobody else has anything to do: up to the next
  // pending activity (then the kernel runs it with the CPU at most an instruction ahead).
  uint64_t end = std::max(quantum_end_, std::min(activity_end_, lead_end_));
  chunk_end_ = std::min(end, horizon_end_);
}

void CpuInitiator::sync() {
  wait(lead(cpu_.cycles()));
  ++syncs_;
  if (mem_port_) {
    // DMA held the RAM port for this long while the CPU ran ahead: the CPU's bus cycles in that
    // window would have waited for it: charged as one stall, per synchronisation rather than
    // per bus cycle so that the DMI path stays free of it. DMA during the stall is charged at
    // the next synchronisation: over any stretch of time the CPU then gets what DMA left of
    // the port (at 50% DMA duty, half its speed).
    sc_time held = mem_port_->stats(SharedMemoryPort::kDma).held;
    if (held > dma_seen_) {
      sc_time stolen = held - dma_seen_;
      dma_seen_ = held;
      dma_stall_ += stolen;
      wait(stolen);
    }
  }
  rebase();
}

void CpuInitiator::rebase() {
  sync_cycle_ = cpu_.cycles();
  sync_time_ = sc_core::sc_time_stamp();
  after_sync();
}

// A process woken at the same time as the CPU (an NI raising its interrupt, a signal and the
// method forwarding it) may run after the CPU in the same time step; without this the CPU
// would sample the IPL first and see the change only a quantum later. Two delta cycles cover
// a direct set_irq() call and a signal plus one forwarding method. Free when nothing else is
// runnable at this time (a board alone).
void CpuInitiator::settle() {
  for (int i = 0; i < 2 && sc_core::sc_pending_activity_at_current_time(); ++i) wait(sc_core::SC_ZERO_TIME);
  limits_dirty_ = true;
}

void CpuInitiator::run() {
  rebase();
  in_run_ = true;
  cpu_.reset();
  in_run_ = false;
  std::string halt;
  spec_ = exact_ && !debug_;
  if (spec_) run_exact(halt);
  while (!spec_ && !finish_requested_) {
    if (debug_) debug_boundary();
    if (finish_requested_) break;
    bool new_ipl = apply_ipl();
    if (cpu_.halted()) {
      halt = cpu_.halt_reason();
      break;
    }
    if (cpu_.stopped() && !new_ipl && !cpu_.interrupt_pending()) {
      // STOP: catch the kernel up to the CPU, then sleep until the IPL lines change. The bus
      // is idle meanwhile, so DMA in that time steals nothing. (A level that rose while the
      // mask was higher, and that STOP's new mask lets in, is taken at once: the lines will
      // not change again for it. An OS that idles with `splhigh; test; STOP #0x2000` hits
      // that window whenever its timer expires between the test and the STOP.)
      sync();
      if (ipl_ == applied_ipl_) wait(ipl_changed_);
      if (mem_port_) dma_seen_ = mem_port_->stats(SharedMemoryPort::kDma).held;
      rebase();  // the core's clock is re-based on the kernel time
      continue;
    }
    if (limits_dirty_) update_limits();
    uint64_t now = cpu_.cycles();
    if (now < chunk_end_) {
      ++chunks_;
      in_run_ = true;
      cpu_.run_until(chunk_end_);
      in_run_ = false;
      continue;  // IPL, STOP and limits are looked at again before the next chunk
    }
    bool at_horizon = horizon_end_ <= now;
    sync();
    // At the horizon, let the device's event at this time run before the next instruction
    // samples the IPL; otherwise let anything woken at this time run.
    if (at_horizon) wait(sc_core::SC_ZERO_TIME);
    settle();
  }
  if (spec_) {
    sc_time local = local_time(), now = sc_core::sc_time_stamp();
    if (local > now) wait(local - now);
  } else {
    wait(lead(cpu_.cycles()));
  }
  sync_cycle_ = cpu_.cycles();
  sync_time_ = sc_core::sc_time_stamp();
  done_flag_ = true;
  if (done_) done_(halt);
}

// The debugger may hold the thread (wait() for other boards to reach an instruction boundary):
// kernel time that passes meanwhile is taken out of the CPU's lead, as in transport(); if the
// kernel went past the CPU's local time, the CPU stalled that long.
void CpuInitiator::debug_boundary() {
  sc_time t0 = sc_core::sc_time_stamp();
  debug_->boundary();
  sc_time moved = sc_core::sc_time_stamp() - t0;
  if (moved > sc_core::SC_ZERO_TIME) {
    uint64_t clocks = moved.value() / period_.value();
    if (sync_cycle_ + clocks <= cpu_.cycles()) {
      sync_cycle_ += clocks;
      sync_time_ += period_ * double(clocks);
    } else {
      rebase();
    }
  }
  limits_dirty_ = true;
}

m68k::BusResponse CpuInitiator::transport(const m68k::BusAccess& a, uint8_t* buf, unsigned len, uint32_t& wait) {
  ++slow_accesses_;
  if (spec_) catch_up(a.cycle);
  uint32_t address = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  tlm::tlm_generic_payload& p = payload_;
  set_access(p, a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, buf, len);
  ext_->fc = a.fc;
  sc_time before = lead(a.cycle);
  sc_time delay = before;
  sc_time t0 = sc_core::sc_time_stamp();
  socket->b_transport(p, delay);
  // A target may synchronise inside b_transport (wait() for its share of our lead, as the
  // monitor does so that its reads are exact): the kernel time then moved on by `consumed`,
  // and sync_cycle_, the clock that corresponds to sc_time_stamp(), must move with it, or every
  // later access would count that lead twice. Whatever the call took beyond `before` -- a
  // longer wait, or latency the target annotated -- is wait states on this bus cycle.
  sc_time consumed = sc_core::sc_time_stamp() - t0;
  if (consumed > sc_core::SC_ZERO_TIME) {
    uint64_t clocks = consumed.value() / period_.value();
    sync_cycle_ += clocks;
    sync_time_ += period_ * double(clocks);
  }
  // The device may have scheduled an event (or the timer been reprogrammed): if that is before
  // the end of the running chunk, end the chunk after this instruction.
  limits_dirty_ = true;
  if (in_run_) {
    uint64_t end = chunk_end_;
    update_limits();
    if (chunk_end_ < end) cpu_.request_yield();
  }
  // Time a target held the call beyond the cycle's start (a pin-level device clocking the access
  // in, such as the co-simulated RTL monitor) falls first into the 68010 bus cycle itself: the
  // device has until DTACK is sampled (kDtackWindow clocks after the cycle starts) before it
  // costs wait states, as on the real bus. Latency a target annotates (`delay`) is wait states
  // as before; so is a device that holds the cycle longer than the window.
  sc_time response = consumed + delay;
  if (response > before) {
    sc_time extra = response - before;
    sc_time held = consumed > before ? consumed - before : sc_core::SC_ZERO_TIME;
    sc_time free = std::min(held, period_ * double(kDtackWindow));
    extra -= free;
    wait = uint32_t((extra.value() + period_.value() - 1) / period_.value());
  }
  bool ok = p.is_response_ok();
  if (observer_) {
    BusCycleRecord r;
    r.start = sc_core::sc_time_stamp() + before;
    r.duration = period_ * double(4 + wait);
    r.address = address;
    r.data = len == 1 ? buf[0] : uint16_t(buf[0] << 8 | buf[1]);
    r.fc = a.fc;
    r.write = a.write;
    r.byte = len == 1;
    r.bus_error = !ok;
    if (spec_) records_.push_back(Record{Record::kBus, r, r.start, 0, {}});
    else observer_->bus_cycle(r);
  }
  if (!ok) return m68k::BusResponse::BusError;
  if (debug_) debug_->access(a, len);
  if (fast_path_ && p.is_dmi_allowed()) try_dmi(address, a.fc);
  return m68k::BusResponse::Ok;
}

m68k::BusResponse CpuInitiator::read(const m68k::BusAccess& a, uint16_t& data, uint32_t& wait) {
  uint8_t buf[2] = {0, 0};
  unsigned len = a.byte ? 1 : 2;
  m68k::BusResponse r = transport(a, buf, len, wait);
  data = a.byte ? buf[0] : uint16_t(buf[0] << 8 | buf[1]);
  return r;
}

m68k::BusResponse CpuInitiator::write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) {
  if (spec_ && journal_write(a, data, wait)) return m68k::BusResponse::Ok;
  uint8_t buf[2];
  unsigned len = a.byte ? 1 : 2;
  if (a.byte) buf[0] = uint8_t(data);
  else {
    buf[0] = uint8_t(data >> 8);
    buf[1] = uint8_t(data);
  }
  return transport(a, buf, len, wait);
}

void CpuInitiator::try_dmi(uint32_t address, uint8_t fc) {
  tlm::tlm_dmi dmi;
  tlm::tlm_generic_payload& p = payload_;
  p.set_address(address);
  p.set_command(tlm::TLM_READ_COMMAND);
  ext_->fc = fc;
  if (!socket->get_direct_mem_ptr(p, dmi) || !dmi.is_read_allowed()) return;
  // The core maps whole 1 KB pages: use the page-aligned part of the granted range.
  uint64_t first = (dmi.get_start_address() + TB_PAGE_SIZE - 1) & ~uint64_t(TB_PAGE_SIZE - 1);
  uint64_t end = (dmi.get_end_address() + 1) & ~uint64_t(TB_PAGE_SIZE - 1);
  if (end <= first) return;
  uint32_t ws = uint32_t((dmi.get_read_latency().value() + period_.value() - 1) / period_.value());
  m68k::Space space = m68k::fc_is_supervisor(fc) ? m68k::Space::Supervisor : m68k::Space::User;
  if (debug_) {  // page by page, leaving out those a debugger watches
    for (uint64_t pg = first; pg < end; pg += TB_PAGE_SIZE)
      if (!debug_->keep_off_fast_path(uint32_t(pg), space == m68k::Space::Supervisor))
        cpu_.map_fast(space, uint32_t(pg), TB_PAGE_SIZE, dmi.get_dmi_ptr() + (pg - dmi.get_start_address()),
                      dmi.is_write_allowed(), ws);
    ++dmi_grants_;
    return;
  }
  bool writable = dmi.is_write_allowed();
  if (spec_ && writable) {  // journaled: the first write of an epoch goes through journal_write
    writable = false;
    for (uint64_t pg = first; pg < end; pg += TB_PAGE_SIZE) protected_[int(space)][pg / TB_PAGE_SIZE] = 1;
  }
  cpu_.map_fast(space, uint32_t(first), uint32_t(end - first),
                dmi.get_dmi_ptr() + (first - dmi.get_start_address()), writable, ws);
  ++dmi_grants_;
}

void CpuInitiator::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  const uint64_t top = 1u << TB_ADDRESS_BITS;
  if (start >= top) return;
  uint64_t first = start & ~uint64_t(TB_PAGE_SIZE - 1);
  uint64_t last = std::min<uint64_t>(end, top - 1) | (TB_PAGE_SIZE - 1);
  uint32_t size = uint32_t(last + 1 - first);
  cpu_.unmap_fast(m68k::Space::User, uint32_t(first), size);
  cpu_.unmap_fast(m68k::Space::Supervisor, uint32_t(first), size);
  // The pages' write protection for the journal goes with their mapping: a page mapped again
  // read-only (an MMU page turned read-only) must not be let through by journal_write.
  for (auto& p : protected_)
    if (!p.empty()) std::fill(p.begin() + long(first / TB_PAGE_SIZE), p.begin() + long(last / TB_PAGE_SIZE) + 1, 0);
}

int CpuInitiator::interrupt_acknowledge(int level, uint64_t cycle, uint32_t&) {
  if (spec_) catch_up(cycle);
  return iack_ ? iack_(level) : m68k::Bus::kSpurious;
}

void CpuInitiator::reset_devices(uint64_t cycle) {
  if (spec_) catch_up(cycle);
  if (reset_devices_) reset_devices_();
}

// ---- exact mode (speculation and rollback) ---------------------------------------------------

void CpuInitiator::run_exact(std::string& halt) {
  for (auto& p : protected_) p.assign(size_t(1) << (TB_ADDRESS_BITS - 10), 0);
  protect_all();
  need_ckpt_ = true;
  while (!finish_requested_) {
    if (rollback_to_ != kNone) rollback();
    if (rollback_to_ != kNone) continue;  // rolled back again during the rerun
    if (dma_pending_) {
      // The CPU is at the first boundary at or after now: let the DMA master move its bytes
      // and claim the port (after_dma_claim stalls the CPU) before the next instruction.
      dma_pending_ = false;
      replayed_.notify();
      wait(sc_core::SC_ZERO_TIME);
      need_ckpt_ = true;
      continue;
    }
    // The IPL is an input of the run from here: the checkpoint must hold it.
    bool new_ipl = apply_ipl_exact();
    if (need_ckpt_ || new_ipl) checkpoint();
    if (cpu_.halted()) {
      if (!sync_exact()) continue;  // a halt in the CPU's future is not yet certain
      halt = cpu_.halt_reason();
      break;
    }
    if (cpu_.stopped() && !new_ipl && !cpu_.interrupt_pending()) {
      if (!sync_exact()) continue;
      stop_waiting_ = true;
      if (ipl_log_.empty()) wait(ipl_changed_);
      stop_waiting_ = false;
      if (mem_port_) dma_seen_ = mem_port_->stats(SharedMemoryPort::kDma).held;
      rebase_to_now();
      uint64_t c = cycle_of(sc_core::sc_time_stamp());  // woken at the next clock edge
      if (cpu_.cycles() < c) cpu_.stall(c - cpu_.cycles());
      need_ckpt_ = true;
      continue;
    }
    if (limits_dirty_) update_limits();
    uint64_t now = cpu_.cycles();
    // A later change of the lines, known already (after a rollback): the run stops there.
    if (!ipl_log_.empty() && ipl_log_.front().first < chunk_end_) {
      chunk_end_ = std::max(now + 1, ipl_log_.front().first);
      limits_dirty_ = true;
    }
    if (now < chunk_end_) {
      ++chunks_;
      run_ahead(chunk_end_);
      continue;
    }
    bool at_horizon = horizon_end_ <= now;
    if (!sync_exact()) continue;
    need_ckpt_ = true;
    if (at_horizon) wait(sc_core::SC_ZERO_TIME);
    settle();
  }
  // From here on nothing is rolled back; a DMA master waiting for the CPU goes on.
  exact_over_ = true;
  if (!records_.empty()) flush_records(sc_core::sc_max_time());
  if (dma_pending_) {
    dma_pending_ = false;
    replayed_.notify();
  }
}

void CpuInitiator::protect_all() {
  for (int sp = 0; sp < 2; ++sp)
    for (uint32_t pg = 0; pg < protected_[sp].size(); ++pg)
      if (cpu_.protect_writes(m68k::Space(sp), pg * TB_PAGE_SIZE)) protected_[sp][pg] = 1;
}

// A commit: nothing can reach the CPU before its present boundary any more. The epoch's
// journal is dropped and the pages it let through are protected again.
void CpuInitiator::checkpoint() {
  need_ckpt_ = false;
  ++commits_;
  cpu_.save(ckpt_);
  if (!records_.empty()) flush_records(sc_core::sc_max_time());
  for (auto& w : writable_)
    if (cpu_.protect_writes(w.first, w.second)) protected_[int(w.first)][w.second / TB_PAGE_SIZE] = 1;
  writable_.clear();
  journal_n_ = 0;
}

// The first write of an epoch to a protected RAM page: keep the page as it was, let writes to
// it through the fast path until the next commit, and do this one (with the page's timing).
bool CpuInitiator::journal_write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) {
  m68k::Space sp = m68k::fc_is_supervisor(a.fc) ? m68k::Space::Supervisor : m68k::Space::User;
  uint32_t address = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  uint32_t page = address / TB_PAGE_SIZE;
  if (!protected_[int(sp)][page]) return false;
  uint8_t* host = cpu_.fast_host(sp, address);
  protected_[int(sp)][page] = 0;
  if (!host) return false;
  bool have = false;
  for (size_t i = 0; i < journal_n_ && !have; ++i) have = journal_[i].host == host;
  if (!have) {
    if (journal_n_ == journal_.size()) journal_.emplace_back();
    journal_[journal_n_].host = host;
    std::memcpy(journal_[journal_n_].old, host, TB_PAGE_SIZE);
    ++journal_n_;
    ++journaled_pages_;
  }
  cpu_.allow_writes(sp, address);
  writable_.emplace_back(sp, page * TB_PAGE_SIZE);
  unsigned off = address % TB_PAGE_SIZE;
  if (a.byte) {
    host[off] = uint8_t(data);
  } else {
    host[off] = uint8_t(data >> 8);
    host[off + 1] = uint8_t(data);
  }
  wait = cpu_.fast_wait_states(sp, address);
  return true;
}

uint64_t CpuInitiator::cycle_of(const sc_time& t) const {
  uint64_t from = sync_time_.value(), at = t.value();
  if (at <= from) return sync_cycle_;
  return sync_cycle_ + (at - from + period_ps_ - 1) / period_ps_;
}

// Moves the reference point (sync_cycle_, sync_time_) to the last clock edge at or before now.
// In exact mode the core's clock grid never moves: a clock is always the same kernel time, so
// an event between two edges has the same effect in every run (it is seen at the next edge);
// time the CPU spends in STOP or stalled is counted in clocks.
void CpuInitiator::rebase_to_now() {
  uint64_t now = sc_core::sc_time_stamp().value();
  uint64_t k = (now - sync_time_.value()) / period_ps_;
  sync_cycle_ += k;
  sync_time_ = sc_time::from_value(sync_time_.value() + k * period_ps_);
  after_sync();
}

// Something happens now (an IPL change, a DMA access): if the CPU has run past now, it must be
// taken back to the first instruction boundary at or after now.
void CpuInitiator::request_rollback() {
  if (!spec_ || exact_over_ || stop_waiting_ || committed_in_run_) return;
  uint64_t c = cycle_of(sc_core::sc_time_stamp());
  // Not past now. (Inside an instruction that has not yet committed, "now" may be its first
  // clock: the change then comes before it, and only a rerun can tell.)
  if (c > cpu_.cycles() || (c == cpu_.cycles() && !in_run_)) return;
  // At the end of a run that reached its target, the present boundary is the first at or
  // after any time from that target on.
  if (!in_run_ && last_run_reached_ && c >= last_target_) return;
  if (c < rollback_to_) rollback_to_ = c;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void CpuInitiator::rollback() {
  rebase_to_now();
  uint64_t target = rollback_to_;
  rollback_to_ = kNone;
  for (size_t i = journal_n_; i-- > 0;) std::memcpy(journal_[i].host, journal_[i].old, TB_PAGE_SIZE);
  cpu_.restore(ckpt_);
  records_.clear();  // what the observer and the tracer would have been told is undone
  ++rollbacks_;
  committed_in_run_ = false;
  last_run_reached_ = false;
  if (cpu_.cycles() < target && !run_ahead(target)) return;  // rollback_to_ is set again
  need_ckpt_ = true;
  limits_dirty_ = true;
}

// The core runs speculatively to `target`. A device access that committed the running
// instruction asks for a checkpoint at its end.
bool CpuInitiator::run_ahead(uint64_t target) {
  try {
    in_run_ = true;
    cpu_.run_until(target);
    in_run_ = false;
  } catch (const Rollback&) {
    in_run_ = false;
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
bool CpuInitiator::sync_exact() {
  for (;;) {
    uint64_t local = (sync_time_ + lead(cpu_.cycles())).value();
    uint64_t now = sc_core::sc_time_stamp().value();
    if (local <= now) break;
    ++syncs_;
    wait(sc_time::from_value(local - now), wake_);
    if (rollback_to_ != kNone || dma_pending_) return false;
    rebase_to_now();
  }
  rebase_to_now();
  return true;
}

// Inside run_until, before a bus cycle at `cycle` that leaves the fast path: the device must see
// it at its time. The first such cycle of a run commits the instruction; a rollback requested
// before that abandons the run.
void CpuInitiator::catch_up(uint64_t cycle) {
  if (cycle < sync_cycle_)
    throw std::logic_error(std::string(name()) + ": exact mode: a rerun reached a device access in the past "
                           "(the rerun diverged from the first run)");
  for (;;) {
    uint64_t local = (sync_time_ + lead(cycle)).value();
    uint64_t now = sc_core::sc_time_stamp().value();
    if (local <= now) break;
    ++syncs_;
    if (committed_in_run_) {
      wait(sc_time::from_value(local - now));
    } else {
      wait(sc_time::from_value(local - now), wake_);
      if (rollback_to_ != kNone) throw Rollback{};
    }
    rebase_to_now();
  }
  if (!committed_in_run_) {
    // What other processes do at this very time (a timer expiring, an NI raising its
    // interrupt) comes before the access, whichever of them the kernel happens to run first.
    for (int i = 0; i < 2 && sc_core::sc_pending_activity_at_current_time(); ++i) {
      wait(sc_core::SC_ZERO_TIME);
      if (rollback_to_ != kNone) throw Rollback{};
    }
    committed_in_run_ = true;
    cpu_.request_yield();  // a checkpoint at the end of this instruction
  }
}

void CpuInitiator::before_dma() {
  if (!spec_ || exact_over_ || stop_waiting_) return;
  if (committed_in_run_) return;  // takes effect at the end of the running instruction
  request_rollback();
  dma_pending_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
  while (dma_pending_) wait(replayed_);
}

void CpuInitiator::after_dma_claim() {
  if (!spec_ || !mem_port_) return;
  sc_time held = mem_port_->stats(SharedMemoryPort::kDma).held;
  if (held <= dma_seen_) return;
  sc_time stolen = held - dma_seen_;
  dma_seen_ = held;
  if (stop_waiting_ || exact_over_) return;  // the bus is idle in STOP
  dma_stall_ += stolen;
  cpu_.stall((stolen.value() + period_ps_ - 1) / period_ps_);
}

unsigned CpuInitiator::debug_access(bool write, uint32_t address, uint8_t* data, unsigned len, uint8_t fc) {
  tlm::tlm_generic_payload p;
  BusCycleExtension* e = new BusCycleExtension;
  e->fc = fc;
  p.set_extension(e);
  set_access(p, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, data, len);
  return socket->transport_dbg(p);
}

void CpuInitiator::set_instruction_trace(std::FILE* out) {
  trace_ = out;
  if (!out) {
    cpu_.set_tracer(nullptr);
    return;
  }
  cpu_.set_tracer([this](uint32_t pc, uint64_t cycle) {
    uint8_t fc = (cpu_.regs().sr & 0x2000) ? m68k::FC_SUPERVISOR_PROGRAM : m68k::FC_USER_PROGRAM;
    std::string text;
    m68k::disassemble(pc, [&](uint32_t a) {
      uint8_t b[2] = {0, 0};
      debug_access(false, a, b, 2, fc);
      return uint16_t(b[0] << 8 | b[1]);
    }, text, cpu_.model() == m68k::Model::MC68000 ? m68k::DisasmCpu::MC68000 : m68k::DisasmCpu::MC68010);
    char line[160];
    std::snprintf(line, sizeof line, "%12llu %06X  %s\n", (unsigned long long)cycle, unsigned(pc), text.c_str());
    if (spec_) records_.push_back(Record{Record::kTrace, {}, sync_time_ + lead(cycle), 0, line});
    else std::fputs(line, trace_);
  });
}

}  // namespace testbed
