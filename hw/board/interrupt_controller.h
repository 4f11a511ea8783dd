// The board's interrupt controller: level-sensitive source lines (timer, Centrenet NI, the two
// serial ports, the monitoring interface, the user devices), each at the fixed IPL of [irq] in memory_map.toml,
// an enable mask, and the IPL output to the CPU. Every source is autovectored (24 + level).
#pragma once
#include "register_target.h"

#include <array>
#include <functional>

namespace testbed {

// Source n is bit n of INTC PENDING and ENABLE (the fields of sw/tables/registers/intc.toml).
enum class IrqSource : unsigned {
  Timer = regs::intc::ENABLE::TIMER::shift,
  Net = regs::intc::ENABLE::NET::shift,
  Serial0 = regs::intc::ENABLE::SERIAL0::shift,
  Serial1 = regs::intc::ENABLE::SERIAL1::shift,
  Mon = regs::intc::ENABLE::MON::shift,
  Dev = regs::intc::ENABLE::DEV::shift,  // the user devices' OR (the DEV directory's IRQ says whose)
};
constexpr unsigned kIrqSources = regs::intc::ENABLE::field_count;

class InterruptController : public RegisterTarget {
 public:
  InterruptController(sc_core::sc_module_name name, sc_core::sc_time latency = sc_core::SC_ZERO_TIME);

  // A device drives its line (level-sensitive). May be called from any process.
  void set_line(IrqSource s, bool asserted);
  bool line(IrqSource s) const { return pending_ >> unsigned(s) & 1; }
  static int level_of(IrqSource s);

  int ipl() const { return ipl_; }
  // Called with the new IPL whenever it changes (the CPU initiator's IPL input).
  void on_ipl_change(std::function<void(int)> f) { ipl_listener_ = std::move(f); }

  // Interrupt-acknowledge cycle for `level`: true (autovector) if an enabled pending source has
  // that level, else false (spurious: the CPU sees BERR and takes the spurious-interrupt vector).
  bool acknowledge(int level);

  void reset();
  void state(StateArchive& a);

 private:
  void declare_registers();
  void update();
  uint16_t pending_ = 0, enable_ = 0;
  int ipl_ = 0;
  uint32_t acks_ = 0;
  std::function<void(int)> ipl_listener_;
};

}  // namespace testbed
