// machine-bench IMAGE [--sizes 2,6,16,64,256] [--board-ms W | --sim-ms T] [--quantum-us Q]
//               [--exact 0|1] [--model 68000|68010] [--threads N [--repeat R]]
//
// How the simulation scales with the number of busy boards: for each size N (and for one board
// alone, in the same run, so that the ratio is measured on one host at one time) it runs a
// machine of N boards, every one running IMAGE (the reference workload, which never stops
// within the run) in one SystemC kernel with the global quantum Q, for W / N simulated
// milliseconds (the same work at every size; at least 10 ms) or T if given, and
// prints, per size: aggregate MIPS, the real-time factor (simulated seconds per host second),
// host CPU seconds per board per simulated second, the ratio of the aggregate MIPS to the board
// alone, and the peak resident memory. The boards are generated (board i is "board<i>", 16 MiB
// of RAM as the workload needs, the default board settings otherwise) and independent: no
// Centrenet, no monitor, so the figures are those of the CPUs and their synchronisation.
//
// Each size runs in a child process (this program with --run N): a SystemC kernel elaborates
// once per process. CPU times come from the kernel (getrusage around sc_start in the child for
// the run; wait4 for the whole child, so setup = building and loading the boards), peak RSS
// from wait4. MIPS and the real-time factor are of the run: a user's long simulation pays the
// setup once. Figures are of process CPU time: on a shared host read the ratios.
//
// With --threads N (N > 1; 0: the host's cores) every size also runs with N host threads for the
// speculative runs (run.threads) right after its run with one, and the speed-up of the run's wall
// time over the one-thread run is printed with the real-time factor by the wall clock. Process CPU
// time counts every thread, so the other columns stay those of the one-thread run. A VM's speed
// drifts between two runs a few seconds apart as much as the effect measured, so --repeat R runs
// the pair (one thread, then N) R times in turn and prints the median speed-up and the range.
//
// A second table counts, per size, what the boards' speculative runs did: synchronisations,
// runs handed to the pool, rollbacks and commits (the machine's: the bench stops if the run with
// N threads differs from the one with one), and with --threads how the N-thread run spread
// (runs on workers, wake-ups of sleeping workers: the host's). On a shared host the counts judge a
// change better than the wall times.
#include "board.h"
#include "tool_args.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>
#include "version.h"

using namespace testbed;

namespace {

struct Options {
  std::string image;
  std::vector<unsigned> sizes{2, 6, 16, 64, 256};
  double board_ms = 300000;  // simulated board-milliseconds per size (about a host second at each size)
  double sim_ms = 0;        // fixed simulated time per size, or 0: board_ms / N
  CpuTiming timing;
  m68k::Model model = m68k::Model::MC68010;
  int threads = -1;  // --threads: compare with this many (0: the host's cores); -1: one thread only
  unsigned repeat = 1;  // --repeat: pairs of runs (one thread, `threads`) per size
  unsigned run = 0;  // child: the number of boards to run
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "machine-bench: %s\nusage: machine-bench IMAGE [--sizes 2,6,16,64,256] [--board-ms W | --sim-ms T] "
                       "[--quantum-us Q] [--exact 0|1] [--model 68000|68010] [--threads N [--repeat R]]\n", why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::printf("usage: machine-bench IMAGE [--sizes 2,6,16,64,256] [--board-ms W | --sim-ms T] [--quantum-us Q] "
                  "[--exact 0|1] [--model 68000|68010] [--threads N [--repeat R]]\n  N busy boards in one kernel against one board alone (README, Speed)\n");
      std::exit(0);
    }
    if (a == "--sizes") {
      o.sizes.clear();
      std::stringstream ss(value());
      for (std::string n; std::getline(ss, n, ',');) {
        unsigned v = unsigned(testbed::tool_args::whole("machine-bench", "--sizes", n, 1, 4096));
        o.sizes.push_back(unsigned(v));
      }
    } else if (a == "--board-ms") {
      o.board_ms = testbed::tool_args::number("machine-bench", "--board-ms", value(), 0.001, 1e9);
    } else if (a == "--sim-ms") {
      o.sim_ms = testbed::tool_args::number("machine-bench", "--sim-ms", value(), 0.001, 1e9);
    } else if (a == "--quantum-us") {
      o.timing.quantum_us = testbed::tool_args::number("machine-bench", "--quantum-us", value(), CpuTiming::kQuantumMinUs,
                                                       CpuTiming::kQuantumMaxUs);
    } else if (a == "--exact") {
      o.timing.exact = testbed::tool_args::whole("machine-bench", "--exact", value(), 0, 1) == 1;
    } else if (a == "--model") {
      std::string m = value();
      if (m != "68000" && m != "68010") usage("--model is 68000 or 68010");
      o.model = m == "68000" ? m68k::Model::MC68000 : m68k::Model::MC68010;
    } else if (a == "--threads") {
      o.threads = int(testbed::tool_args::whole("machine-bench", "--threads", value(), 0, CpuTiming::kMaxThreads));
    } else if (a == "--repeat") {
      o.repeat = unsigned(testbed::tool_args::whole("machine-bench", "--repeat", value(), 1, 99));
    } else if (a == "--run") {
      o.run = unsigned(testbed::tool_args::whole("machine-bench", "--run", value(), 0, 4096));
    } else if (!a.empty() && a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else {
      o.image = a;
    }
  }
  if (o.image.empty()) usage("no image");
  if (o.repeat > 1 && (o.threads < 0 || o.threads == 1)) usage("--repeat compares thread counts: give --threads N (not 1)");
  return o;
}

double cpu_seconds(const struct rusage& ru) {
  return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

double self_cpu_seconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return cpu_seconds(ru);
}

// What the boards' speculative runs did (issue #36): the first six are the machine's, the same
// at any number of threads (the bench checks that); the last four are the host's.
struct Counts {
  unsigned long long syncs = 0, handoffs = 0, aborted = 0, rollbacks = 0, commits = 0, widened = 0;
  unsigned long long on_workers = 0, where_before = 0, wakes = 0, sleeps = 0, join_waits = 0;
  std::string format() const {
    char b[256];
    std::snprintf(b, sizeof b, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", syncs, handoffs, aborted, rollbacks,
                  commits, widened, on_workers, where_before, wakes, sleeps, join_waits);
    return b;
  }
  bool parse(const char* t) {
    return t && std::sscanf(t, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", &syncs, &handoffs, &aborted, &rollbacks,
                            &commits, &widened, &on_workers, &where_before, &wakes, &sleeps, &join_waits) == 11;
  }
  bool same_machine(const Counts& o) const {
    return syncs == o.syncs && handoffs == o.handoffs && aborted == o.aborted && rollbacks == o.rollbacks &&
           commits == o.commits && widened == o.widened;
  }
};

// The child: N boards in one kernel; prints "instructions I simulated S run-cpu C run-wall W threads T
// counts K" (K: Counts::format) for the parent.
int run_boards(const Options& o) {
  std::vector<std::unique_ptr<Board>> boards;
  try {
    ElfImage image = load_elf(o.image);
    CpuTiming timing = o.timing;
    timing.threads = unsigned(std::max(0, o.threads));
    timing.apply();
    BoardConfig c;
    c.ram_bytes = TB_RAM_MAX_BYTES;
    c.model = o.model;
    for (unsigned i = 0; i < o.run; i++) {
      c.id = uint16_t(i % 16);  // sixteen boards per Centrenet node
      c.node = uint16_t(i / 16);
      c.master = i == 0;
      boards.push_back(std::make_unique<Board>(("board" + std::to_string(i)).c_str(), c));
      timing.apply(*boards.back());
      boards.back()->load_image(image);
      boards.back()->on_exit([](Board&) {});  // a board that ends early leaves the others running
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "machine-bench: error: %s\n", e.what());
    return 2;
  }
  double t0 = self_cpu_seconds();
  auto w0 = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::sc_time(o.sim_ms, sc_core::SC_MS));
  double run_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  double run_cpu = self_cpu_seconds() - t0;
  uint64_t instructions = 0;
  for (auto& b : boards) {
    if (b->result().finished || !b->result().halt_reason.empty()) {
      std::fprintf(stderr, "machine-bench: %s ended before %g ms (%s): use a longer workload\n", b->name(),
                   o.sim_ms, b->result().halt_reason.c_str());
      return 1;
    }
    instructions += b->cpu().core().instructions();
  }
  Counts n;
  for (auto& b : boards) {
    const CpuInitiator& cpu = b->cpu();
    const SpeculativeEngine& s = cpu.speculation();
    n.syncs += cpu.syncs();
    n.handoffs += s.runs_offloaded();
    n.aborted += s.runs_aborted();
    n.rollbacks += s.rollbacks();
    n.commits += s.commits();
    n.widened += s.runs_widened();
    n.on_workers += s.ran_on_worker();
    n.where_before += s.ran_where_before();
  }
  if (SpeculationPool* pool = SpeculationPool::instance()) {
    n.wakes = pool->wakes();
    n.sleeps = pool->sleeps();
    n.join_waits = pool->join_waits();
  }
  std::printf("instructions %llu simulated %.9f run-cpu %.6f run-wall %.6f threads %u counts %s\n",
              (unsigned long long)instructions, sc_core::sc_time_stamp().to_seconds(), run_cpu, run_wall,
              SpeculationPool::instance() ? SpeculationPool::instance()->threads() : 0, n.format().c_str());
  return 0;
}

struct Figures {
  unsigned boards = 0;
  uint64_t instructions = 0;
  double simulated = 0, cpu = 0, setup = 0, wall = 0, run_wall = 0;
  unsigned threads = 0;
  long max_rss_kb = 0;
  Counts counts;
};

double sim_ms_for(const Options& o, unsigned n) { return o.sim_ms > 0 ? o.sim_ms : std::max(10.0, o.board_ms / n); }

bool measure(const char* self, const Options& o, unsigned n, unsigned threads, Figures& f) {
  std::string sizes = std::to_string(n);
  std::vector<std::string> args = {self, o.image, "--run", sizes, "--sim-ms", std::to_string(sim_ms_for(o, n)),
                                   "--quantum-us", std::to_string(o.timing.quantum_us), "--exact", o.timing.exact ? "1" : "0", "--model",
                                   o.model == m68k::Model::MC68000 ? "68000" : "68010",
                                   "--threads", std::to_string(threads)};
  int fds[2];
  if (pipe(fds) != 0) return false;
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[256];
  for (ssize_t k; (k = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(k));
  close(fds[0]);
  int status = 0;
  struct rusage ru {};
  if (wait4(pid, &status, 0, &ru) != pid) return false;
  f.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  unsigned long long instr = 0;
  if (std::sscanf(out.c_str(), "instructions %llu simulated %lf run-cpu %lf run-wall %lf threads %u", &instr,
                  &f.simulated, &f.cpu, &f.run_wall, &f.threads) != 5 ||
      !f.counts.parse(std::strstr(out.c_str(), " counts ") ? std::strstr(out.c_str(), " counts ") + 8 : nullptr))
    return false;
  f.boards = n;
  f.instructions = instr;
  f.setup = std::max(0.0, cpu_seconds(ru) - f.cpu);
  f.max_rss_kb = ru.ru_maxrss;
  return true;
}

}  // namespace

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "machine-bench")) return 0;
  Options o = parse(argc, argv);
  if (o.run) return run_boards(o);
  if (o.sim_ms > 0)
    std::printf("image %s, %s, %g ms simulated per size, quantum %g us%s\n", o.image.c_str(),
                o.model == m68k::Model::MC68000 ? "68000" : "68010", o.sim_ms, o.timing.quantum_us, o.timing.exact ? ", exact" : "");
  else
    std::printf("image %s, %s, %g board-ms simulated per size, quantum %g us%s\n", o.image.c_str(),
                o.model == m68k::Model::MC68000 ? "68000" : "68010", o.board_ms, o.timing.quantum_us, o.timing.exact ? ", exact" : "");
  bool compare = o.threads >= 0 && o.threads != 1;
  unsigned many = o.threads == 0 ? SpeculationPool::host_threads() : unsigned(std::max(1, o.threads));
  std::printf("%6s %12s %10s %10s %14s %10s %8s %10s %10s", "boards", "instructions", "MIPS", "real-time",
              "CPU-s/board/s", "vs-alone", "setup-s", "RSS-MiB", "MiB/board");
  if (compare) std::printf(" %10s %12s %12s%s", "threads", "wall-rt-1", "speed-up", o.repeat > 1 ? "        range" : "");
  std::printf("\n");
  std::vector<unsigned> sizes = o.sizes;
  sizes.insert(sizes.begin(), 1);  // the board alone, first, in the same run
  double alone_mips = 0;
  std::vector<Counts> counts, many_counts;
  for (unsigned n : sizes) {
    Figures f;
    if (!measure(argv[0], o, n, 1, f)) {
      std::fprintf(stderr, "machine-bench: the run of %u boards failed\n", n);
      return 1;
    }
    double mips = f.cpu > 0 ? f.instructions / f.cpu / 1e6 : 0;
    if (n == 1) alone_mips = mips;
    double rss = f.max_rss_kb / 1024.0;
    std::printf("%6u %12llu %10.1f %10.3f %14.4f %10.2f %8.2f %10.1f %10.2f", n, (unsigned long long)f.instructions,
                mips, f.cpu > 0 ? f.simulated / f.cpu : 0, f.cpu / n / f.simulated,
                alone_mips > 0 ? mips / alone_mips : 0, f.setup, rss, rss / n);
    if (compare) {
      std::vector<double> speedups, rt1;
      Figures g;
      for (unsigned r = 0; r < o.repeat; r++) {
        Figures one = f;
        if ((r > 0 && (!measure(argv[0], o, n, 1, one) || one.instructions != f.instructions)) ||
            !measure(argv[0], o, n, many, g) || g.instructions != f.instructions || !g.counts.same_machine(f.counts)) {
          std::fprintf(stderr, "machine-bench: the run of %u boards on %u threads failed or differs\n", n, many);
          return 1;
        }
        speedups.push_back(g.run_wall > 0 ? one.run_wall / g.run_wall : 0);
        rt1.push_back(one.run_wall > 0 ? one.simulated / one.run_wall : 0);
      }
      many_counts.push_back(g.counts);
      auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
      };
      std::printf(" %10u %12.3f %12.2f", g.threads, median(rt1), median(speedups));
      if (o.repeat > 1)
        std::printf("  %5.2f-%5.2f", *std::min_element(speedups.begin(), speedups.end()),
                    *std::max_element(speedups.begin(), speedups.end()));
    }
    std::printf("\n");
    counts.push_back(f.counts);
  }
  // The hand-overs behind the figures: counts, not times, so a change is judged on a shared host.
  std::printf("\n%6s %10s %10s %10s %10s %10s %10s", "boards", "syncs", "hand-offs", "aborted", "rollbacks", "commits", "widened");
  if (compare) std::printf(" %10s %10s %10s %10s %10s", "on-workers", "same-thr", "wakes", "sleeps", "join-waits");
  std::printf("\n");
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Counts& c = counts[i];
    std::printf("%6u %10llu %10llu %10llu %10llu %10llu %10llu", sizes[i], c.syncs, c.handoffs, c.aborted, c.rollbacks, c.commits,
                c.widened);
    if (compare) {
      const Counts& g = many_counts[i];
      std::printf(" %10llu %10llu %10llu %10llu %10llu", g.on_workers, g.where_before, g.wakes, g.sleeps, g.join_waits);
    }
    std::printf("\n");
  }
  std::printf("MIPS: instructions per host CPU second of the run (sc_start), all boards; real-time: simulated s\n"
              "per host CPU s of the run; vs-alone: MIPS against one board alone in this run; setup-s: host CPU s\n"
              "to build and load the boards, not in the run's figures; RSS: the child's peak resident memory\n");
  if (compare) {
    std::printf("threads: host threads of the second run; wall-rt-1: simulated s per wall s with one thread;\n"
                "speed-up: wall time of the run with one thread over that with `threads` (same instructions)");
    if (o.repeat > 1) std::printf(";\nwall-rt-1, speed-up: the medians of %u pairs of runs taken in turn; range: the speed-ups'", o.repeat);
    std::printf("\n");
  }
  std::printf("syncs: times the CPUs waited for the kernel; hand-offs: runs sent to the pool; aborted: of them, done\n"
              "again at home after a device access; rollbacks, commits: exact mode's; widened: runs over more than one quantum (these six are the machine's:\n"
              "equal at any thread count, checked)%s\n",
              compare ? ";\non-workers: runs the pool's workers ran; same-thr: runs on the thread that ran the board's last;\n"
                        "wakes: sleeping workers woken; sleeps: times a worker slept; join-waits: joins that idled for a\n"
                        "worker (these five: the run with `threads`)"
                      : "");
  return 0;
}
