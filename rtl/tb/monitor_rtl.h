// The verilated monitor_top behind the tbrtl::Model interface. VM is a Verilator model class
// (Vmonitor_top, Vmonitor_small, Vmonitor_fast); its packed per-SMI ports are sliced here.
#pragma once
#include "monitor_model.h"

#include "verilated_bits.h"

#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#endif

#include <memory>
#include <string>

namespace tbrtl {

template <class VM>
class RtlMonitor : public Model {
 public:
  RtlMonitor(const Params& p, VerilatedContext* ctx, const char* name = "rtl")
      : p_(p), vm_(std::make_unique<VM>(ctx, name)), ctx_(ctx) {
    unsigned d = p.smi_depth, w = 0;
    while ((1u << w) <= d) ++w;  // $clog2(depth + 1)
    level_w_ = w;
    vm_->clk = 0;
    vm_->rst = 1;
    vm_->smi_wr = 0;
    vm_->m_rd = 0;
    vm_->m_wr = 0;
    half();
    vm_->clk = 1;
    half();
    vm_->clk = 0;
    vm_->rst = 0;
  }
  ~RtlMonitor() override {
#if VM_TRACE
    if (trace_) trace_->close();
#endif
    vm_->final();
  }
  std::string name() const override { return "rtl"; }
  VM& vm() { return *vm_; }

#if VM_TRACE
  void trace_to(const std::string& path) {
    ctx_->traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    vm_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
  }
  bool trace_ok() const { return trace_ && trace_->isOpen(); }
#endif

  void clock(const ClockOps& ops, ClockOut& out) override {
    out = ClockOut{};
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      if (ops.write_start >> i & 1) {
        writing_ |= uint16_t(1u << i);
        word_[i] = ops.word[i];
      }
      bool wr = writing_ >> i & 1;
      bits::set(vm_->smi_wr, i, 1, wr);
      bits::set(vm_->smi_addr, i * 4, 4, wr ? kSmiEvent : (ops.smi_read[i] < 0 ? 0 : ops.smi_read[i]));
      bits::set(vm_->smi_wdata, i * 16, 16, word_[i]);
    }
    vm_->m_rd = ops.mmi_read >= 0;
    vm_->m_wr = ops.mmi_write >= 0;
    vm_->m_addr = ops.mmi_read >= 0 ? ops.mmi_read : ops.mmi_write >= 0 ? ops.mmi_write : 0;
    vm_->m_wdata = ops.mmi_wdata;
    vm_->m_long = ops.mmi_long;
    vm_->clk = 0;
    half();
    out.accepted = uint16_t(writing_ & ~bits::get(vm_->smi_wait, 0, p_.n_smi));
    writing_ = uint16_t(writing_ & ~out.accepted);
    vm_->clk = 1;
    half();
    for (unsigned i = 0; i < p_.n_smi; ++i)
      if (ops.smi_read[i] >= 0) out.smi_read[i] = bits::get(vm_->smi_rdata, i * 32, 32);
    if (ops.mmi_read >= 0) out.mmi_read = vm_->m_rdata;
  }

  Observed observe() override {
    Observed o;
    o.ts = uint16_t(vm_->obs_ts);
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      o.smi_level[i] = bits::get(vm_->obs_smi_level, i * level_w_, level_w_);
      o.smi_lost[i] = bits::get(vm_->obs_smi_lost, i * 32, 32);
    }
    o.mmi_level = vm_->obs_mmi_level;
    o.stall_clocks = vm_->obs_stall_clocks;
    return o;
  }

 private:
  void half() {
    vm_->eval();
#if VM_TRACE
    if (trace_) trace_->dump(ctx_->time());
#endif
    ctx_->timeInc(50);  // 100 ns clock
  }

  Params p_;
  std::unique_ptr<VM> vm_;
  VerilatedContext* ctx_;
  unsigned level_w_ = 0;
  uint16_t writing_ = 0;
  std::array<uint16_t, kMaxSmi> word_{};
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> trace_;
#endif
};

}  // namespace tbrtl
