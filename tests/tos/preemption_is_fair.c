/* Pre-emption: N compute-bound threads that never trap share the CPU within 10% of each other,
 * and none starves the main thread (which only runs because the 20 ms time slice ends). Over
 * 2 s of simulated time each of 3 workers gets about 33 slices, so a slice of rounding at the
 * end is 3% (over 1 s it would be 6%, too close to the bound to judge fairness). */
#include "tos_check.h"

#define N 3
static volatile unsigned long count[N];
static volatile int stop;

static void worker(void *arg) {
  volatile unsigned long *c = &count[(int)arg];
  while (!stop) ++*c; /* no system call: only the timer can take the CPU away */
  exit(0);
}

int main(void) {
  for (int i = 0; i < N; ++i) CHECK(create(i + 1, 2, HERE, worker, (void *)i) != 0, "create %d", tos_errno);
  unsigned long t0 = time_us();
  unsigned long switches0 = tos_info(TOS_INFO_SWITCHES);
  while (time_us() - t0 < 2000000ul) yield();
  stop = 1;
  static struct tos_pinfo info;
  if (pinfo(0, &info) == 0)
    for (int i = 0; i < info.nthreads; ++i)
      printf("preempt: thread %x scheduled %lu times\n", info.thread[i].tid, (unsigned long)info.thread[i].slices);
  CHECK(wait() == 0, "children failed");
  unsigned long lo = count[0], hi = count[0];
  for (int i = 0; i < N; ++i) {
    printf("preempt: thread %d counted %lu\n", i, count[i]);
    if (count[i] < lo) lo = count[i];
    if (count[i] > hi) hi = count[i];
  }
  printf("preempt: %ld threads scheduled in %lu us\n", tos_info(TOS_INFO_SWITCHES) - switches0, time_us() - t0);
  CHECK(lo > 0, "a thread starved");
  CHECK((hi - lo) * 10 <= hi, "shares differ by more than 10%%: %lu .. %lu", lo, hi);
  tos_pass("preemption_is_fair");
  return 0;
}
