/* <ctype.h> against the host's: every class function, toupper and tolower, for all 256 values of
 * an unsigned char and EOF, as glibc answers in the "C" locale (tests/tos/
 * gen_libc_ctype_matches_host.py), through newlib's macros and through its functions. */
#include <ctype.h>
#include <stdio.h>
#include "tos_check.h"

struct crow {
  int value, classes, upper, lower;
};
#include "libc_ctype_cases.h"

/* The classes of v through the macros (<ctype.h>'s table lookups) ... */
static int by_macro(int v) {
  return !!isalnum(v) << 0 | !!isalpha(v) << 1 | !!isblank(v) << 2 | !!iscntrl(v) << 3 | !!isdigit(v) << 4 |
         !!isgraph(v) << 5 | !!islower(v) << 6 | !!isprint(v) << 7 | !!ispunct(v) << 8 | !!isspace(v) << 9 |
         !!isupper(v) << 10 | !!isxdigit(v) << 11;
}
/* ... and through the library's functions. */
static int by_function(int v) {
  return !!(isalnum)(v) << 0 | !!(isalpha)(v) << 1 | !!(isblank)(v) << 2 | !!(iscntrl)(v) << 3 | !!(isdigit)(v) << 4 |
         !!(isgraph)(v) << 5 | !!(islower)(v) << 6 | !!(isprint)(v) << 7 | !!(ispunct)(v) << 8 | !!(isspace)(v) << 9 |
         !!(isupper)(v) << 10 | !!(isxdigit)(v) << 11;
}

int main(void) {
  int bad = 0, n = (int)(sizeof rows / sizeof rows[0]);
  for (int i = 0; i < n; ++i) {
    const struct crow *r = &rows[i];
    int m = by_macro(r->value), f = by_function(r->value), u = toupper(r->value), l = tolower(r->value);
    if (m != r->classes || f != r->classes || u != r->upper || l != r->lower) {
      ++bad;
      for (int c = 0; c < N_CLASSES; ++c)
        if (((m ^ r->classes) | (f ^ r->classes)) >> c & 1)
          printf("libc_ctype_matches_host: %s(%d): %d (function %d), the host %d\n", class_names[c], r->value, m >> c & 1,
                 f >> c & 1, r->classes >> c & 1);
      if (u != r->upper || l != r->lower)
        printf("libc_ctype_matches_host: toupper/tolower(%d): %d %d, the host %d %d\n", r->value, u, l, r->upper, r->lower);
    }
  }
  printf("libc_ctype_matches_host: %d values x %d classes, toupper, tolower: %d differ\n", n, N_CLASSES, bad);
  CHECK(bad == 0, "ctype as the host's");
  tos_pass("libc_ctype_matches_host");
  return 0;
}
