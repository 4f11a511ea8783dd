// testbed::IrqLine: a device's interrupt output, the one type every model raises its line through
// (as QEMU's qemu_irq, wired by its machine and checked when the machine is realised). The
// builder of the machine either connects the line to what it drives or says, with a reason, that
// it is left open; a device checks its line at end_of_elaboration, so a line forgotten by the
// builder stops the model before simulation with the device's name instead of dropping every
// interrupt it would have raised.
//   timer.irq_line().connect([&](bool l) { intc.set_line(IrqSource::Timer, l); });
//   serial1.irq_line().leave_open("the test polls STATUS");
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace testbed {

class IrqLine {
 public:
  using Sink = std::function<void(bool)>;

  // `owner`: the device's name, which the refusals carry.
  explicit IrqLine(std::string owner) : owner_(std::move(owner)) {}
  IrqLine(const IrqLine&) = delete;
  IrqLine& operator=(const IrqLine&) = delete;

  // One sink per line: two builders wiring one output is a mistake in the machine, not a fan-out.
  // Connecting a line left open (a default the builder overrides) is allowed.
  void connect(Sink sink) {
    if (!sink) throw std::invalid_argument(owner_ + ": interrupt line connected to nothing");
    if (sink_) throw std::logic_error(owner_ + ": interrupt line connected twice");
    sink_ = std::move(sink);
  }
  // The line drives nothing on purpose; `why` says so where the machine is built.
  void leave_open(std::string why) {
    if (why.empty()) throw std::invalid_argument(owner_ + ": an interrupt line left open needs a reason");
    open_reason_ = std::move(why);
  }

  // The device's new level: the sink sees each change once, never a repeat of the same level.
  void set(bool level) {
    if (level == level_) return;
    level_ = level;
    if (sink_) sink_(level);
  }
  bool level() const { return level_; }
  // A snapshot's level (StateArchive): what the sink saw is restored with the sink.
  void restore_level(bool level) { level_ = level; }
  bool connected() const { return bool(sink_); }
  bool left_open() const { return !sink_ && !open_reason_.empty(); }
  const std::string& owner() const { return owner_; }

  // From the device's end_of_elaboration: refuses a line neither connected nor left open.
  void check_connected() const {
    if (!sink_ && open_reason_.empty())
      throw std::logic_error(owner_ + ": interrupt line is not connected (connect it, or leave_open(\"why\"))");
  }

 private:
  std::string owner_;
  Sink sink_;
  std::string open_reason_;
  bool level_ = false;
};

}  // namespace testbed
