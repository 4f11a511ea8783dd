// The board's second port into its RAM, for a DMA master on the board (the Centrenet NI in
// dma-anywhere mode binds its `dma` initiator socket here). The CPU reaches RAM through the MMU
// and the address decoder; DMA does not: it sees board *physical* addresses and reaches RAM
// only (0 .. ram size - 1). The boot ROM, the device windows and addresses past the fitted RAM
// answer TLM_ADDRESS_ERROR_RESPONSE, and transport_dbg answers 0 bytes there (the NI probes
// both ends of a range that way before it moves any byte). No DMI: every DMA access is timed.
//
// Contention: the port owns a SharedMemoryPort, the timeline of the RAM port that
// the NI claims for each DMA burst (ni.set_memory_port(&board.memory_port())). The CPU does not
// claim it cycle by cycle -- its RAM cycles go through DMI -- but after each synchronisation it
// stalls for the time DMA held the port since the previous one (CpuInitiator::set_memory_port):
// on the 68010 DMA takes the bus by bus request/grant and the CPU, which needs the bus for
// nearly every clock, waits until it is given back. Arbitration (at most one CPU bus cycle
// before the grant) is not modelled: the port annotates no delay of its own.
#pragma once
#include "memory.h"

#include "memory_port.h"  // hw/bus

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <functional>

namespace testbed {

class DmaPort : public sc_core::sc_module {
 public:
  // Zero or more initiators: a board without a DMA master leaves it unbound.
  using Socket = tlm_utils::simple_target_socket_optional<DmaPort, 32>;
  Socket socket;

  DmaPort(sc_core::sc_module_name name, Memory& ram) : sc_module(name), socket("socket"), ram_(ram) {
    socket.register_b_transport(this, &DmaPort::b_transport);
    socket.register_transport_dbg(this, &DmaPort::transport_dbg);
  }

  SharedMemoryPort& memory_port() { return port_; }
  // Called before every DMA access to RAM, from the DMA master's thread (the CPU in exact mode
  // rolls back to now if it ran past it: CpuInitiator::before_dma).
  void set_before_access(std::function<void()> f) { before_ = std::move(f); }
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }
  // The counts and the port's timeline; the RAM is the board's.
  void state(StateArchive& a) {
    a.section(name()).io(bytes_read_).io(bytes_written_);
    port_.state(a);
  }

 private:
  bool in_ram(uint64_t a, uint64_t len) const { return len && a < ram_.size() && len <= ram_.size() - a; }

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    uint64_t a = p.get_address();
    unsigned len = p.get_data_length();
    if (p.get_byte_enable_ptr()) return p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    if (p.get_streaming_width() < len) return p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    if (!in_ram(a, len)) return p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (before_) before_();
    // Same bytes the CPU's DMI pointers see: DMA writes are visible to the CPU at once.
    if (p.is_read()) {
      std::memcpy(p.get_data_ptr(), ram_.data() + a, len);
      bytes_read_ += len;
    } else if (p.is_write()) {
      std::memcpy(ram_.data() + a, p.get_data_ptr(), len);
      bytes_written_ += len;
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& p) {
    uint64_t a = p.get_address();
    if (!in_ram(a, 1)) return 0;
    unsigned len = unsigned(std::min<uint64_t>(p.get_data_length(), ram_.size() - a));
    if (p.is_read()) std::memcpy(p.get_data_ptr(), ram_.data() + a, len);
    else if (p.is_write()) std::memcpy(ram_.data() + a, p.get_data_ptr(), len);
    return len;
  }

  Memory& ram_;
  SharedMemoryPort port_;
  std::function<void()> before_;
  uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace testbed
