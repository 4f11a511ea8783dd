// The Master Monitoring Interface's read port: the memory-mapped device the master CPU polls.
// Registers (MONITOR_SPEC.md, sw/tables/registers/monitor.toml, set MMI): DATA_HI (pops),
// DATA_LO, STATUS, LEVEL, STALL (32-bit), all read-only. The FIFO, the poller and the monitoring
// bus live in the MonitorEngine.
#pragma once
#include "monitor_tlm.h"

namespace testbed::monitor {

class Mmi : public RegisterTarget {
 public:
  Mmi(sc_core::sc_module_name name, MonitorContext& ctx);
  void state(StateArchive& a);  // monitor_state.cpp

 private:
  void before_access(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override;
  void after_access() override;

  MonitorContext& ctx_;
};

}  // namespace testbed::monitor
