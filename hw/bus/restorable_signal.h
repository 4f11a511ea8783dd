// testbed::RestorableSignal: an sc_signal whose value a snapshot's restore sets without an event.
//
// A restored machine starts its kernel at time 0 with every model's state read back before any
// process runs (start_of_simulation). Writing a signal there would change it in the first delta
// cycle: every process sensitive to it (a board's sc_in on an interrupt pin, a waveform's
// value_changed) would see an edge the uninterrupted run never had, since its edge happened
// long before the snapshot. restore() puts the value in place silently instead, as if it had
// always been there; the signal behaves as a plain sc_signal otherwise.
#pragma once
#include <systemc>

namespace testbed {

template <class T>
class RestorableSignal : public sc_core::sc_signal<T> {
 public:
  using sc_core::sc_signal<T>::sc_signal;
  // Only before the simulation's first instant (a snapshot's restore): no write may be pending.
  void restore(const T& v) {
    this->m_cur_val = v;
    this->m_new_val = v;
  }
};

}  // namespace testbed
