/* tosbench: TOS's basic costs measured from inside, on the simulated real-time clock (the
 * host's build/bin/tos-bench turns them into 68010 cycles):
 *  - trap round trip: a system call that does nothing (gettid) made with an inline TRAP #0,
 *    user -> kernel -> user, less the loop around it: the kernel's part alone;
 *  - the same through the C library's gettid() (its wrapper loads seven argument registers);
 *  - yield to another thread: two threads of one process handing the CPU to each other with
 *    an inline TRAP #1 (yield's own vector, tos.toml), per hand-over; and the same through the
 *    library's yield() (a call around the same TRAP);
 *  - thread switch: the yield less a trap round trip (what choosing and entering another
 *    thread adds). Each figure is the mean over many repetitions, printed in ns. */
#include <tos/tos.h>

#define N 4000
#define STR_(x) #x
#define STR(x) STR_(x)
static volatile int go;

/* TRAP #0 with the call's number in d0 and no arguments. A call keeps the C ABI's callee-saved
 * registers (d2-d7/a2-a6) and loses its scratch ones, as a C function call does (tos.toml). */
static inline long trap0(long n) {
  register long d0 __asm__("d0") = n;
  __asm__ volatile("trap #" STR(TOS_SYSCALL_TRAP) : "+d"(d0) : : "d1", "a0", "a1", "cc", "memory");
  return d0;
}

/* TRAP #1: yield, no number (tos.toml) */
static inline void trap_yield(void) {
  __asm__ volatile("trap #" STR(TOS_YIELD_TRAP) : : : "d0", "d1", "a0", "a1", "cc", "memory");
}

/* 64-bit: thousands of round trips take seconds, and seconds in ns overflow 32 bits */
static unsigned long elapsed_ns(unsigned long t0, unsigned long n) {
  return (unsigned long)((unsigned long long)(time_us() - t0) * 1000ull / n);
}

static void partner(void *arg) {
  (void)arg;
  while (go < 1) yield();
  for (int i = 0; i < N; ++i) trap_yield();
  while (go < 2) yield();
  for (int i = 0; i < N; ++i) yield();
  exit(0);
}

int main(void) {
  unsigned long t0 = time_us();
  for (volatile int i = 0; i < N; ++i) {
  }
  unsigned long loop = elapsed_ns(t0, N);
  t0 = time_us();
  for (volatile int i = 0; i < N; ++i) trap0(SYS_GETTID);
  unsigned long trap = elapsed_ns(t0, N) - loop;
  t0 = time_us();
  for (volatile int i = 0; i < N; ++i) gettid();
  unsigned long lib_call = elapsed_ns(t0, N) - loop;
  printf("tosbench: trap round trip %lu ns\n", trap);
  printf("tosbench: gettid() through the library %lu ns\n", lib_call);

  if (!create(2, 2, HERE, partner, NULL)) return 1;
  yield(); /* let the partner reach its loop */
  go = 1;
  t0 = time_us();
  for (int i = 0; i < N; ++i) trap_yield();
  unsigned long per_yield = elapsed_ns(t0, 2ul * N); /* both threads yield N times */
  go = 2;
  t0 = time_us();
  for (int i = 0; i < N; ++i) yield();
  unsigned long per_lib_yield = elapsed_ns(t0, 2ul * N);
  wait();
  printf("tosbench: yield to another thread %lu ns\n", per_yield);
  printf("tosbench: yield() through the library %lu ns\n", per_lib_yield);
  printf("tosbench: thread switch %lu ns\n", per_yield - trap);
  return 0;
}
