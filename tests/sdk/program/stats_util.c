/* 64-bit integer and double arithmetic, done by the 68010 runtime's helpers on the board. */
#include "stats.h"

unsigned long sum_of_squares(unsigned n) {
  unsigned long s = 0;
  for (unsigned i = 1; i <= n; i++) s += (unsigned long)i * i;
  return s;
}

unsigned long long sum_of_cubes(unsigned n) {
  unsigned long long s = 0;
  for (unsigned i = 1; i <= n; i++) {
    unsigned long long cube = (unsigned long long)i * i * i;
    s += cube;
  }
  return s;
}

double mean_of_squares(unsigned n) {
  double s = 0;
  for (unsigned i = 1; i <= n; i++) s += (double)i * i;
  return s / n;
}
