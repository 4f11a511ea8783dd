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
  add_registers(tables::kTimerRegisters);
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

void Timer::update_irq() {
  bool l = (ctrl_ & kIrq) && (status_ & kExpired);
  if (l == irq_level_) return;
  irq_level_ = l;
  if (irq_) irq_(l);
}

uint64_t Timer::rtc_micros(const sc_time& t) const {
  return uint64_t((t - rtc_epoch_) / sc_time(1, sc_core::SC_US));
}

uint32_t Timer::peek_register(uint32_t offset, const sc_time& t) {
  switch (offset) {
    case TB_TIMER_CTRL_OFF: return ctrl_;
    case TB_TIMER_STATUS_OFF: return status_;
    case TB_TIMER_RELOAD_OFF: return reload_;
    case TB_TIMER_COUNT_OFF: {
      if (!(ctrl_ & kEnable) || t >= next_expiry_) return 0;
      sc_time left = next_expiry_ - t;
      return uint32_t((left.value() + tick_.value() - 1) / tick_.value());
    }
    case TB_TIMER_EXPIRIES_OFF: return expiries_;
    case TB_TIMER_RTC_SEC_OFF: return rtc_sec_ + uint32_t(rtc_micros(t) / 1000000);
    case TB_TIMER_RTC_USEC_OFF: return uint32_t(rtc_micros(t) % 1000000);
    case TB_TIMER_TICK_HZ_OFF: return tick_hz_;
  }
  return 0;
}

uint32_t Timer::read_register(uint32_t offset, const sc_time& t) {
  advance_to(t);
  if (offset == TB_TIMER_RTC_SEC_OFF) {
    rtc_usec_latch_ = peek_register(TB_TIMER_RTC_USEC_OFF, t);
    rtc_latched_ = true;
  } else if (offset == TB_TIMER_RTC_USEC_OFF && rtc_latched_) {
    rtc_latched_ = false;
    return rtc_usec_latch_;
  }
  return peek_register(offset, t);
}

void Timer::write_register(uint32_t offset, uint32_t value, const sc_time& t) {
  advance_to(t);
  switch (offset) {
    case TB_TIMER_CTRL_OFF: {
      bool start = (value & kEnable) && !(ctrl_ & kEnable);
      ctrl_ = uint16_t(value & (kEnable | kPeriodic | kIrq));
      if (start) {
        if (reload_ == 0) ctrl_ &= uint16_t(~kEnable);  // nothing to count: stays stopped
        else next_expiry_ = t + tick_ * double(reload_);
      }
      schedule();
      update_irq();
      break;
    }
    case TB_TIMER_STATUS_OFF:
      status_ &= uint16_t(~(value & kExpired));
      update_irq();
      break;
    case TB_TIMER_RELOAD_OFF: reload_ = value; break;
    case TB_TIMER_RTC_SEC_OFF:
      rtc_sec_ = value;
      rtc_epoch_ = t;
      break;
  }
}

}  // namespace testbed
