/* tosbench: TOS's basic costs measured from inside, on the simulated real-time clock (the
 * host's build/bin/tos-bench turns them into 68010 cycles):
 *  - trap round trip: a system call that does nothing (gettid), user -> kernel main loop ->
 *    user, less the loop around it;
 *  - thread switch: two threads of one process handing the CPU to each other with yield(),
 *    less a trap round trip. Each figure is the mean over many repetitions, printed in ns. */
#include <tos/tos.h>

#define N 4000
static volatile int go;

/* 64-bit: thousands of round trips take seconds, and seconds in ns overflow 32 bits */
static unsigned long elapsed_ns(unsigned long t0, unsigned long n) {
  return (unsigned long)((unsigned long long)(time_us() - t0) * 1000ull / n);
}

static void partner(void *arg) {
  (void)arg;
  while (!go) yield();
  for (int i = 0; i < N; ++i) yield();
  exit(0);
}

int main(void) {
  unsigned long t0 = time_us();
  for (volatile int i = 0; i < N; ++i) {
  }
  unsigned long loop = elapsed_ns(t0, N);
  t0 = time_us();
  for (volatile int i = 0; i < N; ++i) gettid();
  unsigned long trap = elapsed_ns(t0, N) - loop;
  printf("tosbench: trap round trip %lu ns\n", trap);

  if (!create(2, 2, HERE, partner, NULL)) return 1;
  yield(); /* let the partner reach its loop */
  go = 1;
  t0 = time_us();
  for (int i = 0; i < N; ++i) yield();
  unsigned long per_yield = elapsed_ns(t0, 2ul * N); /* both threads yield N times */
  wait();
  printf("tosbench: yield to another thread %lu ns\n", per_yield);
  printf("tosbench: thread switch %lu ns\n", per_yield - trap);
  return 0;
}
