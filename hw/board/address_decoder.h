// The board's address decoder: one target socket (from the MMU, physical addresses) and one
// initiator socket per window of the memory map. A window sees offsets from its base. Accesses
// outside every window get an address error (the CPU's bus error). DMI ranges and
// invalidations are translated between window offsets and board addresses.
#pragma once
#include "state_archive.h"  // hw/bus

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <string>
#include <vector>

namespace testbed {

struct Window {
  std::string name;
  uint32_t base;
  uint32_t size;
};

class AddressDecoder : public sc_core::sc_module {
 public:
  using Port = tlm_utils::simple_initiator_socket_tagged<AddressDecoder>;
  tlm_utils::simple_target_socket<AddressDecoder> target;

  // Windows must not overlap; each gets an initiator socket named after it.
  AddressDecoder(sc_core::sc_module_name name, const std::vector<Window>& windows);

  Port& port(const std::string& window);
  const Window* window_at(uint32_t address) const;
  const std::vector<Window>& windows() const { return windows_; }
  uint64_t unmapped_accesses() const { return unmapped_; }
  void state(StateArchive& a) { a.section(name()).expect("windows", uint64_t(windows_.size())).io(unmapped_); }

 private:
  int decode(uint64_t address) const;
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  std::vector<Window> windows_;
  std::vector<std::unique_ptr<Port>> ports_;
  uint64_t unmapped_ = 0;
};

}  // namespace testbed
