// A Slave Monitoring Interface: the memory-mapped device a slave CPU writes its events to.
// Registers (MONITOR_SPEC.md, sw/tables/registers/monitor.toml): EVENT +0 (wo), STATUS +2,
// LEVEL +4, LOST +8 (32-bit). The FIFO, time stamping and loss live in the MonitorEngine.
#pragma once
#include "monitor_tlm.h"

#include <tlm_utils/simple_target_socket.h>

namespace testbed::monitor {

class Smi : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Smi> socket;

  Smi(sc_core::sc_module_name name, unsigned number, MonitorContext& ctx);
  unsigned number() const { return number_; }
  uint64_t bad_accesses() const { return bad_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  uint16_t read(unsigned off, uint64_t clock);

  unsigned number_;
  MonitorContext& ctx_;
  uint64_t bad_ = 0;
};

}  // namespace testbed::monitor
