#include "mmi.h"

namespace testbed::monitor {

using sc_core::sc_time;

Mmi::Mmi(sc_core::sc_module_name name, MonitorContext& ctx)
    : RegisterTarget(name, sc_core::SC_ZERO_TIME, mon_rules()), ctx_(ctx) {
  using namespace regs::mon;
  add_registers(tables::kMonMmiRegisters);
  MonitorEngine& e = ctx_.engine;
  auto clock = [this](const sc_time& t) { return ctx_.clock_at(t); };
  // Reading DATA_HI pops the FIFO head into the holding register; a peek (debugger) shows the
  // head without popping it.
  on_read<MMI_DATA_HI>([&e, clock](const sc_time& t) -> uint32_t { return uint16_t(e.mmi_peek(clock(t)) >> 16); },
                       [&e, clock](const sc_time& t) -> uint32_t { return e.mmi_data_hi(clock(t)); });
  on_read<MMI_DATA_LO>([&e, clock](const sc_time& t) -> uint32_t { return uint16_t(e.mmi_peek(clock(t))); },
                       [&e, clock](const sc_time& t) -> uint32_t { return e.mmi_data_lo(clock(t)); });
  on_read<MMI_STATUS>([&e, clock](const sc_time& t) -> uint32_t { return e.mmi_status(clock(t)); });
  on_read<MMI_LEVEL>([&e, clock](const sc_time& t) -> uint32_t { return e.mmi_level(clock(t)); });
  on_read<MMI_STALL>([&e, clock](const sc_time& t) { return e.mmi_stall(clock(t)); });
}

void Mmi::before_access(tlm::tlm_generic_payload& p, sc_time& delay) { ctx_.clock_of(delay, p.is_read()); }

void Mmi::after_access() {
  if (ctx_.after_access) ctx_.after_access();
}

}  // namespace testbed::monitor
