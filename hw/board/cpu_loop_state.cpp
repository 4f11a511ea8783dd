#include "cpu_loop_state.h"

#include <tlm>

#include <algorithm>

namespace testbed {

// Quantum boundary and lead limit: fixed from one synchronisation to the next. The boundary is
// tlm_global_quantum::compute_local_quantum()'s (the next multiple of the global quantum), in
// integers.
void CpuLoopState::after_sync() {
  uint64_t q = tlm::tlm_global_quantum::instance().get().value();
  uint64_t now = sc_core::sc_time_stamp().value();
  if (q != boundary_quantum_ || now >= next_boundary_) {
    boundary_quantum_ = q;
    next_boundary_ = q ? now - now % q + q : now;
  }
  // At least one clock, so a zero quantum still progresses.
  quantum_end_ = sync_cycle + std::max<uint64_t>(1, (next_boundary_ - now + (quanta - 1) * q) / period_ps);
  lead_end_ = sync_cycle + lead_clocks_;
  limits_dirty = true;
}

}  // namespace testbed
