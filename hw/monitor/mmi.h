// The Master Monitoring Interface's read port: the memory-mapped device the master CPU polls.
// Registers (MONITOR_SPEC.md): DATA_HI +0 (pops), DATA_LO +2, STATUS +4, LEVEL +6, STALL +8
// (32-bit), all read-only. The FIFO, the poller and the monitoring bus live in the MonitorEngine.
#pragma once
#include "monitor_tlm.h"

#include <tlm_utils/simple_target_socket.h>

namespace testbed::monitor {

class Mmi : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Mmi> socket;

  Mmi(sc_core::sc_module_name name, MonitorContext& ctx);
  uint64_t bad_accesses() const { return bad_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);

  MonitorContext& ctx_;
  uint64_t bad_ = 0;
};

}  // namespace testbed::monitor
