// Seed 004's event-driven SMP simulator (chapter 2): processors with a quantum and context-switch
// in/out costs, one global round-robin ready queue, non-synchronizing threads that compute
// forever, synchronizing jobs whose threads compute N(mu, sigma) cycles between barriers and wait
// at each barrier with a fixed-spin two-phase algorithm. Events at the same cycle are serialized
// by processor id, as the seed's serial simulator did (7.5.4).
#pragma once

#include "linux_sched.h"
#include "smp_config.h"

#include <cstdint>
#include <vector>

namespace smpsim {

// One point of a curve: a whole simulated run.
struct RunSpec {
  int64_t p = 1, q = 1, in = 0, out = 0;
  int64_t nosync = 0;
  bool rand_ord = false;
  Sched sched = Sched::RR;
  Wakeup wakeup = Wakeup::Tail;
  linux_sched::Params linux_params;  // sched=linux (chapter 6)
  int nosync_nice = 0;
  bool wake_lifo = false;     // sched=linux: wake a barrier's blocked threads latest first
  bool stop_first = false;    // end at the first synchronizing thread's exit (5.1.4)
  uint64_t seed = 1;
  int64_t reach = 1;          // cycles from the end of a computation phase to the barrier
  std::vector<JobSpec> jobs;  // one entry per job instance
  int64_t max_cycles = int64_t(1) << 42;
  int trace_job = -1;         // record the thread states of this job (Figure 4.2)
  int64_t trace_until = 0;
};

struct TracePoint {
  int64_t time;
  int ready, running, blocked;
};

struct RunResult {
  int64_t threads = 0, sync_threads = 0;
  int64_t spins = 0, successes = 0;  // SSR = successes / spins (2.3.1: the last arriver is not counted)
  int64_t blocks = 0;                // yields into the blocked state
  int64_t switches = 0;              // context switches (each an out and an in)
  int64_t epochs = 0;                // sched=linux: epoch recalculations (Algorithm 4, lines 19-22)
  // sched=linux, the wake-ups of several threads at once (where the schemes differ, 6.6.1.2):
  // threads woken, those sent to their previous processor, and those whose previous processor
  // was idle (its need_resched off) at the wake-up but was not chosen for them.
  int64_t woken_many = 0, woken_to_prev = 0, woken_prev_idle_lost = 0;
  int64_t elapsed = 0;               // cycle at which the last synchronizing thread passed its last barrier
  std::vector<int64_t> job_elapsed;
  std::vector<int64_t> job_spins, job_successes;  // per job instance, for chapter 5's job classes
  bool completed = false;            // false: stopped at max_cycles
  std::vector<TracePoint> trace;
  double ssr() const { return spins ? 100.0 * double(successes) / double(spins) : -1.0; }
};

RunResult simulate(const RunSpec& spec);

// The runs of one curve of a configuration file: one per value of its ranged parameter.
struct CurvePoint {
  int64_t x;
  RunSpec spec;
};
std::vector<CurvePoint> expand_curve(const CurveSpec& curve);

}  // namespace smpsim
