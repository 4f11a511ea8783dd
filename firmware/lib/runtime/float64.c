/* IEEE-754 double precision: add, subtract, multiply, divide, negate, integer power and the
 * compares, on bit patterns (see runtime.h). The same rules as float32.c: round to nearest
 * even, denormals, infinities, signed zeros, the quiet NaN 0x7FF8000000000000 for an invalid
 * operation, NaN operands quieted.
 *
 * Working form: a significand with its leading one at bit 52, widened for guard bits;
 * __rt_round64 rounds once. The 106-bit product is built from 32 x 32 -> 64 pieces. */
#include "runtime.h"

static int is_nan(f64_bits a) { return (a & ~F64_SIGN) > F64_INF; }

static f64_bits nan_of(f64_bits a, f64_bits b) { return (is_nan(a) ? a : b) | F64_QUIET; }

/* Significand of a finite nonzero magnitude, leading one at bit 52, and its exponent. */
static uint64_t unpack(f64_bits mag, int *exp) {
  int e = (int)(mag >> 52);
  uint64_t m = mag & F64_FRAC;
  if (e) {
    *exp = e;
    return m | (F64_FRAC + 1);
  }
  int s = __rt_clz64(m) - 11;
  *exp = 1 - s;
  return m << s;
}

f64_bits __rt_round64(uint64_t sign, int exp, uint64_t sig) {
  if (!sig) return sign;
  if (sig >> 63) {
    sig = __rt_shr_sticky64(sig, 1);
    ++exp;
  } else {
    int s = __rt_clz64(sig) - 1;
    sig <<= s;
    exp -= s;
  }
  /* Now 1 <= sig / 2^62 < 2: 53 significant bits and 10 below them (bit 0 may be sticky). */
  if (exp >= 0x7FF) return sign | F64_INF;
  if (exp < 1) {
    sig = __rt_shr_sticky64(sig, 1 - exp);
    exp = 1;
  }
  uint32_t rest = (uint32_t)sig & 0x3FF;
  sig >>= 10;
  if (rest > 0x200 || (rest == 0x200 && (sig & 1))) ++sig;
  return sign | (((uint64_t)(exp - 1) << 52) + sig); /* see __rt_round32 */
}

f64_bits __adddf3(f64_bits a, f64_bits b) {
  f64_bits ma = a & ~F64_SIGN, mb = b & ~F64_SIGN;
  if (ma > F64_INF || mb > F64_INF) return nan_of(a, b);
  if (ma == F64_INF) return (mb == F64_INF && ((a ^ b) & F64_SIGN)) ? F64_QNAN : a;
  if (mb == F64_INF) return b;
  if (!ma) return mb ? b : (a & b);
  if (!mb) return a;
  if (ma < mb) {
    f64_bits t = a;
    a = b;
    b = t;
    t = ma;
    ma = mb;
    mb = t;
  }
  int ea, eb;
  uint64_t sa = unpack(ma, &ea) << 9, sb = unpack(mb, &eb) << 9; /* leading one at bit 61 */
  sb = __rt_shr_sticky64(sb, ea - eb);
  uint64_t sum = ((a ^ b) & F64_SIGN) ? sa - sb : sa + sb;
  if (!sum) return 0;
  return __rt_round64(a & F64_SIGN, ea + 1, sum);
}

f64_bits __subdf3(f64_bits a, f64_bits b) { return __adddf3(a, b ^ F64_SIGN); }

f64_bits __negdf2(f64_bits a) { return a ^ F64_SIGN; }

f64_bits __muldf3(f64_bits a, f64_bits b) {
  uint64_t sign = (a ^ b) & F64_SIGN;
  f64_bits ma = a & ~F64_SIGN, mb = b & ~F64_SIGN;
  if (ma > F64_INF || mb > F64_INF) return nan_of(a, b);
  if (ma == F64_INF) return mb ? (sign | F64_INF) : F64_QNAN;
  if (mb == F64_INF) return ma ? (sign | F64_INF) : F64_QNAN;
  if (!ma || !mb) return sign;
  int ea, eb;
  uint64_t sa = unpack(ma, &ea) << 11, sb = unpack(mb, &eb) << 11; /* leading one at bit 63 */
  /* The 128-bit product from four 32 x 32 -> 64 products; it lies in [2^126, 2^128). */
  uint32_t a1 = (uint32_t)(sa >> 32), a0 = (uint32_t)sa, b1 = (uint32_t)(sb >> 32),
           b0 = (uint32_t)sb;
  uint64_t p00 = __rt_mul32(a0, b0), p01 = __rt_mul32(a0, b1), p10 = __rt_mul32(a1, b0);
  uint64_t p11 = __rt_mul32(a1, b1);
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; /* < 3 * 2^32 */
  uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  int sticky = ((uint32_t)mid | (uint32_t)p00) != 0; /* the low 64 bits */
  return __rt_round64(sign, ea + eb - 1023, hi | (uint64_t)sticky);
}

f64_bits __divdf3(f64_bits a, f64_bits b) {
  uint64_t sign = (a ^ b) & F64_SIGN;
  f64_bits ma = a & ~F64_SIGN, mb = b & ~F64_SIGN;
  if (ma > F64_INF || mb > F64_INF) return nan_of(a, b);
  if (ma == F64_INF) return mb == F64_INF ? F64_QNAN : (sign | F64_INF);
  if (mb == F64_INF) return sign;
  if (!mb) return ma ? (sign | F64_INF) : F64_QNAN;
  if (!ma) return sign;
  int ea, eb;
  uint64_t r = unpack(ma, &ea), d = unpack(mb, &eb);
  int exp = ea - eb + 1023 + 8;
  if (r < d) {
    r <<= 1;
    --exp;
  }
  /* Restoring division: 55 quotient bits (53 + guard + round), the remainder as sticky. */
  uint64_t q = 0;
  for (int i = 0; i < 55; ++i) {
    q <<= 1;
    if (r >= d) {
      r -= d;
      q |= 1;
    }
    r <<= 1;
  }
  return __rt_round64(sign, exp, q | (r != 0));
}

f64_bits __powidf2(f64_bits a, int n) {
  uint32_t k = n < 0 ? -(uint32_t)n : (uint32_t)n;
  f64_bits r = (k & 1) ? a : 0x3FF0000000000000ull;
  while (k >>= 1) {
    a = __muldf3(a, a);
    if (k & 1) r = __muldf3(r, a);
  }
  return n < 0 ? __divdf3(0x3FF0000000000000ull, r) : r;
}

/* ---- compares, with the conventions of float32.c ---- */
#define UNORDERED 2

static int compare(f64_bits a, f64_bits b) {
  if (is_nan(a) || is_nan(b)) return UNORDERED;
  if (!((a | b) & ~F64_SIGN)) return 0;
  if ((a ^ b) & F64_SIGN) return (a & F64_SIGN) ? -1 : 1;
  if (a == b) return 0;
  int less = (a & ~F64_SIGN) < (b & ~F64_SIGN);
  if (a & F64_SIGN) less = !less;
  return less ? -1 : 1;
}

int __eqdf2(f64_bits a, f64_bits b) {
  int c = compare(a, b);
  return c == UNORDERED ? 1 : c;
}
int __nedf2(f64_bits a, f64_bits b) { return __eqdf2(a, b); }
int __ltdf2(f64_bits a, f64_bits b) { return __eqdf2(a, b); }
int __ledf2(f64_bits a, f64_bits b) { return __eqdf2(a, b); }
int __gtdf2(f64_bits a, f64_bits b) {
  int c = compare(a, b);
  return c == UNORDERED ? -1 : c;
}
int __gedf2(f64_bits a, f64_bits b) { return __gtdf2(a, b); }
int __unorddf2(f64_bits a, f64_bits b) { return is_nan(a) || is_nan(b); }
