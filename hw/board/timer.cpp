#include "timer.h"

#include <testbed/memory_map.h>

#include <stdexcept>

namespace testbed {

using sc_core::sc_time;

namespace {
using Ctrl = regs::timer::CTRL;
constexpr uint16_t kEnable = Ctrl::ENABLE::mask, kPeriodic = Ctrl::PERIODIC::mask, kIrq = Ctrl::IRQ::mask;
constexpr uint16_t kExpired = regs::timer::STATUS::EXPIRED::mask;
}  // namespace

Timer::Timer(sc_core::sc_module_name name, uint32_t tick_hz, sc_time latency)
    : RegisterTarget(name, latency), tick_hz_(tick_hz) {
  if (tick_hz == 0 || tick_hz > 1000000000)
    throw std::invalid_argument(std::string(this->name()) + ": timer tick rate " + std::to_string(tick_hz) +
                                " Hz is outside 1 Hz .. 1 GHz");
  tick_ = sc_time(1.0 / tick_hz, sc_core::SC_SEC);
  declare_registers();
  SC_METHOD(expiry_method);
  sensitive << expiry_event_;
  dont_initialize();
}

void Timer::reset() {
  ctrl_ = 0;
  status_ = 0;
  expiry_event_.cancel();
  update_irq();
}

sc_time Timer::next_irq_time() const {
  if ((ctrl_ & kEnable) && (ctrl_ & kIrq) && !(status_ & kExpired)) return next_expiry_;
  return sc_core::sc_max_time();
}

void Timer::advance_to(const sc_time& t) {
  if (!(ctrl_ & kEnable) || t < next_expiry_) return;
  status_ |= kExpired;
  if (ctrl_ & kPeriodic) {
    sc_time period = tick_ * double(reload_);
    uint64_t n = uint64_t((t - next_expiry_) / period) + 1;  // expiries in (.., t]
    expiries_ += uint32_t(n);
    next_expiry_ += period * double(n);
  } else {
    ++expiries_;
    ctrl_ &= uint16_t(~kEnable);
  }
  update_irq();
}

void Timer::schedule() {
  expiry_event_.cancel();
  if (ctrl_ & kEnable) {
    sc_time now = sc_core::sc_time_stamp();
    expiry_event_.notify(next_expiry_ > now ? next_expiry_ - now : sc_core::SC_ZERO_TIME);
  }
}

void Timer::expiry_method() {
  advance_to(sc_core::sc_time_stamp());
  schedule();
}

void Timer::state(StateArchive& a) {
  a.section(name());
  register_state(a);
  a.io(ctrl_).io(status_).io(reload_).io(expiries_).io(next_expiry_).io(rtc_sec_).io(rtc_epoch_);
  a.io(rtc_usec_latch_).io(rtc_latched_);
  bool irq = irq_.level();
  a.io(irq);
  if (!a.loading()) return;
  irq_.restore_level(irq);
  schedule();  // the expiry event, at its absolute time (the restored kernel starts at 0)
}

void Timer::update_irq() {
  bool l = (ctrl_ & kIrq) && (status_ & kExpired);
  irq_.set(l);
}

void Timer::end_of_elaboration() {
  RegisterTarget::end_of_elaboration();
  irq_.check_connected();
}

uint64_t Timer::rtc_micros(const sc_time& t) const {
  return uint64_t((t - rtc_epoch_) / sc_time(1, sc_core::SC_US));
}

uint32_t Timer::count(const sc_time& t) const {
  if (!(ctrl_ & kEnable) || t >= next_expiry_) return 0;
  sc_time left = next_expiry_ - t;
  return uint32_t((left.value() + tick_.value() - 1) / tick_.value());
}

void Timer::write_ctrl(uint32_t value, const sc_time& t) {
  bool start = (value & kEnable) && !(ctrl_ & kEnable);
  ctrl_ = uint16_t(value & (kEnable | kPeriodic | kIrq));
  if (start) {
    if (reload_ == 0) ctrl_ &= uint16_t(~kEnable);  // nothing to count: stays stopped
    else next_expiry_ = t + tick_ * double(reload_);
  }
  schedule();
  update_irq();
}

void Timer::declare_registers() {
  using namespace regs::timer;
  add_registers(tables::kTimerRegisters);
  // A CPU access first brings the timer up to its own time t (an expiry may be due); a peek
  // (debug read, merge of a partial write) does not.
  auto live = [this](ReadFn peek) {
    return [this, peek](const sc_time& t) {
      advance_to(t);
      return peek(t);
    };
  };
  auto at = [this](WriteFn write) {
    return [this, write](uint32_t v, const sc_time& t) {
      advance_to(t);
      write(v, t);
    };
  };
  ReadFn ctrl = [this](const sc_time&) -> uint32_t { return ctrl_; };
  ReadFn status = [this](const sc_time&) -> uint32_t { return status_; };
  ReadFn reload = [this](const sc_time&) -> uint32_t { return reload_; };
  ReadFn count = [this](const sc_time& t) { return this->count(t); };
  ReadFn expiries = [this](const sc_time&) { return expiries_; };
  ReadFn rtc_sec = [this](const sc_time& t) { return rtc_sec_ + uint32_t(rtc_micros(t) / 1000000); };
  ReadFn rtc_usec = [this](const sc_time& t) { return uint32_t(rtc_micros(t) % 1000000); };
  ReadFn tick_hz = [this](const sc_time&) { return tick_hz_; };
  on_read<CTRL>(ctrl, live(ctrl));
  on_write<CTRL>(at([this](uint32_t v, const sc_time& t) { write_ctrl(v, t); }));
  on_read<STATUS>(status, live(status));
  on_write<STATUS>(at([this](uint32_t v, const sc_time&) {
    status_ &= uint16_t(~(v & kExpired));
    update_irq();
  }));
  on_read<RELOAD>(reload, live(reload));
  on_write<RELOAD>(at([this](uint32_t v, const sc_time&) { reload_ = v; }));
  on_read<COUNT>(count, live(count));
  on_read<EXPIRIES>(expiries, live(expiries));
  // Reading RTC_SEC latches RTC_USEC; the next RTC_USEC read returns the latched value.
  on_read<RTC_SEC>(rtc_sec, live([this, rtc_sec, rtc_usec](const sc_time& t) {
                     rtc_usec_latch_ = rtc_usec(t);
                     rtc_latched_ = true;
                     return rtc_sec(t);
                   }));
  on_write<RTC_SEC>(at([this](uint32_t v, const sc_time& t) {
    rtc_sec_ = v;
    rtc_epoch_ = t;
  }));
  on_read<RTC_USEC>(rtc_usec, live([this, rtc_usec](const sc_time& t) {
                      if (!rtc_latched_) return rtc_usec(t);
                      rtc_latched_ = false;
                      return rtc_usec_latch_;
                    }));
  on_read<TICK_HZ>(tick_hz, live(tick_hz));
}

}  // namespace testbed
