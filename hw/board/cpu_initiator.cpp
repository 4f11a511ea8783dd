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
    : sc_module(name), socket("socket"), cpu_(*this, model), st_(cpu_, clock_period, this->name()),
      ext_(new BusCycleExtension) {
  if (clock_period <= sc_core::SC_ZERO_TIME)
    throw std::invalid_argument(std::string(this->name()) + ": the CPU clock period must be positive");
  set_max_lead(sc_time(1, sc_core::SC_MS));
  socket.register_invalidate_direct_mem_ptr(this, &CpuInitiator::invalidate_direct_mem_ptr);
  payload_.set_extension(ext_);
  SC_THREAD(run);
  set_stack_size(4 << 20);  // the core and the TLM path run on this thread's stack
}

void CpuInitiator::set_ipl(int level) {
  if (level == st_.ipl) return;
  if (spec_) spec_->join();  // the core may be running on the pool
  st_.ipl = level;
  st_.ipl_changed.notify(sc_core::SC_ZERO_TIME);
  if (st_.in_run) cpu_.request_yield();  // the loop hands it to the core after this instruction
  if (spec_) spec_->ipl_changed(level);
}

void CpuInitiator::end_of_simulation() {
  if (spec_) spec_->end_of_simulation();
}

void CpuInitiator::set_fast_path(bool on) {
  fast_path_ = on;
  if (!on) cpu_.unmap_all_fast();
}

void CpuInitiator::set_memory_port(const SharedMemoryPort* port) {
  st_.mem_port = port;
  if (port) st_.dma_seen = port->stats(SharedMemoryPort::kDma).held;
}

// The core clock at which the CPU's local time reaches kernel time `t` (>= now), rounded up.
uint64_t CpuInitiator::cycle_at(const sc_time& t) const {
  uint64_t now = sc_core::sc_time_stamp().value(), at = t.value();
  if (at <= now) return st_.sync_cycle;
  static const uint64_t never = sc_core::sc_max_time().value();
  if (at == never) return UINT64_MAX;
  return st_.sync_cycle + (at - now + st_.period_ps - 1) / st_.period_ps;
}

// The kernel's next activity and the device event horizon. Both can change only when another
// process runs (during a synchronisation) or when the CPU itself calls a device (b_transport).
void CpuInitiator::update_limits() {
  st_.limits_dirty = false;
  activity_end_ = sc_core::sc_pending_activity_at_current_time() ? st_.sync_cycle
                                                                  : cycle_at(sc_core::sc_time_stamp() +
                                                                             sc_core::sc_time_to_pending_activity());
  horizon_end_ = horizon_ ? cycle_at(horizon_()) : UINT64_MAX;
  // Past the quantum boundary only while nobody else has anything to do: up to the next
  // pending activity (then the kernel runs it with the CPU at most an instruction ahead).
  uint64_t end = std::max(st_.quantum_end(), std::min(activity_end_, st_.lead_end()));
  st_.chunk_end = std::min(end, horizon_end_);
}

// A process woken at the same time as the CPU (an NI raising its interrupt, a signal and the
// method forwarding it) may run after the CPU in the same time step; without this the CPU
// would sample the IPL first and see the change only a quantum later. Two delta cycles cover
// a direct set_irq() call and a signal plus one forwarding method. Free when nothing else is
// runnable at this time (a board alone).
void CpuInitiator::settle() {
  for (int i = 0; i < 2 && sc_core::sc_pending_activity_at_current_time(); ++i) wait(sc_core::SC_ZERO_TIME);
  st_.limits_dirty = true;
}

// One loop for both engines: the core runs in chunks to the end the limits allow; between
// them the engine hands it the IPL lines, lets it sleep in STOP and keeps it in time.
void CpuInitiator::run() {
  if (!restored_) {
    st_.rebase();
    st_.in_run = true;
    cpu_.reset();
    st_.in_run = false;
  }
  if (exact_ && st_.debug)
    throw std::logic_error(std::string(name()) + ": a debugger is attached in exact mode "
                           "(CpuTiming::attach_debugger takes the board out of it)");
  if (exact_) {
    spec_ = &speculative_;
    engine_ = spec_;
    st_.log.set_deferred(true);
  }
  if (restored_ && ended_) return;  // a snapshot of a board whose run had ended
  std::string halt;
  bool ended = false;
  if (restored_) resume_run(halt, ended);
  else engine_->start();
  while (!ended && !st_.finish_requested) {
    if (!engine_->boundary()) continue;
    bool new_ipl = engine_->take_ipl();
    if (cpu_.halted()) {
      if (!engine_->halt_certain()) continue;  // a halt in the CPU's future is not yet certain
      halt = cpu_.halt_reason();
      break;
    }
    if (cpu_.stopped() && !new_ipl && !cpu_.interrupt_pending()) {
      engine_->idle();
      continue;
    }
    if (st_.limits_dirty) update_limits();
    uint64_t now = cpu_.cycles();
    engine_->clip_chunk(now);
    if (now < st_.chunk_end) {
      ++chunks_;
      engine_->run(st_.chunk_end);
      continue;  // IPL, STOP and limits are looked at again before the next chunk
    }
    at_horizon_ = horizon_end_ <= now;
    if (!engine_->sync()) continue;
    // At the horizon, let the device's event at this time run before the next instruction
    // samples the IPL; otherwise let anything woken at this time run.
    if (at_horizon_) wait(sc_core::SC_ZERO_TIME);
    settle();
  }
  ended_ = true;
  engine_->end();
  st_.sync_cycle = cpu_.cycles();
  st_.sync_time = sc_core::sc_time_stamp();
  done_flag_ = true;
  if (done_) done_(halt);
}

// Restored: kernel time 0 to the snapshot's, then the engine call the snapshot found the thread
// in, and what the loop does after it.
void CpuInitiator::resume_run(std::string& halt, bool& ended) {
  wait(restored_at_);
  TimingEngine::Site site = engine_->site();
  bool ok = engine_->resume();
  if (site == TimingEngine::Site::Sync && ok) {
    if (at_horizon_) wait(sc_core::SC_ZERO_TIME);
    settle();
  }
  if (site == TimingEngine::Site::HaltSync && ok) {
    halt = cpu_.halt_reason();
    ended = true;
  }
}

bool CpuInitiator::at_rest() const {
  if (ended_) return done_flag_;
  if (st_.in_run || engine_->site() == TimingEngine::Site::None) return false;
  return !spec_ || !spec_->job_out();
}

// Each mapped page of both spaces: (page, memory, offset, writable, wait states).
void CpuInitiator::fast_pages(StateArchive& a) {
  a.section("fast pages");
  if (a.loading()) cpu_.unmap_all_fast();
  for (int sp = 0; sp < 2; ++sp) {
    m68k::Space space = m68k::Space(sp);
    std::vector<uint32_t> pages;
    if (!a.loading())
      for (uint32_t pg = 0; pg < (1u << (TB_ADDRESS_BITS - 10)); ++pg)
        if (cpu_.fast_host(space, pg << 10)) pages.push_back(pg);
    a.io(pages);
    for (uint32_t pg : pages) {
      if (pg >= (1u << (TB_ADDRESS_BITS - 10))) throw StateError("snapshot: a fast page past the address space");
      uint8_t* host = a.loading() ? nullptr : cpu_.fast_host(space, pg << 10);
      bool writable = !a.loading() && cpu_.fast_writable(space, pg << 10);
      uint32_t wait = a.loading() ? 0 : cpu_.fast_wait_states(space, pg << 10);
      st_.blocks.io(a, host);
      a.io(writable).io(wait);
      if (a.loading()) cpu_.map_fast(space, pg << 10, TB_PAGE_SIZE, host, writable, wait);
    }
  }
}

void CpuInitiator::state(StateArchive& a) {
  if (spec_) spec_->join();
  a.section(name()).expect("exact mode (off under --gdb)", exact_).expect("fast path", fast_path_);
  if (!a.loading() && !at_rest())
    throw std::logic_error(std::string(name()) + ": a snapshot while the CPU is not at a resumable wait");
  m68k::Cpu::State s{};
  if (!a.loading()) cpu_.save(s);
  cpu_state_io(a, s, halt_text_);
  if (a.loading()) cpu_.restore(s);
  fast_pages(a);
  st_.state(a);
  a.io(activity_end_).io(horizon_end_).io(chunks_).io(slow_accesses_).io(dmi_grants_).io(done_flag_);
  a.io(at_horizon_).io(ended_);
  decoupled_.state(a);
  speculative_.state(a);
  if (!a.loading()) return;
  restored_ = true;
  restored_at_ = a.when();
}

m68k::BusResponse CpuInitiator::transport(const m68k::BusAccess& a, uint8_t* buf, unsigned len, uint32_t& wait) {
  if (spec_) spec_->before_device(a.cycle);
  ++slow_accesses_;
  uint32_t address = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  tlm::tlm_generic_payload& p = payload_;
  set_access(p, a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, buf, len);
  ext_->fc = a.fc;
  sc_time before = st_.lead(a.cycle);
  sc_time delay = before;
  sc_time t0 = sc_core::sc_time_stamp();
  socket->b_transport(p, delay);
  // A target may synchronise inside b_transport (wait() for its share of our lead, as the
  // monitor does so that its reads are exact): the kernel time then moved on by `consumed`,
  // and st_.sync_cycle, the clock that corresponds to sc_time_stamp(), must move with it, or every
  // later access would count that lead twice. Whatever the call took beyond `before` -- a
  // longer wait, or latency the target annotated -- is wait states on this bus cycle.
  sc_time consumed = sc_core::sc_time_stamp() - t0;
  if (consumed > sc_core::SC_ZERO_TIME) {
    uint64_t clocks = consumed.value() / st_.period.value();
    st_.sync_cycle += clocks;
    st_.sync_time += st_.period * double(clocks);
  }
  // The device may have scheduled an event (or the timer been reprogrammed): if that is before
  // the end of the running chunk, end the chunk after this instruction.
  st_.limits_dirty = true;
  if (st_.in_run) {
    uint64_t end = st_.chunk_end;
    update_limits();
    if (st_.chunk_end < end) cpu_.request_yield();
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
    sc_time free = std::min(held, st_.period * double(kDtackWindow));
    extra -= free;
    wait = uint32_t((extra.value() + st_.period.value() - 1) / st_.period.value());
  }
  bool ok = p.is_response_ok();
  if (st_.log.observed()) {
    BusCycleRecord r;
    r.start = sc_core::sc_time_stamp() + before;
    r.duration = st_.period * double(4 + wait);
    r.address = address;
    r.data = len == 1 ? buf[0] : uint16_t(buf[0] << 8 | buf[1]);
    r.fc = a.fc;
    r.write = a.write;
    r.byte = len == 1;
    r.bus_error = !ok;
    st_.log.bus_cycle(r);
  }
  if (!ok) return m68k::BusResponse::BusError;
  if (st_.debug) st_.debug->access(a, len);
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
  if (spec_ && spec_->journal().write(a, data, wait)) return m68k::BusResponse::Ok;
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
  uint32_t ws = uint32_t((dmi.get_read_latency().value() + st_.period.value() - 1) / st_.period.value());
  m68k::Space space = m68k::fc_is_supervisor(fc) ? m68k::Space::Supervisor : m68k::Space::User;
  if (st_.debug) {  // page by page, leaving out those a debugger watches
    for (uint64_t pg = first; pg < end; pg += TB_PAGE_SIZE)
      if (!st_.debug->keep_off_fast_path(uint32_t(pg), space == m68k::Space::Supervisor))
        cpu_.map_fast(space, uint32_t(pg), TB_PAGE_SIZE, dmi.get_dmi_ptr() + (pg - dmi.get_start_address()),
                      dmi.is_write_allowed(), ws);
    ++dmi_grants_;
    return;
  }
  bool writable = dmi.is_write_allowed();
  if (spec_ && writable) {  // journaled: the first write of an epoch goes through journal_write
    writable = false;
    spec_->journal().mapped(space, first, end);
  }
  cpu_.map_fast(space, uint32_t(first), uint32_t(end - first),
                dmi.get_dmi_ptr() + (first - dmi.get_start_address()), writable, ws);
  ++dmi_grants_;
}

void CpuInitiator::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (spec_) spec_->join();
  const uint64_t top = 1u << TB_ADDRESS_BITS;
  if (start >= top) return;
  uint64_t first = start & ~uint64_t(TB_PAGE_SIZE - 1);
  uint64_t last = std::min<uint64_t>(end, top - 1) | (TB_PAGE_SIZE - 1);
  uint32_t size = uint32_t(last + 1 - first);
  cpu_.unmap_fast(m68k::Space::User, uint32_t(first), size);
  cpu_.unmap_fast(m68k::Space::Supervisor, uint32_t(first), size);
  // The pages' write protection for the journal goes with their mapping.
  if (spec_) spec_->journal().unmapped(first, last);
}

int CpuInitiator::interrupt_acknowledge(int level, uint64_t cycle, uint32_t&) {
  if (spec_) spec_->before_device(cycle);
  return iack_ ? iack_(level) : m68k::Bus::kSpurious;
}

void CpuInitiator::reset_devices(uint64_t cycle) {
  if (spec_) spec_->before_device(cycle);
  if (reset_devices_) reset_devices_();
}

unsigned CpuInitiator::debug_access(bool write, uint32_t address, uint8_t* data, unsigned len, uint8_t fc) {
  if (spec_) spec_->join();
  tlm::tlm_generic_payload p;
  BusCycleExtension* e = new BusCycleExtension;
  e->fc = fc;
  p.set_extension(e);
  set_access(p, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, data, len);
  return socket->transport_dbg(p);
}

void CpuInitiator::set_instruction_trace(std::FILE* out) {
  st_.log.set_trace(out);
  install_tracer();
}

void CpuInitiator::set_cycle_profile(CycleProfile* p) {
  st_.log.set_profile(p);
  install_tracer();
}

void CpuInitiator::install_tracer() {
  if (!st_.log.tracing() && !st_.log.profiling()) {
    cpu_.set_tracer(nullptr);
    return;
  }
  cpu_.set_tracer([this](uint32_t pc, uint64_t cycle, bool supervisor) {
    if (st_.log.profiling()) st_.log.instruction(st_.sync_time.value() + st_.lead_value(cycle), pc, supervisor, cycle);
    if (!st_.log.tracing()) return;
    // the live mode: the instruction is read (and disassembled) through its own mapping
    uint8_t fc = supervisor ? m68k::FC_SUPERVISOR_PROGRAM : m68k::FC_USER_PROGRAM;
    std::string text;
    m68k::disassemble(pc, [&](uint32_t a) {
      uint8_t b[2] = {0, 0};
      debug_access(false, a, b, 2, fc);
      return uint16_t(b[0] << 8 | b[1]);
    }, text, cpu_.model() == m68k::Model::MC68000 ? m68k::DisasmCpu::MC68000 : m68k::DisasmCpu::MC68010);
    char line[160];  // S or U: the CPU's mode, so that a profile can tell the kernel's cycles from a program's
    std::snprintf(line, sizeof line, "%12llu %06X %c %s\n", (unsigned long long)cycle, unsigned(pc),
                  supervisor ? 'S' : 'U', text.c_str());
    st_.log.trace(st_.sync_time + st_.lead(cycle), line);
  });
}

}  // namespace testbed
