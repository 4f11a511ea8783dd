#include "cpu_timing.h"
#include "board.h"
#include "config.h"
#include "speculation_pool.h"

#include <tlm>

namespace testbed {

void CpuTiming::read(const Config& cfg) {
  Config cpu = cfg.section("cpu");
  quantum_us = cpu.get_double("quantum_us", quantum_us, kQuantumMinUs, kQuantumMaxUs);
  exact = cpu.get_bool("exact", exact);
  threads = unsigned(cfg.section("run").get_int("threads", threads, 0, kMaxThreads));
}

void CpuTiming::apply() const {
  tlm::tlm_global_quantum::instance().set(quantum());
  SpeculationPool::configure(threads ? threads : SpeculationPool::host_threads());
}

void CpuTiming::apply(Board& board) const { board.cpu().set_exact(exact); }

sc_core::sc_time CpuTiming::attach_debugger(Board& board) {
  board.cpu().set_exact(false);
  // No speculative runs without exact mode, so no host threads for them: a debugger's session
  // forks the simulator (reverse execution), and a fork keeps only the thread that made it.
  SpeculationPool::configure(1);
  const sc_core::sc_time fine(kDebugQuantumUs, sc_core::SC_US);
  sc_core::sc_time q = tlm::tlm_global_quantum::instance().get();
  if (q <= fine) return sc_core::SC_ZERO_TIME;
  tlm::tlm_global_quantum::instance().set(fine);
  return q;
}

}  // namespace testbed
