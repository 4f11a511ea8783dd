// The monitor's state in a snapshot: the SystemC-free engine and filters (kept free of
// StateArchive's SystemC in their own files) and the modules around them.
#include "monitor.h"

#include "state_archive.h"  // hw/bus

namespace testbed::monitor {

void SmiFilter::state(StateArchive& a) {
  a.io(enable_).io(class_pass_).io(match_classes_).io(match_value_).io(match_mask_).io(decim_sel_).io(decim_n_);
  a.io(guard_classes_).io(guard_limit_).io(window_).io(code_pass_).io(gen_).io(decim_count_).io(start_).io(gcount_);
  a.io(gwin_).io(follow_left_).io(follow_pass_).io(follow_cls_).io(passed_).io(filtered_).io(guard_drops_).io(drops_);
}

void MonitorEngine::state(StateArchive& a) {
  a.section("monitor engine").expect("SMIs", uint64_t(smi_.size())).expect("MMI depth", uint64_t(mmi_.size()));
  for (Smi& m : smi_) {
    a.expect("SMI depth", uint64_t(m.fifo.size()));
    a.raw(m.fifo.data(), m.fifo.size() * sizeof m.fifo[0]);
    a.io(m.head).io(m.count).io(m.lost).io(m.marker_pending).io(m.fmarker_pending).io(m.marker_due).io(m.step2_marker);
    m.filter.state(a);
    a.io(m.queued).io(m.last_write);
  }
  a.io(next_).io(late_).io(writes_).io(filter_refused_).io(flt_sel_).io(k_).io(s_).io(stalling_).io(stall_clocks_);
  a.io(push_ts_at_).io(push_ev_at_).io(push_src_).io(push_ts_).io(push_ev_);
  a.raw(mmi_.data(), mmi_.size() * sizeof mmi_[0]);
  a.io(mmi_head_).io(mmi_count_).io(hold_hi_).io(hold_lo_);
}

// The engine is current up to the snapshot; its pending wake-up is re-armed at its absolute time
// (the restored kernel starts at 0), and wake()'s run at the restored kernel's start is skipped.
void Monitor::state(StateArchive& a) {
  a.section(name());
  if (vcd_) throw StateError("snapshot: the monitor's VCD (trace.monitor_vcd) cannot be continued from a snapshot yet");
  engine_.state(a);
  for (auto& s : smis_) s->state(a);
  mmi_->state(a);
  a.io(armed_at_);
  if (!a.loading()) return;
  restored_ = true;
  restored_at_ = a.when();
  if (cfg_.wake && armed_at_ != MonitorEngine::kNever) wake_event_.notify(double(armed_at_) * cfg_.clock_period);
}

void Smi::state(StateArchive& a) {
  a.section(name());
  register_state(a);
}

void Mmi::state(StateArchive& a) {
  a.section(name());
  register_state(a);
}

}  // namespace testbed::monitor
