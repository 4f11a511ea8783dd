#include "smi.h"

namespace testbed::monitor {

using sc_core::sc_time;

Smi::Smi(sc_core::sc_module_name name, unsigned number, MonitorContext& ctx)
    : RegisterTarget(name, sc_core::SC_ZERO_TIME, mon_rules()), number_(number), ctx_(ctx) {
  using namespace regs::mon;
  add_registers(tables::kMonSmiRegisters);
  MonitorEngine& e = ctx_.engine;
  // write_gap wait states: the CPU is held until the SMI takes the event.
  on_write<SMI_EVENT>([this, &e](uint32_t v, const sc_time& t) {
    uint64_t c = ctx_.clock_at(t);
    uint64_t accepted = e.write_event(number_, c, uint16_t(v));
    add_delay(double(accepted - c) * ctx_.clock_period);
  });
  on_read<SMI_STATUS>([this, &e](const sc_time& t) -> uint32_t { return e.smi_status(number_, ctx_.clock_at(t)); });
  on_read<SMI_LEVEL>([this, &e](const sc_time& t) -> uint32_t { return e.smi_level(number_, ctx_.clock_at(t)); });
  on_read<SMI_LOST>([this, &e](const sc_time& t) { return e.smi_lost(number_, ctx_.clock_at(t)); });
}

// The access's clock is sc_time_stamp() + delay (reads of thread initiators wait until then).
void Smi::before_access(tlm::tlm_generic_payload& p, sc_time& delay) { ctx_.clock_of(delay, p.is_read()); }

void Smi::after_access() {
  if (ctx_.after_access) ctx_.after_access();
}

}  // namespace testbed::monitor
