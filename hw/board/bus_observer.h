// Watches a board's CPU bus: every bus cycle the CPU initiator sends over TLM (the slow path;
// with the fast path off that is every cycle) and every IPL change the CPU samples. Times are
// the CPU's local times (monotonic per board), so a waveform writer can emit them in order.
#pragma once
#include <systemc>

#include <cstdint>

namespace testbed {

struct BusCycleRecord {
  sc_core::sc_time start;     // the cycle's first clock
  sc_core::sc_time duration;  // 4 clocks plus wait states
  uint32_t address;
  uint16_t data;              // the value written or read (a byte in the low 8 bits)
  uint8_t fc;
  bool write, byte, bus_error;
};

class BusObserver {
 public:
  virtual ~BusObserver() = default;
  virtual void bus_cycle(const BusCycleRecord& r) = 0;
  virtual void ipl(const sc_core::sc_time& t, int level) = 0;
};

}  // namespace testbed
