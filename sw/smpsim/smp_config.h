// The configuration file of seed 004's SMP simulator (Tsafrir 2001, section 2.2, Table 2.1):
// global lines, curve lines (the machine) and synchronizing-job lines (a job profile), each a
// sequence of Parameter=Value tokens. Values are resolved here (percent of the quantum, the
// symbolic sigma format of 2.2.1-2.2.2, the spin names CS/CS+/2CS+) so the simulator sees cycles.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace smpsim {

// A bad file: the message names the file, the line and the token.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "x" or "x-y" or "x-y:j" (the seed's list notation, footnote 3 of chapter 3).
struct Range {
  int64_t lo = 0, hi = 0, step = 1;
  bool ranged() const { return hi != lo; }
  std::vector<int64_t> values() const;
};

// The scheduler: the seed's SCHED_RR of chapters 2-5 (one global round-robin queue) or Linux's
// SCHED_OTHER of chapters 6-9 (goodness, counters and epochs: linux_sched.h).
enum class Sched { RR, Linux };
const char* sched_name(Sched s);

// Where a thread released from the blocked state goes. Under SCHED_RR: the tail of the ready
// queue (the seed's chapter 2, and TOS), its head, or at once by preempting another job's thread
// (`preempt`, which stood in for Linux before it was modelled). Under Linux: the wake-up schemes
// of 6.6.1.2, SMART (the default of 7.3), AIP or SILLY.
enum class Wakeup { Tail, Head, Preempt, Smart, Aip, Silly };
const char* wakeup_name(Wakeup w);

constexpr int64_t kSpinForever = INT64_MAX / 4;

struct JobSpec {
  int line = 0;
  int64_t size = 0;        // sync: threads of the job
  int64_t barriers = 0;    // barrier
  int64_t spin = 0;        // spin: maximal spin in cycles (0 = always block, kSpinForever = always spin)
  std::string spin_text;   // as written (CS, 2CS+, 6%, ...)
  double mu = 0;           // cmput: mean computation interval in cycles
  double sigma = 0;        // rand_cmput_sigma resolved to the direct format
  Range instances{1, 1, 1};  // instance_num
  int nice = 0;              // nice: the traditional nice value, -20..19 (sched=linux; 6.3 uses 0)
};

struct CurveSpec {
  int line = 0;
  std::string label;
  int64_t p = 0, q = 0, in = 0, out = 0;
  Range nosync;
  bool rand_ord = false;
  Sched sched = Sched::RR;
  Wakeup wakeup = Wakeup::Tail;
  // sched=linux: the tunable parameters of 6.6.2 in cycles (defaults: Linux 2.2's share of the
  // quantum, as the seed's chapters 7-9 use) and the nice value of the non-synchronizing threads.
  int64_t proc_change_penalty = 0, mm_bonus = 0, preemption_threshold = 0;
  int nosync_nice = 0;
  // sched=linux: the order in which __wake_up_common (Algorithm 3) walks a barrier's blocked
  // threads, which the seed leaves open: the order they blocked in (default), or the reverse
  // (wake_order=lifo: Linux 2.4's add_wait_queue puts each waiter at the head of the queue).
  bool wake_lifo = false;
  // stop=first: the run ends when the first thread finishes its computation (5.1.4: the load
  // does not thin out towards the end); stop=last (default): when the last one does.
  bool stop_first = false;
  uint64_t seed = 1;
  // Cycles from the end of a computation phase to reaching the barrier: the seed's examples
  // (3.2.1.1: 1 compute + 2 synchronize per barrier; 7.5.4: "415 finish the computation phase,
  // 416 reach b6") take one.
  int64_t reach = 1;
  std::vector<JobSpec> jobs;
  // The x axis of the curve: the one ranged parameter ("nosync", "instance_num") or "none".
  std::string x_param() const;
};

struct Config {
  std::map<std::string, std::string> globals;
  std::vector<CurveSpec> curves;
};

// Parses the text of a configuration file; `name` is used in error messages.
Config parse_config(const std::string& text, const std::string& name);
Config read_config(const std::string& path);

// sigma of N(mu, sigma) such that a fraction density/100 of the values fall in [mu-z, mu+z]
// (section 2.2.2).
double sigma_from_density(double density_percent, double z);

}  // namespace smpsim
