/* IEEE-754 single precision: add, subtract, multiply, divide, negate, integer power and the
 * compares, on bit patterns (see runtime.h). Round to nearest even; denormals in and out;
 * infinities; signed zeros; an invalid operation (inf - inf, 0 * inf, 0 / 0, inf / inf) gives
 * the quiet NaN 0x7FC00000, and a NaN operand comes back quieted. No exception flags.
 *
 * Working form: a significand with its leading one at bit 23 (denormals are normalized on the
 * way in, their exponent going below 1), widened for guard bits; __rt_round32 rounds once. */
#include "runtime.h"

static int is_nan(f32_bits a) { return (a & ~F32_SIGN) > F32_INF; }

/* The NaN an operation on a NaN returns: the first NaN operand, made quiet. */
static f32_bits nan_of(f32_bits a, f32_bits b) { return (is_nan(a) ? a : b) | F32_QUIET; }

/* Significand of a finite nonzero magnitude, leading one at bit 23, and its exponent. */
static uint32_t unpack(f32_bits mag, int *exp) {
  int e = (int)(mag >> 23);
  uint32_t m = mag & F32_FRAC;
  if (e) {
    *exp = e;
    return m | 0x00800000u;
  }
  int s = __rt_clz32(m) - 8;
  *exp = 1 - s;
  return m << s;
}

f32_bits __rt_round32(uint32_t sign, int exp, uint32_t sig) {
  if (!sig) return sign;
  if (sig & 0x80000000u) {
    sig = __rt_shr_sticky32(sig, 1);
    ++exp;
  } else {
    int s = __rt_clz32(sig) - 1;
    sig <<= s;
    exp -= s;
  }
  /* Now 1 <= sig / 2^30 < 2: 24 significant bits and 7 below them (bit 0 may be sticky). */
  if (exp >= 0xFF) return sign | F32_INF;
  if (exp < 1) { /* below the normal range: denormalize, keeping what goes as sticky */
    sig = __rt_shr_sticky32(sig, 1 - exp);
    exp = 1;
  }
  uint32_t rest = sig & 0x7F;
  sig >>= 7;
  if (rest > 0x40 || (rest == 0x40 && (sig & 1))) ++sig;
  /* The leading one (or the carry out of rounding) adds itself to the exponent field: a
   * denormal rounding up to 2^23 becomes the smallest normal, 0x1.fffffe * 2^127 rounding up
   * becomes infinity. */
  return sign | (((uint32_t)(exp - 1) << 23) + sig);
}

f32_bits __addsf3(f32_bits a, f32_bits b) {
  f32_bits ma = a & ~F32_SIGN, mb = b & ~F32_SIGN;
  if (ma > F32_INF || mb > F32_INF) return nan_of(a, b);
  if (ma == F32_INF) return (mb == F32_INF && ((a ^ b) & F32_SIGN)) ? F32_QNAN : a;
  if (mb == F32_INF) return b;
  if (!ma) return mb ? b : (a & b); /* -0 + -0 = -0; +0 + -0 = +0 */
  if (!mb) return a;
  if (ma < mb) { /* |a| >= |b| from here; the result has a's sign */
    f32_bits t = a;
    a = b;
    b = t;
    t = ma;
    ma = mb;
    mb = t;
  }
  int ea, eb;
  uint32_t sa = unpack(ma, &ea) << 6, sb = unpack(mb, &eb) << 6; /* leading one at bit 29 */
  sb = __rt_shr_sticky32(sb, ea - eb);
  uint32_t sum = ((a ^ b) & F32_SIGN) ? sa - sb : sa + sb;
  if (!sum) return 0; /* x - x = +0 when rounding to nearest */
  return __rt_round32(a & F32_SIGN, ea + 1, sum);
}

f32_bits __subsf3(f32_bits a, f32_bits b) { return __addsf3(a, b ^ F32_SIGN); }

f32_bits __negsf2(f32_bits a) { return a ^ F32_SIGN; }

f32_bits __mulsf3(f32_bits a, f32_bits b) {
  uint32_t sign = (a ^ b) & F32_SIGN;
  f32_bits ma = a & ~F32_SIGN, mb = b & ~F32_SIGN;
  if (ma > F32_INF || mb > F32_INF) return nan_of(a, b);
  if (ma == F32_INF) return mb ? (sign | F32_INF) : F32_QNAN;
  if (mb == F32_INF) return ma ? (sign | F32_INF) : F32_QNAN;
  if (!ma || !mb) return sign;
  int ea, eb;
  uint32_t sa = unpack(ma, &ea), sb = unpack(mb, &eb);
  /* (sa * 2^8) * (sb * 2^8) lies in [2^62, 2^64): its high word has the 24 + 7 bits. */
  uint64_t p = __rt_mul32(sa << 8, sb << 8);
  uint32_t hi = (uint32_t)(p >> 32) | ((uint32_t)p != 0);
  return __rt_round32(sign, ea + eb - 127, hi);
}

f32_bits __divsf3(f32_bits a, f32_bits b) {
  uint32_t sign = (a ^ b) & F32_SIGN;
  f32_bits ma = a & ~F32_SIGN, mb = b & ~F32_SIGN;
  if (ma > F32_INF || mb > F32_INF) return nan_of(a, b);
  if (ma == F32_INF) return mb == F32_INF ? F32_QNAN : (sign | F32_INF);
  if (mb == F32_INF) return sign;
  if (!mb) return ma ? (sign | F32_INF) : F32_QNAN;
  if (!ma) return sign;
  int ea, eb;
  uint32_t r = unpack(ma, &ea), d = unpack(mb, &eb);
  int exp = ea - eb + 127 + 5;
  if (r < d) { /* make the quotient's first bit a one */
    r <<= 1;
    --exp;
  }
  /* Restoring division: 26 quotient bits (24 + guard + round), the remainder as sticky. */
  uint32_t q = 0;
  for (int i = 0; i < 26; ++i) {
    q <<= 1;
    if (r >= d) {
      r -= d;
      q |= 1;
    }
    r <<= 1;
  }
  return __rt_round32(sign, exp, q | (r != 0));
}

/* a ** n by repeated squaring, each product rounded (libgcc's __builtin_powif). */
f32_bits __powisf2(f32_bits a, int n) {
  uint32_t k = n < 0 ? -(uint32_t)n : (uint32_t)n;
  f32_bits r = (k & 1) ? a : 0x3F800000u;
  while (k >>= 1) {
    a = __mulsf3(a, a);
    if (k & 1) r = __mulsf3(r, a);
  }
  return n < 0 ? __divsf3(0x3F800000u, r) : r;
}

/* ---- compares. The libgcc conventions: __eqsf2 and __nesf2 return 0 iff a == b; __ltsf2 < 0
 * iff a < b; __lesf2 <= 0 iff a <= b; __gtsf2 > 0 iff a > b; __gesf2 >= 0 iff a >= b; so an
 * unordered pair (a NaN) gives 1 from eq, ne, lt, le and -1 from gt, ge. __unordsf2 is
 * nonzero iff a or b is a NaN. -0 == +0. */
#define UNORDERED 2

static int compare(f32_bits a, f32_bits b) {
  if (is_nan(a) || is_nan(b)) return UNORDERED;
  if (!((a | b) & ~F32_SIGN)) return 0; /* both zero, whatever the signs */
  if ((a ^ b) & F32_SIGN) return (a & F32_SIGN) ? -1 : 1;
  if (a == b) return 0;
  /* Same sign: magnitudes order like their bit patterns. */
  int less = (a & ~F32_SIGN) < (b & ~F32_SIGN);
  if (a & F32_SIGN) less = !less;
  return less ? -1 : 1;
}

int __eqsf2(f32_bits a, f32_bits b) {
  int c = compare(a, b);
  return c == UNORDERED ? 1 : c;
}
int __nesf2(f32_bits a, f32_bits b) { return __eqsf2(a, b); }
int __ltsf2(f32_bits a, f32_bits b) { return __eqsf2(a, b); }
int __lesf2(f32_bits a, f32_bits b) { return __eqsf2(a, b); }
int __gtsf2(f32_bits a, f32_bits b) {
  int c = compare(a, b);
  return c == UNORDERED ? -1 : c;
}
int __gesf2(f32_bits a, f32_bits b) { return __gtsf2(a, b); }
int __unordsf2(f32_bits a, f32_bits b) { return is_nan(a) || is_nan(b); }
