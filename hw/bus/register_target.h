// The one register mechanism of every device model (board devices, SMI/MMI, the Centrenet NI):
// a TLM-2.0 target that decodes accesses onto the registers of the device's region, declared
// from the generated tables (sw/tables/registers/*.toml -> <testbed/register_tables.h>), with
// one read and/or write handler per register. Big-endian byte lanes are handled here and
// nowhere else.
//
// A device:
//   add_registers(tables::kTimerRegisters);                  // offsets, widths, access
//   on_read<regs::timer::COUNT>([this](const sc_time& t) { return count(t); });
//   on_write<regs::timer::CTRL>([this](uint32_t v, const sc_time& t) { write_ctrl(v, t); });
//   on_read<regs::timer::RTC_SEC>(peek, read);               // a read with side effects
//   on_read_each<regs::mmu::PTBASE>([this](unsigned n, const sc_time&) { return ptbase_[n]; });
// Handlers see whole registers at the access's time t (sc_time_stamp() + annotated delay). A
// `peek` handler has no side effects (debug reads, merging a partial write); `read` is what a
// CPU read does (defaults to peek). end_of_elaboration() checks that every readable register
// has a read handler and every writable one a write handler.
//
// Accesses (Rules): 1, 2 or 4 bytes (min_access and up) inside one register; with
// split_accesses an access may cover several adjacent registers, performed lower address first
// (the MON region: a move.l of DATA_HI and DATA_LO). With latch_long_reads (the board's
// devices), reading the high half of a 32-bit register latches the whole value and the low half
// then returns the latched low word (the 68010 moves a long as two word cycles, high word
// first). A write to part of a register merges with its current value; a write to the high
// half of a 32-bit register is held until the low half is written, and only then the register
// is written (a command register acts on its low word). A read of a write-only register is a
// command error, or 0 with write_only_reads_zero (the NI). Unmapped addresses, bad sizes and
// streaming widths: TLM_ADDRESS_ERROR_RESPONSE; byte enables: TLM_BYTE_ENABLE_ERROR_RESPONSE;
// wrong direction: TLM_COMMAND_ERROR_RESPONSE. Every refused access calls bad_access().
// Optional memory windows (the NI's buffer memory) are plain bytes in the same socket.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <testbed/register_tables.h>

#include "state_archive.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace testbed {

// Big-endian bytes <-> values (guest data in payloads is in address order).
inline uint32_t get_be(const uint8_t* p, unsigned len) {
  uint32_t v = 0;
  for (unsigned i = 0; i < len; ++i) v = v << 8 | p[i];
  return v;
}
inline void put_be(uint8_t* p, unsigned len, uint32_t v) {
  for (unsigned i = 0; i < len; ++i) p[i] = uint8_t(v >> (8 * (len - 1 - i)));
}

// How a device's registers are accessed (see the top of this file).
struct RegisterRules {
  bool latch_long_reads = true;
  bool split_accesses = false;
  unsigned min_access = 1;
  bool write_only_reads_zero = false;
  uint32_t address_mask = 0;  // nonzero: the offset is address & mask (bus address or offset)
};

class RegisterTarget : public sc_core::sc_module {
 public:
  using Time = sc_core::sc_time;
  using ReadFn = std::function<uint32_t(const Time&)>;
  using WriteFn = std::function<void(uint32_t, const Time&)>;

  using Rules = RegisterRules;

  tlm_utils::simple_target_socket<RegisterTarget> socket;

  RegisterTarget(sc_core::sc_module_name name, Time latency, Rules rules = Rules())
      : sc_module(name), socket("socket"), rules_(rules), latency_(latency) {
    socket.register_b_transport(this, &RegisterTarget::b_transport);
    socket.register_transport_dbg(this, &RegisterTarget::transport_dbg);
  }

  void set_latency(Time t) { latency_ = t; }
  uint64_t bad_accesses() const { return bad_; }
  // What the register mechanism holds between accesses (a latched long read, a held high-half
  // write, the refusals counted), for the device's state in a snapshot.
  void register_state(StateArchive& a) { a.io(latched_).io(pending_).io(bad_); }

 protected:
  using Access = tables::RegAccess;

  // Declares the device's registers from the generated table of its region.
  template <std::size_t N> void add_registers(const tables::RegSpec (&specs)[N]) {
    for (const tables::RegSpec& r : specs) regs_[r.offset].spec = &r;
  }
  // Two regions decoded by one model (the serial ports) must have the same registers.
  template <std::size_t N, std::size_t M>
  static constexpr bool same_layout(const tables::RegSpec (&a)[N], const tables::RegSpec (&b)[M]) {
    if (N != M) return false;
    for (std::size_t i = 0; i < N; ++i)
      if (a[i].offset != b[i].offset || a[i].bytes != b[i].bytes || a[i].access != b[i].access) return false;
    return true;
  }

  // Handlers of register R (a generated regs::<region>::<REG>).
  template <class R> void on_read(ReadFn peek, ReadFn read = nullptr) {
    static_assert(R::access != Access::WO, "a write-only register has no read handler");
    set_read(R::offset, std::move(peek), std::move(read));
  }
  template <class R> void on_write(WriteFn write) {
    static_assert(R::access != Access::RO, "a read-only register has no write handler");
    set_write(R::offset, std::move(write));
  }
  // Handlers of every element n of register array R.
  template <class R> void on_read_each(std::function<uint32_t(unsigned, const Time&)> peek) {
    static_assert(R::access != Access::WO, "a write-only register has no read handler");
    for (unsigned n = 0; n < R::count; ++n)
      set_read(R::offset_of(n), [peek, n](const Time& t) { return peek(n, t); }, nullptr);
  }
  template <class R> void on_write_each(std::function<void(unsigned, uint32_t, const Time&)> write) {
    static_assert(R::access != Access::RO, "a read-only register has no write handler");
    for (unsigned n = 0; n < R::count; ++n)
      set_write(R::offset_of(n), [write, n](uint32_t v, const Time& t) { write(n, v, t); });
  }
  // Plain memory in the same socket at [offset, offset + size): bytes, not registers (a table
  // entry inside it, such as NET BUFFER, names the window and needs no handlers).
  void add_memory(uint32_t offset, uint32_t size, uint8_t* bytes) {
    memories_.push_back({offset, size, bytes});
    for (auto it = regs_.lower_bound(offset); it != regs_.end() && it->first - offset < size;) it = regs_.erase(it);
  }

  // Hooks. before_access runs first for every b_transport (e.g. wait until the access's own
  // time); after_access after every b_transport; bad_access for a refused one (its response
  // status is set).
  virtual void before_access(tlm::tlm_generic_payload&, Time&) {}
  virtual void after_access() {}
  virtual void bad_access(tlm::tlm_generic_payload&) {}
  // From a handler: wait states this access adds (the CPU is held that much longer).
  void add_delay(const Time& d) { extra_delay_ += d; }

  void end_of_elaboration() override {
    for (auto& [off, r] : regs_) {
      if (r.spec->access != Access::WO && !r.peek)
        throw std::logic_error(std::string(name()) + ": register " + r.spec->name + " has no read handler");
      if (r.spec->access != Access::RO && !r.write)
        throw std::logic_error(std::string(name()) + ": register " + r.spec->name + " has no write handler");
    }
  }

 private:
  struct Reg {
    const tables::RegSpec* spec = nullptr;
    ReadFn peek, read;
    WriteFn write;
    unsigned width() const { return spec->bytes; }
  };
  struct Memory {
    uint32_t offset, size;
    uint8_t* bytes;
  };

  void set_read(uint32_t off, ReadFn peek, ReadFn read) {
    Reg& r = known(off);
    r.peek = std::move(peek);
    r.read = std::move(read);
  }
  void set_write(uint32_t off, WriteFn write) { known(off).write = std::move(write); }
  Reg& known(uint32_t off) {
    auto it = regs_.find(off);
    if (it == regs_.end())
      throw std::logic_error(std::string(name()) + ": a handler for offset " + std::to_string(off) +
                             ", which add_registers() did not declare");
    return it->second;
  }

  uint32_t offset_of(const tlm::tlm_generic_payload& p) const {
    uint64_t a = p.get_address();
    return uint32_t(rules_.address_mask ? a & rules_.address_mask : a);
  }
  // The register holding address a (nullptr if none) and its offset.
  Reg* find(uint32_t a, uint32_t& reg_off) {
    auto it = regs_.upper_bound(a);
    if (it == regs_.begin()) return nullptr;
    --it;
    if (a >= it->first + it->second.width()) return nullptr;
    reg_off = it->first;
    return &it->second;
  }
  const Memory* memory(uint32_t a, unsigned len) const {
    for (const Memory& m : memories_)
      if (a >= m.offset && a - m.offset < m.size) return uint64_t(a) + len <= uint64_t(m.offset) + m.size ? &m : nullptr;
    return nullptr;
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

  void refuse(tlm::tlm_generic_payload& p, tlm::tlm_response_status s) {
    ++bad_;
    p.set_response_status(s);
    bad_access(p);
  }

  struct Piece {
    Reg* reg;
    uint32_t off;
    unsigned pos, len, data;  // position in the register, length, index in the payload data
  };

  void b_transport(tlm::tlm_generic_payload& p, Time& delay) {
    before_access(p, delay);
    delay += latency_;
    extra_delay_ = sc_core::SC_ZERO_TIME;
    transport(p, sc_core::sc_time_stamp() + delay);
    delay += extra_delay_;
    after_access();
  }

  void transport(tlm::tlm_generic_payload& p, const Time& t) {
    uint32_t a = offset_of(p);
    unsigned len = p.get_data_length();
    if (p.get_byte_enable_ptr()) return refuse(p, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    if (!(p.is_read() || p.is_write()) || (len != 1 && len != 2 && len != 4) || len < rules_.min_access ||
        a % rules_.min_access || p.get_streaming_width() < len)
      return refuse(p, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint8_t* d = p.get_data_ptr();
    if (const Memory* m = memory(a, len)) {
      uint8_t* bytes = m->bytes + (a - m->offset);
      if (p.is_read()) std::memcpy(d, bytes, len);
      else std::memcpy(bytes, d, len);
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    // The registers the access covers; all are checked before any is performed.
    Piece pieces[4];
    unsigned n = 0;
    for (unsigned i = 0; i < len;) {
      uint32_t off = 0;
      Reg* r = find(a + i, off);
      if (!r) return refuse(p, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      unsigned pos = a + i - off, piece = std::min(len - i, r->width() - pos);
      if (piece != len && !rules_.split_accesses) return refuse(p, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      Access acc = r->spec->access;
      if ((p.is_read() && acc == Access::WO && !rules_.write_only_reads_zero) || (p.is_write() && acc == Access::RO))
        return refuse(p, tlm::TLM_COMMAND_ERROR_RESPONSE);
      pieces[n++] = Piece{r, off, pos, piece, i};
      i += piece;
    }
    for (unsigned i = 0; i < n; ++i) {
      const Piece& c = pieces[i];
      if (p.is_read()) put_be(d + c.data, c.len, extract(read(c, t), c.reg->width(), c.pos, c.len));
      else write(c, get_be(d + c.data, c.len), t);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  uint32_t read(const Piece& c, const Time& t) {
    Reg& r = *c.reg;
    if (r.spec->access == Access::WO) return 0;  // write_only_reads_zero
    bool latching = rules_.latch_long_reads && r.width() == 4;
    if (latching && c.pos >= 2) {
      auto it = latched_.find(c.off);
      if (it != latched_.end()) {
        uint32_t v = it->second;
        latched_.erase(it);
        return v;
      }
    }
    uint32_t v = r.read ? r.read(t) : r.peek(t);
    if (latching && c.pos + c.len <= 2) latched_[c.off] = v;
    return v;
  }

  void write(const Piece& c, uint32_t part, const Time& t) {
    Reg& r = *c.reg;
    auto held = pending_.find(c.off);
    uint32_t base = held != pending_.end() ? held->second
                    : (c.pos == 0 && c.len == r.width()) || r.spec->access == Access::WO ? 0 : r.peek(t);
    uint32_t v = merge(base, r.width(), c.pos, c.len, part);
    if (c.pos + c.len < r.width()) {
      pending_[c.off] = v;  // the low part completes the write
    } else {
      pending_.erase(c.off);
      r.write(v, t);
    }
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& p) {
    // Debug reads show register values without side effects; debug writes reach memory
    // windows only (debuggers do not trigger commands).
    uint32_t a = offset_of(p);
    unsigned len = p.get_data_length();
    uint8_t* d = p.get_data_ptr();
    if (const Memory* m = memory(a, 1)) {
      unsigned n = unsigned(std::min<uint64_t>(len, uint64_t(m->offset) + m->size - a));
      uint8_t* bytes = m->bytes + (a - m->offset);
      if (p.is_read()) std::memcpy(d, bytes, n);
      else if (p.is_write()) std::memcpy(bytes, d, n);
      else return 0;
      return n;
    }
    if (!p.is_read()) return 0;
    Time t = sc_core::sc_time_stamp();
    unsigned n = 0;
    for (; n < len; ++n) {
      uint32_t off = 0;
      Reg* r = find(a + n, off);
      if (!r || r->spec->access == Access::WO) break;
      d[n] = uint8_t(extract(r->peek(t), r->width(), a + n - off, 1));
    }
    return n;
  }

  Rules rules_;
  std::map<uint32_t, Reg> regs_;
  std::vector<Memory> memories_;
  std::map<uint32_t, uint32_t> latched_, pending_;
  Time latency_, extra_delay_;
  uint64_t bad_ = 0;
};

}  // namespace testbed
