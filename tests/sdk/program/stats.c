/* The SDK tests' program (tests/sdk.cmake): plain C that the host's compiler builds too, so
 * that what TOS prints can be compared with what the host prints, digit for digit. Two files
 * (stats.c, stats_util.c) because a program usually has more than one. */
#include <stdio.h>

#include "stats.h"

int main(void) {
  unsigned n = 1000;
  unsigned long squares = sum_of_squares(n);
  unsigned long long cubes = sum_of_cubes(n);
  double mean = mean_of_squares(n);
  printf("stats: %u numbers, sum of squares %lu, %d\n", n, squares, -(int)(n % 7));
  printf("stats: %llu %f %e %g\n", cubes, mean, mean / 3, mean / 7);
  return 0;
}
