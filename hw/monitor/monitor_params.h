// The monitoring hardware's cycle-level parameters (MONITOR_SPEC.md, "Clock and parameters").
// SystemC-free: the engine, the RTL comparison harness and the decoder use the same struct.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace testbed::monitor {

struct MonitorParams {
  unsigned tick_div = 10;       // monitor clocks per 16-bit time-stamp tick (10 x 100 ns = 1 us)
  unsigned smi_depth = 1024;    // SMI FIFO entries {time stamp, event}
  unsigned mmi_depth = 512;     // MMI FIFO entries {4-bit source, 16-bit word}
  unsigned n_smi = 5;           // SMIs on the bus, sources 1..n_smi (slave board numbers)
  unsigned word_clocks = 36;    // clocks per 16-bit monitoring-bus transfer
  unsigned empty_clocks = 36;   // clocks of a poll slot that finds its SMI empty
  unsigned write_gap = 2;       // minimum clocks between two accepted writes to one SMI

  // Throws std::invalid_argument naming the offending parameter and its value.
  void validate() const {
    auto bad = [](const char* what, uint64_t v, const char* rule) {
      throw std::invalid_argument(std::string("monitor parameter ") + what + " = " + std::to_string(v) +
                                  ": " + rule);
    };
    if (tick_div < 1) bad("tick_div", tick_div, "must be >= 1");
    if (smi_depth < 1 || smi_depth > 65535) bad("smi_depth", smi_depth, "must be 1..65535 (LEVEL is 16-bit)");
    if (mmi_depth < 2 || mmi_depth > 65535) bad("mmi_depth", mmi_depth, "must be 2..65535 (a slot needs 2 entries)");
    if (n_smi < 1 || n_smi > 15) bad("n_smi", n_smi, "must be 1..15 (4-bit source, 0 is the master)");
    if (word_clocks < 1) bad("word_clocks", word_clocks, "must be >= 1");
    if (empty_clocks < 1) bad("empty_clocks", empty_clocks, "must be >= 1");
    if (write_gap < 1) bad("write_gap", write_gap, "must be >= 1");
  }
};

// The global clock: 16-bit time stamp and wrap count at clock t, analytically (no per-clock work).
// Ticks happen at t > 0 with t mod tick_div == 0 (step 1), so through clock t there were
// floor(t / tick_div) ticks.
struct GlobalClock {
  unsigned tick_div;
  uint64_t ticks(uint64_t t) const { return t / tick_div; }
  uint16_t ts(uint64_t t) const { return uint16_t(ticks(t) & 0xFFFF); }
  uint64_t wraps(uint64_t t) const { return ticks(t) >> 16; }
  uint64_t wrap_period() const { return uint64_t(tick_div) << 16; }
  // The first clock >= t (and > 0) at which ts wraps to 0.
  uint64_t next_wrap(uint64_t t) const {
    uint64_t p = wrap_period();
    uint64_t n = (t + p - 1) / p;
    return (n == 0 ? 1 : n) * p;
  }
};

}  // namespace testbed::monitor
