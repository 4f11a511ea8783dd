// The SystemC/TLM model's engine (hw/monitor, testbed::monitor::MonitorEngine, SystemC-free)
// behind the tbrtl::Model interface, so the RTL is compared with the TLM model clock for clock.
// Each clock: writes are issued at that clock (the engine returns the clock it accepts them,
// i.e. the wait states), then the reads in spec order (SMI registers, then the master's read).
#pragma once
#include "monitor_engine.h"
#include "monitor_model.h"

#include <array>

namespace tbrtl {

class EngineMonitor : public Model {
 public:
  explicit EngineMonitor(const Params& p) : p_(p), eng_(to_engine(p)) { accept_at_.fill(kNone); }
  std::string name() const override { return "tlm-engine"; }

  void clock(const ClockOps& ops, ClockOut& out) override {
    out = ClockOut{};
    for (unsigned i = 0; i < p_.n_smi; ++i)
      if (ops.write_start >> i & 1) accept_at_[i] = eng_.write_event(i + 1, t_, ops.word[i]);
    eng_.advance_to(t_);
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      if (accept_at_[i] == t_) {
        out.accepted |= uint16_t(1u << i);
        accept_at_[i] = kNone;
      }
      switch (ops.smi_read[i]) {
        case kSmiStatus: out.smi_read[i] = eng_.smi_status(i + 1, t_); break;
        case kSmiLevel: out.smi_read[i] = eng_.smi_level(i + 1, t_); break;
        case kSmiLost: out.smi_read[i] = eng_.smi_lost(i + 1, t_); break;
        case kSmiLostLo: out.smi_read[i] = eng_.smi_lost(i + 1, t_) & 0xFFFF; break;
        default: break;
      }
    }
    switch (ops.mmi_read) {
      case kMmiDataHi: {
        uint32_t hi = eng_.mmi_data_hi(t_);
        out.mmi_read = ops.mmi_long ? hi << 16 | eng_.mmi_data_lo(t_) : hi;
        break;
      }
      case kMmiDataLo: out.mmi_read = eng_.mmi_data_lo(t_); break;
      case kMmiStatus: out.mmi_read = eng_.mmi_status(t_); break;
      case kMmiLevel: out.mmi_read = eng_.mmi_level(t_); break;
      case kMmiStall: out.mmi_read = eng_.mmi_stall(t_); break;
      case kMmiStallLo: out.mmi_read = eng_.mmi_stall(t_) & 0xFFFF; break;
      default:
        // The filter registers; elsewhere no register: 0, as the RTL and the reference.
        if (ops.mmi_read >= 0) eng_.mmi_filter_read(unsigned(ops.mmi_read), t_, out.mmi_read);
        break;
    }
    if (ops.mmi_write >= 0) eng_.mmi_filter_write(unsigned(ops.mmi_write), ops.mmi_wdata, t_);
    ++t_;
  }

  Observed observe() override {
    Observed o;
    uint64_t t = t_ - 1;
    o.ts = eng_.clock().ts(t);
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      o.smi_level[i] = eng_.smi_fill(i + 1);
      o.smi_lost[i] = eng_.smi_lost(i + 1, t);
    }
    o.mmi_level = eng_.mmi_fill();
    o.stall_clocks = uint32_t(eng_.stall_clocks());
    return o;
  }

  uint64_t late_accesses() const { return eng_.late_accesses(); }
  const testbed::monitor::MonitorEngine& engine() const { return eng_; }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  static testbed::monitor::MonitorParams to_engine(const Params& p) {
    testbed::monitor::MonitorParams e;
    e.tick_div = p.tick_div;
    e.smi_depth = p.smi_depth;
    e.mmi_depth = p.mmi_depth;
    e.n_smi = p.n_smi;
    e.word_clocks = p.word_clocks;
    e.empty_clocks = p.empty_clocks;
    e.write_gap = p.write_gap;
    return e;
  }

  Params p_;
  testbed::monitor::MonitorEngine eng_;
  uint64_t t_ = 0;
  std::array<uint64_t, kMaxSmi> accept_at_{};
};

}  // namespace tbrtl
