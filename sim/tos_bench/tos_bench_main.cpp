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

// ---- the run --------------------------------------------------------------------------------

struct Options {
  std::string out_dir = "testbed-out/tos-bench", firmware_dir = TESTBED_FIRMWARE_DIR;
  int max_msg = 5000, step = 50, reps = 10, migrations = 20;
  double budget_trap = 0, budget_yield = 0;  // cycles; 0: not checked
  std::string trace_path;                    // earth's instruction trace, for finding where cycles go
};

// -1: go on; otherwise the exit code (--help, --version: 0; a bad option or value: 2).
int parse_options(int argc, char** argv, Options& o) {
  CLI::App app{"TOS's basic costs on the simulated Testbed: trap, context switch, local channel latency"};
  app.set_version_flag("--version", testbed::version_line("tos-bench"), "print the version and git commit, then exit");
  app.add_option("--out", o.out_dir, "output folder")->capture_default_str();
  app.add_option("--firmware-dir", o.firmware_dir, "where tos.elf and the programs are")->capture_default_str();
  app.add_option("--max-msg", o.max_msg, "largest message (local's MAX_MSG)")->check(CLI::Range(1, 5000))->capture_default_str();
  app.add_option("--step", o.step, "message size step")->check(CLI::Range(1, 5000))->capture_default_str();
  app.add_option("--reps", o.reps, "messages of each size")->check(CLI::Range(1, 100))->capture_default_str();
  app.add_option("--migrations", o.migrations, "moves of migrate's second thread")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_option("--budget-trap-cycles", o.budget_trap,
                 "fail (exit 3) when the trap round trip takes more 68010 cycles than this (a regression guard)")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--budget-yield-cycles", o.budget_yield,
                 "fail (exit 3) when a yield to another thread takes more 68010 cycles than this")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--trace-earth", o.trace_path,
                 "write earth's instruction trace (cycle, pc, S|U mode, instruction) to this file: where the kernel's "
                 "cycles go, by kind of kernel pass and function: build/bin/tos-profile FILE (large: about 100 MB)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help: 0; a bad option or value: 2 (bad input)
  }
  return -1;
}

// The filestore: the programs as tos-mkfs stores them and the boot script that runs them.
fs::path write_filestore(const Options& o) {
  fs::create_directories(o.out_dir);
  std::string rc = "# tos-bench\nearth tosbench\nearth dgl +comms\nair dgl +comms\nearth local " + std::to_string(o.max_msg) + " " +
                   std::to_string(o.step) + " " + std::to_string(o.reps) + "\n";
  std::vector<filestore::FileData> files;
  rc += "earth remote 2 " + std::to_string(o.max_msg) + " " + std::to_string(o.step * 2) + " 1\n";
  // migration (section 3.3.3): Appendix A.3's `migrate`, its second thread touring the slaves
  rc += "fire dgl +comms\nwater dgl +comms\nspace dgl +comms\nearth migrate " + std::to_string(o.migrations) + " 20\n";
  for (const char* prog : {"tosbench", "local", "dgl", "remote", "migrate"}) {
    std::string path = o.firmware_dir + "/" + prog + ".elf";
    files.push_back({prog, TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC,
                     strip_debug(filestore::read_file(path)), path});  // as tos-mkfs stores it
  }
  files.push_back({"rc", TOS_FS_PERM_READ | TOS_FS_PERM_WRITE, std::vector<uint8_t>(rc.begin(), rc.end()), "rc"});
  auto image = filestore::build_image(files);
  fs::path store = fs::path(o.out_dir) / "tos-bench.fs";
  std::ofstream(store, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), std::streamsize(image.size()));
  return store;
}

MachineSpec bench_spec(const Options& o, const fs::path& store) {
  Config cfg = Config::from_file(TESTBED_DEFAULT_CONFIG);
  for (std::string s : std::vector<std::string>{"board.image=\"tos.elf\"", "board.filestore=\"" + fs::absolute(store).string() + "\"",
                        "run.out_dir=\"" + o.out_dir + "\"", "run.console=\"none\""})
    cfg.apply_override(s);
  return MachineSpec::from_config(cfg, o.firmware_dir);
}

// Boots and runs the machine; the monitor probe's records (every event as it was written). The
// consoles' logs are complete when it returns: the machine is gone.
std::vector<monitor::ProbeRecord> run_machine(const Options& o, const MachineSpec& spec) {
  Machine machine("testbed", spec);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> trace(nullptr, std::fclose);
  if (!o.trace_path.empty()) {
    trace.reset(std::fopen(o.trace_path.c_str(), "w"));
    if (!trace) throw std::runtime_error("cannot write the instruction trace " + o.trace_path);
    machine.board(1).cpu().set_instruction_trace(trace.get());  // board 1: earth, where tosbench runs
  }
  machine.run();
  if (trace) machine.board(1).cpu().set_instruction_trace(nullptr);
  if (!machine.probe()) throw std::runtime_error("the machine has no monitor probe (monitor.probe = false?)");
  return machine.probe()->records;
}

using Events = std::vector<std::pair<uint64_t, uint16_t>>;  // (monitor clock, event word)

Events events_of(const std::vector<monitor::ProbeRecord>& records, unsigned smi) {
  Events e;
  for (auto& r : records)
    if (r.smi == smi) e.push_back({r.clock, r.word});
  return e;
}

// local's message sizes, in the order it sends them.
std::vector<int> local_sizes(const Options& o) {
  std::vector<int> sizes;
  for (int len = 1; len <= o.max_msg; len += o.step)
    for (int i = 0; i < o.reps; ++i) sizes.push_back(len);
  return sizes;
}

// ---- 1. trap and switch, from tosbench's console lines --------------------------------------

// False: tosbench printed no figures. `over_budget`: a cycle budget was exceeded.
bool report_trap_and_switch(const Options& o, const std::string& console, double clock_hz, bool& over_budget) {
  auto figure = [&](const char* what) {
    std::smatch m;
    if (std::regex_search(console, m, std::regex(std::string(what) + " (\\d+) ns"))) return std::stol(m[1]);
    return -1L;
  };
  long trap_ns = figure("trap round trip"), lib_ns = figure("gettid\\(\\) through the library"),
       yield_ns = figure("yield to another thread"), lib_yield_ns = figure("yield\\(\\) through the library");
  if (trap_ns < 0 || yield_ns < 0 || lib_ns < 0 || lib_yield_ns < 0) {
    std::cerr << "tos-bench: tosbench printed no figures; earth's console:\n" << console;
    return false;
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
  if (o.budget_trap > 0 && cycles(double(trap_ns)) > o.budget_trap) {
    std::fprintf(stderr, "tos-bench: trap round trip %.0f cycles exceeds its budget of %.0f\n", cycles(double(trap_ns)),
                 o.budget_trap);
    over_budget = true;
  }
  if (o.budget_yield > 0 && cycles(double(yield_ns)) > o.budget_yield) {
    std::fprintf(stderr, "tos-bench: yield to another thread %.0f cycles exceeds its budget of %.0f\n",
                 cycles(double(yield_ns)), o.budget_yield);
    over_budget = true;
  }
  return true;
}

// ---- 2. local latency, from earth's events (SMI 1) as written -------------------------------

// Per message, us: the receiver blocked first (TRAP7 TRAP70); the sender's TRAP7 is followed by
// TRAP72.
std::vector<double> local_latencies(const Events& ev, size_t messages, double us_per_clock) {
  std::vector<double> latency;
  for (size_t i = 0; i + 1 < ev.size() && latency.size() < messages; ++i) {
    if (ev[i].second == EV_TRAP7 && ev[i + 1].second == EV_TRAP72)
      latency.push_back(double(ev[i + 1].first - ev[i].first) * us_per_clock);
  }
  return latency;
}

bool report_local(const Options& o, const std::vector<monitor::ProbeRecord>& records, double us_per_clock) {
  Events ev = events_of(records, 1);
  uint64_t lost = 0;
  for (auto& r : records)
    if (r.smi == 1) lost += !r.kept;
  std::vector<int> sizes = local_sizes(o);
  std::vector<double> latency = local_latencies(ev, sizes.size(), us_per_clock);
  if (latency.size() != sizes.size()) {
    std::cerr << "tos-bench: found " << latency.size() << " local messages in earth's events, expected "
              << sizes.size() << " (" << lost << " events lost)\n";
    return false;
  }
  std::map<int, std::pair<double, double>> per_size;  // size -> (min, mean)
  std::vector<std::pair<double, double>> points;      // (KB, ms), every message's minimum per size
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto& e = per_size[sizes[i]];
    if (e.first == 0 || latency[i] < e.first) e.first = latency[i];
    e.second += latency[i] / o.reps;
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
  return true;
}

// ---- 3. remote latency (section 3.3.2) --------------------------------------------------------
// `remote` on earth sends to its thread on air; per message the sender's delay, Table 6's figure
// (its TRAP7 to its COMMS, both on earth: focus or advert, rtr and the rtr's service that packs
// the msg), and the receiver's (to its COMMR on air: the msg's wait for earth's send phase, its
// flight and service too). And remote page copies (Figure 8) on air: PAGE_FAULT to PAGE_IN.

// remote's sends on earth (its TRAP7s after local's) and when each was released (its COMMS).
void remote_sends(const Events& ev, size_t local_msgs, std::vector<uint64_t>& sends, std::vector<uint64_t>& released) {
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
}

void report_page_copies_on_air(const std::vector<uint64_t>& faults, const std::vector<uint64_t>& pages_in,
                               double us_per_clock) {
  size_t np = std::min(faults.size(), pages_in.size());
  if (!np) return;
  double lo = 1e30, hi = 0, sum = 0;
  for (size_t i = 0; i < np; ++i) {
    double ms = double(pages_in[i] - faults[i]) * us_per_clock / 1000.0;
    lo = std::min(lo, ms), hi = std::max(hi, ms), sum += ms;
  }
  std::printf("remote page copy (bus error to page mapped, air from earth), %zu pages: %.3f / %.3f / %.3f ms "
              "(min / mean / max)\n", np, lo, sum / double(np), hi);
  std::printf("seed 000 Table 6:        page copy 16.9 ms +15.3/-3\n");
}

bool report_remote(const Options& o, const std::vector<monitor::ProbeRecord>& records, double us_per_clock) {
  Events ev = events_of(records, 1), air = events_of(records, 2);
  std::vector<uint64_t> sends, released, arrivals, faults, pages_in;
  remote_sends(ev, local_sizes(o).size() + 1, sends, released);  // local's messages and its empty last one come first
  for (size_t i = 0; i < air.size(); ++i) {
    if (air[i].second == EV_COMMR) arrivals.push_back(air[i].first);
    if (air[i].second == EV_PAGE_FAULT) faults.push_back(air[i].first);
    if (air[i].second == EV_PAGE_IN) pages_in.push_back(air[i].first);
  }
  std::vector<int> rsizes;
  for (int len = 1; len <= o.max_msg; len += o.step * 2) rsizes.push_back(len);
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
  report_page_copies_on_air(faults, pages_in, us_per_clock);
  if (n < rsizes.size()) {
    std::cerr << "tos-bench: found " << n << " remote messages in the events, expected " << rsizes.size() << "\n";
    return false;
  }
  return true;
}

// ---- 4. thread migration (section 3.3.3, Figure 7) -------------------------------------------
// Packing MIGRATE..MIGRATE_SENT on the source, flight MIGRATE_SENT..RX_THREAD (the next arrival
// anywhere: migrate's moves are one at a time), unpacking RX_THREAD..MIGRATE_IN on the
// destination; and every board's page copies in that run, split as Figure 8: bus error service
// PAGE_FAULT..PAGE_REQ, then request and page flights with the owner's service PAGE_REQ..PAGE_IN.

struct Span { uint64_t start, end; };

struct MigrationSpans {
  std::vector<Span> packs, unpacks, services, transfers;
  // an owner starts serving a page request at an RX_MPC that no typed MPC event follows
  std::vector<std::pair<uint64_t, int>> owner_serves;
  std::vector<std::pair<Span, int>> requests;  // PAGE_REQ .. PAGE_IN, on the faulting board
};

void collect_spans(const Events& e, int smi, MigrationSpans& s) {
  for (size_t i = 0; i < e.size(); ++i) {
    auto next = [&](uint16_t code) {
      for (size_t j = i + 1; j < e.size(); ++j)
        if (e[j].second == code) return e[j].first;
      return uint64_t(0);
    };
    uint64_t t;
    if (e[i].second == EV_MIGRATE && (t = next(EV_MIGRATE_SENT))) s.packs.push_back({e[i].first, t});
    if (e[i].second == EV_RX_THREAD && (t = next(EV_MIGRATE_IN))) s.unpacks.push_back({e[i].first, t});
    if ((e[i].second == EV_PAGE_FAULT || e[i].second == EV_PAGE_WFAULT) && (t = next(EV_PAGE_REQ)))
      s.services.push_back({e[i].first, t});
    if (e[i].second == EV_PAGE_REQ && (t = next(EV_PAGE_IN))) {
      s.transfers.push_back({e[i].first, t});
      s.requests.push_back({{e[i].first, t}, smi});
    }
    if (e[i].second == EV_RX_MPC) {
      uint16_t n = i + 1 < e.size() ? e[i + 1].second : 0;
      if (n != EV_RX_FOCUS && n != EV_RX_RTR && n != EV_RX_MSG && n != EV_PAGE_IN && n != EV_RX_THREAD)
        s.owner_serves.push_back({e[i].first, smi});
    }
  }
}

// Each request's flight to the owner's first unclaimed service between request and page, and the
// page's flight back.
void page_flights(MigrationSpans& s, double us_per_clock, std::vector<double>& req_flight_ms,
                  std::vector<double>& page_flight_ms) {
  std::sort(s.owner_serves.begin(), s.owner_serves.end());
  std::sort(s.requests.begin(), s.requests.end(), [](auto& a, auto& b) { return a.first.start < b.first.start; });
  std::vector<bool> taken(s.owner_serves.size());
  for (auto& [sp, board] : s.requests)
    for (size_t k = 0; k < s.owner_serves.size(); ++k)
      if (!taken[k] && s.owner_serves[k].second != board && s.owner_serves[k].first >= sp.start &&
          s.owner_serves[k].first <= sp.end) {
        taken[k] = true;
        req_flight_ms.push_back(double(s.owner_serves[k].first - sp.start) * us_per_clock / 1000.0);
        page_flight_ms.push_back(double(sp.end - s.owner_serves[k].first) * us_per_clock / 1000.0);
        break;
      }
}

void print_stats(const char* what, const std::vector<double>& v) {
  double lo = 1e30, hi = 0, sum = 0;
  for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x), sum += x;
  std::printf("  %-40s %8.3f %8.3f %8.3f\n", what, v.empty() ? 0.0 : lo, v.empty() ? 0.0 : sum / double(v.size()),
              v.empty() ? 0.0 : hi);
}

// The moves found (packings matched with unpackings, in order).
size_t report_moves(MigrationSpans& s, double us_per_clock) {
  auto by_start = [](const Span& a, const Span& b) { return a.start < b.start; };
  std::sort(s.packs.begin(), s.packs.end(), by_start);
  std::sort(s.unpacks.begin(), s.unpacks.end(), by_start);
  size_t nm = std::min(s.packs.size(), s.unpacks.size());
  std::vector<double> pack_ms, flight_ms, unpack_ms, total_ms;
  for (size_t i = 0; i < nm; ++i) {
    auto ms = [&](uint64_t a, uint64_t b) { return double(b - a) * us_per_clock / 1000.0; };
    pack_ms.push_back(ms(s.packs[i].start, s.packs[i].end));
    flight_ms.push_back(ms(s.packs[i].end, s.unpacks[i].start));
    unpack_ms.push_back(ms(s.unpacks[i].start, s.unpacks[i].end));
    total_ms.push_back(ms(s.packs[i].start, s.unpacks[i].end));
  }
  std::printf("\nthread migration (migrate's second thread, %zu moves between slaves), ms:        min     mean      max\n", nm);
  print_stats("packing (MDisconnect)", pack_ms);
  print_stats("thread flight", flight_ms);
  print_stats("unpacking (MConnect)", unpack_ms);
  print_stats("migration, all three", total_ms);
  std::printf("seed 000 Table 6 / Figure 16: migration 8.4 ms +-0.5 (packing about 3.4, flight and unpacking about 2.5 each)\n");
  return nm;
}

bool report_migration(const Options& o, const std::vector<monitor::ProbeRecord>& records, double us_per_clock) {
  MigrationSpans s;
  for (int smi = 1; smi <= 5; ++smi) collect_spans(events_of(records, unsigned(smi)), smi, s);
  std::vector<double> req_flight_ms, page_flight_ms;
  page_flights(s, us_per_clock, req_flight_ms, page_flight_ms);
  size_t nm = report_moves(s, us_per_clock);
  std::vector<double> svc_ms, xfer_ms;
  for (auto& sp : s.services) svc_ms.push_back(double(sp.end - sp.start) * us_per_clock / 1000.0);
  for (auto& sp : s.transfers) xfer_ms.push_back(double(sp.end - sp.start) * us_per_clock / 1000.0);
  std::printf("remote page copies on every slave (%zu), ms:                                min     mean      max\n", s.transfers.size());
  print_stats("bus error service", svc_ms);
  print_stats("request flight (to the owner's service)", req_flight_ms);
  print_stats("page flight (owner's service to mapped)", page_flight_ms);
  print_stats("request and page flights together", xfer_ms);
  std::printf("seed 000 Table 6 / Figure 17: page copy 16.9 ms +15.3/-3\n");
  if (nm < size_t(o.migrations)) {
    std::cerr << "tos-bench: found " << nm << " migrations in the events, expected " << o.migrations << "\n";
    return false;
  }
  return true;
}
}  // namespace

// Exit: 0, 1 (a figure missing from the run), 2 (bad input or a failed run), 3 (over a budget).
int sc_main(int argc, char** argv) {
  Options o;
  if (int rc = parse_options(argc, argv, o); rc >= 0) return rc;
  try {
    fs::path store = write_filestore(o);
    MachineSpec spec = bench_spec(o, store);
    std::vector<monitor::ProbeRecord> records = run_machine(o, spec);
    std::string console = slurp(fs::path(o.out_dir) / "earth.console.log");
    const double us_per_clock = spec.mon.clock_period.to_seconds() * 1e6;
    bool over_budget = false;
    if (!report_trap_and_switch(o, console, spec.board.clock_hz, over_budget)) return 1;
    if (!report_local(o, records, us_per_clock)) return 1;
    if (!report_remote(o, records, us_per_clock)) return 1;
    if (!report_migration(o, records, us_per_clock)) return 1;
    return over_budget ? 3 : 0;
  } catch (const std::exception& e) {
    std::cerr << "tos-bench: " << e.what() << "\n";
    return 2;
  }
}
