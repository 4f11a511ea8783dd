// The host decoder: re-unites time stamps with events per SMI, rebuilds absolute time across
// thousands of wraps, and reports where a corrupted or truncated stream broke (never inventing
// an event).
#include <gtest/gtest.h>

#include "monitor_decoder.h"
#include "monitor_engine.h"

#include <testbed/events.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <tuple>

using namespace testbed::monitor;
namespace dec = testbed::monitor_decoder;

namespace {
// Runs the engine with sparse random writes and a master that drains the MMI after each write;
// returns the stream (DATA_HI << 16 | DATA_LO per read) and the probe.
std::vector<uint32_t> run(const MonitorParams& p, uint64_t clocks, uint64_t mean_gap, RecordingProbe& probe,
                          unsigned seed) {
  MonitorEngine e(p);
  e.set_probe(&probe);
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> stream;
  auto drain = [&](uint64_t c) {
    while (e.mmi_level(c)) {
      uint32_t hi = e.mmi_data_hi(c);
      stream.push_back(hi << 16 | e.mmi_data_lo(c));
    }
  };
  for (uint64_t c = 0; c < clocks;) {
    unsigned k = unsigned(rng() % p.n_smi) + 1;
    c = e.write_event(k, c, uint16_t(rng() % 0x4000)) + 1 + rng() % (2 * mean_gap);
    if (rng() % 4 == 0) {
      uint32_t hi = e.mmi_data_hi(c);
      stream.push_back(hi << 16 | e.mmi_data_lo(c));  // sometimes an empty read
    }
    drain(c);
  }
  uint64_t end = clocks + 100000;
  e.advance_to(end);
  drain(end);
  EXPECT_EQ(e.lost_total(), 0u);
  return stream;
}

std::vector<std::tuple<unsigned, uint64_t, uint16_t>> kept(const RecordingProbe& probe, const MonitorParams& p) {
  std::vector<std::tuple<unsigned, uint64_t, uint16_t>> v;
  for (auto& r : probe.records)
    if (r.kept) v.emplace_back(r.smi, r.clock / p.tick_div, r.word);
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<std::tuple<unsigned, uint64_t, uint16_t>> decoded(const dec::Result& r) {
  std::vector<std::tuple<unsigned, uint64_t, uint16_t>> v;
  for (auto& e : r.events)
    if (!e.marker) v.emplace_back(e.board, e.ticks, e.word);
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST(MonitorDecoder, AbsoluteTimesSurviveThousandsOfWraps) {
  MonitorParams p;
  p.tick_div = 1;  // a wrap every 65536 clocks
  const uint64_t wraps = 3000;
  RecordingProbe probe;
  auto stream = run(p, wraps << 16, 20000, probe, 7);
  dec::Options opt;
  dec::Result r = dec::decode(stream, opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.markers, (((wraps << 16) + 100000) >> 16) * p.n_smi);  // run() ends 100000 later
  EXPECT_GT(probe.records.size(), 5000u);
  EXPECT_EQ(decoded(r), kept(probe, p));
  for (size_t i = 1; i < r.events.size(); ++i) ASSERT_LE(r.events[i - 1].ticks, r.events[i].ticks);
  EXPECT_GE(r.events.back().ticks >> 16, wraps - 1);
}

TEST(MonitorDecoder, NamesComeFromTheSharedTable) {
  EXPECT_EQ(dec::event_name(EV_TRAP70), "TRAP70");
  EXPECT_EQ(dec::event_name(EV_CREATE), "CREATE");
  EXPECT_EQ(dec::event_name(EV_WRAP_MARKER_VALUE | 5), "WRAP_05");
  EXPECT_EQ(dec::event_name(0x4000 | 17), "SCHED(17)");
}

namespace {
std::vector<uint32_t> good_stream() {
  // SMI 1: (ts 5, TRAP7) (ts 0x0002 after a wrap, 0xAA01) ; SMI 2: (ts 9, CREATE) (ts 9, CTID 3)
  return {0x00010005, 0x00020009, 0x00010000 | EV_TRAP7, 0x80000000, 0x00020000 | EV_CREATE,
          0x00010002, 0x00010000 | EV_WRAP_MARKER_VALUE | 1, 0x00020009, 0x00020003, 0x00010003,
          0x00010000 | EV_TRAP70};
}
}  // namespace

TEST(MonitorDecoder, GoodStreamDecodesInTimeOrderWithFormats) {
  dec::Options opt;
  dec::Result r = dec::decode(good_stream(), opt);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.events.size(), 5u);
  EXPECT_EQ(r.empty_reads, 1u);
  EXPECT_EQ(r.events[0].ticks, 5u);
  EXPECT_EQ(r.events[3].ticks, 65538u);  // the marker
  EXPECT_EQ(r.events[4].ticks, 65539u);
  std::ostringstream text, bin, vcd;
  dec::write_text(text, r, opt);
  EXPECT_NE(text.str().find("65539 65539000 1 0x0046 TRAP70"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("9 9000 2 0x0003 ARG(3)"), std::string::npos) << text.str();
  dec::write_binary(bin, r, opt);
  EXPECT_EQ(bin.str().size(), 24u + 12u * r.events.size());
  dec::write_vcd(vcd, r, 2, opt);
  EXPECT_NE(vcd.str().find("#9000000"), std::string::npos);
}

TEST(MonitorDecoder, CorruptedOrTruncatedStreamsSayWhereTheyBroke) {
  dec::Options opt;
  struct Case { std::vector<uint32_t> s; uint64_t at; const char* why; };
  std::vector<Case> cases;
  auto s = good_stream();
  auto c1 = s; c1[4] |= 0x00400000;  cases.push_back({c1, 4, "reserved bits"});
  auto c2 = s; c2[5] = 0x00070002;   cases.push_back({c2, 5, "source 7"});
  auto c3 = s; c3[3] = 0x80000001;   cases.push_back({c3, 3, "empty read"});
  // A dropped word shifts SMI 1's pairs: found at the first inconsistency (here time going back).
  // A drop can go unnoticed until then: the decoder checks, it cannot know what was lost.
  auto c4 = s; c4.erase(c4.begin() + 6);
  cases.push_back({c4, 8, "goes back in time"});
  auto c5 = s; c5.pop_back();        cases.push_back({c5, 9, "truncated"});
  auto c6 = s; c6[6] = 0x0001AA00;   cases.push_back({c6, 6, "repeats the wrap count"});
  for (auto& c : cases) {
    dec::Result r = dec::decode(c.s, opt);
    EXPECT_FALSE(r.ok) << c.why;
    EXPECT_EQ(r.error_offset, c.at) << r.error;
    EXPECT_NE(r.error.find(c.why), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("word " + std::to_string(c.at)), std::string::npos) << r.error;
    // Only events complete before the break are reported.
    for (auto& e : r.events) EXPECT_LT(e.offset, c.at + 1) << c.why;
  }
  // A byte stream cut inside a word.
  std::vector<uint8_t> bytes;
  for (uint32_t w : s)
    for (int b = 3; b >= 0; --b) bytes.push_back(uint8_t(w >> (8 * b)));
  bytes.pop_back();
  dec::Result r = dec::decode_bytes(bytes, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_offset, s.size() - 1) << r.error;
  EXPECT_NE(r.error.find("3 trailing bytes"), std::string::npos) << r.error;
}

// Seed 000 Figure 5 over a decoded stream: TRAP7 ... TRAP70, TRAP7 ... TRAP72 is one message;
// argument words (here SYSCALL's call number 7) and other events do not move the FSM; a TRAP7
// left alone by an error return, or a TRAP72 with nothing blocked, is a broken sequence.
TEST(MonitorDecoder, LocalCommunicationPhasesFollowFigure5) {
  std::vector<uint32_t> s;
  auto ev = [&s](unsigned k, uint16_t ts, uint16_t word) {
    s.push_back(uint32_t(k) << 16 | ts);
    s.push_back(uint32_t(k) << 16 | word);
  };
  ev(1, 100, EV_TRAP7);
  ev(1, 110, EV_TRAP70);
  ev(1, 115, EV_SYSCALL);  // its argument word, 7, is not a TRAP7
  ev(1, 115, 7);
  ev(2, 116, EV_TRAP72);   // board 2: nothing was blocked
  ev(1, 200, EV_TRAP7);
  ev(1, 230, EV_TRAP72);   // message 1: 10, 30, 130 ticks
  ev(1, 300, EV_TRAP7);    // an error return: no TRAP70 follows
  ev(1, 400, EV_TRAP7);
  ev(1, 405, EV_TRAP70);
  ev(1, 406, EV_TICK);
  ev(1, 500, EV_TRAP7);
  ev(1, 520, EV_TRAP72);   // message 2: 5, 20, 120 ticks
  ev(3, 600, EV_TRAP7);    // board 3: the trace ends inside a sequence
  dec::Options opt;
  dec::Result r = dec::decode(s, opt);
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<dec::LocalComms> lc = dec::local_comms(r, opt.n_smi);
  ASSERT_EQ(lc.size(), opt.n_smi + 1);
  EXPECT_EQ(lc[1].messages, 2u);
  EXPECT_EQ(lc[1].broken, 1u);
  EXPECT_FALSE(lc[1].open);
  EXPECT_EQ(lc[1].first.min, 5u);
  EXPECT_EQ(lc[1].first.max, 10u);
  EXPECT_EQ(lc[1].second.min, 20u);
  EXPECT_EQ(lc[1].second.max, 30u);
  EXPECT_EQ(lc[1].total.count, 2u);
  EXPECT_DOUBLE_EQ(lc[1].total.mean(), 125.0);
  EXPECT_EQ(lc[2].messages, 0u);
  EXPECT_EQ(lc[2].broken, 1u);
  EXPECT_EQ(lc[3].messages, 0u);
  EXPECT_TRUE(lc[3].open);
  EXPECT_EQ(lc[4].messages + lc[4].broken, 0u);
}
