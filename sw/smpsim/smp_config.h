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

// Where a thread released from the blocked state goes (the seed's chapter 2 moves it to the tail
// of the ready queue, as TOS does; chapter 7's general-purpose scheduler runs it at once).
enum class Wakeup { Tail, Head, Preempt };
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
};

struct CurveSpec {
  int line = 0;
  std::string label;
  int64_t p = 0, q = 0, in = 0, out = 0;
  Range nosync;
  bool rand_ord = false;
  Wakeup wakeup = Wakeup::Tail;
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
