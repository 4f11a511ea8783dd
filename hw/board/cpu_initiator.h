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
#pragma once
#include "bus_extension.h"
#include "cpu_debug.h"
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
  // tlm::tlm_global_quantum::instance(), set by whoever builds the platform.
  CpuInitiator(sc_core::sc_module_name name, sc_core::sc_time clock_period,
               m68k::Model model = m68k::Model::MC68010);

  m68k::Cpu& core() { return cpu_; }
  sc_core::sc_time clock_period() const { return period_; }

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
  // expose as pending activity.
  void set_max_lead(sc_core::sc_time t) {
    max_lead_ = t;
    lead_clocks_ = std::max<uint64_t>(1, t.value() / period_ps_);
  }
  // Exact mode: the CPU runs ahead speculatively and is rolled back when something reaches it
  // in its past, so that what it does no longer depends on the quantum (the quantum is then
  // only how far it may run ahead). Set before the simulation starts. Off while a debugger is
  // attached (it would stop at instructions a rollback undoes); the bus observer and the
  // instruction trace are told only what is committed.
  //   - Its state is checkpointed at every commit (a synchronisation that finds nothing in the
  //     CPU's past); the RAM pages it writes after a checkpoint are journaled first (they are
  //     mapped read-only, and the first write of each copies the page).
  //   - A bus cycle that leaves the fast path (a device access), an interrupt acknowledge or a
  //     RESET waits for the kernel to reach its time: devices see every access at its time.
  //   - An IPL change (set_ipl) or a DMA access to the board's RAM (before_dma) at a time the
  //     CPU has run past rolls it back: RAM from the journal, the core from the checkpoint,
  //     then the core reruns to the first instruction boundary at or after that time.
  // The rule that makes the result independent of the quantum: an IPL change or a DMA access
  // at time t takes effect at the first instruction boundary at or after t (the end of the
  // instruction, if that instruction has accessed a device since t).
  void set_exact(bool on) { exact_ = on; }
  bool exact() const { return spec_; }
  // A DMA master on the board is about to access RAM at the current kernel time: in exact
  // mode, rolls the CPU back if it ran past now (the caller must be a thread: it waits for the
  // rerun). Outside exact mode nothing happens (the CPU pays the stall at its next sync).
  void before_dma();
  // The DMA master has claimed the RAM port (SharedMemoryPort's observer): in exact mode the
  // CPU stalls for the claim's duration now, unless it is in STOP (its bus is idle).
  void after_dma_claim();
  uint64_t rollbacks() const { return rollbacks_; }
  uint64_t commits() const { return commits_; }
  uint64_t journaled_pages() const { return journaled_pages_; }
  // The RESET instruction: devices reset themselves.
  void set_reset_devices(std::function<void()> f) { reset_devices_ = std::move(f); }

  // Ends the run after the current instruction (e.g. SIMCTL EXIT); `done` is then called from
  // the CPU thread once its local time is synchronised: with the halt reason, or "" on finish().
  void finish() {
    finish_requested_ = true;
    cpu_.request_yield();
  }
  void on_done(std::function<void(const std::string& halt_reason)> f) { done_ = std::move(f); }
  bool done() const { return done_flag_; }

  // The fast path (DMI) is on by default; off, every bus cycle is a b_transport (and visible to
  // the observer).
  void set_fast_path(bool on);
  void set_observer(BusObserver* o) { observer_ = o; }
  // Per-instruction trace ("cycle pc disassembly") to `out`, or nullptr for none.
  void set_instruction_trace(std::FILE* out);

  // A debugger's hooks (sim/gdb), or nullptr.
  void set_debug_hook(CpuDebugHook* h) { debug_ = h; }
  // True while the core is inside run_until (e.g. suspended in a target's b_transport): its
  // registers are then not at an instruction boundary.
  bool in_run() const { return in_run_; }
  // Debugger access through the same path as the CPU (MMU included for user FCs).
  unsigned debug_access(bool write, uint32_t address, uint8_t* data, unsigned len,
                        uint8_t fc = m68k::FC_SUPERVISOR_DATA);
  // The CPU's local time: kernel time plus its lead within the quantum.
  sc_core::sc_time local_time() const;
  uint64_t slow_accesses() const { return slow_accesses_; }
  uint64_t dmi_grants() const { return dmi_grants_; }
  uint64_t syncs() const { return syncs_; }    // times the thread waited for the kernel
  uint64_t chunks() const { return chunks_; }  // run_until calls
  sc_core::sc_time dma_stall() const { return dma_stall_; }  // CPU time lost to DMA

  // m68k::Bus
  m68k::BusResponse read(const m68k::BusAccess& a, uint16_t& data, uint32_t& wait) override;
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) override;
  int interrupt_acknowledge(int level, uint64_t cycle, uint32_t& wait) override;
  void reset_devices(uint64_t cycle) override;

 private:
  void run();
  void sync();    // waits until the kernel reaches the CPU's local time
  void settle();  // lets processes woken at this very time run before the IPL is sampled
  void rebase();  // the kernel time now corresponds to the core's clock now
  void after_sync();
  void update_limits();
  uint64_t cycle_at(const sc_core::sc_time& t) const;
  m68k::BusResponse transport(const m68k::BusAccess& a, uint8_t* buf, unsigned len, uint32_t& wait);
  void try_dmi(uint32_t address, uint8_t fc);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  // Integer arithmetic: this runs at every synchronisation of every board.
  sc_core::sc_time lead(uint64_t cycle) const { return sc_core::sc_time::from_value(period_ps_ * (cycle - sync_cycle_)); }
  bool apply_ipl();  // hands a changed IPL to the core; true if it changed
  // Exact mode.
  struct Rollback {};          // thrown through the core to abandon a speculative run
  void run_exact(std::string& halt);
  bool apply_ipl_exact();
  std::vector<std::pair<uint64_t, int>> ipl_log_;  // (clock, level) the CPU has not yet seen
  void protect_all();
  bool sync_exact();           // false: rolled back while waiting
  void checkpoint();
  void rollback();
  bool run_ahead(uint64_t target);  // run_until(target); false if a rollback abandoned it
  void request_rollback();     // something happens now: take the CPU back to now if it is past it
  void catch_up(uint64_t cycle);  // waits for the kernel to reach `cycle`; throws Rollback
  void rebase_to_now();        // keeps the clock-to-time mapping across a wait of any length
  uint64_t cycle_of(const sc_core::sc_time& t) const;  // the core clock of kernel time t (rounded up)
  bool journal_write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait);
  bool exact_ = false, spec_ = false;
  m68k::Cpu::State ckpt_{};
  bool need_ckpt_ = true;
  bool stop_waiting_ = false;       // in STOP, waiting for the IPL lines
  bool exact_over_ = false;         // the CPU's run ended: nothing is rolled back any more
  bool dma_pending_ = false;        // a DMA master waits for the CPU to reach now
  bool committed_in_run_ = false;   // a device access committed the running instruction
  bool last_run_reached_ = false;   // the last run_until ended at its target ...
  uint64_t last_target_ = 0;        // ... this one
  static constexpr uint64_t kNone = UINT64_MAX;
  uint64_t rollback_to_ = kNone;    // a requested rollback: to the first boundary >= this clock
  sc_core::sc_event wake_, replayed_;
  struct JournalPage {
    uint8_t* host;
    uint8_t old[TB_PAGE_SIZE];
  };
  std::vector<JournalPage> journal_;
  size_t journal_n_ = 0;
  std::vector<std::pair<m68k::Space, uint32_t>> writable_;  // pages let through this epoch
  std::vector<uint8_t> protected_[2];  // per page: mapped writable by DMI, protected by us
  uint64_t rollbacks_ = 0, commits_ = 0, journaled_pages_ = 0;
  // What the observer and the instruction tracer are told waits for the commit (in order); a
  // rollback drops it.
  struct Record {
    enum Kind { kBus, kIpl, kTrace } kind;
    BusCycleRecord bus;
    sc_core::sc_time time;
    int level;
    std::string text;
  };
  std::vector<Record> records_;
  void flush_records(const sc_core::sc_time& until);
  void end_of_simulation() override;

  m68k::Cpu cpu_;
  sc_core::sc_time period_;
  uint64_t period_ps_;  // period_ in kernel time units
  uint64_t sync_cycle_ = 0;  // core cycles() when the kernel time was last caught up
  sc_core::sc_time sync_time_;  // ... and that kernel time
  // Chunk limits in core clocks, valid until the kernel or a device may have changed
  // (limits_dirty_: after a synchronisation or a b_transport), so the DMI-only hot path costs
  // no function calls per chunk.
  uint64_t quantum_end_ = 0, lead_end_ = 0, activity_end_ = 0, horizon_end_ = 0, chunk_end_ = 0;
  bool limits_dirty_ = true;
  sc_core::sc_time max_lead_{1, sc_core::SC_MS};
  uint64_t lead_clocks_;  // max_lead_ in clocks (at least one)
  // The next global-quantum boundary after the last synchronisation, and the quantum it was
  // computed for: kernel time only grows, so it is recomputed (a division) only once passed.
  uint64_t next_boundary_ = 0, boundary_quantum_ = 0;
  const SharedMemoryPort* mem_port_ = nullptr;
  sc_core::sc_time dma_seen_, dma_stall_;
  uint64_t syncs_ = 0, chunks_ = 0;
  tlm::tlm_generic_payload payload_;
  BusCycleExtension* ext_;  // owned by payload_
  int ipl_ = 0, applied_ipl_ = 0;
  sc_core::sc_event ipl_changed_;
  bool in_run_ = false, fast_path_ = true;
  bool finish_requested_ = false, done_flag_ = false;
  std::function<int(int)> iack_;
  std::function<void()> reset_devices_;
  std::function<sc_core::sc_time()> horizon_;
  std::function<void(const std::string&)> done_;
  BusObserver* observer_ = nullptr;
  CpuDebugHook* debug_ = nullptr;
  void debug_boundary();
  std::FILE* trace_ = nullptr;
  uint64_t slow_accesses_ = 0, dmi_grants_ = 0;
};

}  // namespace testbed
