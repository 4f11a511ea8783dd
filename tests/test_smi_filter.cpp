// The SMI's event filter in the TLM model's engine (hw/monitor/smi_filter, MonitorEngine), path by
// path: class mask, code mask, data-word match, decimation by code and by class, the rate guard
// and its window, continuation words, the filter marker in the stream, the counters the master
// reads, and refused writes. Every test drains the MMI and checks the words that arrive.
#include <gtest/gtest.h>

#include "monitor_engine.h"

#include <testbed/events.h>
#include <testbed/register_tables.h>

#include <vector>

using namespace testbed::monitor;
namespace R = testbed::regs::mon;

namespace {

struct Word {
  unsigned src;
  uint16_t ts, ev;
};

struct Rig {
  MonitorParams p;
  MonitorEngine e;
  uint64_t t = 0;
  explicit Rig(unsigned tick_div = 10) : p(params(tick_div)), e(p) {}
  static MonitorParams params(unsigned tick_div) {
    MonitorParams p;
    p.tick_div = tick_div;
    return p;
  }
  void write(unsigned k, uint16_t w) { t = e.write_event(k, t, w) + 2; }
  void set(unsigned off, uint16_t v) { ASSERT_TRUE(e.mmi_filter_write(off, v, t++)) << "offset " << off; }
  uint32_t get(unsigned off) {
    uint32_t v = 0;
    EXPECT_TRUE(e.mmi_filter_read(off, t++, v)) << "offset " << off;
    return v;
  }
  // Everything the master reads until the monitor is empty (markers included).
  std::vector<Word> drain() {
    std::vector<Word> out;
    std::vector<int> phase(16, 0);
    std::vector<uint16_t> ts(16, 0);
    for (uint64_t idle = 0; idle < 20000; ++t) {
      uint16_t hi = e.mmi_data_hi(t);
      if (hi & R::MMI_DATA_HI::EMPTY::mask) {
        ++idle;
        continue;
      }
      idle = 0;
      unsigned src = hi & 0xF;
      uint16_t w = e.mmi_data_lo(t);
      if (phase[src] == 0) ts[src] = w;
      else out.push_back({src, ts[src], w});
      phase[src] ^= 1;
    }
    return out;
  }
  static std::vector<uint16_t> events(const std::vector<Word>& ws, unsigned src, bool markers = false) {
    std::vector<uint16_t> v;
    for (auto& w : ws) {
      bool marker = (w.ev & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE ||
                    (w.ev & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE;
      if (w.src == src && (markers || !marker)) v.push_back(w.ev);
    }
    return v;
  }
};

constexpr uint16_t cls_bit(unsigned c) { return uint16_t(1u << c); }

TEST(SmiFilter, AClassMaskDropsThatClassOnlyAndTheCountersSaySo) {
  Rig r;
  r.set(R::FLT_SEL::offset, 2);
  r.set(R::FLT_CLASS_PASS::offset, uint16_t(0xFFFF & ~cls_bit(EV_FILTER_CLASS_TICK)));
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  for (int i = 0; i < 10; ++i) {
    r.write(2, EV_TICK);
    r.write(2, EV_TRAP7);
    r.write(1, EV_TICK);  // SMI 1's filter is untouched
  }
  auto ws = r.drain();
  EXPECT_EQ(Rig::events(ws, 2), std::vector<uint16_t>(10, EV_TRAP7));
  EXPECT_EQ(Rig::events(ws, 1), std::vector<uint16_t>(10, EV_TICK));
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_COMMS)), 10u);
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_TICK)), 10u);
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_TICK)), 0u);
  EXPECT_EQ(r.e.lost_total(), 0u);
}

TEST(SmiFilter, ACodeMaskDropsOneCodeOfAPassedClass) {
  Rig r;
  r.set(R::FLT_SEL::offset, 1);
  unsigned i = EV_FILTER_INDEX_TRAP70;
  r.set(R::FLT_CODE_PASS::offset_of(i / 16), uint16_t(0xFFFF & ~(1u << (i % 16))));
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  for (uint16_t w : {EV_TRAP7, EV_TRAP70, EV_TRAP72, EV_TRAP70}) r.write(1, w);
  EXPECT_EQ(Rig::events(r.drain(), 1), (std::vector<uint16_t>{EV_TRAP7, EV_TRAP72}));
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_COMMS)), 2u);
}

TEST(SmiFilter, TheDataWordMatchKeepsOneThreadsScheduleEvents) {
  Rig r;
  r.set(R::FLT_SEL::offset, 3);
  r.set(R::FLT_MATCH_CLASSES::offset, cls_bit(EV_FILTER_CLASS_SCHED));
  r.set(R::FLT_MATCH_VALUE::offset, EV_SCHEDULE_BIT | 5);
  r.set(R::FLT_MATCH_MASK::offset, 0xFFFF);
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  for (uint16_t tid = 1; tid < 9; ++tid) {
    r.write(3, uint16_t(EV_SCHEDULE_BIT | tid));
    r.write(3, EV_TICK);  // not a matched class: passes
  }
  std::vector<uint16_t> want(8, EV_TICK);
  want.insert(want.begin() + 4, uint16_t(EV_SCHEDULE_BIT | 5));
  EXPECT_EQ(Rig::events(r.drain(), 3), want);
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_SCHED)), 7u);
}

TEST(SmiFilter, DecimationKeepsOneInNOfACodeOrOfAClass) {
  Rig r;
  r.set(R::FLT_SEL::offset, 1);
  r.set(R::FLT_DECIM_SEL::offset, EV_RQ_GROW);
  r.set(R::FLT_DECIM_N::offset, 8);
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  for (int i = 0; i < 32; ++i) {
    r.write(1, EV_RQ_GROW);
    r.write(1, EV_RQ_SHRINK);
  }
  auto ev = Rig::events(r.drain(), 1);
  EXPECT_EQ(std::count(ev.begin(), ev.end(), EV_RQ_GROW), 4);  // the 1st, 9th, 17th, 25th
  EXPECT_EQ(std::count(ev.begin(), ev.end(), EV_RQ_SHRINK), 32);
  EXPECT_EQ(ev.front(), EV_RQ_GROW);

  r.set(R::FLT_DECIM_SEL::offset, uint16_t(R::FLT_DECIM_SEL::BY_CLASS::mask | EV_FILTER_CLASS_RQLEN));
  for (int i = 0; i < 32; ++i) {
    r.write(1, EV_RQ_GROW);
    r.write(1, EV_RQ_SHRINK);
  }
  ev = Rig::events(r.drain(), 1);
  EXPECT_EQ(ev.size(), 8u);  // 64 of the class, one in eight, counting restarted by the write
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_RQLEN)), 4u + 32u + 8u);
}

TEST(SmiFilter, TheRateGuardDropsAClassForTheRestOfItsWindowAndCountsTheDrops) {
  Rig r(1);  // one tick per clock
  r.set(R::FLT_SEL::offset, 1);
  r.set(R::FLT_GUARD_CLASSES::offset, cls_bit(EV_FILTER_CLASS_CPU));
  r.set(R::FLT_GUARD_LIMIT::offset, 3);
  r.set(R::FLT_GUARD_WINDOW::offset, 1000);
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  uint64_t start = r.t - 1;  // ticks at the latest settings write
  for (int i = 0; i < 10; ++i) r.write(1, EV_USER_ON);   // 3 pass, 7 dropped
  for (int i = 0; i < 4; ++i) r.write(1, EV_TICK);       // not guarded
  EXPECT_EQ(r.get(R::FLT_TRIPPED::offset), cls_bit(EV_FILTER_CLASS_CPU));
  EXPECT_EQ(r.get(R::FLT_GUARD_DROPS::offset), 7u);
  r.t = start + 1000;  // the next window: the class passes again
  EXPECT_EQ(r.get(R::FLT_TRIPPED::offset), 0u);
  for (int i = 0; i < 5; ++i) r.write(1, EV_USER_ON);    // 3 pass, 2 dropped
  auto ev = Rig::events(r.drain(), 1);
  EXPECT_EQ(std::count(ev.begin(), ev.end(), EV_USER_ON), 6);
  EXPECT_EQ(std::count(ev.begin(), ev.end(), EV_TICK), 4);
  EXPECT_EQ(r.get(R::FLT_GUARD_DROPS::offset), 9u);
  EXPECT_EQ(r.get(R::FLT_GUARD_DROPS::offset + 2), 9u);  // the low half alone
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_CPU)), 9u);
}

TEST(SmiFilter, ContinuationWordsShareTheirFirstWordsFate) {
  Rig r;
  r.set(R::FLT_SEL::offset, 1);
  r.set(R::FLT_CLASS_PASS::offset, cls_bit(EV_FILTER_CLASS_THREADS));  // only N-THREADS events
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  // CREATE (profile) is dropped with its CTID word; THREAD_IN passes with its TID word, even
  // though 0x0070 alone would be a TICK (dropped).
  for (uint16_t w : {uint16_t(EV_CREATE), uint16_t(0x0123), uint16_t(EV_THREAD_IN), uint16_t(EV_TICK)}) r.write(1, w);
  EXPECT_EQ(Rig::events(r.drain(), 1), (std::vector<uint16_t>{EV_THREAD_IN, EV_TICK}));
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_PROFILE)), 2u);
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_THREADS)), 2u);
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_TICK)), 0u);
}

TEST(SmiFilter, ASettingsChangePutsAFilterMarkerWithItsGenerationInTheStream) {
  Rig r;
  r.write(4, EV_TRAP7);
  r.set(R::FLT_SEL::offset, 4);
  r.set(R::FLT_CLASS_PASS::offset, 0);
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);  // generation 2; one marker (it waited for none)
  r.write(4, EV_TRAP7);                                   // dropped
  r.set(R::FLT_CTL::offset, 0);                           // generation 3
  r.write(4, EV_TRAP72);
  auto ev = Rig::events(r.drain(), 4, true);
  std::vector<uint16_t> want{EV_TRAP7, uint16_t(EV_FILTER_MARKER_VALUE | 1), uint16_t(EV_FILTER_MARKER_VALUE | 2),
                             uint16_t(EV_FILTER_MARKER_VALUE | 3), EV_TRAP72};
  EXPECT_EQ(ev, want);
  EXPECT_EQ(R::FLT_CTL::GEN::get(r.get(R::FLT_CTL::offset)), 3u);
  EXPECT_TRUE(Rig::events(r.drain(), 1, true).empty());  // other SMIs' streams are untouched
}

TEST(SmiFilter, WritesWithNoSmiSelectedOrToACounterAreRefusedAndCounted) {
  Rig r;
  EXPECT_FALSE(r.e.mmi_filter_write(R::FLT_CTL::offset, 1, r.t++));      // FLT_SEL is 0 after reset
  r.set(R::FLT_SEL::offset, 9);                                          // no SMI 9 (n_smi = 5)
  EXPECT_FALSE(r.e.mmi_filter_write(R::FLT_CTL::offset, 1, r.t++));
  EXPECT_EQ(r.get(R::FLT_CLASS_PASS::offset), 0u);                       // nothing selected reads 0
  r.set(R::FLT_SEL::offset, 1);
  EXPECT_FALSE(r.e.mmi_filter_write(R::FLT_PASSED::offset_of(0), 1, r.t++));
  EXPECT_FALSE(r.e.mmi_filter_write(R::FLT_TRIPPED::offset, 1, r.t++));
  EXPECT_EQ(r.e.filter_refused(), 4u);
  EXPECT_EQ(r.get(R::FLT_CLASS_PASS::offset), 0xFFFFu);                  // reset: everything passes
  EXPECT_EQ(R::FLT_CTL::GEN::get(r.get(R::FLT_CTL::offset)), 0u);
  uint32_t v = 0;
  EXPECT_FALSE(r.e.mmi_filter_read(0xFE, r.t++, v));                     // no register there
}

TEST(SmiFilter, ADisabledFilterPassesEverythingAndStillCounts) {
  Rig r;
  r.set(R::FLT_SEL::offset, 1);
  r.set(R::FLT_CLASS_PASS::offset, 0);  // would drop all, but ENABLE is 0
  for (int i = 0; i < 5; ++i) r.write(1, uint16_t(0x1234 + i));  // codes not in the table: OTHER
  EXPECT_EQ(Rig::events(r.drain(), 1).size(), 5u);
  EXPECT_EQ(r.get(R::FLT_PASSED::offset_of(EV_FILTER_CLASS_OTHER)), 5u);
}

TEST(SmiFilter, AFilteredEventIsNotLostWhenTheFifoIsFull) {
  // Five SMIs at full rate overflow; with everything but one class dropped on SMI 1, what passes
  // fits and LOST stays 0, while SMI 2 (no filter) loses events.
  Rig r;
  r.set(R::FLT_SEL::offset, 1);
  r.set(R::FLT_DECIM_SEL::offset, EV_OVERFLOW);
  r.set(R::FLT_DECIM_N::offset, 64);
  r.set(R::FLT_CTL::offset, R::FLT_CTL::ENABLE::mask);
  uint64_t t0 = r.t;
  for (int i = 0; i < 20000; ++i) {
    r.e.write_event(1, t0 + 2 * i, EV_OVERFLOW);
    r.e.write_event(2, t0 + 2 * i, EV_OVERFLOW);
  }
  r.t = t0 + 40000;
  auto ws = r.drain();
  EXPECT_EQ(r.e.smi_lost(1, r.t), 0u);
  EXPECT_GT(r.e.smi_lost(2, r.t), 0u);
  EXPECT_EQ(Rig::events(ws, 1).size(), 20000u / 64 + 1);
  EXPECT_EQ(r.get(R::FLT_FILTERED::offset_of(EV_FILTER_CLASS_OVERFLOW)) + Rig::events(ws, 1).size(), 20000u);
}

}  // namespace
