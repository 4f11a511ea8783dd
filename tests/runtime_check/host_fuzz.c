/* The 68010 runtime's sources (firmware/lib/runtime, portable C on integers) compiled for the
 * host and compared with the host's IEEE-754 hardware and integer arithmetic over random
 * operands: a second, independent check next to the TOS test runtime_helpers_are_exact,
 * which runs the 68010 build on the simulator against host-computed tables.
 *
 *     runtime_host_fuzz [ITERATIONS]
 *
 * The operands are biased towards what goes wrong: denormals, the exponent range's edges,
 * infinities, NaNs, short significands (rounding ties). Conversions of NaN and out-of-range
 * values follow the runtime's documented choice (saturate; NaN -> 0), the rest what the host
 * computes. Prints the first failures and "runtime_agrees_with_host_fpu: PASS" when none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "testbed_version_info.h" /* --version: cmake/version.cmake */

static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void) { /* xorshift64: the same operands on every run */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static float F(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static double D(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint32_t BF(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t BD(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

static uint32_t random_f32(void) {
  uint64_t r = rnd();
  uint32_t b = (uint32_t)r;
  switch ((r >> 40) % 8) {
    case 0: return b;
    case 1: return (b & 0x807FFFFFu) | (uint32_t)(122 + (r >> 48) % 11) << 23; /* near 1 */
    case 2: return b & 0x807FFFFFu;                                              /* denormal */
    case 3: /* zero, infinity or NaN */
      return (b & 0x80000000u) | ((r >> 50) % 2 ? 0x7F800000u : 0) | ((r >> 52) % 3 ? b & F32_FRAC : 0);
    case 4: return (b & 0x80FFFFFFu) | 0x7E000000u;                              /* near the top */
    case 5: return (b & 0x807FFFFFu) | 0x00800000u;                              /* smallest exponent */
    case 6: return b & 0xFFFF0000u;                                              /* short significand */
    default: return (b & 0x807FFFFFu) | (uint32_t)((r >> 48) % 254 + 1) << 23;
  }
}

static uint64_t random_f64(void) {
  uint64_t r = rnd(), b = rnd();
  switch ((r >> 40) % 8) {
    case 0: return b;
    case 1: return (b & 0x800FFFFFFFFFFFFFull) | (uint64_t)(1013 + (r >> 48) % 21) << 52;
    case 2: return b & 0x800FFFFFFFFFFFFFull;
    case 3: return (b & F64_SIGN) | ((r >> 50) % 2 ? F64_INF : 0) | ((r >> 52) % 3 ? b & F64_FRAC : 0);
    case 4: return (b & 0x801FFFFFFFFFFFFFull) | 0x7FC0000000000000ull;
    case 5: return (b & 0x800FFFFFFFFFFFFFull) | 0x0010000000000000ull;
    case 6: return b & 0xFFFFFFFF00000000ull;
    default: return (b & 0x800FFFFFFFFFFFFFull) | (uint64_t)((r >> 48) % 2046 + 1) << 52;
  }
}

static long failures;
#define EXPECT(cond, ...)                  \
  do {                                     \
    if (!(cond) && failures++ < 30) {      \
      printf("FAIL: " __VA_ARGS__);        \
      printf("\n");                        \
    }                                      \
  } while (0)

/* Same bits, or both NaN with the result quiet. */
static int same32(uint32_t got, float want) {
  if (isnan(want)) return (got & 0x7FFFFFFFu) > F32_INF && (got & F32_QUIET);
  return got == BF(want);
}
static int same64(uint64_t got, double want) {
  if (isnan(want)) return (got & ~F64_SIGN) > F64_INF && (got & F64_QUIET);
  return got == BD(want);
}

/* libgcc's powi, on the host's arithmetic */
static float powi_f(float x, int m) {
  unsigned n = m < 0 ? -(unsigned)m : (unsigned)m;
  float y = n % 2 ? x : 1;
  while (n >>= 1) {
    x = x * x;
    if (n % 2) y = y * x;
  }
  return m < 0 ? 1 / y : y;
}
static double powi_d(double x, int m) {
  unsigned n = m < 0 ? -(unsigned)m : (unsigned)m;
  double y = n % 2 ? x : 1;
  while (n >>= 1) {
    x = x * x;
    if (n % 2) y = y * x;
  }
  return m < 0 ? 1 / y : y;
}

/* The runtime's conversions to integers: truncate, saturate, NaN -> 0. */
static int32_t to_i32(double x) {
  return isnan(x) ? 0 : x >= 2147483648.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)x;
}
static uint32_t to_u32(double x) {
  return isnan(x) || x <= 0 ? 0 : x >= 4294967296.0 ? UINT32_MAX : (uint32_t)x;
}
static int64_t to_i64(double x) {
  return isnan(x) ? 0 : x >= 9223372036854775808.0 ? INT64_MAX : x <= -9223372036854775808.0 ? INT64_MIN : (int64_t)x;
}
static uint64_t to_u64(double x) {
  return isnan(x) || x <= 0 ? 0 : x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
}

static int popcount(uint64_t x) {
  int n = 0;
  for (; x; x >>= 1) n += (int)(x & 1);
  return n;
}

static void floats(void) {
  uint32_t a = random_f32(), b = random_f32();
  float fa = F(a), fb = F(b);
  EXPECT(same32(__addsf3(a, b), fa + fb), "__addsf3 %08x %08x -> %08x", a, b, __addsf3(a, b));
  EXPECT(same32(__subsf3(a, b), fa - fb), "__subsf3 %08x %08x -> %08x", a, b, __subsf3(a, b));
  EXPECT(same32(__mulsf3(a, b), fa * fb), "__mulsf3 %08x %08x -> %08x", a, b, __mulsf3(a, b));
  EXPECT(same32(__divsf3(a, b), fa / fb), "__divsf3 %08x %08x -> %08x", a, b, __divsf3(a, b));
  EXPECT(__unordsf2(a, b) == (isnan(fa) || isnan(fb)), "__unordsf2 %08x %08x", a, b);
  EXPECT((__eqsf2(a, b) == 0) == (fa == fb), "__eqsf2 %08x %08x", a, b);
  EXPECT((__nesf2(a, b) != 0) == (fa != fb), "__nesf2 %08x %08x", a, b);
  EXPECT((__ltsf2(a, b) < 0) == (fa < fb), "__ltsf2 %08x %08x", a, b);
  EXPECT((__lesf2(a, b) <= 0) == (fa <= fb), "__lesf2 %08x %08x", a, b);
  EXPECT((__gtsf2(a, b) > 0) == (fa > fb), "__gtsf2 %08x %08x", a, b);
  EXPECT((__gesf2(a, b) >= 0) == (fa >= fb), "__gesf2 %08x %08x", a, b);
  EXPECT(same64(__extendsfdf2(a), (double)fa), "__extendsfdf2 %08x", a);
  EXPECT(__fixsfsi(a) == to_i32(fa), "__fixsfsi %08x", a);
  EXPECT(__fixunssfsi(a) == to_u32(fa), "__fixunssfsi %08x", a);
  EXPECT(__fixsfdi(a) == to_i64(fa), "__fixsfdi %08x", a);
  EXPECT(__fixunssfdi(a) == to_u64(fa), "__fixunssfdi %08x", a);
  int n = (int)(rnd() % 41) - 20;
  EXPECT((isnan(fa) && isnan(F(__powisf2(a, n)))) || same32(__powisf2(a, n), powi_f(fa, n)),
         "__powisf2 %08x %d", a, n);

  uint64_t c = random_f64(), d = random_f64();
  double dc = D(c), dd = D(d);
#define X(v) (unsigned long long)(v)
  EXPECT(same64(__adddf3(c, d), dc + dd), "__adddf3 %016llx %016llx", X(c), X(d));
  EXPECT(same64(__subdf3(c, d), dc - dd), "__subdf3 %016llx %016llx", X(c), X(d));
  EXPECT(same64(__muldf3(c, d), dc * dd), "__muldf3 %016llx %016llx", X(c), X(d));
  EXPECT(same64(__divdf3(c, d), dc / dd), "__divdf3 %016llx %016llx", X(c), X(d));
  EXPECT(__unorddf2(c, d) == (isnan(dc) || isnan(dd)), "__unorddf2 %016llx %016llx", X(c), X(d));
  EXPECT((__eqdf2(c, d) == 0) == (dc == dd), "__eqdf2 %016llx %016llx", X(c), X(d));
  EXPECT((__nedf2(c, d) != 0) == (dc != dd), "__nedf2 %016llx %016llx", X(c), X(d));
  EXPECT((__ltdf2(c, d) < 0) == (dc < dd), "__ltdf2 %016llx %016llx", X(c), X(d));
  EXPECT((__ledf2(c, d) <= 0) == (dc <= dd), "__ledf2 %016llx %016llx", X(c), X(d));
  EXPECT((__gtdf2(c, d) > 0) == (dc > dd), "__gtdf2 %016llx %016llx", X(c), X(d));
  EXPECT((__gedf2(c, d) >= 0) == (dc >= dd), "__gedf2 %016llx %016llx", X(c), X(d));
  EXPECT(same32(__truncdfsf2(c), (float)dc), "__truncdfsf2 %016llx", X(c));
  EXPECT(__fixdfsi(c) == to_i32(dc), "__fixdfsi %016llx", X(c));
  EXPECT(__fixunsdfsi(c) == to_u32(dc), "__fixunsdfsi %016llx", X(c));
  EXPECT(__fixdfdi(c) == to_i64(dc), "__fixdfdi %016llx", X(c));
  EXPECT(__fixunsdfdi(c) == to_u64(dc), "__fixunsdfdi %016llx", X(c));
  EXPECT((isnan(dc) && isnan(D(__powidf2(c, n)))) || same64(__powidf2(c, n), powi_d(dc, n)),
         "__powidf2 %016llx %d", X(c), n);
}

static void integers(void) {
  uint64_t x = rnd(), y = rnd();
  if (rnd() % 2) x >>= rnd() % 64;
  if (rnd() % 2) y >>= rnd() % 64;
  uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y;
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  int32_t sx32 = (int32_t)x32, sy32 = (int32_t)y32;
  int n = (int)(rnd() % 64);
  EXPECT(__floatsisf(sx32) == BF((float)sx32), "__floatsisf %08x", x32);
  EXPECT(__floatunsisf(x32) == BF((float)x32), "__floatunsisf %08x", x32);
  EXPECT(__floatdisf(sx) == BF((float)sx), "__floatdisf %016llx", X(x));
  EXPECT(__floatundisf(x) == BF((float)x), "__floatundisf %016llx", X(x));
  EXPECT(__floatsidf(sx32) == BD((double)sx32), "__floatsidf %08x", x32);
  EXPECT(__floatunsidf(x32) == BD((double)x32), "__floatunsidf %08x", x32);
  EXPECT(__floatdidf(sx) == BD((double)sx), "__floatdidf %016llx", X(x));
  EXPECT(__floatundidf(x) == BD((double)x), "__floatundidf %016llx", X(x));
  EXPECT(__mulsi3(x32, y32) == x32 * y32, "__mulsi3 %08x %08x", x32, y32);
  EXPECT(__muldi3(x, y) == x * y, "__muldi3 %016llx %016llx", X(x), X(y));
  if (y) {
    EXPECT(__udivdi3(x, y) == x / y, "__udivdi3 %016llx %016llx", X(x), X(y));
    EXPECT(__umoddi3(x, y) == x % y, "__umoddi3 %016llx %016llx", X(x), X(y));
    if (!(sx == INT64_MIN && sy == -1)) {
      EXPECT(__divdi3(sx, sy) == sx / sy, "__divdi3 %016llx %016llx", X(x), X(y));
      EXPECT(__moddi3(sx, sy) == sx % sy, "__moddi3 %016llx %016llx", X(x), X(y));
    }
  }
  if (y32) {
    EXPECT(__udivsi3(x32, y32) == x32 / y32, "__udivsi3 %08x %08x", x32, y32);
    EXPECT(__umodsi3(x32, y32) == x32 % y32, "__umodsi3 %08x %08x", x32, y32);
    if (!(sx32 == INT32_MIN && sy32 == -1)) {
      EXPECT(__divsi3(sx32, sy32) == sx32 / sy32, "__divsi3 %08x %08x", x32, y32);
      EXPECT(__modsi3(sx32, sy32) == sx32 % sy32, "__modsi3 %08x %08x", x32, y32);
    }
  }
  EXPECT(__ashldi3(x, n) == x << n, "__ashldi3 %016llx %d", X(x), n);
  EXPECT(__lshrdi3(x, n) == x >> n, "__lshrdi3 %016llx %d", X(x), n);
  EXPECT(__ashrdi3(sx, n) == sx >> n, "__ashrdi3 %016llx %d", X(x), n);
  EXPECT(__cmpdi2(sx, sy) == (sx < sy ? 0 : sx == sy ? 1 : 2), "__cmpdi2 %016llx %016llx", X(x), X(y));
  EXPECT(__ucmpdi2(x, y) == (x < y ? 0 : x == y ? 1 : 2), "__ucmpdi2 %016llx %016llx", X(x), X(y));
  EXPECT(__negdi2(sx) == (int64_t)-x, "__negdi2 %016llx", X(x));
  if (x32) {
    EXPECT(__clzsi2(x32) == __builtin_clz(x32), "__clzsi2 %08x", x32);
    EXPECT(__ctzsi2(x32) == __builtin_ctz(x32), "__ctzsi2 %08x", x32);
  }
  if (x) {
    EXPECT(__clzdi2(x) == __builtin_clzll(x), "__clzdi2 %016llx", X(x));
    EXPECT(__ctzdi2(x) == __builtin_ctzll(x), "__ctzdi2 %016llx", X(x));
  }
  EXPECT(__ffssi2(x32) == __builtin_ffs((int)x32), "__ffssi2 %08x", x32);
  EXPECT(__ffsdi2(x) == __builtin_ffsll((long long)x), "__ffsdi2 %016llx", X(x));
  EXPECT(__popcountsi2(x32) == popcount(x32), "__popcountsi2 %08x", x32);
  EXPECT(__popcountdi2(x) == popcount(x), "__popcountdi2 %016llx", X(x));
  EXPECT(__paritysi2(x32) == (popcount(x32) & 1), "__paritysi2 %08x", x32);
  EXPECT(__paritydi2(x) == (popcount(x) & 1), "__paritydi2 %016llx", X(x));
  EXPECT(__bswapsi2(x32) == __builtin_bswap32(x32), "__bswapsi2 %08x", x32);
  EXPECT(__bswapdi2(x) == __builtin_bswap64(x), "__bswapdi2 %016llx", X(x));
}

int main(int argc, char **argv) {
  long n = 1000000;
  if (argc > 1 && !strcmp(argv[1], "--version")) {
    printf("runtime_host_fuzz " TESTBED_VERSION " (git " TESTBED_GIT_COMMIT ")\n");
    return 0;
  }
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: runtime_host_fuzz [ITERATIONS]\n  the m68k runtime's soft-float and integer helpers against "
           "the host's, ITERATIONS 1..10000000000 (default 1000000)\n");
    return 0;
  }
  if (argc > 2) {
    fprintf(stderr, "runtime_host_fuzz: at most one argument (runtime_host_fuzz --help)\n");
    return 2;
  }
  if (argc > 1) {
    char *end = NULL;
    n = strtol(argv[1], &end, 10);
    if (!argv[1][0] || *end || n < 1 || n > 10000000000L) {
      fprintf(stderr, "runtime_host_fuzz: ITERATIONS '%s': expected a whole number from 1 to 10000000000\n", argv[1]);
      return 2;
    }
  }
  for (long i = 0; i < n; ++i) {
    floats();
    integers();
  }
  printf("runtime_host_fuzz: %ld iterations, %ld failures\n", n, failures);
  if (failures) return 1;
  printf("runtime_agrees_with_host_fpu: PASS\n");
  return 0;
}
