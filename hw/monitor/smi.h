// A Slave Monitoring Interface: the memory-mapped device a slave CPU writes its events to.
// Registers (MONITOR_SPEC.md, sw/tables/registers/monitor.toml, set SMI): EVENT (wo), STATUS,
// LEVEL, LOST (32-bit). The FIFO, time stamping and loss live in the MonitorEngine.
#pragma once
#include "monitor_tlm.h"

namespace testbed::monitor {

class Smi : public RegisterTarget {
 public:
  Smi(sc_core::sc_module_name name, unsigned number, MonitorContext& ctx);
  unsigned number() const { return number_; }
  void state(StateArchive& a);  // monitor_state.cpp

 private:
  void before_access(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override;
  void after_access() override;

  unsigned number_;
  MonitorContext& ctx_;
};

}  // namespace testbed::monitor
