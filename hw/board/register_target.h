// A device's register file as a TLM-2.0 target: decodes 8/16/32-bit accesses onto 16- and
// 32-bit registers at fixed offsets, so each device only says what a whole register reads and
// what a whole-register write does.
//
// The 68010 moves a long as two word cycles, high word first. A read of a 32-bit register's high
// half latches the whole value and the low half then returns the latched low word (a consistent
// snapshot of counters and clocks); a write to the high half is held until the low half is
// written, and only then the register is written. Byte and word writes to a part of a register
// merge with its current value. Every access costs `latency` (the device's DTACK delay).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <testbed/register_tables.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace testbed {

class RegisterTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RegisterTarget> socket;

  RegisterTarget(sc_core::sc_module_name name, sc_core::sc_time latency)
      : sc_module(name), socket("socket"), latency_(latency) {
    socket.register_b_transport(this, &RegisterTarget::b_transport);
    socket.register_transport_dbg(this, &RegisterTarget::transport_dbg);
  }

  void set_latency(sc_core::sc_time t) { latency_ = t; }

 protected:
  using Access = tables::RegAccess;
  // Declares the device's registers from the generated table of its region
  // (sw/tables/registers/*.toml: the one place offsets, widths and access are written).
  template <std::size_t N> void add_registers(const tables::RegSpec (&specs)[N]) {
    for (const tables::RegSpec& r : specs) regs_[r.offset] = {r.bytes, r.access};
  }
  // Two regions decoded by one model (the serial ports) must have the same registers.
  template <std::size_t N, std::size_t M>
  static constexpr bool same_layout(const tables::RegSpec (&a)[N], const tables::RegSpec (&b)[M]) {
    if (N != M) return false;
    for (std::size_t i = 0; i < N; ++i)
      if (a[i].offset != b[i].offset || a[i].bytes != b[i].bytes || a[i].access != b[i].access) return false;
    return true;
  }

  // Whole-register read/write at time `t` (the access's local time: now + annotated delay).
  // A read of a register with side effects only happens on a real (not debug) access.
  virtual uint32_t read_register(uint32_t offset, const sc_core::sc_time& t) = 0;
  virtual void write_register(uint32_t offset, uint32_t value, const sc_core::sc_time& t) = 0;
  virtual uint32_t peek_register(uint32_t offset, const sc_core::sc_time& t) { return read_register(offset, t); }

 private:
  struct Reg {
    unsigned width;
    Access access;
  };
  // Finds the register holding [a, a+len); false when the access is not inside one register.
  const Reg* find(uint32_t a, unsigned len, uint32_t& reg_off) const {
    auto it = regs_.upper_bound(a);
    if (it == regs_.begin()) return nullptr;
    --it;
    if (a + len > it->first + it->second.width) return nullptr;
    reg_off = it->first;
    return &it->second;
  }
  static uint32_t extract(uint32_t v, unsigned width, unsigned pos, unsigned len) {
    unsigned shift = 8 * (width - pos - len);
    return len == 4 ? v : (v >> shift) & ((1u << (8 * len)) - 1);
  }
  static uint32_t merge(uint32_t v, unsigned width, unsigned pos, unsigned len, uint32_t part) {
    if (len == 4) return part;
    unsigned shift = 8 * (width - pos - len);
    uint32_t mask = ((1u << (8 * len)) - 1) << shift;
    return (v & ~mask) | ((part << shift) & mask);
  }
  static uint32_t get_be(const uint8_t* p, unsigned len) {
    uint32_t v = 0;
    for (unsigned i = 0; i < len; ++i) v = v << 8 | p[i];
    return v;
  }
  static void put_be(uint8_t* p, unsigned len, uint32_t v) {
    for (unsigned i = 0; i < len; ++i) p[i] = uint8_t(v >> (8 * (len - 1 - i)));
  }

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    delay += latency_;
    sc_core::sc_time t = sc_core::sc_time_stamp() + delay;
    uint32_t a = uint32_t(p.get_address());
    unsigned len = p.get_data_length();
    uint32_t off = 0;
    const Reg* r = (len == 1 || len == 2 || len == 4) && !p.get_byte_enable_ptr() ? find(a, len, off) : nullptr;
    if (!r) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    unsigned pos = a - off;
    if (p.is_read()) {
      if (r->access == Access::WO) {
        p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
      }
      uint32_t v;
      if (r->width == 4 && pos >= 2 && latched_.count(off)) {
        v = latched_[off];
        latched_.erase(off);
      } else {
        v = read_register(off, t);
        if (r->width == 4 && pos + len <= 2) latched_[off] = v;
      }
      put_be(p.get_data_ptr(), len, extract(v, r->width, pos, len));
    } else if (p.is_write()) {
      if (r->access == Access::RO) {
        p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
      }
      uint32_t part = get_be(p.get_data_ptr(), len);
      auto held = pending_.find(off);
      uint32_t base = held != pending_.end() ? held->second
                      : (pos == 0 && len == r->width) || r->access == Access::WO ? 0 : peek_register(off, t);
      uint32_t v = merge(base, r->width, pos, len, part);
      if (pos + len < r->width) {
        pending_[off] = v;  // the low part completes the write
      } else {
        pending_.erase(off);
        write_register(off, v, t);
      }
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& p) {
    // Debug reads show register values without side effects; debug writes are refused.
    if (!p.is_read()) return 0;
    sc_core::sc_time t = sc_core::sc_time_stamp();
    unsigned n = 0;
    for (uint32_t a = uint32_t(p.get_address()); n < p.get_data_length(); ++a, ++n) {
      uint32_t off = 0;
      const Reg* r = find(a, 1, off);
      if (!r || r->access == Access::WO) return n;
      p.get_data_ptr()[n] = uint8_t(extract(peek_register(off, t), r->width, a - off, 1));
    }
    return n;
  }

  std::map<uint32_t, Reg> regs_;
  std::map<uint32_t, uint32_t> latched_, pending_;
  sc_core::sc_time latency_;
};

}  // namespace testbed
