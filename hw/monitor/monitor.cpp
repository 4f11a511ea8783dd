#include "monitor.h"

#include <stdexcept>

namespace testbed::monitor {

Monitor::Monitor(sc_core::sc_module_name name, const MonitorConfig& cfg)
    : sc_module(name),
      cfg_(cfg),
      engine_(cfg.params),
      ctx_{engine_, cfg.clock_period, cfg.sync_reads, nullptr} {
  if (cfg_.clock_period <= sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("monitor: clock_period must be > 0");
  if (!cfg_.vcd_path.empty()) {
    vcd_ = std::make_unique<MonitorVcd>(cfg_.vcd_path, cfg_.params,
                                        uint64_t(cfg_.clock_period.to_seconds() * 1e12 + 0.5));
    engine_.set_observer(vcd_.get());
  }
  for (unsigned k = 1; k <= cfg_.params.n_smi; ++k)
    smis_.push_back(std::make_unique<Smi>(("smi" + std::to_string(k)).c_str(), k, ctx_));
  mmi_ = std::make_unique<Mmi>("mmi", ctx_);
  if (cfg_.wake) {
    ctx_.after_access = [this] { rearm(); };
    SC_METHOD(wake);
    sensitive << wake_event_;
    // Runs once at start to arm the first wake-up (the first wrap marker, at least).
  }
}

Smi& Monitor::smi(unsigned k) {
  if (k < 1 || k > smis_.size())
    throw std::out_of_range("monitor: no SMI " + std::to_string(k) + " (1.." + std::to_string(smis_.size()) + ")");
  return *smis_[k - 1];
}

uint64_t Monitor::bad_accesses() const {
  uint64_t n = mmi_->bad_accesses();
  for (auto& s : smis_) n += s->bad_accesses();
  n += engine_.filter_refused();  // a filter write with no SMI selected or to no setting
  return n;
}

void Monitor::catch_up() { engine_.advance_to(ctx_.clock_at(sc_core::sc_time_stamp())); }

void Monitor::wake() {
  if (restored_ && sc_core::sc_time_stamp() < restored_at_) return;  // the start run; armed in state()
  armed_at_ = MonitorEngine::kNever;
  bool was_empty = engine_.mmi_fill() == 0;
  catch_up();
  if (was_empty && engine_.mmi_fill() > 0) data_event_.notify(sc_core::SC_ZERO_TIME);
  rearm();
}

void Monitor::rearm() {
  if (engine_.mmi_fill() > 0) return;  // data is there: the master polls, nothing to predict
  uint64_t next = engine_.next_mmi_push();
  if (next == MonitorEngine::kNever || next >= armed_at_) return;
  sc_core::sc_time at = double(next) * cfg_.clock_period;
  sc_core::sc_time now = sc_core::sc_time_stamp();
  armed_at_ = next;
  wake_event_.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
}

}  // namespace testbed::monitor
