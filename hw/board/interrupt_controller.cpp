#include "interrupt_controller.h"

#include <testbed/memory_map.h>

namespace testbed {

namespace {
constexpr int kLevels[kIrqSources] = {TB_IRQ_TIMER, TB_IRQ_NET, TB_IRQ_SERIAL0, TB_IRQ_SERIAL1, TB_IRQ_MON};
}

InterruptController::InterruptController(sc_core::sc_module_name name, sc_core::sc_time latency)
    : RegisterTarget(name, latency) {
  static_assert(regs::intc::LEVEL::count == kIrqSources, "a LEVELn register per interrupt source");
  static_assert(regs::intc::PENDING::field_count == kIrqSources, "PENDING and ENABLE have the same bits");
  add_registers(tables::kIntcRegisters);
}

int InterruptController::level_of(IrqSource s) { return kLevels[unsigned(s)]; }

void InterruptController::set_line(IrqSource s, bool asserted) {
  uint16_t bit = uint16_t(1u << unsigned(s));
  uint16_t p = asserted ? (pending_ | bit) : (pending_ & ~bit);
  if (p == pending_) return;
  pending_ = p;
  update();
}

void InterruptController::update() {
  int l = 0;
  for (unsigned i = 0; i < kIrqSources; ++i)
    if ((pending_ & enable_) >> i & 1) l = std::max(l, kLevels[i]);
  if (l == ipl_) return;
  ipl_ = l;
  if (ipl_listener_) ipl_listener_(l);
}

bool InterruptController::acknowledge(int level) {
  for (unsigned i = 0; i < kIrqSources; ++i)
    if ((pending_ & enable_) >> i & 1 && kLevels[i] == level) {
      ++acks_;
      return true;
    }
  return false;
}

void InterruptController::reset() {
  enable_ = 0;
  acks_ = 0;
  update();
}

uint32_t InterruptController::read_register(uint32_t offset, const sc_core::sc_time&) {
  switch (offset) {
    case TB_INTC_PENDING_OFF: return pending_;
    case TB_INTC_ENABLE_OFF: return enable_;
    case TB_INTC_IPL_OFF: return uint32_t(ipl_);
    case TB_INTC_ACKS_OFF: return acks_;
    default: return uint32_t(kLevels[(offset - TB_INTC_LEVEL0_OFF) / TB_INTC_LEVEL_STRIDE]);
  }
}

void InterruptController::write_register(uint32_t offset, uint32_t value, const sc_core::sc_time&) {
  if (offset == TB_INTC_ENABLE_OFF) {
    enable_ = uint16_t(value & ((1u << kIrqSources) - 1));
    update();
  }
}

}  // namespace testbed
