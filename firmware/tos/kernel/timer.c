/* The board timer: the 20 ms time slice (seed 000 section 2.1.2) and the clock.
 *
 * The timer runs free, periodically, one interrupt per slice length, never restarted: each
 * interrupt ends the slice of whatever thread runs (the main loop pre-empts it), so a thread
 * has at most 20 ms ("a maximum time-slice of 20ms", section 2.1.2), less when it was
 * scheduled after the last tick. That is what the report's figures show: a service is
 * interrupted by the timer at random (Figure 9's double line: a timer restarted at every
 * switch would almost never interrupt a service that follows a switch), and a sender released
 * by an rtr is pre-empted "any time up to 20ms later" (Figure 14's spread from 0 to a slice;
 * a restarted timer would give every such sender a whole slice). The same interrupt is the
 * kernel's housekeeping tick (it counts), and the board's real-time clock (TIMER RTC
 * registers) gives the time of day. */
#include "defs.h"

static volatile uint32_t ticks;

void timer_init(void) {
  uint32_t hz = REG32(TB_TIMER_TICK_HZ);
  /* slice in timer ticks: hz * slice_us / 1e6 without a 64-bit product */
  uint32_t reload = (hz / 1000u) * (TOS_SLICE_US / 1000u);
  REG32(TB_TIMER_RELOAD) = reload ? reload : 1;
  REG32(TB_TIMER_RTC_SEC) = 0;
  REG16(TB_TIMER_CTRL) = 0; /* the count starts when ENABLE goes from 0 to 1 */
  REG16(TB_TIMER_STATUS) = TB_TIMER_STATUS_EXPIRED;
  REG16(TB_TIMER_CTRL) = TB_TIMER_CTRL_ENABLE | TB_TIMER_CTRL_PERIODIC | TB_TIMER_CTRL_IRQ;
  slice_over = 0;
}

void timer_intr(void) {
  REG16(TB_TIMER_STATUS) = TB_TIMER_STATUS_EXPIRED;
  ++ticks;
  slice_over = 1;
  EVENT(DGL_TICK, EV_TICK);
}

uint32_t uptime_us(void) {
  uint32_t s = REG32(TB_TIMER_RTC_SEC); /* latches RTC_USEC */
  return s * 1000000u + REG32(TB_TIMER_RTC_USEC);
}

/* clock(usec): whole seconds of the real-time clock, and the microseconds within the second. */
SYSCALL(clock) {
  uint32_t s = REG32(TB_TIMER_RTC_SEC); /* latches RTC_USEC */
  uint32_t us = REG32(TB_TIMER_RTC_USEC);
  if (a1) USER_BUFFER(t, a1, 4, 1);
  if (a1 && !vm_copyout(t->proc, a1, &us, 4)) return -TOS_EFAULT;
  return (int32_t)s;
}
