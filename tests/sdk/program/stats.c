/* The SDK tests' program (tests/sdk.cmake): plain C that the host's compiler builds too, so
 * that what TOS prints can be compared with what the host prints, digit for digit. Two files
 * (stats.c, stats_util.c) because a program usually has more than one. */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

int main(void) {
  unsigned n = 1000;
  unsigned long squares = sum_of_squares(n);
  unsigned long long cubes = sum_of_cubes(n);
  double mean = mean_of_squares(n);
  printf("stats: %u numbers, sum of squares %lu, %d\n", n, squares, -(int)(n % 7));
  printf("stats: %llu %f %e %g\n", cubes, mean, mean / 3, mean / 7);
  /* the rest of a C library a real program expects (issue #40): ctype, assert, abort, <math.h>
   * with -lm; no header but the standard ones */
  const char *word = "Testbed 1988-94";
  int digits = 0, upper = 0;
  for (const char *c = word; *c; ++c) {
    digits += isdigit((unsigned char)*c) != 0;
    upper += isupper((unsigned char)*c) != 0;
  }
  assert(digits == 6);
  if (squares == 0) abort();
  printf("stats: %d digits %d capital, sqrt %.9f, sin %.9f, atan2 %.9f, pow %.6g\n", digits, upper, sqrt(mean),
         sin(1.0), atan2(1.0, (double)digits), pow(2.0, 0.5));
  return 0;
}
