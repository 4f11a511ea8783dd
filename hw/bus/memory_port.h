// The board's memory port as a shared resource: the CPU and the network interface's DMA take
// turns on it. It is a timeline: whoever claims it gets it from max(earliest, free_at) for the
// duration asked, and the wait is recorded per holder. The NI claims it for every DMA burst to
// board RAM (dma-anywhere mode); a CPU model that also claims it for its RAM cycles sees DMA
// cycle-stealing as added delay. A board that does not wire one in still gets DMA's own
// per-word time, and can query the NI's dma statistics instead.
#pragma once
#include "state_archive.h"

#include <systemc>

#include <array>
#include <cstdint>
#include <functional>

namespace testbed {

class SharedMemoryPort {
 public:
  enum Holder : unsigned { kCpu = 0, kDma = 1 };
  struct Stats {
    uint64_t claims = 0;
    sc_core::sc_time held;    // total time the holder had the port
    sc_core::sc_time waited;  // total time the holder waited for the other
  };

  // Claim the port for `duration`, no earlier than `earliest`. Returns when the claim starts.
  sc_core::sc_time claim(Holder who, sc_core::sc_time earliest, sc_core::sc_time duration) {
    sc_core::sc_time start = earliest > free_at_ ? earliest : free_at_;
    Stats& s = stats_[who];
    ++s.claims;
    s.held += duration;
    s.waited += start - earliest;
    free_at_ = start + duration;
    if (observer_) observer_(who);
    return start;
  }
  // Called after every claim (the board's CPU in exact mode takes its stall then).
  void set_claim_observer(std::function<void(Holder)> f) { observer_ = std::move(f); }
  sc_core::sc_time free_at() const { return free_at_; }
  const Stats& stats(Holder who) const { return stats_[who]; }
  void state(StateArchive& a) {
    a.io(free_at_);
    for (Stats& s : stats_) a.io(s.claims).io(s.held).io(s.waited);
  }

 private:
  sc_core::sc_time free_at_;
  std::array<Stats, 2> stats_{};
  std::function<void(Holder)> observer_;
};

}  // namespace testbed
