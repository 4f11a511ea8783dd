// The decoupled engine (cpu_engine.h): loosely timed, the quantum is the timing error.
#include "cpu_engine.h"

namespace testbed {

using sc_core::sc_time;

// The debugger may hold the thread (wait() for other boards to reach an instruction boundary):
// kernel time that passes meanwhile is taken out of the CPU's lead, as in transport(); if the
// kernel went past the CPU's local time, the CPU stalled that long.
bool DecoupledEngine::boundary() {
  if (s_.debug) {
    sc_time t0 = sc_core::sc_time_stamp();
    s_.debug->boundary();
    sc_time moved = sc_core::sc_time_stamp() - t0;
    if (moved > sc_core::SC_ZERO_TIME) {
      uint64_t clocks = moved.value() / s_.period.value();
      if (s_.sync_cycle + clocks <= s_.cpu.cycles()) {
        s_.sync_cycle += clocks;
        s_.sync_time += s_.period * double(clocks);
      } else {
        s_.rebase();
      }
    }
    s_.limits_dirty = true;
  }
  return !s_.finish_requested;
}

bool DecoupledEngine::take_ipl() {
  if (s_.ipl == applied_ipl_) return false;
  applied_ipl_ = s_.ipl;
  s_.cpu.set_ipl(s_.ipl);
  if (s_.log.observed()) s_.log.ipl(s_.local_time(), s_.ipl);
  return true;
}

// STOP: catch the kernel up to the CPU, then sleep until the IPL lines change. The bus is idle
// meanwhile, so DMA in that time steals nothing. (A level that rose while the mask was higher,
// and that STOP's new mask lets in, is taken at once: the lines will not change again for it.
// An OS that idles with `splhigh; test; STOP #0x2000` hits that window whenever its timer
// expires between the test and the STOP.)
void DecoupledEngine::idle() {
  sync_at(Site::IdleSync);
  idle_wait();
}

void DecoupledEngine::idle_wait() {
  if (s_.ipl == applied_ipl_) {
    site_ = Site::IdleIpl;
    sc_core::wait(s_.ipl_changed);
    site_ = Site::None;
  }
  idle_end();
}

void DecoupledEngine::idle_end() {
  s_.take_dma();  // DMA while the bus was idle stole nothing
  s_.rebase();    // the core's clock is re-based on the kernel time
}

void DecoupledEngine::run(uint64_t end) {
  s_.in_run = true;
  s_.cpu.run_until(end);
  s_.in_run = false;
}

bool DecoupledEngine::sync() { return sync_at(Site::Sync); }

bool DecoupledEngine::sync_at(Site site) {
  sc_time lead = s_.lead(s_.cpu.cycles());
  wake_ = sc_core::sc_time_stamp() + lead;
  site_ = site;
  sc_core::wait(lead);
  site_ = Site::None;
  return sync_tail();
}

bool DecoupledEngine::sync_tail() {
  ++s_.syncs;
  // DMA held the RAM port for this long while the CPU ran ahead: the CPU's bus cycles in that
  // window would have waited for it: charged as one stall, per synchronisation rather than
  // per bus cycle so that the DMI path stays free of it. DMA during the stall is charged at
  // the next synchronisation: over any stretch of time the CPU then gets what DMA left of
  // the port (at 50% DMA duty, half its speed).
  sc_time stolen = s_.take_dma();
  if (stolen > sc_core::SC_ZERO_TIME) {
    s_.dma_stall += stolen;
    sc_core::wait(stolen);
  }
  s_.rebase();
  return true;
}

void DecoupledEngine::end() { sc_core::wait(s_.lead(s_.cpu.cycles())); }

bool DecoupledEngine::resume() {
  Site site = site_;
  site_ = Site::None;
  if (site == Site::IdleIpl) {
    sc_core::wait(s_.ipl_changed);
    idle_end();
    return true;
  }
  sc_core::wait(wake_ - sc_core::sc_time_stamp());
  sync_tail();
  if (site == Site::IdleSync) idle_wait();
  return true;
}

void DecoupledEngine::state(StateArchive& a) {
  a.section("decoupled engine").io(applied_ipl_).io(site_).io(wake_);
}

}  // namespace testbed
