#include "mmi.h"

#include <testbed/memory_map.h>

namespace testbed::monitor {

Mmi::Mmi(sc_core::sc_module_name name, MonitorContext& ctx) : sc_module(name), socket("socket"), ctx_(ctx) {
  socket.register_b_transport(this, &Mmi::b_transport);
  socket.register_transport_dbg(this, &Mmi::transport_dbg);
}

namespace {
int mmi_ok(unsigned off, bool is_read) {
  if (off > TB_MON_MMI_STALL_OFF + 2) return 1;
  return is_read ? 0 : 2;
}
}  // namespace

void Mmi::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  uint64_t clock = ctx_.clock_of(delay, p.is_read());
  MonitorEngine& e = ctx_.engine;
  RegisterAccess::transport(
      p, clock, bad_, mmi_ok,
      [&e](unsigned off, uint64_t c) -> uint16_t {
        switch (off) {
          case TB_MON_MMI_DATA_HI_OFF: return e.mmi_data_hi(c);
          case TB_MON_MMI_DATA_LO_OFF: return e.mmi_data_lo(c);
          case TB_MON_MMI_STATUS_OFF: return e.mmi_status(c);
          case TB_MON_MMI_LEVEL_OFF: return e.mmi_level(c);
          case TB_MON_MMI_STALL_OFF: return uint16_t(e.mmi_stall(c) >> 16);
          default: return uint16_t(e.mmi_stall(c));
        }
      },
      [](unsigned, uint16_t, uint64_t) {});
  if (ctx_.after_access) ctx_.after_access();
}

unsigned Mmi::transport_dbg(tlm::tlm_generic_payload& p) {
  // Reads only, without side effects: DATA_HI/DATA_LO show the FIFO head without popping it.
  uint64_t a = p.get_address() & RegisterAccess::kRegionMask;
  unsigned len = p.get_data_length();
  if (!p.is_read() || (a & 1) || (len & 1)) return 0;
  MonitorEngine& e = ctx_.engine;
  uint64_t c = ctx_.clock_at(sc_core::sc_time_stamp());
  unsigned char* d = p.get_data_ptr();
  unsigned i = 0;
  for (; i < len && a + i <= TB_MON_MMI_STALL_OFF + 2; i += 2) {
    uint16_t v = 0;
    switch (a + i) {
      case TB_MON_MMI_DATA_HI_OFF: v = uint16_t(e.mmi_peek(c) >> 16); break;
      case TB_MON_MMI_DATA_LO_OFF: v = uint16_t(e.mmi_peek(c)); break;
      case TB_MON_MMI_STATUS_OFF: v = e.mmi_status(c); break;
      case TB_MON_MMI_LEVEL_OFF: v = e.mmi_level(c); break;
      case TB_MON_MMI_STALL_OFF: v = uint16_t(e.mmi_stall(c) >> 16); break;
      default: v = uint16_t(e.mmi_stall(c)); break;
    }
    d[i] = uint8_t(v >> 8);
    d[i + 1] = uint8_t(v);
  }
  return i;
}

}  // namespace testbed::monitor
