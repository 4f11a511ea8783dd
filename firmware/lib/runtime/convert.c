/* Conversions between the integer types and float/double, and between float and double.
 *
 * Integer to floating point rounds to nearest even (through __rt_round32/64). Floating point to
 * integer truncates toward zero, as C requires. What C leaves undefined - a NaN or a value out
 * of the integer type's range - is defined here as Java and Rust define it: the result
 * saturates at the type's limit, a NaN converts to 0, and a negative value to an unsigned type
 * gives 0. */
#include "runtime.h"

/* ---- integer -> floating point ---- */
f32_bits __floatunsisf(uint32_t i) { return __rt_round32(0, 127 + 30, i); }

f32_bits __floatsisf(int32_t i) {
  return i < 0 ? __rt_round32(F32_SIGN, 127 + 30, -(uint32_t)i) : __floatunsisf((uint32_t)i);
}

/* A 64-bit magnitude narrowed to 32 bits for __rt_round32, the low bits kept as sticky. */
static f32_bits round32_from64(uint32_t sign, uint64_t m) {
  int shift = m >> 32 ? 32 - __rt_clz32((uint32_t)(m >> 32)) : 0;
  return __rt_round32(sign, 127 + 30 + shift, (uint32_t)__rt_shr_sticky64(m, shift));
}

f32_bits __floatundisf(uint64_t i) { return round32_from64(0, i); }

f32_bits __floatdisf(int64_t i) {
  return i < 0 ? round32_from64(F32_SIGN, -(uint64_t)i) : round32_from64(0, (uint64_t)i);
}

f64_bits __floatunsidf(uint32_t i) { return __rt_round64(0, 1023 + 62, i); }

f64_bits __floatsidf(int32_t i) {
  return i < 0 ? __rt_round64(F64_SIGN, 1023 + 62, -(uint32_t)i) : __floatunsidf((uint32_t)i);
}

f64_bits __floatundidf(uint64_t i) { return __rt_round64(0, 1023 + 62, i); }

f64_bits __floatdidf(int64_t i) {
  return __rt_round64(i < 0 ? F64_SIGN : 0, 1023 + 62, i < 0 ? -(uint64_t)i : (uint64_t)i);
}

/* ---- floating point -> integer ---- */

/* |a| truncated to an integer, for an a with exponent e (unbiased, 0 <= e < 64) and
 * significand m whose leading one is at bit `top`. */
static uint64_t truncate(uint64_t m, int top, int e) {
  return e >= top ? m << (e - top) : m >> (top - e);
}

/* A float's magnitude truncated, saturating at 2^bits - 1: bits is 32 or 64 (magnitude of an
 * unsigned type) or 31 / 63 (a signed type's positive limit; the caller handles -2^31 / -2^63). */
static uint64_t fix32(f32_bits a, int bits) {
  f32_bits mag = a & ~F32_SIGN;
  int e = (int)(mag >> 23) - 127;
  if (e < 0) return 0; /* |a| < 1, zero and denormals */
  if (e >= bits) return bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
  return truncate((mag & F32_FRAC) | 0x00800000u, 23, e);
}

static uint64_t fix64(f64_bits a, int bits) {
  f64_bits mag = a & ~F64_SIGN;
  int e = (int)(mag >> 52) - 1023;
  if (e < 0) return 0;
  if (e >= bits) return bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
  return truncate((mag & F64_FRAC) | (F64_FRAC + 1), 52, e);
}

#define F32_IS_NAN(a) (((a) & ~F32_SIGN) > F32_INF)
#define F64_IS_NAN(a) (((a) & ~F64_SIGN) > F64_INF)
/* -2^31 and -2^63 exactly, the one negative value beyond the positive limit */
#define F32_M2P31 0xCF000000u
#define F32_M2P63 0xDF000000u
#define F64_M2P31 0xC1E0000000000000ull
#define F64_M2P63 0xC3E0000000000000ull

int32_t __fixsfsi(f32_bits a) {
  if (F32_IS_NAN(a)) return 0;
  if (a >= F32_M2P31) return INT32_MIN; /* a <= -2^31: saturate (-2^31 itself is exact) */
  uint32_t m = (uint32_t)fix32(a, 31);
  return (a & F32_SIGN) ? -(int32_t)m : (int32_t)m;
}

uint32_t __fixunssfsi(f32_bits a) {
  if (F32_IS_NAN(a) || (a & F32_SIGN)) return 0;
  return (uint32_t)fix32(a, 32);
}

int64_t __fixsfdi(f32_bits a) {
  if (F32_IS_NAN(a)) return 0;
  if (a >= F32_M2P63) return INT64_MIN;
  uint64_t m = fix32(a, 63);
  return (a & F32_SIGN) ? -(int64_t)m : (int64_t)m;
}

uint64_t __fixunssfdi(f32_bits a) {
  if (F32_IS_NAN(a) || (a & F32_SIGN)) return 0;
  return fix32(a, 64);
}

int32_t __fixdfsi(f64_bits a) {
  if (F64_IS_NAN(a)) return 0;
  if (a >= F64_M2P31) return INT32_MIN;
  uint32_t m = (uint32_t)fix64(a, 31);
  return (a & F64_SIGN) ? -(int32_t)m : (int32_t)m;
}

uint32_t __fixunsdfsi(f64_bits a) {
  if (F64_IS_NAN(a) || (a & F64_SIGN)) return 0;
  return (uint32_t)fix64(a, 32);
}

int64_t __fixdfdi(f64_bits a) {
  if (F64_IS_NAN(a)) return 0;
  if (a >= F64_M2P63) return INT64_MIN;
  uint64_t m = fix64(a, 63);
  return (a & F64_SIGN) ? -(int64_t)m : (int64_t)m;
}

uint64_t __fixunsdfdi(f64_bits a) {
  if (F64_IS_NAN(a) || (a & F64_SIGN)) return 0;
  return fix64(a, 64);
}

/* ---- float <-> double ---- */
f64_bits __extendsfdf2(f32_bits a) {
  uint64_t sign = (uint64_t)(a & F32_SIGN) << 32;
  f32_bits mag = a & ~F32_SIGN;
  if (mag >= F32_INF) /* infinity, or a NaN made quiet, its payload kept */
    return sign | F64_INF | ((uint64_t)(mag & F32_FRAC) << 29) | (mag > F32_INF ? F64_QUIET : 0);
  if (!mag) return sign;
  /* Exact: the value is mag's significand (any width) * 2^(e - 127 - 23). */
  int e = (int)(mag >> 23);
  uint64_t m = e ? (mag & F32_FRAC) | 0x00800000u : mag;
  return __rt_round64(sign, (e ? e : 1) - 127 + 1023 + 62 - 23, m);
}

f32_bits __truncdfsf2(f64_bits a) {
  uint32_t sign = (uint32_t)(a >> 32) & F32_SIGN;
  f64_bits mag = a & ~F64_SIGN;
  if (mag > F64_INF) return sign | F32_INF | F32_QUIET | (uint32_t)((mag & F64_FRAC) >> 29);
  if (mag == F64_INF) return sign | F32_INF;
  int e = (int)(mag >> 52);
  /* A denormal double is below 2^-1022, far under half the smallest float denormal. */
  if (!e) return sign;
  uint64_t m = (mag & F64_FRAC) | (F64_FRAC + 1); /* leading one at bit 52 */
  return __rt_round32(sign, e - 1023 + 127, (uint32_t)__rt_shr_sticky64(m, 22));
}
