/* Assertions for TOS test programs: a failed CHECK prints "FAIL: <file>:<line>: <what>" on the
 * console and ends the program with exit code 1; tos_pass() prints "<name>: PASS". The ctest
 * entry (tests/tos.cmake) runs the program on a booted TOS and reads the console. */
#ifndef TOS_CHECK_H
#define TOS_CHECK_H
#include <tos/rand.h>
#include <tos/tos.h>

#define CHECK(cond, ...)                                        \
  do {                                                          \
    if (!(cond)) {                                              \
      printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
      printf(__VA_ARGS__);                                      \
      printf("\n");                                             \
      exit(1);                                                  \
    }                                                           \
  } while (0)

static inline void tos_pass(const char *name) { printf("%s: PASS\n", name); }

/* Where thread `tid` is, as ps sees it on its home board (this one): a board number, or -1. */
static inline int tos_board_of(int tid) {
  static struct tos_pinfo info;
  if (pinfo(tid >> 6 & 15, &info) < 0) return -1;
  for (int i = 0; i < info.nthreads; ++i)
    if (info.thread[i].tid == tid) return info.thread[i].board;
  return -1;
}

/* The test programs' pseudo-random numbers (the C standard's example LCG, 15 bits): a seeded,
 * repeatable schedule for a randomized test. */
static inline unsigned long tos_check_next(unsigned long *s) {
  *s = TOS_RAND_NEXT(*s);
  return (*s >> 16) & 0x7FFF;
}

/* Computes (never traps) for `us` microseconds: a thread that stays outside every system call. */
static inline void tos_check_spin_us(unsigned long us) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < us) {
  }
}
#endif
