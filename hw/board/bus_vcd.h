// A per-board VCD of the CPU bus: address, data, function code, R/W, address strobe, IPL and bus
// error, each bus cycle at the CPU's local time (1 ns resolution). Open in GTKWave. It sees the
// cycles the CPU sends over TLM: testbed and testbed-board switch the fast path (DMI) off while
// tracing so RAM/ROM cycles are included (the file's $comment says so).
#pragma once
#include "bus_observer.h"

#include <cstdio>
#include <string>

namespace testbed {

class BusVcd : public BusObserver {
 public:
  // Throws std::runtime_error naming the file when it cannot be created.
  BusVcd(const std::string& path, const std::string& board_name);
  ~BusVcd() override;
  BusVcd(const BusVcd&) = delete;
  BusVcd& operator=(const BusVcd&) = delete;

  void bus_cycle(const BusCycleRecord& r) override;
  void ipl(const sc_core::sc_time& t, int level) override;
  uint64_t cycles_written() const { return cycles_; }

 private:
  void at(const sc_core::sc_time& t);
  void vec(const char* id, uint32_t v, int bits);

  std::FILE* f_;
  std::string path_;
  uint64_t last_ns_ = 0;
  bool started_ = false;
  uint64_t cycles_ = 0;
};

}  // namespace testbed
