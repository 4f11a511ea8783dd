// SIMCTL: the guest's way to talk to the simulator: CHECKSUM (a value for the host) and EXIT
// (writing N ends this board's run: 1 is success, anything else a failure code).
#pragma once
#include "register_target.h"

#include <functional>

namespace testbed {

class SimControl : public RegisterTarget {
 public:
  SimControl(sc_core::sc_module_name name, sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
      : RegisterTarget(name, latency) {
    using namespace regs::simctl;
    using sc_core::sc_time;
    add_registers(tables::kSimctlRegisters);
    on_read<CHECKSUM>([this](const sc_time&) { return checksum_; });
    on_write<CHECKSUM>([this](uint32_t value, const sc_time&) { checksum_ = value; });
    on_write<EXIT>([this](uint32_t value, const sc_time& t) {
      exited_ = true;
      code_ = value;
      if (exit_) exit_(value, t);
    });
  }
  // Called on a write to EXIT with the code and the local time of the write.
  void on_exit(std::function<void(uint32_t, const sc_core::sc_time&)> f) { exit_ = std::move(f); }
  uint32_t checksum() const { return checksum_; }
  bool exited() const { return exited_; }
  uint32_t exit_code() const { return code_; }
  void state(StateArchive& a) {
    a.section(name());
    register_state(a);
    a.io(checksum_).io(code_).io(exited_);
  }

 private:
  uint32_t checksum_ = 0, code_ = 0;
  bool exited_ = false;
  std::function<void(uint32_t, const sc_core::sc_time&)> exit_;
};

}  // namespace testbed
