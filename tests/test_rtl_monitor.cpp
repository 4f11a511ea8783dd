// The monitor interface RTL (rtl/monitor) against MONITOR_SPEC.md: directed cases with values
// worked out by hand, then seeded random bursts, overflows, wraps and a stalled master, run in
// lockstep with the independent C++ reference (rtl/tb/monitor_ref.h) and, when hw/monitor is
// built, with the SystemC/TLM model's engine (testbed_monitor_engine), compared every clock.
#include "monitor_lockstep.h"
#include "monitor_ref.h"
#include "monitor_rtl.h"
#include "monitor_engine_adapter.h"

#include <Vmonitor_small.h>
#include <Vmonitor_top.h>
#include <gtest/gtest.h>

#include <map>

using namespace tbrtl;

namespace {

// Drives a script: clock -> ops; idle otherwise.
struct Script {
  std::map<uint64_t, ClockOps> at;
  uint64_t t = 0;
  ClockOps next(uint16_t) {
    auto it = at.find(t++);
    return it == at.end() ? ClockOps{} : it->second;
  }
};

ClockOps write(unsigned k, uint16_t w) {
  ClockOps o;
  o.write_start = uint16_t(1u << (k - 1));
  o.word[k - 1] = w;
  return o;
}
ClockOps mread(int reg, bool l = false) {
  ClockOps o;
  o.mmi_read = int8_t(reg);
  o.mmi_long = l;
  return o;
}

// Runs a script on one model and returns each clock's output.
std::vector<ClockOut> play(Model& m, Script s, uint64_t clocks) {
  std::vector<ClockOut> r(clocks);
  for (uint64_t t = 0; t < clocks; ++t) m.clock(s.next(0), r[t]);
  return r;
}

#define ENGINE(name, p) EngineMonitor name(p)
std::vector<Model*> models(Model& a, Model& b, Model& c) { return {&a, &b, &c}; }

class Both : public ::testing::Test {
 protected:
  VerilatedContext ctx;
};

// One event at clock 0 on SMI 1. Its slot (t = 0) found it empty (the write is step 4), so the
// round visits SMIs 2..5 (36 clocks each) and pops it at t = 180: time stamp pushed at 216,
// event at 252.
TEST_F(Both, SingleEventTakesOneRoundThenTwoWords) {
  Params p;
  Script s;
  s.at[0] = write(1, 0x1234);
  s.at[215] = mread(kMmiDataHi);
  s.at[216] = mread(kMmiDataHi);
  s.at[217] = mread(kMmiDataLo);
  s.at[251] = mread(kMmiLevel);
  s.at[252] = mread(kMmiDataHi, true);
  s.at[253] = mread(kMmiDataHi, true);
  RefMonitor ref(p);
  RtlMonitor<Vmonitor_top> rtl(p, &ctx);
  ENGINE(eng, p);
  for (Model* m : models(ref, rtl, eng)) {
    auto r = play(*m, s, 260);
    SCOPED_TRACE(m->name());
    EXPECT_EQ(r[0].accepted, 1);
    EXPECT_EQ(r[215].mmi_read, 0x8000u);          // not there yet
    EXPECT_EQ(r[216].mmi_read, 0x0001u);          // source 1, pushed and read in the same clock
    EXPECT_EQ(r[217].mmi_read, 0x0000u);          // time stamp 0
    EXPECT_EQ(r[251].mmi_read, 0u);
    EXPECT_EQ(r[252].mmi_read, 0x00011234u);      // move.l: source 1, event 0x1234
    EXPECT_EQ(r[253].mmi_read, 0x80000000u);      // empty: DATA_LO cleared
  }
}

// Writes one clock apart: the second waits one clock (write_gap = 2); LEVEL and STATUS follow.
TEST_F(Both, WriteGapHoldsTheSecondWrite) {
  Params p;
  Script s;
  s.at[1] = write(2, 0x0101);
  s.at[2] = write(2, 0x0102);  // held: accepted at 3
  ClockOps rd;
  rd.smi_read[1] = kSmiLevel;
  s.at[4] = rd;
  rd.smi_read[1] = kSmiStatus;
  s.at[5] = rd;
  s.at[6] = write(2, 0x0103);
  rd.smi_read[1] = kSmiLevel;
  s.at[7] = rd;
  RefMonitor ref(p);
  RtlMonitor<Vmonitor_top> rtl(p, &ctx);
  ENGINE(eng, p);
  for (Model* m : models(ref, rtl, eng)) {
    SCOPED_TRACE(m->name());
    auto r = play(*m, s, 8);
    EXPECT_EQ(r[1].accepted, 2);
    EXPECT_EQ(r[2].accepted, 0);
    EXPECT_EQ(r[3].accepted, 2);
    EXPECT_EQ(r[4].smi_read[1], 2u);
    EXPECT_EQ(r[5].smi_read[1], 0u);  // neither full nor empty
    EXPECT_EQ(r[6].accepted, 2);
    EXPECT_EQ(r[7].smi_read[1], 3u);
  }
}

// Small configuration, nobody reads: SMI 1 overflows (LOST counts), the MMI fills and the
// poller stalls; STATUS shows FULL on both.
TEST_F(Both, OverflowAndStall) {
  Params p = small_params();
  Script s;
  for (unsigned i = 0; i < 40; ++i) s.at[2 * i] = write(1, uint16_t(0x100 + i));
  ClockOps rd;
  rd.smi_read[0] = kSmiLost;
  rd.mmi_read = kMmiStatus;
  s.at[100] = rd;
  rd.smi_read[0] = kSmiStatus;
  rd.mmi_read = kMmiStall;
  s.at[101] = rd;
  RefMonitor ref(p);
  RtlMonitor<Vmonitor_small> rtl(p, &ctx);
  ENGINE(eng, p);
  for (Model* m : models(ref, rtl, eng)) {
    SCOPED_TRACE(m->name());
    auto r = play(*m, s, 102);
    // The MMI (6 entries) holds 3 pairs; the poller stalls from the clock it has < 2 free.
    Observed o = m->observe();
    EXPECT_EQ(o.mmi_level, 6u);
    EXPECT_EQ(o.smi_level[0], 8u);
    // 40 writes = 8 in the SMI + 3 pairs in the MMI + lost.
    EXPECT_EQ(r[100].smi_read[0], 40u - 8u - 3u);
    EXPECT_EQ(r[100].mmi_read, 1u);   // FULL
    EXPECT_EQ(r[101].smi_read[0], 1u);  // FULL
    EXPECT_GT(r[101].mmi_read, 0u);
  }
}

// Small configuration (a tick per clock): at t = 65536 the time stamp wraps and every SMI
// pushes the marker {0, 0xAA01}. Empty slots take 2 clocks, so the slot at 65536 = 2 * 32768
// is SMI 32768 mod 3 + 1 = 3, which pops its marker in the clock it entered; then 1 and 2.
TEST_F(Both, WrapMarkerFromEverySmi) {
  Params p = small_params();
  RefMonitor ref(p);
  RtlMonitor<Vmonitor_small> rtl(p, &ctx);
  ENGINE(eng, p);
  for (Model* m : models(ref, rtl, eng)) {
    SCOPED_TRACE(m->name());
    ClockOut out;
    std::vector<uint32_t> words;
    for (uint64_t t = 0; t < 65536 + 200; ++t) {
      ClockOps o = t >= 65536 ? mread(kMmiDataHi, true) : ClockOps{};
      m->clock(o, out);
      if (t == 65536) {
        EXPECT_EQ(m->observe().ts, 0);
      }
      if (t >= 65536 && !(out.mmi_read & 0x80000000u)) words.push_back(out.mmi_read);
    }
    ASSERT_EQ(words.size(), 6u);
    const unsigned order[] = {3, 1, 2};
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_EQ(words[2 * i], order[i] << 16 | 0x0000);
      EXPECT_EQ(words[2 * i + 1], order[i] << 16 | EV_WRAP_MARKER_VALUE | 1);
    }
  }
}

struct RandomCase {
  bool small;
  uint64_t seed, clocks;
};

void PrintTo(const RandomCase& c, std::ostream* os) {
  *os << (c.small ? "small" : "default") << " seed " << c.seed << ", " << c.clocks << " clocks";
}

class Random : public ::testing::TestWithParam<RandomCase> {};

// Seeded random bursts, overflows, wraps and a stalled master: RTL and reference in lockstep,
// every output compared every clock, and the run must reach every FIFO corner.
TEST_P(Random, RtlMatchesReferenceEveryClock) {
  const RandomCase c = GetParam();
  VerilatedContext ctx;
  Params p = c.small ? small_params() : Params{};
  Profile prof;
  if (c.small) {
    prof.phase_min = 20;
    prof.phase_max = 400;
    prof.sparse_per_mille = 200;
  }
  RefMonitor ref(p);
  std::unique_ptr<Model> rtl;
  if (c.small) rtl = std::make_unique<RtlMonitor<Vmonitor_small>>(p, &ctx);
  else rtl = std::make_unique<RtlMonitor<Vmonitor_top>>(p, &ctx);
  std::vector<Model*> ms = {rtl.get(), &ref};
  EngineMonitor eng(p);
  ms.push_back(&eng);
  Lockstep ls(p, ms);
  Stimulus stim(p, prof, c.seed);
  ASSERT_EQ(ls.run(stim, c.clocks), "");
  const RunStats& st = ls.stats();
  EXPECT_GT(st.smi_full_clocks, 0u);
  EXPECT_GT(st.smi_empty_clocks, 0u);
  EXPECT_GT(st.mmi_full_clocks, 0u);
  EXPECT_GT(st.mmi_empty_clocks, 0u);
  EXPECT_GT(st.lost, 0u);
  EXPECT_GT(st.stall_clocks, 0u);
  EXPECT_GT(st.waits, 0u);
  EXPECT_GT(st.empty_reads, 0u);
  EXPECT_GE(st.wraps_seen, 1u);
  EXPECT_EQ(eng.late_accesses(), 0u);  // the engine saw every access at its own clock
  unsigned markers = 0;
  EXPECT_EQ(check_stream(st.stream, p.n_smi, &markers), "");
  EXPECT_GT(markers, 0u);
  std::printf("clocks %llu writes %llu lost %llu words %llu stall %u markers %u\n",
              (unsigned long long)st.clocks, (unsigned long long)st.writes, (unsigned long long)st.lost,
              (unsigned long long)st.words, st.stall_clocks, markers);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Random,
                         ::testing::Values(RandomCase{true, 1, 200000}, RandomCase{true, 2, 200000},
                                           RandomCase{true, 3, 200000}, RandomCase{false, 7, 1400000}),
                         [](const auto& i) {
                           return std::string(i.param.small ? "small" : "default") + "_seed" +
                                  std::to_string(i.param.seed);
                         });

}  // namespace
