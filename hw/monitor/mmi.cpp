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
  // The SMIs' filters (FLT_SEL chooses which): settings read back, counters read live.
  auto flt_read = [&e, clock](unsigned off) {
    return [&e, clock, off](const sc_time& t) -> uint32_t {
      uint32_t v = 0;
      e.mmi_filter_read(off, clock(t), v);
      return v;
    };
  };
  auto flt_write = [&e, clock](unsigned off) {
    return [&e, clock, off](uint32_t v, const sc_time& t) { e.mmi_filter_write(off, uint16_t(v), clock(t)); };
  };
  on_read<FLT_SEL>(flt_read(FLT_SEL::offset));
  on_write<FLT_SEL>(flt_write(FLT_SEL::offset));
  on_read<FLT_TRIPPED>(flt_read(FLT_TRIPPED::offset));
  on_read<FLT_GUARD_DROPS>(flt_read(FLT_GUARD_DROPS::offset));
  on_read<FLT_CTL>(flt_read(FLT_CTL::offset));
  on_write<FLT_CTL>(flt_write(FLT_CTL::offset));
#define TB_FLT_SETTING(R)           \
  on_read<R>(flt_read(R::offset)); \
  on_write<R>(flt_write(R::offset));
  TB_FLT_SETTING(FLT_CLASS_PASS)
  TB_FLT_SETTING(FLT_MATCH_CLASSES)
  TB_FLT_SETTING(FLT_MATCH_VALUE)
  TB_FLT_SETTING(FLT_MATCH_MASK)
  TB_FLT_SETTING(FLT_DECIM_SEL)
  TB_FLT_SETTING(FLT_DECIM_N)
  TB_FLT_SETTING(FLT_GUARD_CLASSES)
  TB_FLT_SETTING(FLT_GUARD_LIMIT)
  TB_FLT_SETTING(FLT_GUARD_WINDOW)
#undef TB_FLT_SETTING
  on_read_each<FLT_CODE_PASS>([&e, clock](unsigned n, const sc_time& t) -> uint32_t {
    uint32_t v = 0;
    e.mmi_filter_read(FLT_CODE_PASS::offset_of(n), clock(t), v);
    return v;
  });
  on_write_each<FLT_CODE_PASS>([&e, clock](unsigned n, uint32_t v, const sc_time& t) {
    e.mmi_filter_write(FLT_CODE_PASS::offset_of(n), uint16_t(v), clock(t));
  });
  on_read_each<FLT_PASSED>([&e, clock](unsigned n, const sc_time& t) -> uint32_t {
    uint32_t v = 0;
    e.mmi_filter_read(FLT_PASSED::offset_of(n), clock(t), v);
    return v;
  });
  on_read_each<FLT_FILTERED>([&e, clock](unsigned n, const sc_time& t) -> uint32_t {
    uint32_t v = 0;
    e.mmi_filter_read(FLT_FILTERED::offset_of(n), clock(t), v);
    return v;
  });
}

void Mmi::before_access(tlm::tlm_generic_payload& p, sc_time& delay) { ctx_.clock_of(delay, p.is_read()); }

void Mmi::after_access() {
  if (ctx_.after_access) ctx_.after_access();
}

}  // namespace testbed::monitor
