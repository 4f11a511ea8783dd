// What the CPU initiator's run loop shares with its timing engine (cpu_engine.h): the core's clock
// against kernel time and the chunk limits it sets, the IPL lines as driven, the DMA time the CPU
// has been charged for, and the commit log. CpuInitiator owns one and hands each engine a
// reference; the engines reach nothing else of the initiator. What only an engine needs (the IPL
// level it last handed the core, a speculation's checkpoint) stays in the engine.
#pragma once
#include "board_state.h"
#include "commit_log.h"
#include "cpu_debug.h"

#include "m68k_cpu.h"
#include "memory_port.h"  // hw/bus: the CPU/DMA timeline of the board's RAM port

#include <systemc>

#include <cstdint>

namespace testbed {

class CpuLoopState {
 public:
  // `name`: the initiator's (it outlives this state), for messages.
  CpuLoopState(m68k::Cpu& cpu, sc_core::sc_time period, const char* name)
      : cpu(cpu), period(period), period_ps(period.value()), name(name) {}

  m68k::Cpu& cpu;
  const sc_core::sc_time period;  // one CPU clock
  const uint64_t period_ps;       // period in kernel time units
  const char* const name;

  // The clock-to-time mapping: core cycles() sync_cycle is kernel time sync_time (the kernel
  // time the CPU was last caught up with, or a clock edge exact mode moved it to).
  uint64_t sync_cycle = 0;
  sc_core::sc_time sync_time;
  // Integer arithmetic: this runs at every synchronisation of every board.
  sc_core::sc_time lead(uint64_t cycle) const { return sc_core::sc_time::from_value(lead_value(cycle)); }
  uint64_t lead_value(uint64_t cycle) const { return period_ps * (cycle - sync_cycle); }  // in kernel time units
  // The CPU's local time: kernel time plus its lead within the quantum.
  sc_core::sc_time local_time() const { return sync_time + lead(cpu.cycles()); }
  // The kernel time now corresponds to the core's clock now.
  void rebase() {
    sync_cycle = cpu.cycles();
    sync_time = sc_core::sc_time_stamp();
    after_sync();
  }
  // The mapping moved: the quantum boundary and the lead limit again.
  void after_sync();

  // The chunk limits in core clocks fixed from one synchronisation to the next (after_sync).
  uint64_t quantum_end() const { return quantum_end_; }
  uint64_t lead_end() const { return lead_end_; }
  // How far the CPU may run ahead of the kernel when no other process waits to run, in clocks.
  void set_lead_clocks(uint64_t clocks) { lead_clocks_ = clocks; }
  // The end of the running chunk (the loop's; an engine may clip it), and whether the limits it
  // came from must be computed again (after a synchronisation or a b_transport).
  uint64_t chunk_end = 0;
  bool limits_dirty = true;
  // Quanta a chunk spans: 1, or more for a board the speculative engine lets run ahead
  // (SpeculativeEngine::widen). Read at each synchronisation.
  uint64_t quanta = 1;

  // The IPL lines as the interrupt controller drives them; ipl_changed is notified on a change.
  int ipl = 0;
  sc_core::sc_event ipl_changed;

  // The board RAM port DMA shares with the CPU, or nullptr: the DMA time the CPU has seen and
  // the part it stalled for.
  const SharedMemoryPort* mem_port = nullptr;
  sc_core::sc_time dma_seen, dma_stall;
  // The DMA port's held time the CPU has not yet seen, which it now has (0 without a port).
  sc_core::sc_time take_dma() {
    if (!mem_port) return sc_core::SC_ZERO_TIME;
    sc_core::sc_time held = mem_port->stats(SharedMemoryPort::kDma).held;
    if (held <= dma_seen) return sc_core::SC_ZERO_TIME;
    sc_core::sc_time t = held - dma_seen;
    dma_seen = held;
    return t;
  }

  bool in_run = false;            // the core is inside run_until
  bool finish_requested = false;  // the run ends after the current instruction
  uint64_t syncs = 0;             // times the CPU's thread waited for the kernel
  CommitLog log;
  CpuDebugHook* debug = nullptr;  // a debugger's hooks (decoupled only), or nullptr
  HostBlocks blocks;              // the board's memories, for host addresses in a snapshot

  // In a snapshot: the clock against kernel time, the limits, the lines, the DMA charged, the
  // counts and the commit log (the configuration's lead limit is checked, not restored).
  void state(StateArchive& a) {
    a.section("loop state").expect("lead clocks", lead_clocks_);
    a.io(sync_cycle).io(sync_time).io(chunk_end).io(limits_dirty).io(quanta).io(ipl).io(dma_seen).io(dma_stall);
    a.io(finish_requested).io(syncs).io(quantum_end_).io(lead_end_).io(next_boundary_).io(boundary_quantum_);
    log.state(a);
  }

 private:
  uint64_t quantum_end_ = 0, lead_end_ = 0;
  uint64_t lead_clocks_ = 1;
  // The next global-quantum boundary after the last synchronisation, and the quantum it was
  // computed for: kernel time only grows, so it is recomputed (a division) only once passed.
  uint64_t next_boundary_ = 0, boundary_quantum_ = 0;
};

}  // namespace testbed
