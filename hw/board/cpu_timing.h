// How the boards' CPUs keep time with the rest of the machine: the platform's choice, made once
// before the run (testbed, testbed-board, board-bench, machine-bench), not the boards' and not
// the debugger's. The quantum is one for the whole kernel (the TLM global quantum); the mode is
// per board, so that a debugger can take its board out of exact mode by asking here.
#pragma once
#include <systemc>

namespace testbed {

class Board;
class Config;  // sw/config: a machine file

struct CpuTiming {
  // The one range of the quantum, for the machine file, --set and every program's --quantum-us
  // (each checks its option with it, in its own words).
  static constexpr double kQuantumMinUs = 0.001, kQuantumMaxUs = 1e6;
  // The quantum a debugger keeps: outside exact mode it is the timing error.
  static constexpr double kDebugQuantumUs = 10;

  // How far a board may run ahead of the others. Exact (the default), the boards' results do
  // not depend on it: it only trades host time (fewer synchronisations) against the work a
  // rollback throws away. Not exact, it is also the timing error.
  double quantum_us = 1000.0;
  bool exact = true;  // speculation and rollback (CpuInitiator::set_exact)
  // Host threads for exact mode's speculative runs (SpeculationPool); 0: the host's cores.
  // Every output is the same whatever the number.
  static constexpr unsigned kMaxThreads = 1024;
  unsigned threads = 0;

  // The one reader of [cpu] quantum_us and exact, and [run] threads: a missing key keeps the value it has, a bad
  // one throws ConfigError naming file, line, key and the range.
  void read(const Config& cfg);
  sc_core::sc_time quantum() const { return sc_core::sc_time(quantum_us, sc_core::SC_US); }

  // Before the run: the kernel's quantum and the pool's threads (once per platform), and each
  // board's mode.
  void apply() const;
  void apply(Board& board) const;

  // A debugger attaches to `board`: it stops at instructions a rollback could undo, so its board
  // leaves exact mode, and the quantum, then its timing error, is kept fine. Returns the quantum
  // it replaced, or SC_ZERO_TIME when it was fine already. The pool of speculative runs keeps no
  // host thread of its own then.
  static sc_core::sc_time attach_debugger(Board& board);
};

}  // namespace testbed
