/* 32-bit multiply and divide. The 68010's MULU/MULS are 16 x 16 -> 32 and its DIVU/DIVS are
 * 32 / 16 -> 16, so GCC calls these for '*', '/' and '%' on 32-bit operands. (Debian's libgcc
 * builds its division with BSR.L, a 68020 instruction; this file replaces lib/divmod.c, which
 * was the first fix for that.)
 *
 * Division by zero is the caller's bug: like a 68010 division that overflows, it does not trap
 * here; the quotient is all ones and the remainder is the dividend. (A program that wants the
 * CPU's divide-by-zero trap writes DIVU.W itself.) */
#include "runtime.h"

#if defined(__m68k__)
/* The low 32 bits of the product from three MULU.W (the high halves' product only shifts out),
 * taking the operands straight from the stack and touching no register that must be saved:
 * GCC's own sequence (libgcc's lb1sf68.S), 11 instructions. */
__asm__(".text\n"
        "  .globl __mulsi3\n"
        "  .type __mulsi3, @function\n"
        "__mulsi3:\n"
        "  move.w 4(%sp),%d0\n"  /* a's high half */
        "  mulu.w 10(%sp),%d0\n" /* x b's low */
        "  move.w 6(%sp),%d1\n"  /* a's low half */
        "  mulu.w 8(%sp),%d1\n"  /* x b's high */
        "  add.w %d1,%d0\n"      /* the cross products' sum, of which 16 bits count */
        "  swap %d0\n"
        "  clr.w %d0\n"
        "  move.w 6(%sp),%d1\n"
        "  mulu.w 10(%sp),%d1\n" /* the low halves' full product */
        "  add.l %d1,%d0\n"
        "  rts\n"
        "  .size __mulsi3, . - __mulsi3\n");

#else
uint32_t __mulsi3(uint32_t a, uint32_t b) { return __rt_mul32lo(a, b); }
#endif
#define divu16 __rt_divu16

/* With the 68010's 32 / 16 division (GCC's algorithm, libgcc's lb1sf68.S): a divisor of 16 bits
 * takes two DIVU.W, the high half of the dividend and then the remainder with the low half; a
 * larger one gives a quotient of at most 16 bits, estimated by one DIVU.W of both shifted until
 * the divisor fits 16 bits - the estimate is the quotient or one more, which the product
 * tells. Inlined into each entry point: a call less. */
static inline __attribute__((always_inline)) uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem) {
  if (d < 0x10000u) {
    if (d == 0) {
      *rem = n;
      return 0xFFFFFFFFu;
    }
    uint32_t hi = divu16(n >> 16, d);                   /* remainder : quotient of the high half */
    uint32_t lo = divu16((hi & 0xFFFF0000u) | (n & 0xFFFFu), d);
    *rem = lo >> 16;
    return hi << 16 | (lo & 0xFFFFu);
  }
  uint32_t nn = n, dd = d;
  do {
    nn >>= 1;
    dd >>= 1;
  } while (dd >= 0x10000u);
  uint32_t q = divu16(nn, dd) & 0xFFFFu;
  uint32_t lo = __rt_mul16(q, d), hi = __rt_mul16(q, d >> 16); /* q * d, maybe 33 bits */
  uint32_t p = lo + (hi << 16);
  if (hi > 0xFFFFu || p < lo || p > n) { /* q was one too many */
    --q;
    p -= d;
  }
  *rem = n - p;
  return q;
}

#if defined(__m68k__)
/* The same algorithm by hand (GCC's own instruction sequence, libgcc's lb1sf68.S, with the
 * division by zero of this runtime's ABI): one register to save, not three. */
__asm__(".text\n"
        "  .globl __udivsi3\n"
        "  .type __udivsi3, @function\n"
        "__udivsi3:\n"
        "  move.l %d2,-(%sp)\n"
        "  move.l 12(%sp),%d1\n"    /* d */
        "  move.l 8(%sp),%d0\n"     /* n */
        "  cmp.l #0x10000,%d1\n"
        "  bcc 3f\n"
        "  tst.w %d1\n"
        "  beq 7f\n"
        "  move.l %d0,%d2\n"        /* d < 2^16: two DIVU.W */
        "  clr.w %d2\n"
        "  swap %d2\n"
        "  divu.w %d1,%d2\n"        /* the high half: remainder : quotient */
        "  move.w %d2,%d0\n"
        "  swap %d0\n"
        "  move.w 10(%sp),%d2\n"    /* remainder : low half of n */
        "  divu.w %d1,%d2\n"
        "  move.w %d2,%d0\n"
        "  bra 6f\n"
        "3:move.l %d1,%d2\n"        /* d >= 2^16: shift both until d fits 16 bits */
        "4:lsr.l #1,%d1\n"
        "  lsr.l #1,%d0\n"
        "  cmp.l #0x10000,%d1\n"
        "  bcc 4b\n"
        "  divu.w %d1,%d0\n"
        "  and.l #0xffff,%d0\n"     /* the quotient, or one more */
        "  move.l %d2,%d1\n"
        "  mulu.w %d0,%d1\n"
        "  swap %d2\n"
        "  mulu.w %d0,%d2\n"
        "  swap %d2\n"
        "  tst.w %d2\n"
        "  bne 5f\n"                /* the product has 33 bits: one too many */
        "  add.l %d2,%d1\n"
        "  bcs 5f\n"
        "  cmp.l 8(%sp),%d1\n"
        "  bls 6f\n"
        "5:subq.l #1,%d0\n"
        "6:move.l (%sp)+,%d2\n"
        "  rts\n"
        "7:moveq #-1,%d0\n"         /* division by zero: all ones, no trap */
        "  bra 6b\n"
        "  .size __udivsi3, . - __udivsi3\n");
#else
uint32_t __udivsi3(uint32_t n, uint32_t d) {
  uint32_t r;
  return udivmod32(n, d, &r);
}
#endif

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
