// What the SMI and MMI TLM targets share: the clock an access happens at, the register-access
// rules, and the engine they drive.
//
// Access rules (both devices): the address is taken modulo the MON region size, so either the
// region offset or the full bus address works. An access is 2 or 4 bytes, 2-aligned, without
// byte enables, and covers only defined registers; a 4-byte access is two 16-bit accesses at
// the same clock, the lower address first (a 68010 move.l). Anything else is answered with
// TLM_ADDRESS_ERROR_RESPONSE (unmapped, misaligned, bad size) or TLM_COMMAND_ERROR_RESPONSE
// (write to a read-only or read of a write-only register) and counted in bad_accesses().
#pragma once
#include "monitor_engine.h"

#include <systemc>
#include <tlm>

#include <functional>

namespace testbed::monitor {

struct MonitorContext {
  MonitorEngine& engine;
  sc_core::sc_time clock_period;
  bool sync_reads;                      // reads wait() until their own time (thread initiators)
  std::function<void()> after_access;   // re-arms the monitor's wake-up

  uint64_t clock_at(const sc_core::sc_time& t) const { return t.value() / clock_period.value(); }
  // The clock of an access: sc_time_stamp() + its annotated delay.
  uint64_t clock_of(sc_core::sc_time& delay, bool is_read) const {
    if (is_read && sync_reads && delay > sc_core::SC_ZERO_TIME &&
        sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_) {
      sc_core::wait(delay);
      delay = sc_core::SC_ZERO_TIME;
    }
    return clock_at(sc_core::sc_time_stamp() + delay);
  }
};

// Register decode shared by Smi and Mmi: `ok(offset, is_read)` says whether a 16-bit access is
// legal (0), unmapped (1) or of the wrong direction (2); `rd`/`wr` perform one.
struct RegisterAccess {
  static constexpr uint64_t kRegionMask = 0xFF;
  template <class Ok, class Rd, class Wr>
  static void transport(tlm::tlm_generic_payload& p, uint64_t clock, uint64_t& bad, Ok ok, Rd rd, Wr wr) {
    uint64_t a = p.get_address() & kRegionMask;
    unsigned len = p.get_data_length();
    if ((len != 2 && len != 4) || (a & 1) || p.get_byte_enable_ptr() || p.get_streaming_width() < len ||
        !(p.is_read() || p.is_write())) {
      ++bad;
      p.set_response_status(p.get_byte_enable_ptr() ? tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE
                                                     : tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    for (unsigned i = 0; i < len; i += 2) {
      int r = ok(unsigned(a + i), p.is_read());
      if (r) {
        ++bad;
        p.set_response_status(r == 1 ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
      }
    }
    unsigned char* d = p.get_data_ptr();
    for (unsigned i = 0; i < len; i += 2) {
      if (p.is_read()) {
        uint16_t v = rd(unsigned(a + i), clock);
        d[i] = uint8_t(v >> 8);
        d[i + 1] = uint8_t(v);
      } else {
        wr(unsigned(a + i), uint16_t(d[i] << 8 | d[i + 1]), clock);
      }
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace testbed::monitor
