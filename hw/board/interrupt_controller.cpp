#include "interrupt_controller.h"

#include <testbed/memory_map.h>

namespace testbed {

namespace {
constexpr int kLevels[kIrqSources] = {TB_IRQ_TIMER, TB_IRQ_NET, TB_IRQ_SERIAL0, TB_IRQ_SERIAL1, TB_IRQ_MON, TB_IRQ_DEV};
}

InterruptController::InterruptController(sc_core::sc_module_name name, sc_core::sc_time latency)
    : RegisterTarget(name, latency) {
  static_assert(regs::intc::LEVEL::count == kIrqSources, "a LEVELn register per interrupt source");
  static_assert(regs::intc::PENDING::field_count == kIrqSources, "PENDING and ENABLE have the same bits");
  declare_registers();
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

void InterruptController::state(StateArchive& a) {
  a.section(name());
  register_state(a);
  a.io(pending_).io(enable_).io(ipl_).io(acks_);  // the CPU's IPL input is restored with it
}

void InterruptController::reset() {
  enable_ = 0;
  acks_ = 0;
  update();
}

void InterruptController::declare_registers() {
  using namespace regs::intc;
  add_registers(tables::kIntcRegisters);
  on_read<PENDING>([this](const sc_core::sc_time&) -> uint32_t { return pending_; });
  on_read<ENABLE>([this](const sc_core::sc_time&) -> uint32_t { return enable_; });
  on_write<ENABLE>([this](uint32_t value, const sc_core::sc_time&) {
    enable_ = uint16_t(value & ((1u << kIrqSources) - 1));
    update();
  });
  on_read<IPL>([this](const sc_core::sc_time&) { return uint32_t(ipl_); });
  on_read<ACKS>([this](const sc_core::sc_time&) -> uint32_t { return acks_; });
  on_read_each<LEVEL>([](unsigned n, const sc_core::sc_time&) { return uint32_t(kLevels[n]); });
}

}  // namespace testbed
