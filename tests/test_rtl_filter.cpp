// The SMI's event filter in RTL (rtl/monitor/mon_filter.sv inside mon_smi) equals the TLM
// model's engine (hw/monitor/smi_filter) in the lockstep harness: random event streams drawn like
// TOS's and random settings writes from the master, at least 1,000,000 events, every clock's
// acceptance, register reads (filter counters included) and state compared; every filter path
// is taken (counted by the engine per stage).
#include "monitor_engine_adapter.h"
#include "monitor_filter_stim.h"
#include "monitor_rtl.h"

#include <Vmonitor_small.h>
#include <Vmonitor_top.h>
#include <gtest/gtest.h>

using namespace tbrtl;
using testbed::monitor::SmiFilter;

namespace {

struct Totals {
  uint64_t writes = 0, settings = 0, lost = 0;
  std::array<uint64_t, SmiFilter::kStages> drops{};
  uint64_t markers = 0;
};

template <class VM>
void run_until(const Params& p, const Profile& prof, uint64_t seed, uint64_t events, Totals& tot) {
  VerilatedContext ctx;
  RtlMonitor<VM> rtl(p, &ctx);
  EngineMonitor eng(p);
  Lockstep ls(p, {&eng, &rtl});
  FilterStimulus stim(p, prof, seed);
  while (ls.stats().writes < events) {
    std::string d = ls.run(stim, 100000);
    ASSERT_EQ(d, "") << "seed " << seed;
  }
  tot.writes += ls.stats().writes;
  tot.lost += ls.stats().lost;
  tot.settings += stim.settings_writes();
  for (unsigned k = 1; k <= p.n_smi; ++k)
    for (unsigned s = 0; s < SmiFilter::kStages; ++s)
      tot.drops[s] += eng.engine().filter(k).drops(SmiFilter::Stage(s));
  for (uint32_t w : ls.stats().stream) tot.markers += (w & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE;
  EXPECT_EQ(eng.late_accesses(), 0u);
}

TEST(RtlFilter, EqualsTheTlmEngineOnAMillionRandomEventsAndSettingsWrites) {
  Totals tot;
  Profile fast;  // small FIFOs, short phases: fills, overflows, wraps, stalls all the time
  fast.phase_min = 20;
  fast.phase_max = 400;
  fast.sparse_per_mille = 200;
  run_until<Vmonitor_small>(small_params(), fast, 37, 700000, tot);
  run_until<Vmonitor_top>(Params{}, Profile{}, 3737, 300000, tot);
  std::printf("filter lockstep: %llu events, %llu settings writes, %llu lost, %llu filter markers read; drops "
              "class %llu code %llu match %llu decimation %llu guard %llu continuation %llu\n",
              (unsigned long long)tot.writes, (unsigned long long)tot.settings, (unsigned long long)tot.lost,
              (unsigned long long)tot.markers, (unsigned long long)tot.drops[0], (unsigned long long)tot.drops[1],
              (unsigned long long)tot.drops[2], (unsigned long long)tot.drops[3], (unsigned long long)tot.drops[4],
              (unsigned long long)tot.drops[5]);
  EXPECT_GE(tot.writes, 1000000u);
  EXPECT_GT(tot.settings, 1000u);
  EXPECT_GT(tot.lost, 0u);
  EXPECT_GT(tot.markers, 100u);
  for (unsigned s = 0; s < SmiFilter::kStages; ++s) EXPECT_GT(tot.drops[s], 0u) << "stage " << s;
}

}  // namespace
