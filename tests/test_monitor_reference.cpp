// The lazily evaluated engine equals a literal per-clock implementation of MONITOR_SPEC.md,
// word for word: every register read, every counter, on random traffic with small FIFOs, fast
// wraps, stalls and writes issued out of clock order across SMIs (as temporally decoupled
// initiators issue them).
#include <gtest/gtest.h>

#include "monitor_engine.h"

#include <testbed/events.h>

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

using namespace testbed::monitor;

namespace {

// The spec, clock by clock. Writes: map clock -> list of (smi, word); reads: clock -> list of regs.
struct Reference {
  MonitorParams p;
  struct Smi { std::deque<uint32_t> f; uint32_t lost = 0; bool pending = false; };
  std::vector<Smi> smi;
  std::deque<uint32_t> mmi;
  uint16_t ts = 0;
  uint64_t wraps = 0, stall = 0, s = 0;
  unsigned k = 1;
  struct Push { uint64_t at; uint32_t entry; };
  std::deque<Push> pushes;
  uint16_t hold_hi = 0x8000, hold_lo = 0;

  explicit Reference(const MonitorParams& pp) : p(pp), smi(pp.n_smi) {}

  void marker(Smi& m) {
    if (m.pending && m.f.size() < p.smi_depth) {
      m.f.push_back(uint32_t(ts) << 16 | EV_WRAP_MARKER_VALUE | (wraps & 0xFF));
      m.pending = false;
    }
  }
  // Steps 1..3 of clock t.
  void clock(uint64_t t) {
    if (t > 0 && t % p.tick_div == 0) {
      ts = uint16_t(ts + 1);
      if (ts == 0) {
        ++wraps;
        for (auto& m : smi) m.pending = true;
      }
    }
    for (auto& m : smi) marker(m);
    while (!pushes.empty() && pushes.front().at == t) {
      mmi.push_back(pushes.front().entry);
      pushes.pop_front();
    }
    if (t == s) {
      if (p.mmi_depth - mmi.size() < 2) {
        s = t + 1;
        ++stall;
      } else if (smi[k - 1].f.empty()) {
        s = t + p.empty_clocks;
        k = k % p.n_smi + 1;
      } else {
        uint32_t e = smi[k - 1].f.front();
        smi[k - 1].f.pop_front();
        pushes.push_back({t + p.word_clocks, k << 16 | (e >> 16)});
        pushes.push_back({t + 2ull * p.word_clocks, k << 16 | (e & 0xFFFF)});
        s = t + 2ull * p.word_clocks;
        k = k % p.n_smi + 1;
      }
    }
  }
  void write(unsigned kk, uint16_t w) {
    Smi& m = smi[kk - 1];
    marker(m);
    if (m.f.size() >= p.smi_depth) ++m.lost;
    else m.f.push_back(uint32_t(ts) << 16 | w);
  }
  uint16_t read(int reg, unsigned kk) {  // reg: 0 DATA_HI 1 DATA_LO 2 MMI LEVEL 3 STALL 4 SMI LEVEL 5 SMI LOST 6 SMI STATUS
    switch (reg) {
      case 0:
        if (mmi.empty()) { hold_hi = 0x8000; hold_lo = 0; }
        else { hold_hi = uint16_t(mmi.front() >> 16); hold_lo = uint16_t(mmi.front()); mmi.pop_front(); }
        return hold_hi;
      case 1: return hold_lo;
      case 2: return uint16_t(mmi.size());
      case 3: return uint16_t(stall);
      case 4: return uint16_t(smi[kk - 1].f.size());
      case 5: return uint16_t(smi[kk - 1].lost);
      default: {
        auto& m = smi[kk - 1];
        bool full = m.f.size() + (m.pending ? 1 : 0) >= p.smi_depth;
        return uint16_t((full ? 1 : 0) | (m.f.empty() ? 2 : 0));
      }
    }
  }
};

uint16_t engine_read(MonitorEngine& e, int reg, unsigned k, uint64_t c) {
  switch (reg) {
    case 0: return e.mmi_data_hi(c);
    case 1: return e.mmi_data_lo(c);
    case 2: return e.mmi_level(c);
    case 3: return uint16_t(e.mmi_stall(c));
    case 4: return e.smi_level(k, c);
    case 5: return uint16_t(e.smi_lost(k, c));
    default: return e.smi_status(k, c);
  }
}

struct Op { uint64_t clock; bool write; unsigned smi; uint16_t word; int reg; };

struct Stats { uint64_t stall, lost, wraps; };

Stats run_scenario(const MonitorParams& p, uint64_t clocks, unsigned seed, double write_p, double read_p,
                  uint64_t window) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Op> ops;
  std::vector<uint64_t> last(p.n_smi + 1, 0);
  std::vector<bool> any(p.n_smi + 1, false);
  for (uint64_t t = 0; t < clocks; ++t) {
    for (unsigned k = 1; k <= p.n_smi; ++k)
      if (u(rng) < write_p && (!any[k] || t >= last[k] + p.write_gap)) {
        ops.push_back({t, true, k, uint16_t(rng() & 0x3FFF), 0});
        last[k] = t;
        any[k] = true;
      }
    if (u(rng) < read_p) {
      int reg = int(rng() % 7);
      ops.push_back({t, false, unsigned(rng() % p.n_smi + 1), 0, reg});
      if (reg == 0) ops.push_back({t, false, 0, 0, 1});  // move.l: DATA_HI then DATA_LO
    }
  }
  Reference ref(p);
  MonitorEngine eng(p);
  std::vector<uint16_t> ref_out, eng_out;
  // Reference: clock by clock, writes (step 4) then reads (step 5).
  size_t i = 0;
  for (uint64_t t = 0; t < clocks; ++t) {
    ref.clock(t);
    for (size_t j = i; j < ops.size() && ops[j].clock == t; ++j)
      if (ops[j].write) ref.write(ops[j].smi, ops[j].word);
    for (; i < ops.size() && ops[i].clock == t; ++i)
      if (!ops[i].write) ref_out.push_back(ref.read(ops[i].reg, ops[i].smi));
  }
  // Engine: per window, every SMI's writes (SMI by SMI, so out of clock order), then the reads.
  size_t a = 0;
  for (uint64_t w0 = 0; w0 < clocks; w0 += window) {
    size_t b = a;
    while (b < ops.size() && ops[b].clock < w0 + window) ++b;
    for (unsigned k = 1; k <= p.n_smi; ++k)
      for (size_t j = a; j < b; ++j)
        if (ops[j].write && ops[j].smi == k) {
          EXPECT_EQ(eng.write_event(k, ops[j].clock, ops[j].word), ops[j].clock);
        }
    for (size_t j = a; j < b; ++j)
      if (!ops[j].write) eng_out.push_back(engine_read(eng, ops[j].reg, ops[j].smi, ops[j].clock));
    a = b;
  }
  eng.advance_to(clocks - 1);
  EXPECT_EQ(eng.late_accesses(), 0u);
  EXPECT_EQ(ref_out.size(), eng_out.size());
  if (ref_out.size() != eng_out.size()) return {0, 0, 0};
  size_t mismatches = 0;
  for (size_t j = 0; j < ref_out.size() && mismatches < 10; ++j)
    if (ref_out[j] != eng_out[j]) {
      ++mismatches;
      ADD_FAILURE() << "read " << j << ": reference 0x" << std::hex << ref_out[j] << " engine 0x" << eng_out[j];
    }
  EXPECT_EQ(eng.stall_clocks(), ref.stall);
  uint64_t ref_lost = 0;
  for (unsigned k = 1; k <= p.n_smi; ++k) {
    EXPECT_EQ(eng.smi_fill(k), ref.smi[k - 1].f.size()) << "SMI " << k;
    ref_lost += ref.smi[k - 1].lost;
  }
  EXPECT_EQ(eng.lost_total(), ref_lost);
  EXPECT_EQ(eng.mmi_fill(), ref.mmi.size());
  // The scenario must exercise what it claims to.
  EXPECT_GT(ref_out.size(), 100u);
  return {ref.stall, ref_lost, ref.wraps};
}

}  // namespace

TEST(MonitorReference, DefaultParametersLightTraffic) {
  MonitorParams p;
  run_scenario(p, 400000, 1, 0.002, 0.01, 5000);
}

TEST(MonitorReference, SmallFifosFastWrapsStallsAndLosses) {
  MonitorParams p;
  p.tick_div = 1;       // a wrap every 65536 clocks
  p.smi_depth = 6;
  p.mmi_depth = 8;
  p.word_clocks = 3;
  p.empty_clocks = 2;
  p.n_smi = 3;
  Stats st = run_scenario(p, 300000, 2, 0.2, 0.03, 777);
  EXPECT_GT(st.stall, 0u);
  EXPECT_GT(st.lost, 0u);
  EXPECT_GE(st.wraps, 4u);
}

TEST(MonitorReference, BusyWritersSparseReadsOneSmi) {
  MonitorParams p;
  p.tick_div = 2;
  p.smi_depth = 3;
  p.mmi_depth = 4;
  p.n_smi = 1;
  p.word_clocks = 5;
  p.empty_clocks = 7;
  p.write_gap = 3;
  Stats st = run_scenario(p, 300000, 3, 0.5, 0.02, 1);
  EXPECT_GT(st.stall, 0u);
  EXPECT_GT(st.lost, 0u);
}

TEST(MonitorReference, WriteGapHoldsTheCpu) {
  MonitorParams p;
  MonitorEngine e(p);
  EXPECT_EQ(e.write_event(1, 10, 1), 10u);
  EXPECT_EQ(e.write_event(1, 11, 2), 10u + p.write_gap);  // held
  EXPECT_EQ(e.write_event(2, 11, 3), 11u);                // other SMI: independent
}

TEST(MonitorReference, BadParametersAreNamed) {
  MonitorParams p;
  p.n_smi = 16;
  try {
    MonitorEngine e(p);
    FAIL();
  } catch (const std::invalid_argument& x) {
    EXPECT_NE(std::string(x.what()).find("n_smi = 16"), std::string::npos) << x.what();
  }
}
