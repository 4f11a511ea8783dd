/* Bit counts (__builtin_clz, ctz, ffs, popcount, parity and their long long forms) and byte
 * swaps. GCC calls these on a 68010; Debian's libgcc implements clz with the 68020's BFFFO.
 * As in libgcc, clz and ctz of 0 are undefined; here they return the width. */
#include "runtime.h"

int __clzsi2(uint32_t a) { return a ? __rt_clz32(a) : 32; }

int __clzdi2(uint64_t a) { return a ? __rt_clz64(a) : 64; }

int __ctzsi2(uint32_t a) {
  if (!a) return 32;
  /* a & -a isolates the lowest set bit; its position is 31 - clz. */
  return 31 - __rt_clz32(a & -a);
}

int __ctzdi2(uint64_t a) {
  uint32_t lo = (uint32_t)a;
  return lo ? __ctzsi2(lo) : 32 + __ctzsi2((uint32_t)(a >> 32));
}

int __ffssi2(uint32_t a) { return a ? __ctzsi2(a) + 1 : 0; }

int __ffsdi2(uint64_t a) { return a ? __ctzdi2(a) + 1 : 0; }

int __popcountsi2(uint32_t a) {
  a = a - ((a >> 1) & 0x55555555u);
  a = (a & 0x33333333u) + ((a >> 2) & 0x33333333u);
  a = (a + (a >> 4)) & 0x0F0F0F0Fu;
  a += a >> 8;
  a += a >> 16;
  return (int)(a & 0x3F);
}

int __popcountdi2(uint64_t a) { return __popcountsi2((uint32_t)a) + __popcountsi2((uint32_t)(a >> 32)); }

int __paritysi2(uint32_t a) {
  a ^= a >> 16;
  a ^= a >> 8;
  a ^= a >> 4;
  a ^= a >> 2;
  a ^= a >> 1;
  return (int)(a & 1);
}

int __paritydi2(uint64_t a) { return __paritysi2((uint32_t)a ^ (uint32_t)(a >> 32)); }

uint32_t __bswapsi2(uint32_t a) {
  return (a >> 24) | ((a >> 8) & 0xFF00u) | ((a << 8) & 0xFF0000u) | (a << 24);
}

uint64_t __bswapdi2(uint64_t a) {
  return ((uint64_t)__bswapsi2((uint32_t)a) << 32) | __bswapsi2((uint32_t)(a >> 32));
}
