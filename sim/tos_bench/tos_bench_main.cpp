// build/bin/tos-bench: TOS's basic costs on the simulated Testbed, from the simulated clock.
//
// Boots TOS (tos.elf) on the default machine with a filestore of two programs run on earth:
//   tosbench  - a null system call's round trip and a yield to another thread (the context
//               switch), timed by the board's real-time clock over thousands of repetitions,
//               each with an inline trap (the kernel's part: TRAP #0 for the call, TRAP #1,
//               yield's own vector, for the switch) and through the C library;
//               --budget-trap-cycles / --budget-yield-cycles make it a regression guard (exit 3);
//   local     - seed 000 Appendix A.1 with the comms event class on: messages of 1..5000 bytes.
// Local latency comes from the events earth's SMI time-stamped, as on the Testbed (section
// 3.3.1): for each message, the receiver is already blocked (TRAP7 ... TRAP70) when the sender
// requests (TRAP7); the latency is from that request to the end of the copy (TRAP72). The
// event times are the monitor probe's (the instant each event was written). Then the
// least-squares line over message size, printed beside seed 000's Table 6. Nothing here is
// tuned: every time comes from the 68010 model running the kernel's code.
#include <algorithm>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include <testbed/events.h>

#include "elf_strip.h"
#include "filestore.h"
#include "machine.h"
#include "version.h"

namespace {
using namespace testbed;
namespace fs = std::filesystem;

struct Fit {
  double slope = 0, intercept = 0, spread = 0;  // spread: largest |residual|
};

Fit least_squares(const std::vector<std::pair<double, double>>& xy) {
  double n = double(xy.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto& [x, y] : xy) sx += x, sy += y, sxx += x * x, sxy += x * y;
  Fit f;
  double d = n * sxx - sx * sx;
  if (xy.size() < 2 || d == 0) return f;
  f.slope = (n * sxy - sx * sy) / d;
  f.intercept = (sy - f.slope * sx) / n;
  for (auto& [x, y] : xy) f.spread = std::max(f.spread, std::fabs(y - (f.slope * x + f.intercept)));
  return f;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

int sc_main(int argc, char** argv) {
  CLI::App app{"TOS's basic costs on the simulated Testbed: trap, context switch, local channel latency"};
  app.set_version_flag("--version", testbed::version_line("tos-bench"), "print the version and git commit, then exit");
  std::string out_dir = "testbed-out/tos-bench", firmware_dir = TESTBED_FIRMWARE_DIR;
  int max_msg = 5000, step = 50, reps = 10, migrations = 20;
  double budget_trap = 0, budget_yield = 0;  // cycles; 0: not checked
  std::string trace_path;                    // earth's instruction trace, for finding where cycles go
  app.add_option("--out", out_dir, "output folder")->capture_default_str();
  app.add_option("--firmware-dir", firmware_dir, "where tos.elf and the programs are")->capture_default_str();
  app.add_option("--max-msg", max_msg, "largest message (local's MAX_MSG)")->check(CLI::Range(1, 5000))->capture_default_str();
  app.add_option("--step", step, "message size step")->check(CLI::Range(1, 5000))->capture_default_str();
  app.add_option("--reps", reps, "messages of each size")->check(CLI::Range(1, 100))->capture_default_str();
  app.add_option("--migrations", migrations, "moves of migrate's second thread")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_option("--budget-trap-cycles", budget_trap,
                 "fail (exit 3) when the trap round trip takes more 68010 cycles than this (a regression guard)")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--budget-yield-cycles", budget_yield,
                 "fail (exit 3) when a yield to another thread takes more 68010 cycles than this")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--trace-earth", trace_path,
                 "write earth's instruction trace (cycle, pc, S|U mode, instruction) to this file: where the kernel's "
                 "cycles go, by kind of kernel pass and function: build/bin/tos-profile FILE (large: about 100 MB)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help: 0; a bad option or value: 2 (bad input)
  }

  try {
    fs::create_directories(out_dir);
    std::string rc = "# tos-bench\nearth tosbench\nearth dgl +comms\nair dgl +comms\nearth local " + std::to_string(max_msg) + " " +
                     std::to_string(step) + " " + std::to_string(reps) + "\n";
    std::vector<filestore::FileData> files;
    rc += "earth remote 2 " + std::to_string(max_msg) + " " + std::to_string(step * 2) + " 1\n";
    // migration (section 3.3.3): Appendix A.3's `migrate`, its second thread touring the slaves
    rc += "fire dgl +comms\nwater dgl +comms\nspace dgl +comms\nearth migrate " + std::to_string(migrations) + " 20\n";
    for (const char* prog : {"tosbench", "local", "dgl", "remote", "migrate"}) {
      std::string path = firmware_dir + "/" + prog + ".elf";
      files.push_back({prog, TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC,
                       strip_debug(filestore::read_file(path)), path});  // as tos-mkfs stores it
    }
    files.push_back({"rc", TOS_FS_PERM_READ | TOS_FS_PERM_WRITE, std::vector<uint8_t>(rc.begin(), rc.end()), "rc"});
    auto image = filestore::build_image(files);
    fs::path store = fs::path(out_dir) / "tos-bench.fs";
    std::ofstream(store, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), std::streamsize(image.size()));

    Config cfg = Config::from_file(TESTBED_DEFAULT_CONFIG);
    for (std::string s : std::vector<std::string>{"board.image=\"tos.elf\"", "board.filestore=\"" + fs::absolute(store).string() + "\"",
                          "run.out_dir=\"" + out_dir + "\"", "run.console=\"none\""})
      cfg.apply_override(s);
    MachineSpec spec = MachineSpec::from_config(cfg, firmware_dir);
    std::vector<monitor::ProbeRecord> records;
    {
      Machine machine("testbed", spec);
      std::unique_ptr<std::FILE, int (*)(std::FILE*)> trace(nullptr, std::fclose);
      if (!trace_path.empty()) {
        trace.reset(std::fopen(trace_path.c_str(), "w"));
        if (!trace) throw std::runtime_error("cannot write the instruction trace " + trace_path);
        machine.board(1).cpu().set_instruction_trace(trace.get());  // board 1: earth, where tosbench runs
      }
      machine.run();
      if (trace) machine.board(1).cpu().set_instruction_trace(nullptr);
      if (!machine.probe()) throw std::runtime_error("the machine has no monitor probe (monitor.probe = false?)");
      records = machine.probe()->records;
    }  // the consoles' logs are complete once the machine is gone
    const double clock_hz = spec.board.clock_hz;
    std::string console = slurp(fs::path(out_dir) / "earth.console.log");

    // 1. trap and switch, from tosbench's console lines
    auto figure = [&](const char* what) {
      std::smatch m;
      if (std::regex_search(console, m, std::regex(std::string(what) + " (\\d+) ns"))) return std::stol(m[1]);
      return -1L;
    };
    long trap_ns = figure("trap round trip"), lib_ns = figure("gettid\\(\\) through the library"),
         yield_ns = figure("yield to another thread"), lib_yield_ns = figure("yield\\(\\) through the library");
    if (trap_ns < 0 || yield_ns < 0 || lib_ns < 0 || lib_yield_ns < 0) {
      std::cerr << "tos-bench: tosbench printed no figures; earth's console:\n" << console;
      return 1;
    }
    auto cycles = [&](double ns) { return ns * 1e-9 * clock_hz; };
    std::printf("tos-bench: 68010 at %.0f MHz, TOS time slice %d ms\n", clock_hz / 1e6, TOS_SLICE_US / 1000);
    std::printf("trap round trip (null system call, TRAP #0 alone, same thread goes on): %7.1f us = %6.0f cycles\n",
                trap_ns / 1e3, cycles(double(trap_ns)));
    std::printf("  the same through the C library's gettid():                            %7.1f us = %6.0f cycles\n",
                lib_ns / 1e3, cycles(double(lib_ns)));
    std::printf("context switch (yield: trap, scheduler's choice, another thread runs):  %7.1f us = %6.0f cycles\n",
                yield_ns / 1e3, cycles(double(yield_ns)));
    std::printf("  the same through the C library's yield():                             %7.1f us = %6.0f cycles\n",
                lib_yield_ns / 1e3, cycles(double(lib_yield_ns)));
    std::printf("  the switch itself (the yield less a trap round trip):                 %7.1f us = %6.0f cycles\n",
                (yield_ns - trap_ns) / 1e3, cycles(double(yield_ns - trap_ns)));
    std::printf("seed 000 section 2.1.2: a context switch took \"as much as fifty times as long as a Transputer\n"
                "  context switch\": tens of microseconds (at the report's 1.2 MIPS)\n");
    int over_budget = 0;
    if (budget_trap > 0 && cycles(double(trap_ns)) > budget_trap) {
      std::fprintf(stderr, "tos-bench: trap round trip %.0f cycles exceeds its budget of %.0f\n", cycles(double(trap_ns)),
                   budget_trap);
      over_budget = 1;
    }
    if (budget_yield > 0 && cycles(double(yield_ns)) > budget_yield) {
      std::fprintf(stderr, "tos-bench: yield to another thread %.0f cycles exceeds its budget of %.0f\n",
                   cycles(double(yield_ns)), budget_yield);
      over_budget = 1;
    }

    // 2. local latency, from earth's events (SMI 1) as written
    const double us_per_clock = spec.mon.clock_period.to_seconds() * 1e6;
    std::vector<std::pair<uint64_t, uint16_t>> ev;
    uint64_t lost = 0;
    for (auto& r : records)
      if (r.smi == 1) {
        ev.push_back({r.clock, r.word});
        lost += !r.kept;
      }
    std::vector<int> sizes;
    for (int len = 1; len <= max_msg; len += step)
      for (int i = 0; i < reps; ++i) sizes.push_back(len);
    std::vector<double> latency;  // per message, us
    for (size_t i = 0; i + 1 < ev.size() && latency.size() < sizes.size(); ++i) {
      // the receiver blocked first (TRAP7 TRAP70); the sender's TRAP7 is followed by TRAP72
      if (ev[i].second == EV_TRAP7 && ev[i + 1].second == EV_TRAP72)
        latency.push_back(double(ev[i + 1].first - ev[i].first) * us_per_clock);
    }
    if (latency.size() != sizes.size()) {
      std::cerr << "tos-bench: found " << latency.size() << " local messages in earth's events, expected "
                << sizes.size() << " (" << lost << " events lost)\n";
      return 1;
    }
    std::map<int, std::pair<double, double>> per_size;  // size -> (min, mean)
    std::vector<std::pair<double, double>> points;      // (KB, ms), every message's minimum per size
    for (size_t i = 0; i < sizes.size(); ++i) {
      auto& e = per_size[sizes[i]];
      if (e.first == 0 || latency[i] < e.first) e.first = latency[i];
      e.second += latency[i] / reps;
    }
    std::printf("\nlocal OCM latency (sender's request to the end of the copy, receiver waiting), %zu messages:\n",
                latency.size());
    std::printf("   bytes     min us    mean us\n");
    size_t row = 0, rows = per_size.size();
    for (auto& [len, mm] : per_size) {
      points.push_back({len / 1024.0, mm.first / 1000.0});
      if (rows <= 12 || row % (rows / 10) == 0 || row + 1 == rows)
        std::printf("  %6d %10.1f %10.1f\n", len, mm.first, mm.second);
      ++row;
    }
    Fit f = least_squares(points);
    std::printf("\nleast squares (n in KB): local communication %.3fn + %.3f ms +-%.3f\n", f.slope, f.intercept, f.spread);
    std::printf("seed 000 Table 6:        local communication 1.95n + 1.025 ms +-0.275\n");
    std::printf("events written on earth %zu, lost %llu\n", ev.size(), (unsigned long long)lost);

    // 3. remote latency (section 3.3.2): `remote` on earth sends to its thread on air; per message
    // the sender's delay, Table 6's figure (its TRAP7 to its COMMS, both on earth: focus or
    // advert, rtr and the rtr's service that packs the msg), and the receiver's (to its COMMR on
    // air: the msg's wait for earth's send phase, its flight and service too). And remote page
    // copies (Figure 8) on air: PAGE_FAULT to PAGE_IN.
    std::vector<std::pair<uint64_t, uint16_t>> air;
    for (auto& r : records)
      if (r.smi == 2) air.push_back({r.clock, r.word});
    std::vector<uint64_t> sends, released, arrivals, faults, pages_in;
    size_t local_msgs = sizes.size() + 1;  // local's messages and its empty last one come first on earth
    size_t trap7 = 0;
    for (size_t i = 0; i < ev.size(); ++i)
      if (ev[i].second == EV_TRAP7 && (i + 1 >= ev.size() || ev[i + 1].second != EV_TRAP72) &&
          (i + 1 < ev.size() && ev[i + 1].second == EV_TRAP70)) {
        if (++trap7 > local_msgs) {  // the receiver asks first in local
          sends.push_back(ev[i].first);
          size_t j = i + 1;
          while (j < ev.size() && ev[j].second != EV_COMMS) ++j;
          released.push_back(j < ev.size() ? ev[j].first : ev[i].first);
        }
      }
    for (size_t i = 0; i < air.size(); ++i) {
      if (air[i].second == EV_COMMR) arrivals.push_back(air[i].first);
      if (air[i].second == EV_PAGE_FAULT) faults.push_back(air[i].first);
      if (air[i].second == EV_PAGE_IN) pages_in.push_back(air[i].first);
    }
    std::vector<int> rsizes;
    for (int len = 1; len <= max_msg; len += step * 2) rsizes.push_back(len);
    size_t n = std::min({sends.size(), arrivals.size(), rsizes.size()});
    std::vector<std::pair<double, double>> rpoints;
    std::printf("\nremote OCM latency from the sender's TRAP7 on earth, %zu messages (the first, an advert, left out of"
                " the fit):\n", n);
    std::printf("   bytes  sender us  (its COMMS on earth)  receiver us  (its COMMR on air)\n");
    for (size_t i = 0; i < n; ++i) {
      double us = double(released[i] - sends[i]) * us_per_clock, rus = double(arrivals[i] - sends[i]) * us_per_clock;
      if (i > 0) rpoints.push_back({rsizes[i] / 1024.0, us / 1000.0});
      if (n <= 12 || i % (n / 10) == 0 || i + 1 == n) std::printf("  %6d %10.1f %33.1f\n", rsizes[i], us, rus);
    }
    Fit rf = least_squares(rpoints);
    std::printf("least squares (n in KB): remote communication %.3fn + %.3f ms +-%.3f (the sender's delay)\n", rf.slope, rf.intercept,
                rf.spread);
    std::printf("seed 000 Table 6:        remote communication 2.77n + 7.35 ms\n");
    size_t np = std::min(faults.size(), pages_in.size());
    if (np) {
      double lo = 1e30, hi = 0, sum = 0;
      for (size_t i = 0; i < np; ++i) {
        double ms = double(pages_in[i] - faults[i]) * us_per_clock / 1000.0;
        lo = std::min(lo, ms), hi = std::max(hi, ms), sum += ms;
      }
      std::printf("remote page copy (bus error to page mapped, air from earth), %zu pages: %.3f / %.3f / %.3f ms "
                  "(min / mean / max)\n", np, lo, sum / double(np), hi);
      std::printf("seed 000 Table 6:        page copy 16.9 ms +15.3/-3\n");
    }
    if (n < rsizes.size()) {
      std::cerr << "tos-bench: found " << n << " remote messages in the events, expected " << rsizes.size() << "\n";
      return 1;
    }

    // 4. thread migration (section 3.3.3, Figure 7): packing MIGRATE..MIGRATE_SENT on the source,
    // flight MIGRATE_SENT..RX_THREAD (the next arrival anywhere: migrate's moves are one at a
    // time), unpacking RX_THREAD..MIGRATE_IN on the destination; and every board's page copies
    // in that run, split as Figure 8: bus error service PAGE_FAULT..PAGE_REQ, then request and
    // page flights with the owner's service PAGE_REQ..PAGE_IN.
    struct Span { uint64_t start, end; };
    std::vector<Span> packs, unpacks, services, transfers;
    // an owner starts serving a page request at an RX_MPC that no typed MPC event follows
    std::vector<std::pair<uint64_t, int>> owner_serves;
    std::vector<std::pair<Span, int>> requests;  // PAGE_REQ .. PAGE_IN, on the faulting board
    for (int smi = 1; smi <= 5; ++smi) {
      std::vector<std::pair<uint64_t, uint16_t>> e;
      for (auto& r : records)
        if (r.smi == unsigned(smi)) e.push_back({r.clock, r.word});
      for (size_t i = 0; i < e.size(); ++i) {
        auto next = [&](uint16_t code) {
          for (size_t j = i + 1; j < e.size(); ++j)
            if (e[j].second == code) return e[j].first;
          return uint64_t(0);
        };
        uint64_t t;
        if (e[i].second == EV_MIGRATE && (t = next(EV_MIGRATE_SENT))) packs.push_back({e[i].first, t});
        if (e[i].second == EV_RX_THREAD && (t = next(EV_MIGRATE_IN))) unpacks.push_back({e[i].first, t});
        if ((e[i].second == EV_PAGE_FAULT || e[i].second == EV_PAGE_WFAULT) && (t = next(EV_PAGE_REQ)))
          services.push_back({e[i].first, t});
        if (e[i].second == EV_PAGE_REQ && (t = next(EV_PAGE_IN))) {
          transfers.push_back({e[i].first, t});
          requests.push_back({{e[i].first, t}, smi});
        }
        if (e[i].second == EV_RX_MPC) {
          uint16_t n = i + 1 < e.size() ? e[i + 1].second : 0;
          if (n != EV_RX_FOCUS && n != EV_RX_RTR && n != EV_RX_MSG && n != EV_PAGE_IN && n != EV_RX_THREAD)
            owner_serves.push_back({e[i].first, smi});
        }
      }
    }
    std::sort(owner_serves.begin(), owner_serves.end());
    std::sort(requests.begin(), requests.end(), [](auto& a, auto& b) { return a.first.start < b.first.start; });
    std::vector<double> req_flight_ms, page_flight_ms;
    std::vector<bool> taken(owner_serves.size());
    for (auto& [sp, board] : requests)  // the owner's first unclaimed service between request and page
      for (size_t k = 0; k < owner_serves.size(); ++k)
        if (!taken[k] && owner_serves[k].second != board && owner_serves[k].first >= sp.start &&
            owner_serves[k].first <= sp.end) {
          taken[k] = true;
          req_flight_ms.push_back(double(owner_serves[k].first - sp.start) * us_per_clock / 1000.0);
          page_flight_ms.push_back(double(sp.end - owner_serves[k].first) * us_per_clock / 1000.0);
          break;
        }
    auto by_start = [](const Span& a, const Span& b) { return a.start < b.start; };
    std::sort(packs.begin(), packs.end(), by_start);
    std::sort(unpacks.begin(), unpacks.end(), by_start);
    size_t nm = std::min(packs.size(), unpacks.size());
    auto stats = [&](const char* what, const std::vector<double>& v) {
      double lo = 1e30, hi = 0, sum = 0;
      for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x), sum += x;
      std::printf("  %-40s %8.3f %8.3f %8.3f\n", what, v.empty() ? 0.0 : lo, v.empty() ? 0.0 : sum / double(v.size()),
                  v.empty() ? 0.0 : hi);
    };
    std::vector<double> pack_ms, flight_ms, unpack_ms, total_ms;
    for (size_t i = 0; i < nm; ++i) {
      auto ms = [&](uint64_t a, uint64_t b) { return double(b - a) * us_per_clock / 1000.0; };
      pack_ms.push_back(ms(packs[i].start, packs[i].end));
      flight_ms.push_back(ms(packs[i].end, unpacks[i].start));
      unpack_ms.push_back(ms(unpacks[i].start, unpacks[i].end));
      total_ms.push_back(ms(packs[i].start, unpacks[i].end));
    }
    std::printf("\nthread migration (migrate's second thread, %zu moves between slaves), ms:        min     mean      max\n", nm);
    stats("packing (MDisconnect)", pack_ms);
    stats("thread flight", flight_ms);
    stats("unpacking (MConnect)", unpack_ms);
    stats("migration, all three", total_ms);
    std::printf("seed 000 Table 6 / Figure 16: migration 8.4 ms +-0.5 (packing about 3.4, flight and unpacking about 2.5 each)\n");
    std::vector<double> svc_ms, xfer_ms;
    for (auto& sp : services) svc_ms.push_back(double(sp.end - sp.start) * us_per_clock / 1000.0);
    for (auto& sp : transfers) xfer_ms.push_back(double(sp.end - sp.start) * us_per_clock / 1000.0);
    std::printf("remote page copies on every slave (%zu), ms:                                min     mean      max\n", transfers.size());
    stats("bus error service", svc_ms);
    stats("request flight (to the owner's service)", req_flight_ms);
    stats("page flight (owner's service to mapped)", page_flight_ms);
    stats("request and page flights together", xfer_ms);
    std::printf("seed 000 Table 6 / Figure 17: page copy 16.9 ms +15.3/-3\n");
    if (nm < size_t(migrations)) {
      std::cerr << "tos-bench: found " << nm << " migrations in the events, expected " << migrations << "\n";
      return 1;
    }
    return over_budget ? 3 : 0;
  } catch (const std::exception& e) {
    std::cerr << "tos-bench: " << e.what() << "\n";
    return 2;
  }
}
