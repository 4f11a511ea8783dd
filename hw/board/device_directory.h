// The DEV region's directory (sw/tables/registers/dev.toml): which user devices a board has,
// where, and whose interrupt line is up, so that software checks an address before touching it.
#pragma once
#include "register_target.h"

#include <testbed/memory_map.h>

#include <vector>

namespace testbed {

class DeviceDirectory : public RegisterTarget {
 public:
  struct Entry {
    uint32_t address, size;
  };
  DeviceDirectory(sc_core::sc_module_name name, std::vector<Entry> entries, sc_core::sc_time latency)
      : RegisterTarget(name, latency), entries_(std::move(entries)) {
    add_registers(tables::kDevRegisters);
    on_read<regs::dev::COUNT>([this](const Time&) { return uint32_t(entries_.size()); });
    on_read<regs::dev::IRQ>([this](const Time&) { return uint32_t(lines_); });
    on_read_each<regs::dev::ADDR>([this](unsigned n, const Time&) { return n < entries_.size() ? entries_[n].address : 0u; });
    on_read_each<regs::dev::BYTES>([this](unsigned n, const Time&) { return n < entries_.size() ? entries_[n].size : 0u; });
  }
  static constexpr unsigned kMaxDevices = regs::dev::ADDR::count;
  // Device n's line; returns whether any line is up (INTC's DEV source).
  bool set_line(unsigned n, bool level) {
    lines_ = uint16_t(level ? lines_ | 1u << n : lines_ & ~(1u << n));
    return lines_ != 0;
  }
  void state(StateArchive& a) {
    a.section(name()).expect("devices", uint64_t(entries_.size()));
    register_state(a);
    a.io(lines_);
  }

 private:
  std::vector<Entry> entries_;
  uint16_t lines_ = 0;
};

}  // namespace testbed
