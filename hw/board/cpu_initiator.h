// The 68010 as a loosely-timed TLM-2.0 initiator (after the Accellera lt_dmi and
// lt_temporal_decouple examples).
//
// An SC_THREAD runs m68k::Cpu::run_until in chunks that end at the next global-quantum boundary
// (tlm_utils::tlm_quantumkeeper), then synchronises. Every bus cycle the core cannot do from
// its fast page table becomes a b_transport whose annotated delay is the CPU's lead over the
// kernel ((cycle - cycle at last sync) x clock period); latency a target adds comes back to the
// core as wait states. Targets that allow DMI (RAM, ROM, MMU-translated user pages) are mapped
// into the core's fast table, per address space (user / supervisor), and unmapped when a target
// invalidates its DMI pointers. STOP costs no host time: the thread waits for an IPL change.
#pragma once
#include "bus_extension.h"
#include "bus_observer.h"

#include <m68k_cpu.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdio>
#include <functional>
#include <string>

namespace testbed {

class CpuInitiator : public sc_core::sc_module, public m68k::Bus {
 public:
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

  // Debugger access through the same path as the CPU (MMU included for user FCs).
  unsigned debug_access(bool write, uint32_t address, uint8_t* data, unsigned len,
                        uint8_t fc = m68k::FC_SUPERVISOR_DATA);
  // The CPU's local time: kernel time plus its lead within the quantum.
  sc_core::sc_time local_time() const;
  uint64_t slow_accesses() const { return slow_accesses_; }
  uint64_t dmi_grants() const { return dmi_grants_; }

  // m68k::Bus
  m68k::BusResponse read(const m68k::BusAccess& a, uint16_t& data, uint32_t& wait) override;
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) override;
  int interrupt_acknowledge(int level, uint64_t cycle, uint32_t& wait) override;
  void reset_devices(uint64_t cycle) override;

 private:
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
   public:
    sc_core::sc_time until_sync() const {
      sc_core::sc_time now = sc_core::sc_time_stamp() + m_local_time;
      return m_next_sync_point > now ? m_next_sync_point - now : sc_core::SC_ZERO_TIME;
    }
  };

  void run();
  m68k::BusResponse transport(const m68k::BusAccess& a, uint8_t* buf, unsigned len, uint32_t& wait);
  void try_dmi(uint32_t address, uint8_t fc);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  sc_core::sc_time lead(uint64_t cycle) const { return period_ * double(cycle - sync_cycle_); }
  bool apply_ipl();  // hands a changed IPL to the core; true if it changed

  m68k::Cpu cpu_;
  sc_core::sc_time period_;
  QuantumKeeper qk_;
  uint64_t sync_cycle_ = 0;  // core cycles() when the kernel time was last caught up
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
  std::FILE* trace_ = nullptr;
  uint64_t slow_accesses_ = 0, dmi_grants_ = 0;
};

}  // namespace testbed
