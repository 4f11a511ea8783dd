// The clock-by-clock view of the monitoring hardware that the RTL testbench drives: the RTL
// (monitor_rtl.h), the independent C++ reference of MONITOR_SPEC.md (monitor_ref.h) and the
// SystemC/TLM model's engine (monitor_engine_adapter.h) all implement it, so one stimulus
// drives them in lockstep and every clock's outputs are compared.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace tbrtl {

// Same names and defaults as MONITOR_SPEC.md (and testbed::monitor::MonitorParams).
struct Params {
  unsigned tick_div = 10;
  unsigned smi_depth = 1024;
  unsigned mmi_depth = 512;
  unsigned n_smi = 5;
  unsigned word_clocks = 36;
  unsigned empty_clocks = 36;
  unsigned write_gap = 2;
};

// The small configuration the testbenches verilate as Vmonitor_small: must match
// RTL_MONITOR_SMALL_PARAMS in rtl/monitor/CMakeLists.txt. Every corner within a few thousand clocks.
inline Params small_params() {
  Params p;
  p.n_smi = 3;
  p.smi_depth = 8;
  p.mmi_depth = 6;
  p.tick_div = 1;
  p.word_clocks = 3;
  p.empty_clocks = 2;
  p.write_gap = 2;
  return p;
}

// Register byte offsets (MONITOR_SPEC.md "Registers").
// A read returns the register at that offset, 32-bit ones whole at +8 and their low half at +0xA.
enum : int { kSmiEvent = 0x0, kSmiStatus = 0x2, kSmiLevel = 0x4, kSmiLost = 0x8, kSmiLostLo = 0xA };
enum : int { kMmiDataHi = 0x0, kMmiDataLo = 0x2, kMmiStatus = 0x4, kMmiLevel = 0x6, kMmiStall = 0x8, kMmiStallLo = 0xA };

constexpr unsigned kMaxSmi = 15;

// What the CPUs do at one clock. Index i is SMI i+1 (source i+1).
struct ClockOps {
  uint16_t write_start = 0;                  // bit i: SMI i+1's CPU starts an EVENT write
  std::array<uint16_t, kMaxSmi> word{};      // the event word of a write that starts
  std::array<int8_t, kMaxSmi> smi_read{};    // register read by a CPU not in a write, or -1
  int16_t mmi_read = -1;                     // master read of an MMI register (byte offset), or -1
  bool mmi_long = false;                     // a move.l (DATA_HI then DATA_LO) at +0
  int16_t mmi_write = -1;                    // master write of a filter register (never with a read), or -1
  uint16_t mmi_wdata = 0;
  ClockOps() { smi_read.fill(-1); }
};

struct ClockOut {
  uint16_t accepted = 0;                     // bit i: SMI i+1 accepted its write at this clock
  std::array<uint32_t, kMaxSmi> smi_read{};  // value of each requested SMI read
  uint32_t mmi_read = 0;
};

// State after a clock, compared between the models at every clock.
struct Observed {
  uint16_t ts = 0;
  std::array<uint32_t, kMaxSmi> smi_level{}, smi_lost{};
  uint32_t mmi_level = 0;
  uint32_t stall_clocks = 0;
  bool operator==(const Observed& o) const {
    return ts == o.ts && smi_level == o.smi_level && smi_lost == o.smi_lost &&
           mmi_level == o.mmi_level && stall_clocks == o.stall_clocks;
  }
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  // Runs clock t (t = 0, 1, 2, ... in order). A CPU whose write is held (wait states) keeps it
  // going by itself; the stimulus starts no new write on that SMI and reads none of its
  // registers until the write is accepted.
  virtual void clock(const ClockOps& ops, ClockOut& out) = 0;
  virtual Observed observe() = 0;
};

}  // namespace tbrtl
