// Plain memory as a TLM-2.0 target: RAM or ROM, with DMI and debug access.
//
// Byte order: the array holds guest bytes in address order (byte i is address base+i), and so
// does every payload's data buffer. A 68010 word is therefore big-endian in both, whatever the
// host: initiators and targets never swap.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "state_archive.h"  // hw/bus

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <new>
#include <vector>
#include <string>

namespace testbed {

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;

  // `latency` is charged per access on b_transport and advertised in DMI.
  Memory(sc_core::sc_module_name name, uint64_t size, bool read_only = false,
         sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
      : sc_module(name), socket("socket"), bytes_(map_zeroed(size)), size_(size), read_only_(read_only),
        latency_(latency) {
    socket.register_b_transport(this, &Memory::b_transport);
    socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &Memory::transport_dbg);
  }

  ~Memory() override { munmap(bytes_, size_ ? size_ : 1); }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  uint64_t size() const { return size_; }
  uint8_t* data() { return bytes_; }
  bool read_only() const { return read_only_; }
  // The bytes in a snapshot: the pages that are not all zero, each with its index (a fresh
  // memory is zero; a board that boots TOS touches a few hundred KB of its 15 MB).
  void state(StateArchive& a) {
    constexpr uint64_t kChunk = 1024;
    a.section(std::string(name()) + " (memory)").expect("size", size_);
    uint64_t chunks = (size_ + kChunk - 1) / kChunk;
    std::vector<uint32_t> used;
    if (!a.loading()) {
      static const uint8_t zero[kChunk] = {};
      for (uint64_t i = 0; i < chunks; ++i) {
        uint64_t n = std::min(kChunk, size_ - i * kChunk);
        if (std::memcmp(bytes_ + i * kChunk, zero, n)) used.push_back(uint32_t(i));
      }
    }
    a.io(used);
    if (a.loading()) std::memset(bytes_, 0, size_);
    for (uint32_t i : used) {
      if (i >= chunks) throw StateError(std::string(name()) + ": a page past the memory's end in the snapshot");
      a.raw(bytes_ + uint64_t(i) * kChunk, std::min(kChunk, size_ - uint64_t(i) * kChunk));
    }
  }

 private:
  // Anonymous private pages: the OS hands out zero pages on first touch, so a board costs host
  // memory for what its software touches, not for all of its RAM (a 15 MiB board that boots TOS
  // touches a few hundred KiB), and nothing is zeroed at construction. The pointer is as good
  // for DMI as a vector's.
  static uint8_t* map_zeroed(uint64_t size) {
    void* p = mmap(nullptr, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<uint8_t*>(p);
  }
  bool in_range(uint64_t a, unsigned len) const { return a <= size_ && len <= size_ - a; }

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    uint64_t a = p.get_address();
    unsigned len = p.get_data_length();
    if (!in_range(a, len) || p.get_byte_enable_ptr() || p.get_streaming_width() < len) {
      p.set_response_status(p.get_byte_enable_ptr() ? tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE
                                                     : tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (p.is_read()) {
      std::memcpy(p.get_data_ptr(), &bytes_[a], len);
    } else if (p.is_write()) {
      if (read_only_) {
        p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
      }
      std::memcpy(&bytes_[a], p.get_data_ptr(), len);
    }
    delay += latency_;
    p.set_dmi_allowed(true);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    (void)p;
    dmi.set_dmi_ptr(bytes_);
    dmi.set_start_address(0);
    dmi.set_end_address(size_ - 1);
    dmi.set_read_latency(latency_);
    dmi.set_write_latency(latency_);
    dmi.allow_read();
    if (!read_only_) dmi.allow_read_write();
    return true;
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& p) {
    uint64_t a = p.get_address();
    if (a >= size_) return 0;
    unsigned len = unsigned(std::min<uint64_t>(p.get_data_length(), size_ - a));
    // Debug writes reach ROM too: a debugger or loader may patch it.
    if (p.is_read()) std::memcpy(p.get_data_ptr(), &bytes_[a], len);
    else if (p.is_write()) std::memcpy(&bytes_[a], p.get_data_ptr(), len);
    return len;
  }

  uint8_t* bytes_;
  uint64_t size_;
  bool read_only_;
  sc_core::sc_time latency_;
};

}  // namespace testbed
