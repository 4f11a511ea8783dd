/* The 68010 runtime: the helpers GCC calls for operations the 68010 has no instruction for
 * (32/64-bit multiply and divide, 64-bit shifts, IEEE-754 single and double arithmetic,
 * compares and conversions), under the names and calling conventions of libgcc. See README.md.
 *
 * Internal header, shared by the runtime's sources only. Everything here is portable C on
 * integers: the sources compile for the host as well (the same code can be checked against a
 * host FPU), and never use a float or double type, so GCC never calls a helper from inside one.
 *
 * Floating-point values travel as their bit patterns: under -msoft-float the m68k ABI passes a
 * float in a 4-byte stack slot and a double in an 8-byte one, high word first, and returns them
 * in d0 and d0:d1 - exactly as it passes and returns a uint32_t and a uint64_t. So
 * `uint32_t __addsf3(uint32_t, uint32_t)` is what GCC calls for a float `a + b`. */
#ifndef TESTBED_RUNTIME_H
#define TESTBED_RUNTIME_H
#include <stdint.h>

typedef uint32_t f32_bits; /* an IEEE-754 single, as its bit pattern */
typedef uint64_t f64_bits; /* an IEEE-754 double, as its bit pattern */

/* ---- int32.c: 32-bit multiply and divide ---- */
uint32_t __mulsi3(uint32_t a, uint32_t b);
uint32_t __udivsi3(uint32_t n, uint32_t d);
uint32_t __umodsi3(uint32_t n, uint32_t d);
int32_t __divsi3(int32_t n, int32_t d);
int32_t __modsi3(int32_t n, int32_t d);

/* ---- int64.c: 64-bit multiply, divide, shifts, negate, compare ---- */
uint64_t __muldi3(uint64_t a, uint64_t b);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
uint64_t __ashldi3(uint64_t a, int b);
int64_t __ashrdi3(int64_t a, int b);
uint64_t __lshrdi3(uint64_t a, int b);
int64_t __negdi2(int64_t a);
int __cmpdi2(int64_t a, int64_t b);   /* 0, 1, 2 for a < b, a == b, a > b */
int __ucmpdi2(uint64_t a, uint64_t b);

/* ---- bits.c: bit counts and byte swaps ---- */
int __clzsi2(uint32_t a);
int __clzdi2(uint64_t a);
int __ctzsi2(uint32_t a);
int __ctzdi2(uint64_t a);
int __ffssi2(uint32_t a);
int __ffsdi2(uint64_t a);
int __popcountsi2(uint32_t a);
int __popcountdi2(uint64_t a);
int __paritysi2(uint32_t a);
int __paritydi2(uint64_t a);
uint32_t __bswapsi2(uint32_t a);
uint64_t __bswapdi2(uint64_t a);

/* ---- float32.c / float64.c: arithmetic and compares ---- */
f32_bits __addsf3(f32_bits a, f32_bits b);
f32_bits __subsf3(f32_bits a, f32_bits b);
f32_bits __mulsf3(f32_bits a, f32_bits b);
f32_bits __divsf3(f32_bits a, f32_bits b);
f32_bits __negsf2(f32_bits a);
f32_bits __powisf2(f32_bits a, int n);
int __eqsf2(f32_bits a, f32_bits b);
int __nesf2(f32_bits a, f32_bits b);
int __ltsf2(f32_bits a, f32_bits b);
int __lesf2(f32_bits a, f32_bits b);
int __gtsf2(f32_bits a, f32_bits b);
int __gesf2(f32_bits a, f32_bits b);
int __unordsf2(f32_bits a, f32_bits b);

f64_bits __adddf3(f64_bits a, f64_bits b);
f64_bits __subdf3(f64_bits a, f64_bits b);
f64_bits __muldf3(f64_bits a, f64_bits b);
f64_bits __divdf3(f64_bits a, f64_bits b);
f64_bits __negdf2(f64_bits a);
f64_bits __powidf2(f64_bits a, int n);
int __eqdf2(f64_bits a, f64_bits b);
int __nedf2(f64_bits a, f64_bits b);
int __ltdf2(f64_bits a, f64_bits b);
int __ledf2(f64_bits a, f64_bits b);
int __gtdf2(f64_bits a, f64_bits b);
int __gedf2(f64_bits a, f64_bits b);
int __unorddf2(f64_bits a, f64_bits b);

/* ---- convert.c ---- */
f32_bits __floatsisf(int32_t i);
f32_bits __floatunsisf(uint32_t i);
f32_bits __floatdisf(int64_t i);
f32_bits __floatundisf(uint64_t i);
f64_bits __floatsidf(int32_t i);
f64_bits __floatunsidf(uint32_t i);
f64_bits __floatdidf(int64_t i);
f64_bits __floatundidf(uint64_t i);
int32_t __fixsfsi(f32_bits a);
uint32_t __fixunssfsi(f32_bits a);
int64_t __fixsfdi(f32_bits a);
uint64_t __fixunssfdi(f32_bits a);
int32_t __fixdfsi(f64_bits a);
uint32_t __fixunsdfsi(f64_bits a);
int64_t __fixdfdi(f64_bits a);
uint64_t __fixunsdfdi(f64_bits a);
f64_bits __extendsfdf2(f32_bits a);
f32_bits __truncdfsf2(f64_bits a);

/* ---- shared between the sources (reserved names, not part of the ABI) ---- */

/* Round to nearest even and pack a single: the value is sig * 2^(exp - 127 - 30) (sig != 0
 * is normalized here, so a caller may pass any width), rounded once, with overflow to infinity
 * and gradual underflow to denormals and zero. Bit 0 of sig may be a sticky bit: it stands for
 * any nonzero bits already shifted out below it. */
f32_bits __rt_round32(uint32_t sign, int exp, uint32_t sig);
/* The same for a double: the value is sig * 2^(exp - 1023 - 62). */
f64_bits __rt_round64(uint64_t sign, int exp, uint64_t sig);

#define F32_SIGN 0x80000000u
#define F32_INF 0x7F800000u
#define F32_QNAN 0x7FC00000u /* the quiet NaN an invalid operation returns */
#define F32_QUIET 0x00400000u
#define F32_FRAC 0x007FFFFFu
#define F64_SIGN 0x8000000000000000ull
#define F64_INF 0x7FF0000000000000ull
#define F64_QNAN 0x7FF8000000000000ull
#define F64_QUIET 0x0008000000000000ull
#define F64_FRAC 0x000FFFFFFFFFFFFFull

/* Leading zeros of a nonzero value, by halving (the 68010 has no BFFFO). */
static inline int __rt_clz32(uint32_t x) {
  int n = 0;
  if (!(x & 0xFFFF0000u)) { n += 16; x <<= 16; }
  if (!(x & 0xFF000000u)) { n += 8; x <<= 8; }
  if (!(x & 0xF0000000u)) { n += 4; x <<= 4; }
  if (!(x & 0xC0000000u)) { n += 2; x <<= 2; }
  if (!(x & 0x80000000u)) n += 1;
  return n;
}

static inline int __rt_clz64(uint64_t x) {
  uint32_t hi = (uint32_t)(x >> 32);
  return hi ? __rt_clz32(hi) : 32 + __rt_clz32((uint32_t)x);
}

/* x >> n, with every bit shifted out ORed into bit 0 ("jamming"); any n >= 0. */
static inline uint32_t __rt_shr_sticky32(uint32_t x, int n) {
  if (n <= 0) return x;
  if (n >= 32) return x != 0;
  return (x >> n) | ((x << (32 - n)) != 0);
}

static inline uint64_t __rt_shr_sticky64(uint64_t x, int n) {
  if (n <= 0) return x;
  if (n >= 64) return x != 0;
  return (x >> n) | ((x << (64 - n)) != 0);
}

/* 16 x 16 -> 32 bits (the low halves of a and b): one MULU.W. GCC emits MULU.W for a
 * product of two halfword function arguments only; written in C, any other 16 x 16 product
 * becomes a 32-bit multiply, which is a call to __mulsi3 - built from this. Elsewhere, C. */
static inline uint32_t __rt_mul16(uint32_t a, uint32_t b) {
#if defined(__m68k__)
  __asm__("mulu.w %1,%0" : "+d"(a) : "d"(b) : "cc");
  return a;
#else
  return (a & 0xFFFFu) * (b & 0xFFFFu);
#endif
}

/* 32 x 32 -> 64 bits from four 16 x 16 products. */
static inline uint64_t __rt_mul32(uint32_t a, uint32_t b) {
  uint32_t a1 = a >> 16, b1 = b >> 16;
  uint32_t p00 = __rt_mul16(a, b), p01 = __rt_mul16(a, b1), p10 = __rt_mul16(a1, b);
  uint32_t p11 = __rt_mul16(a1, b1);
  uint32_t mid = (p00 >> 16) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu); /* < 3 * 2^16 */
  uint32_t lo = (mid << 16) | (p00 & 0xFFFFu);
  uint32_t hi = p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16);
  return ((uint64_t)hi << 32) | lo;
}

/* The low 32 bits of a 32 x 32 product, from three 16 x 16 products. */
/* n / d (d < 2^16) for a quotient that fits 16 bits: one DIVU.W, the remainder in the high
 * half of the result and the quotient in the low half. */
static inline uint32_t __rt_divu16(uint32_t n, uint32_t d) {
#if defined(__m68k__)
  __asm__("divu.w %1,%0" : "+d"(n) : "d"(d) : "cc");
  return n;
#else
  return (n % d) << 16 | (n / d);
#endif
}

static inline uint32_t __rt_mul32lo(uint32_t a, uint32_t b) {
  uint32_t cross = __rt_mul16(a, b >> 16) + __rt_mul16(a >> 16, b);
  return __rt_mul16(a, b) + (cross << 16);
}

#endif
