/* 64-bit (long long) multiply, divide, shifts, negate and compare, on 32-bit halves.
 *
 * GCC inlines 64-bit add, subtract, compare and, at -O2, shifts and negation; it calls these
 * for the rest (and for shifts at -Os). Nothing here may use a 64-bit multiply, divide or
 * variable shift itself, or it would call itself: products come from MULU.W (runtime.h), and
 * the shifts below are written on the two halves.
 *
 * Division by zero (undefined in C) does not trap: the unsigned quotient is all ones and the
 * remainder is the dividend, as in int32.c. */
#include "runtime.h"

#define HI(x) ((uint32_t)((x) >> 32))
#define LO(x) ((uint32_t)(x))
#define JOIN(hi, lo) (((uint64_t)(hi) << 32) | (uint32_t)(lo))

uint64_t __muldi3(uint64_t a, uint64_t b) {
  uint64_t p = __rt_mul32(LO(a), LO(b));
  uint32_t cross = __rt_mul32lo(LO(a), HI(b)) + __rt_mul32lo(HI(a), LO(b));
  return JOIN(HI(p) + cross, LO(p));
}

/* Shift and subtract over the quotient's significant bits only (see int32.c). */
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem) {
  uint64_t q = 0, r;
  if (d == 0) {
    q = ~(uint64_t)0;
    r = n;
  } else if (n < d) {
    r = n;
  } else if (HI(n) == 0) { /* then HI(d) == 0 too: 32-bit division */
    uint32_t q32 = __udivsi3(LO(n), LO(d));
    q = q32;
    r = LO(n) - __rt_mul32lo(q32, LO(d));
  } else if (HI(d) == 0 && LO(d) < 0x10000u) { /* printf's / 10: four DIVU.W of 16 bits each */
    uint32_t dd = LO(d), t3, t2, t1, t0;
    t3 = __rt_divu16(HI(n) >> 16, dd);
    t2 = __rt_divu16((t3 & 0xFFFF0000u) | (HI(n) & 0xFFFFu), dd);
    t1 = __rt_divu16((t2 & 0xFFFF0000u) | (LO(n) >> 16), dd);
    t0 = __rt_divu16((t1 & 0xFFFF0000u) | (LO(n) & 0xFFFFu), dd);
    q = JOIN(t3 << 16 | (t2 & 0xFFFFu), t1 << 16 | (t0 & 0xFFFFu));
    r = t0 >> 16;
  } else {
    int shift = __rt_clz64(d) - __rt_clz64(n);
    d = shift >= 32 ? JOIN(LO(d), 0) : d;
    int s = shift >= 32 ? shift - 32 : shift;
    if (s) d = JOIN((HI(d) << s) | (LO(d) >> (32 - s)), LO(d) << s);
    for (; shift >= 0; --shift) {
      q = JOIN((HI(q) << 1) | (LO(q) >> 31), LO(q) << 1);
      if (n >= d) {
        n -= d;
        q |= 1;
      }
      d = JOIN(HI(d) >> 1, (LO(d) >> 1) | (HI(d) << 31));
    }
    r = n;
  }
  if (rem) *rem = r;
  return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d) { return __udivmoddi4(n, d, 0); }

uint64_t __umoddi3(uint64_t n, uint64_t d) {
  uint64_t r;
  __udivmoddi4(n, d, &r);
  return r;
}

/* Signed: on magnitudes, truncating toward zero; the remainder takes the dividend's sign.
 * INT64_MIN / -1 (undefined in C) gives INT64_MIN. */
int64_t __divdi3(int64_t n, int64_t d) {
  uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n, ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
  uint64_t q = __udivmoddi4(un, ud, 0);
  return (int64_t)((n < 0) != (d < 0) ? -q : q);
}

int64_t __moddi3(int64_t n, int64_t d) {
  uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n, ud = d < 0 ? -(uint64_t)d : (uint64_t)d, r;
  __udivmoddi4(un, ud, &r);
  return (int64_t)(n < 0 ? -r : r);
}

/* Shifts: counts 0..63 (others are undefined in C, as in libgcc). */
uint64_t __ashldi3(uint64_t a, int b) {
  if (b == 0) return a;
  if (b >= 32) return JOIN(LO(a) << (b - 32), 0);
  return JOIN((HI(a) << b) | (LO(a) >> (32 - b)), LO(a) << b);
}

uint64_t __lshrdi3(uint64_t a, int b) {
  if (b == 0) return a;
  if (b >= 32) return LO(HI(a) >> (b - 32));
  return JOIN(HI(a) >> b, (LO(a) >> b) | (HI(a) << (32 - b)));
}

int64_t __ashrdi3(int64_t a, int b) {
  int32_t hi = (int32_t)HI((uint64_t)a);
  uint32_t fill = hi < 0 ? 0xFFFFFFFFu : 0; /* the sign, spread over a word */
  if (b == 0) return a;
  if (b >= 32)
    return (int64_t)JOIN(fill, b == 32 ? (uint32_t)hi : (uint32_t)hi >> (b - 32) | fill << (64 - b));
  return (int64_t)JOIN((uint32_t)hi >> b | fill << (32 - b),
                       LO((uint64_t)a) >> b | (uint32_t)hi << (32 - b));
}

int64_t __negdi2(int64_t a) { return (int64_t)-(uint64_t)a; }

int __cmpdi2(int64_t a, int64_t b) { return a < b ? 0 : a == b ? 1 : 2; }

int __ucmpdi2(uint64_t a, uint64_t b) { return a < b ? 0 : a == b ? 1 : 2; }
