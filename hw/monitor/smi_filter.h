// The SMI's event filter (seed 000 section 2.2.4's "additional filtering logic", MONITOR_SPEC.md
// "The event filter"): between an SMI's EVENT write and its FIFO, programmed by the master
// through the MMI's FLT_ registers. Stages, in order, for an event's first word: class mask,
// code mask, data-word match, decimation (one in N), rate guard (per class, per window of
// time-stamp ticks). Continuation words share their first word's fate and class. Counts every
// word passed and dropped per class. SystemC-free; the RTL (rtl/monitor/mon_filter.sv) is
// compared with it in lockstep.
#pragma once
#include <array>
#include <cstdint>

namespace testbed {
class StateArchive;
}
namespace testbed::monitor {

class SmiFilter {
 public:
  static constexpr unsigned kClasses = 16;
  static constexpr unsigned kCodeRegs = 8;

  // What the table says of a first word: its class, FLT_CODE_PASS index (-1: none), follows.
  struct Info {
    uint8_t cls;
    int16_t index;
    uint8_t follows;
  };
  static Info classify(uint16_t word);

  SmiFilter();

  // An event word written at a clock whose time-stamp tick count is `ticks` (step 4): true if it
  // goes on to the FIFO.
  bool offer(uint16_t word, uint64_t ticks);

  // The FLT_ registers by MON offset (the MMI set), FLT_SEL excepted. write() returns false for
  // an offset that is not a writable setting (nothing changes); a settings write restarts the
  // decimation count and the guard's window at `ticks` and counts a generation.
  bool write(unsigned offset, uint16_t value, uint64_t ticks);
  // Readable FLT_ register at `offset` (32-bit ones whole at their offset, low half at +2);
  // false if there is none.
  bool read(unsigned offset, uint64_t ticks, uint32_t& value) const;

  uint8_t generation() const { return gen_; }
  void state(StateArchive& a);  // monitor_state.cpp
  uint32_t passed(unsigned cls) const { return passed_.at(cls); }
  uint32_t filtered(unsigned cls) const { return filtered_.at(cls); }
  uint32_t guard_drops() const { return guard_drops_; }
  uint16_t tripped(uint64_t ticks) const;
  // Where first words were dropped (tests: every path taken), and continuation words dropped.
  enum Stage { kClass, kCode, kMatch, kDecim, kGuard, kContinuation, kStages };
  uint64_t drops(Stage s) const { return drops_.at(s); }

 private:
  uint64_t window(uint64_t ticks) const { return (ticks - start_) / window_; }
  uint16_t guard_count(unsigned cls, uint64_t ticks) const;
  bool decide(uint16_t word, const Info& info, uint64_t ticks);

  // Settings.
  bool enable_ = false;
  uint16_t class_pass_, match_classes_ = 0, match_value_ = 0, match_mask_ = 0;
  uint16_t decim_sel_ = 0, decim_n_ = 0, guard_classes_ = 0, guard_limit_ = 0, window_ = 0;
  std::array<uint16_t, kCodeRegs> code_pass_;
  uint8_t gen_ = 0;
  // State.
  uint16_t decim_count_ = 0;
  uint64_t start_ = 0;                              // ticks at the latest settings write
  std::array<uint16_t, kClasses> gcount_{};         // guard: passed in window gwin_[c]
  std::array<uint64_t, kClasses> gwin_{};
  unsigned follow_left_ = 0;
  bool follow_pass_ = true;
  uint8_t follow_cls_ = 0;
  std::array<uint32_t, kClasses> passed_{}, filtered_{};
  uint32_t guard_drops_ = 0;
  std::array<uint64_t, kStages> drops_{};
};

}  // namespace testbed::monitor
