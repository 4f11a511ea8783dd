// Where a snapshot is taken: the kernel runs to the asked time, then a step at a time (a delta
// cycle, or on to the next pending activity) to the first instant at which every process waits
// where it can be resumed (the machine's at_rest()) and nothing more is pending at that instant.
// Pausing the kernel changes nothing the machine does (no process sees sc_start's end), so a run
// that takes a snapshot goes on exactly as one that does not.
#pragma once
#include <systemc>

#include <functional>

namespace testbed::snapshot {

// False when the run ends first (sc_stop, or kernel time `end`).
inline bool run_to_rest(sc_core::sc_time at, sc_core::sc_time end, const std::function<bool()>& at_rest) {
  using namespace sc_core;
  if (at < end && at > sc_time_stamp()) sc_start(at - sc_time_stamp());
  else if (sc_get_status() != SC_PAUSED) sc_start(SC_ZERO_TIME);  // elaboration, the first delta
  while (sc_get_status() == SC_PAUSED && sc_time_stamp() < end &&
         (sc_pending_activity_at_current_time() || !at_rest()))
    sc_start(sc_pending_activity_at_current_time() ? SC_ZERO_TIME : sc_time_to_pending_activity());
  return sc_get_status() == SC_PAUSED && sc_time_stamp() < end;
}

// The run to kernel time `end` (sc_max_time(): until nothing is left to do or sc_stop). A process
// may pause the kernel on the way (sc_pause: gdb's `monitor snapshot`); `on_pause` is then called
// and the run goes on. It is not called when the run has ended.
inline void run_until(sc_core::sc_time end, const std::function<void()>& on_pause) {
  using namespace sc_core;
  for (;;) {
    if (end == sc_max_time()) sc_start();
    else if (sc_time_stamp() < end) sc_start(end - sc_time_stamp());
    if (sc_get_status() != SC_PAUSED || sc_time_stamp() >= end || !sc_pending_activity()) return;
    if (on_pause) on_pause();
  }
}

}  // namespace testbed::snapshot
