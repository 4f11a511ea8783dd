#include "smi.h"

#include <testbed/memory_map.h>

namespace testbed::monitor {

Smi::Smi(sc_core::sc_module_name name, unsigned number, MonitorContext& ctx)
    : sc_module(name), socket("socket"), number_(number), ctx_(ctx) {
  socket.register_b_transport(this, &Smi::b_transport);
  socket.register_transport_dbg(this, &Smi::transport_dbg);
}

namespace {
// 0 legal, 1 unmapped, 2 wrong direction.
int smi_ok(unsigned off, bool is_read) {
  switch (off) {
    case TB_MON_SMI_EVENT_OFF: return is_read ? 2 : 0;
    case TB_MON_SMI_STATUS_OFF: case TB_MON_SMI_LEVEL_OFF: case TB_MON_SMI_LOST_OFF: case TB_MON_SMI_LOST_OFF + 2:
      return is_read ? 0 : 2;
    default: return 1;
  }
}
}  // namespace

uint16_t Smi::read(unsigned off, uint64_t clock) {
  MonitorEngine& e = ctx_.engine;
  switch (off) {
    case TB_MON_SMI_STATUS_OFF: return e.smi_status(number_, clock);
    case TB_MON_SMI_LEVEL_OFF: return e.smi_level(number_, clock);
    case TB_MON_SMI_LOST_OFF: return uint16_t(e.smi_lost(number_, clock) >> 16);
    case TB_MON_SMI_LOST_OFF + 2: return uint16_t(e.smi_lost(number_, clock));
  }
  return 0;
}

void Smi::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  uint64_t clock = ctx_.clock_of(delay, p.is_read());
  uint64_t accepted = clock;
  RegisterAccess::transport(
      p, clock, bad_, smi_ok, [this](unsigned off, uint64_t c) { return read(off, c); },
      [this, &accepted](unsigned, uint16_t v, uint64_t c) { accepted = ctx_.engine.write_event(number_, c, v); });
  // write_gap wait states: the CPU is held until the SMI takes the event.
  delay += double(accepted - clock) * ctx_.clock_period;
  if (ctx_.after_access) ctx_.after_access();
}

unsigned Smi::transport_dbg(tlm::tlm_generic_payload& p) {
  // Reads only, without side effects (the state as of sc_time_stamp()).
  uint64_t a = p.get_address() & RegisterAccess::kRegionMask;
  unsigned len = p.get_data_length();
  if (!p.is_read() || (a & 1) || (len & 1)) return 0;
  uint64_t clock = ctx_.clock_at(sc_core::sc_time_stamp());
  unsigned char* d = p.get_data_ptr();
  unsigned i = 0;
  for (; i < len && smi_ok(unsigned(a + i), true) == 0; i += 2) {
    uint16_t v = read(unsigned(a + i), clock);
    d[i] = uint8_t(v >> 8);
    d[i + 1] = uint8_t(v);
  }
  return i;
}

}  // namespace testbed::monitor
