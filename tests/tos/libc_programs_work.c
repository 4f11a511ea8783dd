/* Ordinary C programs on the 68010 with nothing but the standard headers (issue #40's list):
 * a word-frequency count (ctype, qsort, bsearch, strtok), Simpson's rule and Newton's method
 * (math), an RPN calculator over text (strtod, strtol, sscanf), 64-bit integers and long double
 * printed through printf, atexit's order; each checked against what mathematics says, not
 * against a number the program was seen to print. */
#undef NDEBUG /* the firmware is built as Release: these asserts are the test */
#include <assert.h>
#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tos_check.h"

/* ---- word frequencies ---- */
struct word {
  char text[16];
  int count;
};
static int by_text(const void *a, const void *b) { return strcmp(((const struct word *)a)->text, ((const struct word *)b)->text); }

static void words(void) {
  static const char text[] =
      "The Testbed had six boards; each Board ran TOS. The monitor saw each event, "
      "and the master's logger drained it: six boards, one monitor, one logger.";
  char copy[sizeof text];
  strcpy(copy, text);
  static struct word w[40];
  int n = 0;
  for (char *t = strtok(copy, " ;:,.'"); t; t = strtok(NULL, " ;:,.'")) {
    for (char *p = t; *p; ++p) *p = (char)tolower((unsigned char)*p);
    if (!isalpha((unsigned char)t[0])) continue;
    struct word key;
    snprintf(key.text, sizeof key.text, "%s", t);
    qsort(w, (size_t)n, sizeof w[0], by_text);
    struct word *found = bsearch(&key, w, (size_t)n, sizeof w[0], by_text);
    if (found) {
      ++found->count;
    } else {
      assert(n < 40);
      w[n] = key;
      w[n++].count = 1;
    }
  }
  qsort(w, (size_t)n, sizeof w[0], by_text);
  int total = 0;
  for (int i = 0; i < n; ++i) total += w[i].count;
  for (int i = 1; i < n; ++i) CHECK(strcmp(w[i - 1].text, w[i].text) < 0, "sorted: %s %s", w[i - 1].text, w[i].text);
  struct word key = {"boards", 0}, *b = bsearch(&key, w, (size_t)n, sizeof w[0], by_text);
  CHECK(b && b->count == 2, "'boards' twice");
  strcpy(key.text, "the");
  b = bsearch(&key, w, (size_t)n, sizeof w[0], by_text);
  CHECK(b && b->count == 3, "'the' three times (The, the: case folded): %d", b ? b->count : -1);
  CHECK(total == 27 && n == 19, "27 words, 19 distinct: %d %d", total, n);
  printf("libc_programs_work: words: %d distinct of %d\n", n, total);
}

/* ---- numerics ---- */
static double simpson(double (*f)(double), double a, double b, int n) {
  double h = (b - a) / n, s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += f(a + i * h) * (i % 2 ? 4 : 2);
  return s * h / 3;
}
static double gauss(double x) { return exp(-x * x); }

static void numerics(void) {
  double pi = 4 * atan(1.0);
  CHECK(fabs(pi - M_PI) < 1e-15, "atan: pi %.17g", pi);
  double two = simpson(sin, 0, pi, 200);
  CHECK(fabs(two - 2) < 1e-8, "integral of sin over [0, pi] is 2: %.12f", two);
  double g = simpson(gauss, -6, 6, 600);
  CHECK(fabs(g - sqrt(pi)) < 1e-9, "Gauss integral is sqrt(pi): %.12f", g);
  double x = 1;
  for (int i = 0; i < 8; ++i) x -= (x * x - 2) / (2 * x);
  CHECK(fabs(x - sqrt(2.0)) <= 2.3e-16, "Newton's sqrt(2) %.17g is sqrt's %.17g within an ulp", x, sqrt(2.0));
  CHECK(sqrt(2.0) * sqrt(2.0) == 2.0000000000000004 && nextafter(sqrt(2.0), 0) < sqrt(2.0), "sqrt rounds once");
  CHECK(fabs(pow(2, 0.5) - x) <= DBL_EPSILON, "pow(2, .5)");
  CHECK(fabs(log10(1e-7) + 7) < 1e-15 && fabs(exp(log(10)) - 10) < 1e-14, "exp, log, log10");
  CHECK(fabs(hypot(3, 4) - 5) < 1e-15 && fabs(cosh(1) * cosh(1) - sinh(1) * sinh(1) - 1) < 1e-14, "hypot, cosh, sinh");
  float ff = sqrtf(2.0f);
  CHECK(fabsf(ff * ff - 2.0f) < 1e-6f && fabsf(sinf(3.14159265f)) < 1e-6f, "float forms");
  char buf[64];
  snprintf(buf, sizeof buf, "%.6f %.3e %g %a", pi, pi * 1e10, pi / 1e5, 1.0);
  CHECK(strcmp(buf, "3.141593 3.142e+10 3.14159e-05 0x1p+0") == 0, "printf of doubles: %s", buf);
}

/* ---- a calculator: "3 4 + 2 *" ---- */
static double rpn(const char *s) {
  double st[16];
  int sp = 0;
  while (*s) {
    char *end;
    while (isspace((unsigned char)*s)) ++s;
    if (!*s) break;
    double v = strtod(s, &end);
    if (end != s) {
      st[sp++] = v;
      s = end;
      continue;
    }
    assert(sp >= 2);
    double b = st[--sp], a = st[--sp];
    switch (*s++) {
      case '+': st[sp++] = a + b; break;
      case '-': st[sp++] = a - b; break;
      case '*': st[sp++] = a * b; break;
      case '/': st[sp++] = a / b; break;
      case '^': st[sp++] = pow(a, b); break;
      default: abort();
    }
  }
  return st[0];
}

static void parsing(void) {
  CHECK(rpn("3 4 + 2 *") == 14 && rpn("1e3 2.5e-1 /") == 4000 && rpn("2 0.5 ^ 2 ^") == 2.0000000000000004,
        "rpn: %.17g", rpn("2 0.5 ^ 2 ^"));
  CHECK(strtod("0x1.8p3", NULL) == 12 && strtod("  -1.5e-3xyz", NULL) == -0.0015 && isinf(strtod("inf", NULL)),
        "strtod: hex, exponent, inf");
  CHECK(strtod("2.2250738585072011e-308", NULL) == 2.2250738585072011e-308, "strtod near the denormals");
  char *end;
  CHECK(strtol("-2147483648", &end, 10) == LONG_MIN && *end == 0 && strtol("99999999999", NULL, 10) == LONG_MAX,
        "strtol limits");
  CHECK(strtoll("-9223372036854775808", NULL, 0) == LLONG_MIN && strtoull("0xFFFFFFFFFFFFFFFF", NULL, 0) == ULLONG_MAX,
        "strtoll, strtoull");
  CHECK(strtoul("0777", NULL, 0) == 511 && strtol("zz", NULL, 36) == 1295, "bases");
  int a, n;
  unsigned long long big;
  double d;
  char word[8];
  CHECK(sscanf("42 18446744073709551615 -0.25 hello%", "%d %llu %lf %7[a-z]%n", &a, &big, &d, word, &n) == 4 && a == 42 &&
            big == ULLONG_MAX && d == -0.25 && strcmp(word, "hello") == 0 && n == 35,
        "sscanf: %d %llu %g %s %d", a, big, d, word, n);
}

/* ---- 64-bit integers and long double ---- */
static void wide(void) {
  uint64_t f = 1;
  for (int i = 2; i <= 20; ++i) f *= (uint64_t)i;
  char buf[80];
  snprintf(buf, sizeof buf, "%" PRIu64 " %llx %jd %zu %td %hhd", f, (unsigned long long)f, (intmax_t)-f / 7,
           sizeof(long double), (ptrdiff_t)-3, (signed char)300);
  CHECK(strcmp(buf, "2432902008176640000 21c3677c82b40000 -347557429739520000 12 -3 44") == 0, "64-bit printf: %s", buf);
  long double sum = 0;
  for (int i = 1; i <= 100; ++i) sum += 1.0L / i;
  long double mean = sum / 100;
  double h = 0;
  for (int i = 1; i <= 100; ++i) h += 1.0 / i;
  CHECK((double)mean == h / 100, "long double is computed as double: %.17Lg %.17g", mean, h / 100);
  snprintf(buf, sizeof buf, "%.10Lf %Le", sum, (long double)1e300 * 10);
  CHECK(strcmp(buf, "5.1873775176 1.000000e+301") == 0, "printf of long double: %s", buf);
  CHECK(sizeof(long double) == 12 && LDBL_MANT_DIG == 64, "the m68k ABI's long double: 96 bits");
}

/* ---- setjmp: an error deep in a recursion comes back to the top ---- */
static jmp_buf on_error;
static int depth_reached;
static int descend(int depth) {
  depth_reached = depth;
  if (depth == 50) longjmp(on_error, depth);
  if (depth > 1000) return 0; /* never: the jump comes first */
  return descend(depth + 1) + 1;
}
static void jumps(void) {
  int r = setjmp(on_error);
  if (r == 0) {
    descend(0);
    CHECK(0, "descend returned");
  }
  CHECK(r == 50 && depth_reached == 50, "longjmp back from depth %d with %d", depth_reached, r);
}

static int order[3], calls;
static void first(void) { order[calls++] = 1; }
static void second(void) { order[calls++] = 2; }
static void at_end(void) {
  /* atexit runs last registered first: second, then first, then this one */
  if (calls == 2 && order[0] == 2 && order[1] == 1) printf("libc_programs_work: atexit in order\n");
}

int main(void) {
  CHECK(atexit(at_end) == 0 && atexit(first) == 0 && atexit(second) == 0, "atexit");
  words();
  numerics();
  parsing();
  wide();
  jumps();
  bool ok = true;
  assert(ok);
  tos_pass("libc_programs_work");
  return 0;
}
