/* 32-bit multiply and divide. The 68010's MULU/MULS are 16 x 16 -> 32 and its DIVU/DIVS are
 * 32 / 16 -> 16, so GCC calls these for '*', '/' and '%' on 32-bit operands. (Debian's libgcc
 * builds its division with BSR.L, a 68020 instruction; this file replaces lib/divmod.c, which
 * was the first fix for that.)
 *
 * Division by zero is the caller's bug: like a 68010 division that overflows, it does not trap
 * here; the quotient is all ones and the remainder is the dividend. (A program that wants the
 * CPU's divide-by-zero trap writes DIVU.W itself.) */
#include "runtime.h"

uint32_t __mulsi3(uint32_t a, uint32_t b) { return __rt_mul32lo(a, b); }

/* Shift and subtract, starting at the dividend's highest set bit: a quotient of k bits costs
 * about k steps, so printf's divisions by 10 of small numbers are quick. (Not inlined: the four
 * entry points share one copy.) */
static __attribute__((noinline)) uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem) {
  if (d == 0) {
    *rem = n;
    return 0xFFFFFFFFu;
  }
  if (n < d) {
    *rem = n;
    return 0;
  }
  /* Align d's leading one with n's; the quotient has shift + 1 bits. */
  int shift = __rt_clz32(d) - __rt_clz32(n);
  uint32_t q = 0;
  d <<= shift;
  for (; shift >= 0; --shift) {
    q <<= 1;
    if (n >= d) {
      n -= d;
      q |= 1;
    }
    d >>= 1;
  }
  *rem = n;
  return q;
}

uint32_t __udivsi3(uint32_t n, uint32_t d) {
  uint32_t r;
  return udivmod32(n, d, &r);
}

uint32_t __umodsi3(uint32_t n, uint32_t d) {
  uint32_t r;
  udivmod32(n, d, &r);
  return r;
}

/* Signed: on magnitudes; the quotient truncates toward zero and the remainder takes the
 * dividend's sign (C99). INT32_MIN / -1 (undefined in C) gives INT32_MIN. */
int32_t __divsi3(int32_t n, int32_t d) {
  uint32_t un = n < 0 ? -(uint32_t)n : (uint32_t)n, ud = d < 0 ? -(uint32_t)d : (uint32_t)d, r;
  uint32_t q = udivmod32(un, ud, &r);
  return (int32_t)((n < 0) != (d < 0) ? -q : q);
}

int32_t __modsi3(int32_t n, int32_t d) {
  uint32_t un = n < 0 ? -(uint32_t)n : (uint32_t)n, ud = d < 0 ? -(uint32_t)d : (uint32_t)d, r;
  udivmod32(un, ud, &r);
  return (int32_t)(n < 0 ? -r : r);
}
