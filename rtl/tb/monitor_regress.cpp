// rtl-monitor-regress: the coverage and waveform run of the monitor RTL. Runs seeded random
// lockstep regressions (RTL against the C++ reference and, when built, the TLM model's engine) in the small and the default
// configuration, writes Verilator coverage and (optionally) an FST waveform, and fails unless
// the RTL matched the reference every clock and every cover point of the RTL was hit.
//   rtl-monitor-regress [--coverage FILE] [--fst FILE] [--clocks N]
#include "monitor_lockstep.h"
#include "monitor_ref.h"
#include "monitor_rtl.h"
#include "monitor_engine_adapter.h"
#include "monitor_filter_stim.h"

#include <Vmonitor_small.h>
#include <Vmonitor_top.h>
#include <verilated_cov.h>

#include "tool_args.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include "version.h"

using namespace tbrtl;


int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "rtl-monitor-regress")) return 0;
  std::string cov = "monitor_rtl.cov.dat", fst;
  uint64_t clocks = 300000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: %s [--coverage FILE] [--fst FILE] [--clocks N]\n"
                  "  the monitor RTL in lockstep with the reference and the TLM engine; N 1..1e12 clocks "
                  "(default 300000)\n", argv[0]);
      return 0;
    }
    if (!std::strcmp(argv[i], "--coverage") && i + 1 < argc) cov = argv[++i];
    else if (!std::strcmp(argv[i], "--fst") && i + 1 < argc) fst = argv[++i];
    else if (!std::strcmp(argv[i], "--clocks") && i + 1 < argc) clocks = testbed::tool_args::whole("rtl-monitor-regress", "--clocks", argv[++i], 1, 1000000000000ull, 0);
    else {
      std::fprintf(stderr, "usage: %s [--coverage FILE] [--fst FILE] [--clocks N]\n", argv[0]);
      return 2;
    }
  }
  // Output files are checked before the run: a waveform or coverage that cannot be written is
  // a failure said at once, not a silent success after minutes of simulation.
  for (const std::string* path : {&fst, &cov}) {
    if (path->empty()) continue;
    std::ofstream probe(*path, std::ios::app);
    if (!probe) {
      std::fprintf(stderr, "rtl-monitor-regress: %s %s: cannot write: %s\n", path == &fst ? "--fst" : "--coverage",
                   path->c_str(), std::strerror(errno ? errno : EACCES));
      return 2;
    }
  }
  VerilatedContext ctx;
  int fails = 0;
  const std::string compared_with = "RTL, reference and TLM engine";
  auto run = [&](Model& rtl, const Params& p, const Profile& prof, uint64_t seed, uint64_t n, const char* what) {
    RefMonitor ref(p);
    std::vector<Model*> ms = {&rtl, &ref};
    EngineMonitor eng(p);
    ms.push_back(&eng);
    Lockstep ls(p, ms);
    Stimulus stim(p, prof, seed);
    std::string d = ls.run(stim, n);
    const RunStats& st = ls.stats();
    std::printf("%s seed %llu: %llu clocks, %llu writes, %llu lost, %llu words read, %u stall clocks, "
                "max SMI level %u, max MMI level %u: %s\n",
                what, (unsigned long long)seed, (unsigned long long)st.clocks, (unsigned long long)st.writes,
                (unsigned long long)st.lost, (unsigned long long)st.words, st.stall_clocks, st.max_smi_level,
                st.max_mmi_level, d.empty() ? (compared_with + " match").c_str() : d.c_str());
    if (!d.empty()) ++fails;
  };
  // The coverage counters live in the models: write them while both are alive.
  Params ps = small_params(), pd;
  RtlMonitor<Vmonitor_small> small(ps, &ctx, "small");
  RtlMonitor<Vmonitor_top> dflt(pd, &ctx, "default");
  Profile prof;
  prof.phase_min = 20;
  prof.phase_max = 400;
  prof.sparse_per_mille = 200;
  run(small, ps, prof, 11, clocks, "small config");
  // Directed, small config, after the random run: SMI 1 bursts (a write every clock it can)
  // while the master stalls, so SMI 1 is full when the time stamp wraps and its marker waits;
  // then the master drains and the marker takes the first slot freed by a poll, in the clock of
  // a CPU write (step 4 repeats step 2). The other SMIs are idle and take their markers at once.
  struct Directed {
    uint64_t t = 0, start = 0;
    ClockOps next(uint16_t busy) {
      ClockOps o;
      uint64_t c = t++;
      if (c >= start && c < start + 200000 && !(busy & 1)) {
        o.write_start = 1;
        o.word[0] = uint16_t(c);
      }
      if (c >= start + 300) o.mmi_read = kMmiDataHi, o.mmi_long = true;
      return o;
    }
  };
  // The reference restarts at clock 0, so the directed runs need fresh RTL too.
  RtlMonitor<Vmonitor_small> rtl2(ps, &ctx, "small_directed");
  RtlMonitor<Vmonitor_small> rtl3(ps, &ctx, "small_idle");
  RtlMonitor<Vmonitor_small> rtl4(ps, &ctx, "small_filter");
  {
    // Idle until the wrap: the SMI whose slot is due pops its marker in the clock it entered.
    struct Idle {
      uint64_t t = 0;
      ClockOps next(uint16_t) {
        ClockOps o;
        if (t++ >= 65536) o.mmi_read = kMmiDataHi, o.mmi_long = true;
        return o;
      }
    } idle;
    RefMonitor ref(ps);
    std::vector<Model*> ms = {&rtl3, &ref};
    EngineMonitor eng(ps);
    ms.push_back(&eng);
    Lockstep ls(ps, ms);
    std::string r = ls.run(idle, 65536 + 200);
    std::printf("small config directed idle wrap: %s\n", r.empty() ? (compared_with + " match").c_str() : r.c_str());
    if (!r.empty()) ++fails;
  }
  {
    RefMonitor ref(ps);
    std::vector<Model*> ms = {&rtl2, &ref};
    EngineMonitor eng(ps);
    ms.push_back(&eng);
    Lockstep ls(ps, ms);
    Directed d;
    d.start = 65536 - 100;
    std::string r = ls.run(d, 66000 + 4000);
    std::printf("small config directed wrap-while-full: %s\n", r.empty() ? (compared_with + " match").c_str() : r.c_str());
    if (!r.empty()) ++fails;
  }
  {
    // The event filter (issue #37): random settings writes from the master; the reference has
    // no filter, so the RTL is compared with the TLM engine alone.
    EngineMonitor eng(ps);
    Lockstep ls(ps, {&rtl4, &eng});
    FilterStimulus fs(ps, prof, 13);
    std::string r = ls.run(fs, clocks);
    std::printf("small config filter: %llu clocks, %llu writes, %llu settings writes: %s\n",
                (unsigned long long)ls.stats().clocks, (unsigned long long)ls.stats().writes,
                (unsigned long long)fs.settings_writes(), r.empty() ? "RTL and TLM engine match" : r.c_str());
    if (!r.empty()) ++fails;
  }
  if (!fst.empty()) dflt.trace_to(fst);
  run(dflt, pd, Profile{}, 12, std::max<uint64_t>(clocks, 700000), "default config");
  if (!fst.empty() && !dflt.trace_ok()) {
    std::fprintf(stderr, "rtl-monitor-regress: --fst %s: the waveform could not be written\n", fst.c_str());
    return 2;
  }
  ctx.coveragep()->write(cov.c_str());

  // Every cover point from `cover property` (the FIFO full/empty corners, the bus phases, ...)
  // must have been hit in at least one instance.
  std::ifstream in(cov);
  std::string line;
  std::map<std::string, uint64_t> points;
  const std::regex re("\\x01page\\x02v_user/[^\\x01]*\\x01o\\x02([^\\x01]*)\\x01.*\\x01h\\x02([^']*)' ([0-9]+)$");
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.rfind("C '", 0) != 0 || line.find("v_user") == std::string::npos) continue;
    if (std::regex_search(line, m, re)) {
      // One point per place in the design, summed over SMIs and configurations.
      std::string h = m[2].str();
      size_t at = h.rfind("u_smi.");
      if (at == std::string::npos) at = h.rfind("u_mmi.");
      if (h.rfind("u_filter.") != std::string::npos) at = h.rfind("u_filter.");
      std::string name = at == std::string::npos ? h : h.substr(at);
      points[name] += std::stoull(m[3].str());
    }
  }
  unsigned missed = 0;
  for (auto& [name, n] : points) {
    std::printf("cover %-50s %llu\n", name.c_str(), (unsigned long long)n);
    if (n == 0) ++missed;
  }
  if (points.size() < 10) {
    std::printf("FAIL: only %zu cover points found in %s\n", points.size(), cov.c_str());
    return 1;
  }
  if (missed || fails) {
    std::printf("FAIL: %u cover points never hit, %d runs differ from the reference\n", missed, fails);
    return 1;
  }
  std::printf("rtl-monitor-regress: OK (%zu cover points hit, coverage in %s)\n", points.size(), cov.c_str());
  return 0;
}
