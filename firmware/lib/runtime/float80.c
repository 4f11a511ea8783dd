/* long double: the m68k ABI's 96-bit extended format (the 68881's: sign and a 15-bit exponent,
 * 16 unused bits, a 64-bit significand with its integer bit), computed in double precision.
 * Every helper converts its operands to double (rounding to nearest even), calls the double
 * helper, and widens the result back, exactly. A program that uses long double gets double's
 * 53-bit precision and range in the 96-bit storage format: printf's %Lf and the compares agree
 * with the arithmetic. (libgcc's m68k long double helpers are 68881 code: without these a
 * program with long double arithmetic fails to link with "multiple definition of __adddf3".)
 *
 * The helpers take and return long double by value, as GCC calls them: passing and returning
 * copies bits, and no floating-point operation is done on the type here. */
#include "runtime.h"

#if defined(__m68k__) /* the format is the m68k's: the host build of the runtime leaves it out */

typedef union {
  long double v;
  struct {
    uint16_t se;  /* sign and biased exponent (16383) */
    uint16_t pad; /* unused: zero */
    uint32_t hi, lo;
  } b;
} xf;

#define XF_BIAS 16383

f64_bits __rt_xf_to_df(long double a);
long double __rt_df_to_xf(f64_bits d);

f64_bits __rt_xf_to_df(long double a) {
  xf x;
  x.v = a;
  uint64_t sign = (uint64_t)(x.b.se & 0x8000u) << 48;
  int e = x.b.se & 0x7FFF;
  uint64_t m = (uint64_t)x.b.hi << 32 | x.b.lo;
  if (e == 0x7FFF) { /* the 68881 ignores the integer bit of infinities and NaNs */
    if (!(m << 1)) return sign | F64_INF;
    return sign | F64_QNAN | ((m << 1) >> 12 & F64_FRAC);
  }
  if (!m) return sign;
  /* m * 2^(e - 16383 - 63) = m * 2^(exp - 1023 - 62) */
  return __rt_round64(sign, e - XF_BIAS + 1023 - 1, m);
}

long double __rt_df_to_xf(f64_bits d) {
  xf x;
  uint16_t sign = (uint16_t)(d >> 48) & 0x8000u;
  int e = (int)(d >> 52) & 0x7FF;
  uint64_t f = d & F64_FRAC, m;
  x.b.pad = 0;
  if (e == 0x7FF) {
    x.b.se = sign | 0x7FFF;
    m = f ? 0xC000000000000000ull | f << 11 : 0; /* a NaN stays a NaN, quiet */
  } else if (e == 0) {
    if (!f) {
      m = 0;
      x.b.se = sign;
    } else { /* a denormal double is a normal extended */
      int lz = __rt_clz64(f);
      m = f << lz;
      x.b.se = sign | (uint16_t)(1 - 1023 + XF_BIAS - (lz - 11));
    }
  } else {
    m = 0x8000000000000000ull | f << 11;
    x.b.se = sign | (uint16_t)(e - 1023 + XF_BIAS);
  }
  x.b.hi = (uint32_t)(m >> 32);
  x.b.lo = (uint32_t)m;
  return x.v;
}

long double __addxf3(long double a, long double b) { return __rt_df_to_xf(__adddf3(__rt_xf_to_df(a), __rt_xf_to_df(b))); }
long double __subxf3(long double a, long double b) { return __rt_df_to_xf(__subdf3(__rt_xf_to_df(a), __rt_xf_to_df(b))); }
long double __mulxf3(long double a, long double b) { return __rt_df_to_xf(__muldf3(__rt_xf_to_df(a), __rt_xf_to_df(b))); }
long double __divxf3(long double a, long double b) { return __rt_df_to_xf(__divdf3(__rt_xf_to_df(a), __rt_xf_to_df(b))); }
long double __negxf2(long double a) {
  xf x;
  x.v = a;
  x.b.se ^= 0x8000u;
  return x.v;
}
long double __powixf2(long double a, int n) { return __rt_df_to_xf(__powidf2(__rt_xf_to_df(a), n)); }

int __eqxf2(long double a, long double b) { return __eqdf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __nexf2(long double a, long double b) { return __nedf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __ltxf2(long double a, long double b) { return __ltdf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __lexf2(long double a, long double b) { return __ledf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __gtxf2(long double a, long double b) { return __gtdf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __gexf2(long double a, long double b) { return __gedf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }
int __unordxf2(long double a, long double b) { return __unorddf2(__rt_xf_to_df(a), __rt_xf_to_df(b)); }

f64_bits __truncxfdf2(long double a) { return __rt_xf_to_df(a); }
f32_bits __truncxfsf2(long double a) { return __truncdfsf2(__rt_xf_to_df(a)); }
long double __extenddfxf2(f64_bits a) { return __rt_df_to_xf(a); }
long double __extendsfxf2(f32_bits a) { return __rt_df_to_xf(__extendsfdf2(a)); }

long double __floatsixf(int32_t i) { return __rt_df_to_xf(__floatsidf(i)); }
long double __floatunsixf(uint32_t i) { return __rt_df_to_xf(__floatunsidf(i)); }
long double __floatdixf(int64_t i) { return __rt_df_to_xf(__floatdidf(i)); }
long double __floatundixf(uint64_t i) { return __rt_df_to_xf(__floatundidf(i)); }
int32_t __fixxfsi(long double a) { return __fixdfsi(__rt_xf_to_df(a)); }
uint32_t __fixunsxfsi(long double a) { return __fixunsdfsi(__rt_xf_to_df(a)); }
int64_t __fixxfdi(long double a) { return __fixdfdi(__rt_xf_to_df(a)); }
uint64_t __fixunsxfdi(long double a) { return __fixunsdfdi(__rt_xf_to_df(a)); }

#endif
