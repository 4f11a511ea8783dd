/* 32-bit division for the 68010. GCC calls these for '/' and '%' on 32-bit operands (the
 * 68010's DIVU/DIVS are 32/16-bit only). Debian's libgcc for m68k-linux-gnu builds them with
 * BSR.L, a 68020 instruction that traps as illegal on a 68010, so every image links these
 * first. Shift-and-subtract: at most 32 steps, no calls. */
typedef unsigned long u32;
typedef long s32;

static u32 udivmod(u32 n, u32 d, u32 *rem) {
  u32 q = 0, r = 0;
  int i;
  if (d == 0) {
    /* Like the hardware, division by zero is the caller's bug: trap #7-free, return all ones. */
    if (rem) *rem = n;
    return 0xFFFFFFFFul;
  }
  for (i = 31; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) {
      r -= d;
      q |= 1ul << i;
    }
  }
  if (rem) *rem = r;
  return q;
}

u32 __udivsi3(u32 n, u32 d);
u32 __umodsi3(u32 n, u32 d);
s32 __divsi3(s32 n, s32 d);
s32 __modsi3(s32 n, s32 d);

u32 __udivsi3(u32 n, u32 d) { return udivmod(n, d, 0); }

u32 __umodsi3(u32 n, u32 d) {
  u32 r;
  udivmod(n, d, &r);
  return r;
}

s32 __divsi3(s32 n, s32 d) {
  u32 un = n < 0 ? -(u32)n : (u32)n, ud = d < 0 ? -(u32)d : (u32)d;
  u32 q = udivmod(un, ud, 0);
  return (s32)((n < 0) != (d < 0) ? -q : q);
}

s32 __modsi3(s32 n, s32 d) {
  u32 un = n < 0 ? -(u32)n : (u32)n, ud = d < 0 ? -(u32)d : (u32)d, r;
  udivmod(un, ud, &r);
  return (s32)(n < 0 ? -r : r);
}
