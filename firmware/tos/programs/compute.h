/* Appendix A's compute(approx_N_ms) for the section 3 programs: CPU work, a loop calibrated
 * once against the real-time clock, not a loop that reads the clock. A thread that reads the
 * clock makes a system call every few hundred microseconds, so its board's main loop would run
 * all the time and nothing would ever wait for its slice to end (the report's Figure 14 msg
 * delay of up to a slice, its page-flight bound). multi-phase does the same (its own copy).
 * The calibration runs alone at the program's start; a thread that shares the CPU later
 * computes longer in real time, as it would have on the Testbed. */
#ifndef TOS_PROGRAMS_COMPUTE_H
#define TOS_PROGRAMS_COMPUTE_H
#include <tos/tos.h>

static unsigned long compute_loops_per_ms;

static void compute_spin(unsigned long loops) {
  for (volatile unsigned long i = 0; i < loops; ++i) {
  }
}

static void compute_calibrate(void) {
  unsigned long n = 20000, t0 = time_us();
  compute_spin(n);
  unsigned long us = time_us() - t0;
  compute_loops_per_ms = us ? n * 1000ul / us : n;
  if (!compute_loops_per_ms) compute_loops_per_ms = 1;
}

static inline void compute(unsigned long ms) { /* (inline: a program may use only the loop) */
  if (!compute_loops_per_ms) compute_calibrate();
  compute_spin(ms * compute_loops_per_ms);
}
#endif
