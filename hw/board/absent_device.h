// What answers in a window whose device is not fitted (yet): every access is an address error
// (the CPU takes a bus error), debug accesses read nothing.
#pragma once
#include "state_archive.h"  // hw/bus

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace testbed {

class AbsentDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<AbsentDevice> socket;
  explicit AbsentDevice(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &AbsentDevice::b_transport);
    socket.register_transport_dbg(this, &AbsentDevice::transport_dbg);
  }
  uint64_t accesses() const { return accesses_; }
  void state(StateArchive& a) { a.section(name()).io(accesses_); }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    ++accesses_;
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload&) { return 0; }
  uint64_t accesses_ = 0;
};

}  // namespace testbed
