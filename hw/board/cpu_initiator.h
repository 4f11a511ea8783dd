// The 68010 as a loosely-timed TLM-2.0 initiator (after the Accellera lt_dmi and
// lt_temporal_decouple examples).
//
// An SC_THREAD runs m68k::Cpu::run_until in chunks that end at the next global-quantum boundary
// (aligned as tlm_global_quantum::compute_local_quantum), then synchronises -- unless no other
// process has anything to do before the CPU's local time, in which case nobody could observe
// the CPU running ahead and the chunk goes on to the kernel's next pending activity (bounded by
// max_lead(); cut at the device event horizon). Every bus cycle the core cannot do from
// its fast page table becomes a b_transport whose annotated delay is the CPU's lead over the
// kernel ((cycle - cycle at last sync) x clock period); latency a target adds comes back to the
// core as wait states. Targets that allow DMI (RAM, ROM, MMU-translated user pages) are mapped
// into the core's fast table, per address space (user / supervisor), and unmapped when a target
// invalidates its DMI pointers. STOP costs no host time: the thread waits for an IPL change.
//
// The run loop (run()) is one; how the CPU keeps time with the kernel is its engine's
// (cpu_engine.h): decoupled, or speculative in exact mode (cpu_speculation.h). The loop and the
// engine share the initiator's CpuLoopState (cpu_loop_state.h): the clock against kernel time,
// the IPL lines, the DMA charged and the commit log, through which what the CPU tells the
// observer and the instruction trace goes (commit_log.h).
#pragma once
#include "bus_extension.h"
#include "cpu_debug.h"
#include "cpu_engine.h"
#include "cpu_speculation.h"
#include "bus_observer.h"

#include "m68k_cpu.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "memory_port.h"  // hw/bus: the CPU/DMA timeline of the board's RAM port

#include <testbed/memory_map.h>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace testbed {

class CpuInitiator : public sc_core::sc_module, public m68k::Bus {
 public:
  // Clocks from the start of a bus cycle (S0) to the end of S4, where the 68010 samples DTACK:
  // a device that answers within them adds no wait states.
  static constexpr unsigned kDtackWindow = 2;

  tlm_utils::simple_initiator_socket<CpuInitiator> socket;

  SC_HAS_PROCESS(CpuInitiator);
  // `clock_period`: one CPU clock (100 ns at 10 MHz). The global quantum is
  // tlm::tlm_global_quantum::instance(), set by the platform (CpuTiming::apply).
  CpuInitiator(sc_core::sc_module_name name, sc_core::sc_time clock_period,
               m68k::Model model = m68k::Model::MC68010);

  // The core, for anyone outside the initiator: its run on the pool, if one is out, is joined
  // first (its state is then what the run left, at a point of the schedule any thread count shares).
  m68k::Cpu& core() {
    if (spec_) spec_->join();
    return cpu_;
  }
  sc_core::sc_time clock_period() const { return st_.period; }

  // The IPL input lines (0..7), driven by the interrupt controller. Any process may call it.
  void set_ipl(int level);
  // Answers interrupt-acknowledge cycles: m68k::Bus::kAutovector, kSpurious or a vector number.
  void set_interrupt_acknowledge(std::function<int(int level)> f) { iack_ = std::move(f); }
  // The earliest kernel time at which a board device will change an interrupt line by itself
  // (e.g. the timer's next expiry), or sc_max_time(). The CPU ends its chunk there and lets the
  // kernel catch up, so such interrupts are taken within one instruction whatever the quantum.
  void set_event_horizon(std::function<sc_core::sc_time()> f) { horizon_ = std::move(f); }
  // The port to board RAM that DMA shares with the CPU (Board's DmaPort), or nullptr. After each
  // synchronisation the CPU stalls for the time DMA held the port since the last one (the
  // 68010 grants the bus to DMA and waits for it to come back: cycle stealing).
  void set_memory_port(const SharedMemoryPort* port);
  // How far the CPU may run ahead of the kernel when no other process is waiting to run
  // (default 1 ms). Bounds the overrun past an sc_start(duration) end, which SystemC does not
  // expose as pending activity (in exact mode a board running ahead across quanta may overrun
  // by SpeculativeEngine::kMaxQuanta quanta: work a later sc_start keeps).
  void set_max_lead(sc_core::sc_time t) {
    st_.set_lead_clocks(std::max<uint64_t>(1, t.value() / st_.period_ps));
  }
  // Exact mode (cpu_speculation.h): the CPU runs ahead speculatively and is rolled back when
  // something reaches it in its past, so that what it does no longer depends on the quantum.
  // The platform's choice (CpuTiming::apply), made before the simulation starts; a debugger
  // needs it off (CpuTiming::attach_debugger): it would stop at instructions a rollback undoes.
  void set_exact(bool on) { exact_ = on; }
  bool exact() const { return spec_ != nullptr; }
  // A DMA master on the board is about to access RAM at the current kernel time: in exact
  // mode, rolls the CPU back if it ran past now (the caller must be a thread: it waits for the
  // rerun). Outside exact mode nothing happens (the CPU pays the stall at its next sync).
  void before_dma() {
    if (spec_) spec_->before_dma();
  }
  // The DMA master has claimed the RAM port (SharedMemoryPort's observer): in exact mode the
  // CPU stalls for the claim's duration now, unless it is in STOP (its bus is idle).
  void after_dma_claim() {
    if (spec_) spec_->after_dma_claim();
  }
  uint64_t rollbacks() const { return speculative_.rollbacks(); }
  uint64_t commits() const { return speculative_.commits(); }
  uint64_t journaled_pages() const { return speculative_.journal_pages(); }
  const SpeculativeEngine& speculation() const { return speculative_; }
  // The RESET instruction: devices reset themselves.
  void set_reset_devices(std::function<void()> f) { reset_devices_ = std::move(f); }

  // Ends the run after the current instruction (e.g. SIMCTL EXIT); `done` is then called from
  // the CPU thread once its local time is synchronised: with the halt reason, or "" on finish().
  void finish() {
    if (spec_) spec_->join();
    st_.finish_requested = true;
    cpu_.request_yield();
  }
  void on_done(std::function<void(const std::string& halt_reason)> f) { done_ = std::move(f); }
  bool done() const { return done_flag_; }

  // The fast path (DMI) is on by default; off, every bus cycle is a b_transport (and visible to
  // the observer).
  void set_fast_path(bool on);
  void set_observer(BusObserver* o) { st_.log.set_observer(o); }
  // Per-instruction trace ("cycle pc S|U disassembly": S in supervisor mode) to `out`, or nullptr for none.
  void set_instruction_trace(std::FILE* out);
  // Cycles by instruction address (cycle_profile.h) into `p`, or nullptr for none; with a trace
  // as well, both are written.
  void set_cycle_profile(CycleProfile* p);

  // A debugger's hooks (sim/gdb), or nullptr.
  void set_debug_hook(CpuDebugHook* h) { st_.debug = h; }
  // True while the core is inside run_until (e.g. suspended in a target's b_transport): its
  // registers are then not at an instruction boundary.
  bool in_run() const { return st_.in_run; }
  // Debugger access through the same path as the CPU (MMU included for user FCs).
  unsigned debug_access(bool write, uint32_t address, uint8_t* data, unsigned len,
                        uint8_t fc = m68k::FC_SUPERVISOR_DATA);
  // The CPU's local time: kernel time plus its lead within the quantum.
  sc_core::sc_time local_time() const { return st_.local_time(); }
  uint64_t slow_accesses() const { return slow_accesses_; }
  uint64_t dmi_grants() const { return dmi_grants_; }
  uint64_t syncs() const { return st_.syncs; }    // times the thread waited for the kernel
  uint64_t chunks() const { return chunks_; }  // run_until calls
  sc_core::sc_time dma_stall() const { return st_.dma_stall; }  // CPU time lost to DMA

  // Snapshots. The board's memories a fast page may point into (the board adds its RAM and boot
  // ROM), so that the page table is saved as (memory, offset).
  void add_host_block(uint8_t* base, uint64_t size) { st_.blocks.add(base, size); }
  // True while the thread waits for the kernel at a site its engine can resume from (cpu_engine.h)
  // or has ended; false inside a chunk, a device access, a rollback, a DMA hand-over.
  bool at_rest() const;
  // The core, its fast page table, the loop's and the engines' state. A restored initiator's
  // thread waits until the snapshot's time and finishes the engine call it was found in.
  void state(StateArchive& a);

  // m68k::Bus
  m68k::BusResponse read(const m68k::BusAccess& a, uint16_t& data, uint32_t& wait) override;
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) override;
  int interrupt_acknowledge(int level, uint64_t cycle, uint32_t& wait) override;
  void reset_devices(uint64_t cycle) override;

 private:
  void run();
  void settle();  // lets processes woken at this very time run before the IPL is sampled
  void update_limits();
  uint64_t cycle_at(const sc_core::sc_time& t) const;
  m68k::BusResponse transport(const m68k::BusAccess& a, uint8_t* buf, unsigned len, uint32_t& wait);
  void try_dmi(uint32_t address, uint8_t fc);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void end_of_simulation() override;

  m68k::Cpu cpu_;
  // What the run loop shares with the engines (built after cpu_, which it refers to).
  CpuLoopState st_;
  // The kernel's next activity and the device event horizon in core clocks, valid until the
  // kernel or a device may have changed (st_.limits_dirty: after a synchronisation or a
  // b_transport), so the DMI-only hot path costs no function calls per chunk.
  uint64_t activity_end_ = 0, horizon_end_ = 0;
  uint64_t chunks_ = 0;
  tlm::tlm_generic_payload payload_;
  BusCycleExtension* ext_;  // owned by payload_
  bool fast_path_ = true, done_flag_ = false;
  bool at_horizon_ = false;  // the last sync was asked at the device event horizon
  bool ended_ = false;       // the thread has left its loop
  bool restored_ = false;    // built from a snapshot: run() resumes
  sc_core::sc_time restored_at_;
  std::string halt_text_;    // a restored core's halt reason
  void resume_run(std::string& halt, bool& ended);
  void fast_pages(StateArchive& a);
  std::function<int(int)> iack_;
  std::function<void()> reset_devices_;
  std::function<sc_core::sc_time()> horizon_;
  std::function<void(const std::string&)> done_;
  void install_tracer();  // the CPU's tracer: the instruction trace, the cycle profile, or both
  uint64_t slow_accesses_ = 0, dmi_grants_ = 0;
  // The engines: both built with the module, the one of the platform's mode chosen at the start.
  bool exact_ = false;
  DecoupledEngine decoupled_{st_};
  SpeculativeEngine speculative_{st_};
  TimingEngine* engine_ = &decoupled_;
  SpeculativeEngine* spec_ = nullptr;  // engine_ in exact mode, else nullptr
};

}  // namespace testbed
