// What the SMI and MMI TLM targets share: the clock an access happens at, the register-access
// rules, and the engine they drive.
//
// Access rules (both devices, RegisterTarget with kMonRules): the address is taken modulo the
// MON region size, so either the region offset or the full bus address works. An access is 2
// or 4 bytes, 2-aligned, without byte enables, and covers only defined registers; a 4-byte
// access may cover two 16-bit registers, performed at the same clock, the lower address first
// (a 68010 move.l of DATA_HI and DATA_LO). 32-bit registers (LOST, STALL) are read live, half by
// half (no latching). Anything else is answered with TLM_ADDRESS_ERROR_RESPONSE (unmapped,
// misaligned, bad size), TLM_BYTE_ENABLE_ERROR_RESPONSE or TLM_COMMAND_ERROR_RESPONSE (write to
// a read-only or read of a write-only register) and counted in bad_accesses().
#pragma once
#include "monitor_engine.h"
#include "register_target.h"

#include <systemc>
#include <tlm>

#include <testbed/memory_map.h>

#include <functional>

namespace testbed::monitor {

inline RegisterRules mon_rules() {
  RegisterRules r;
  r.latch_long_reads = false;
  r.split_accesses = true;
  r.min_access = 2;
  r.address_mask = TB_MON_SIZE - 1;
  return r;
}
static_assert((TB_MON_SIZE & (TB_MON_SIZE - 1)) == 0, "the MON region size is a power of two");

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

}  // namespace testbed::monitor
