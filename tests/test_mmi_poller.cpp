// The monitoring bus and the MMI: one pair per SMI per poll round (36 us by default), bus words
// word_clocks apart, the MMI FIFO fills to exactly mmi_depth and then the poller stalls, counting
// every stalled clock, until the master frees two entries.
#include <gtest/gtest.h>

#include "monitor_engine.h"

#include <map>
#include <vector>

using namespace testbed::monitor;

namespace {
struct BusLog : MonitorObserver {
  struct Word { unsigned smi; uint64_t clock; bool is_ts; uint16_t word; };
  std::vector<Word> words;
  std::vector<std::pair<uint64_t, unsigned>> mmi_levels;
  void smi_write(unsigned, uint64_t, uint16_t, bool) override {}
  void smi_level(unsigned, uint64_t, unsigned) override {}
  void smi_lost(unsigned, uint64_t, uint32_t) override {}
  void smi_marker(unsigned, uint64_t, uint16_t) override {}
  void bus_word(unsigned smi, uint64_t clock, bool is_ts, uint16_t word) override { words.push_back({smi, clock, is_ts, word}); }
  void mmi_level(uint64_t clock, unsigned level) override { mmi_levels.push_back({clock, level}); }
  void mmi_stall(uint64_t, bool, uint64_t) override {}
};
}  // namespace

TEST(MmiPoller, EachSmiDrainsOnePairPerPollRound) {
  MonitorParams p;
  MonitorEngine e(p);
  BusLog log;
  e.set_observer(&log);
  // Every SMI holds 100 events before the poller's first slot can see them... (clock 0 step 4).
  for (unsigned k = 1; k <= p.n_smi; ++k)
    for (unsigned i = 0; i < 100; ++i) e.write_event(k, uint64_t(i) * p.write_gap, uint16_t(k * 1000 + i));
  // The master drains every clock, so the MMI never stalls.
  const uint64_t round = uint64_t(p.n_smi) * 2 * p.word_clocks;
  const uint64_t rounds = 40;
  for (uint64_t c = 0; c < rounds * round + 1000; ++c)
    if (e.mmi_level(c)) e.mmi_data_hi(c);
  EXPECT_EQ(e.stall_clocks(), 0u);
  std::map<unsigned, std::vector<uint64_t>> ev_clock;
  for (size_t i = 0; i < log.words.size(); ++i) {
    if (i) {
      EXPECT_EQ(log.words[i].clock - log.words[i - 1].clock, p.word_clocks) << "bus word " << i;
    }
    EXPECT_EQ(log.words[i].is_ts, i % 2 == 0);
    if (!log.words[i].is_ts) ev_clock[log.words[i].smi].push_back(log.words[i].clock);
  }
  // 36 us between two pairs of one SMI with the default parameters (report section 3.3.7).
  EXPECT_EQ(double(round) * 100e-9, 36e-6);
  for (unsigned k = 1; k <= p.n_smi; ++k) {
    ASSERT_GE(ev_clock[k].size(), rounds) << "SMI " << k;
    for (size_t i = 1; i < ev_clock[k].size(); ++i) EXPECT_EQ(ev_clock[k][i] - ev_clock[k][i - 1], round);
  }
}

TEST(MmiPoller, FullMmiStallsPollingAndCountsEveryClock) {
  MonitorParams p;
  MonitorEngine e(p);
  BusLog log;
  e.set_observer(&log);
  // SMIs always busy: all five write at full rate, nobody reads the MMI.
  const uint64_t end = 2000000;
  uint64_t full_at = 0;
  for (uint64_t c = 0; c < end; c += p.write_gap)
    for (unsigned k = 1; k <= p.n_smi; ++k) e.write_event(k, c, uint16_t(c & 0x3FFF));
  e.advance_to(end);
  for (auto& l : log.mmi_levels) {
    EXPECT_LE(l.second, p.mmi_depth);
    if (l.second == p.mmi_depth && !full_at) full_at = l.first;
  }
  ASSERT_NE(full_at, 0u) << "the MMI never filled";
  EXPECT_EQ(e.mmi_level(end), p.mmi_depth);
  EXPECT_EQ(e.mmi_status(end) & 1, 1);
  // The poller stalls from the clock the FIFO filled (its next slot starts then) to now.
  EXPECT_EQ(e.mmi_stall(end), end - full_at + 1);
  EXPECT_GT(e.lost_total(), 0u);
  // One read frees one entry: still fewer than two free, still stalled.
  uint64_t r = end + 10;
  e.mmi_data_hi(r);
  EXPECT_EQ(e.mmi_stall(r + 5), r + 5 - full_at + 1);
  // A second read frees the second entry: the poller slots again the next clock.
  e.mmi_data_hi(r + 5);
  size_t before = log.words.size();
  EXPECT_EQ(e.mmi_stall(r + 6), r + 5 - full_at + 1);
  e.advance_to(r + 6 + 2 * p.word_clocks);
  EXPECT_EQ(log.words.size(), before + 2);
  EXPECT_EQ(log.words[before].clock, r + 6 + p.word_clocks);
  EXPECT_EQ(e.mmi_level(r + 6 + 2 * p.word_clocks), p.mmi_depth);
}

TEST(MmiPoller, EmptyReadsSayEmptyAndPopNothing) {
  MonitorParams p;
  MonitorEngine e(p);
  EXPECT_EQ(e.mmi_data_hi(5), 0x8000);
  EXPECT_EQ(e.mmi_data_lo(5), 0);
  EXPECT_EQ(e.mmi_status(5), 2);
  e.write_event(3, 6, 0x1234);
  // SMI 3's slot: slots at 0 (SMI1), 36 (SMI2), 72 (SMI3): pop, T at 108, E at 144.
  EXPECT_EQ(e.mmi_level(107), 0);
  EXPECT_EQ(e.mmi_level(108), 1);
  EXPECT_EQ(e.mmi_data_hi(200), 3);
  EXPECT_EQ(e.mmi_data_lo(200), 0);  // time stamp: written at clock 6, tick_div 10
  EXPECT_EQ(e.mmi_data_hi(200), 3);
  EXPECT_EQ(e.mmi_data_lo(200), 0x1234);
}
