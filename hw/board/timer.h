// Programmable interval timer and real-time clock. The timer counts ticks of `tick_hz` (a board
// parameter); on reaching zero it sets STATUS.EXPIRED (the interrupt line while CTRL.IRQ) and,
// if PERIODIC, starts again from RELOAD. State is computed from simulated time on every access,
// so a temporally decoupled CPU that reads COUNT ahead of the kernel sees the value at its own
// local time; a kernel event at each expiry drives the interrupt line.
#pragma once
#include "irq_line.h"
#include "register_target.h"

namespace testbed {

class Timer : public RegisterTarget {
 public:
  SC_HAS_PROCESS(Timer);
  Timer(sc_core::sc_module_name name, uint32_t tick_hz = 1000000,
        sc_core::sc_time latency = sc_core::SC_ZERO_TIME);

  IrqLine& irq_line() { return irq_; }  // the board connects it to its interrupt controller
  bool irq() const { return irq_.level(); }
  uint32_t tick_hz() const { return tick_hz_; }
  // When the interrupt line will next rise by itself (sc_max_time() if it will not).
  sc_core::sc_time next_irq_time() const;
  void reset();  // stops the timer and clears its status; the real-time clock keeps running
  void state(StateArchive& a);

 private:
  void end_of_elaboration() override;
  void declare_registers();
  uint32_t count(const sc_core::sc_time& t) const;
  void write_ctrl(uint32_t value, const sc_core::sc_time& t);
  void advance_to(const sc_core::sc_time& t);
  void schedule();
  void expiry_method();
  void update_irq();
  uint64_t rtc_micros(const sc_core::sc_time& t) const;

  uint32_t tick_hz_;
  sc_core::sc_time tick_;
  uint16_t ctrl_ = 0, status_ = 0;
  uint32_t reload_ = 0, expiries_ = 0;
  sc_core::sc_time next_expiry_;
  // Real-time clock: rtc_sec_ seconds at time rtc_epoch_.
  uint32_t rtc_sec_ = 0;
  sc_core::sc_time rtc_epoch_;
  uint32_t rtc_usec_latch_ = 0;
  bool rtc_latched_ = false;
  IrqLine irq_{name()};
  sc_core::sc_event expiry_event_;
};

}  // namespace testbed
