// The decoupled engine (cpu_engine.h): loosely timed, the quantum is the timing error.
#include "cpu_engine.h"
#include "cpu_initiator.h"

namespace testbed {

using sc_core::sc_time;

// The debugger may hold the thread (wait() for other boards to reach an instruction boundary):
// kernel time that passes meanwhile is taken out of the CPU's lead, as in transport(); if the
// kernel went past the CPU's local time, the CPU stalled that long.
bool DecoupledEngine::boundary() {
  if (c_.debug_) {
    sc_time t0 = sc_core::sc_time_stamp();
    c_.debug_->boundary();
    sc_time moved = sc_core::sc_time_stamp() - t0;
    if (moved > sc_core::SC_ZERO_TIME) {
      uint64_t clocks = moved.value() / c_.period_.value();
      if (c_.sync_cycle_ + clocks <= c_.cpu_.cycles()) {
        c_.sync_cycle_ += clocks;
        c_.sync_time_ += c_.period_ * double(clocks);
      } else {
        c_.rebase();
      }
    }
    c_.limits_dirty_ = true;
  }
  return !c_.finish_requested_;
}

bool DecoupledEngine::take_ipl() {
  if (c_.ipl_ == c_.applied_ipl_) return false;
  c_.applied_ipl_ = c_.ipl_;
  c_.cpu_.set_ipl(c_.ipl_);
  if (c_.log_.observed()) c_.log_.ipl(c_.local_time(), c_.ipl_);
  return true;
}

// STOP: catch the kernel up to the CPU, then sleep until the IPL lines change. The bus is idle
// meanwhile, so DMA in that time steals nothing. (A level that rose while the mask was higher,
// and that STOP's new mask lets in, is taken at once: the lines will not change again for it.
// An OS that idles with `splhigh; test; STOP #0x2000` hits that window whenever its timer
// expires between the test and the STOP.)
void DecoupledEngine::idle() {
  sync();
  if (c_.ipl_ == c_.applied_ipl_) sc_core::wait(c_.ipl_changed_);
  if (c_.mem_port_) c_.dma_seen_ = c_.mem_port_->stats(SharedMemoryPort::kDma).held;
  c_.rebase();  // the core's clock is re-based on the kernel time
}

void DecoupledEngine::run(uint64_t end) {
  c_.in_run_ = true;
  c_.cpu_.run_until(end);
  c_.in_run_ = false;
}

bool DecoupledEngine::sync() {
  sc_core::wait(c_.lead(c_.cpu_.cycles()));
  ++c_.syncs_;
  if (c_.mem_port_) {
    // DMA held the RAM port for this long while the CPU ran ahead: the CPU's bus cycles in that
    // window would have waited for it: charged as one stall, per synchronisation rather than
    // per bus cycle so that the DMI path stays free of it. DMA during the stall is charged at
    // the next synchronisation: over any stretch of time the CPU then gets what DMA left of
    // the port (at 50% DMA duty, half its speed).
    sc_time held = c_.mem_port_->stats(SharedMemoryPort::kDma).held;
    if (held > c_.dma_seen_) {
      sc_time stolen = held - c_.dma_seen_;
      c_.dma_seen_ = held;
      c_.dma_stall_ += stolen;
      sc_core::wait(stolen);
    }
  }
  c_.rebase();
  return true;
}

void DecoupledEngine::end() { sc_core::wait(c_.lead(c_.cpu_.cycles())); }

}  // namespace testbed
