// The hybrid monitoring hardware as one SystemC module: the global clock, n_smi SMIs (one TLM
// target socket each, for the slave boards), the monitoring bus and the MMI (a TLM target
// socket for the master board). Semantics: MONITOR_SPEC.md. Usage:
//
//   testbed::monitor::MonitorConfig cfg;            // defaults: the report's machine
//   testbed::monitor::Monitor mon("monitor", cfg);
//   slave_bus_k.bind(mon.smi(k).socket);            // k = 1..n_smi (slave board number)
//   master_bus.bind(mon.mmi().socket);
//   mon.set_probe(&probe);                          // optional
//   ... sc_start(...); mon.catch_up();              // bring counters to sc_time_stamp()
#pragma once
#include "mmi.h"
#include "monitor_engine.h"
#include "monitor_vcd.h"
#include "smi.h"

#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace testbed {
class Config;  // sw/config: a machine file
}

namespace testbed::monitor {

struct MonitorConfig {
  MonitorParams params;                                          // cycle-level parameters
  sc_core::sc_time clock_period = sc_core::sc_time(100, sc_core::SC_NS);  // monitor clock (mclk)
  bool sync_reads = true;   // a read from an SC_THREAD initiator wait()s until its own time first,
                            // so every write before it (from any initiator) is seen: exact
  bool wake = true;         // a timed event keeps the engine current when the MMI is to gain data
  std::string vcd_path;     // non-empty: trace the monitor's signals to this VCD file
  // The machine file's [monitor] settings (monitor_settings.cpp): smis (default `smis`),
  // tick_us, smi_depth, mmi_depth, poll_period_us, empty_clocks, write_gap_clocks, in the
  // units of the report, turned into clocks of the monitor clock (= the CPU clock `clock_hz`,
  // which also sets clock_period). Throws ConfigError naming file, line, key and range.
  void read(const Config& cfg, double clock_hz, unsigned smis);
};

class Monitor : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Monitor);
  // Throws std::invalid_argument for bad parameters, std::runtime_error for an unwritable VCD.
  Monitor(sc_core::sc_module_name name, const MonitorConfig& cfg = MonitorConfig());

  Smi& smi(unsigned k);          // k = 1..n_smi
  Mmi& mmi() { return *mmi_; }
  MonitorEngine& engine() { return engine_; }
  const MonitorConfig& config() const { return cfg_; }
  void set_probe(MonitorProbe* p) { engine_.set_probe(p); }

  // Brings the engine (FIFOs, counters, VCD) up to sc_time_stamp().
  void catch_up();
  // Notified when the MMI FIFO holds data (at the clock of the push that filled it).
  const sc_core::sc_event& mmi_data_event() const { return data_event_; }
  uint64_t bad_accesses() const;
  // Snapshots (README "Snapshots"): the engine, the SMIs' and MMI's registers, the armed wake-up.
  // Its one process is a method with nothing in flight between kernel steps: always at rest.
  void state(StateArchive& a);

 private:
  void wake();
  void rearm();

  MonitorConfig cfg_;
  MonitorEngine engine_;
  MonitorContext ctx_;
  std::unique_ptr<MonitorVcd> vcd_;
  std::vector<std::unique_ptr<Smi>> smis_;
  std::unique_ptr<Mmi> mmi_;
  sc_core::sc_event wake_event_, data_event_;
  uint64_t armed_at_ = MonitorEngine::kNever;
  bool restored_ = false;  // built from a snapshot: nothing to do before restored_at_
  sc_core::sc_time restored_at_;
};

}  // namespace testbed::monitor
