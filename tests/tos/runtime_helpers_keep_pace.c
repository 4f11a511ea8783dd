/* The runtime's helpers against GCC's own, side by side on the simulated 68010: each helper is
 * called N times on the same operands and timed with the board clock (10 MHz: 10 cycles per
 * microsecond, the loop's own cost measured with an empty helper and taken off). GCC's
 * __mulsi3 and __udivsi3 (libgcc's lb1sf68.S, the two of its m68k helpers that are 68000 code)
 * are linked in under other names from the cross compiler's libgcc.a at build time
 * (firmware/CMakeLists.txt). The runtime's must keep within 10% of GCC's; the others (signed
 * division, modulo, 64-bit, soft float) are printed for the record, GCC's being 68020 code that
 * a 68010 cannot run. */
#include <stdint.h>
#include <stdio.h>
#include "tos_check.h"

uint32_t __mulsi3(uint32_t, uint32_t);
uint32_t __udivsi3(uint32_t, uint32_t);
uint32_t __umodsi3(uint32_t, uint32_t);
int32_t __divsi3(int32_t, int32_t);
int32_t __modsi3(int32_t, int32_t);
uint32_t __gcc_mulsi3(uint32_t, uint32_t);
uint32_t __gcc_udivsi3(uint32_t, uint32_t);
uint64_t __muldi3(uint64_t, uint64_t);
uint64_t __udivdi3(uint64_t, uint64_t);
uint64_t __adddf3(uint64_t, uint64_t);
uint64_t __muldf3(uint64_t, uint64_t);
uint64_t __divdf3(uint64_t, uint64_t);
uint32_t __addsf3(uint32_t, uint32_t);
uint32_t __mulsf3(uint32_t, uint32_t);
uint32_t __divsf3(uint32_t, uint32_t);

#define N 2000
static uint32_t a32[16], b32[16];
static uint64_t a64[16], b64[16], ad[16], bd[16];

static __attribute__((noinline)) uint32_t none(uint32_t a, uint32_t b) { return a ^ b; }

static unsigned long loop32(uint32_t (*f)(uint32_t, uint32_t)) {
  volatile uint32_t sink = 0;
  unsigned long t0 = time_us();
  for (int i = 0; i < N; ++i) sink = f(a32[i & 15], b32[i & 15]);
  (void)sink;
  return time_us() - t0;
}
static unsigned long loop64(uint64_t (*f)(uint64_t, uint64_t), const uint64_t *a, const uint64_t *b) {
  volatile uint64_t sink = 0;
  unsigned long t0 = time_us();
  for (int i = 0; i < N; ++i) sink = f(a[i & 15], b[i & 15]);
  (void)sink;
  return time_us() - t0;
}
static uint32_t divsi(uint32_t a, uint32_t b) { return (uint32_t)__divsi3((int32_t)a, (int32_t)b | 1); }
static uint32_t modsi(uint32_t a, uint32_t b) { return (uint32_t)__modsi3((int32_t)a, (int32_t)b | 1); }
static uint32_t udivsi(uint32_t a, uint32_t b) { return __udivsi3(a, b | 1); }
static uint32_t umodsi(uint32_t a, uint32_t b) { return __umodsi3(a, b | 1); }
static uint32_t gcc_udivsi(uint32_t a, uint32_t b) { return __gcc_udivsi3(a, b | 1); }
static uint64_t udivdi(uint64_t a, uint64_t b) { return __udivdi3(a, b | 1); }
static uint64_t udivdi10(uint64_t a, uint64_t b) { return __udivdi3(a ^ b, 10); }
static uint64_t none64(uint64_t a, uint64_t b) { return a ^ b; }

/* cycles per call: the loop's time less the empty loop's, at 10 cycles per microsecond */
static unsigned per_call(unsigned long us, unsigned long empty) { return (unsigned)((us - empty) * 10ul / N); }

int main(void) {
  uint32_t x = 12345;
  for (int i = 0; i < 16; ++i) { /* operands of every size: small divisors (printf's 10) and large */
    x = TOS_RAND_NEXT(x);
    a32[i] = x >> (i & 7);
    b32[i] = i % 4 == 0 ? 10u : i % 4 == 1 ? (x >> 20) : i % 4 == 2 ? (x >> 3) : (x & 0xFFFF);
    a64[i] = (uint64_t)x << 29 ^ x;
    b64[i] = (x >> 9) + 3;
    ad[i] = 0x3FF0000000000000ull + ((uint64_t)x << 18);
    bd[i] = 0x4010000000000000ull - ((uint64_t)x << 11);
  }
  unsigned long e32 = loop32(none), e64 = loop64(none64, a64, b64);
  unsigned mul = per_call(loop32(__mulsi3), e32), gmul = per_call(loop32(__gcc_mulsi3), e32);
  unsigned udiv = per_call(loop32(udivsi), e32), gudiv = per_call(loop32(gcc_udivsi), e32);
  printf("runtime_helpers_keep_pace: cycles per call (ours / GCC's):\n");
  printf("  __mulsi3   %5u / %5u\n", mul, gmul);
  printf("  __udivsi3  %5u / %5u\n", udiv, gudiv);
  printf("  __umodsi3  %5u\n", per_call(loop32(umodsi), e32));
  printf("  __divsi3   %5u\n", per_call(loop32(divsi), e32));
  printf("  __modsi3   %5u\n", per_call(loop32(modsi), e32));
  printf("  __muldi3   %5u\n", per_call(loop64(__muldi3, a64, b64), e64));
  printf("  __udivdi3  %5u\n", per_call(loop64(udivdi, a64, b64), e64));
  printf("  __udivdi3 by 10 %5u\n", per_call(loop64(udivdi10, a64, b64), e64));
  printf("  __adddf3   %5u\n", per_call(loop64(__adddf3, ad, bd), e64));
  printf("  __muldf3   %5u\n", per_call(loop64(__muldf3, ad, bd), e64));
  printf("  __divdf3   %5u\n", per_call(loop64(__divdf3, ad, bd), e64));
  printf("  __addsf3   %5u\n", per_call(loop32(__addsf3), e32));
  printf("  __mulsf3   %5u\n", per_call(loop32(__mulsf3), e32));
  printf("  __divsf3   %5u\n", per_call(loop32(__divsf3), e32));
  CHECK(mul * 10 <= gmul * 11, "__mulsi3 within 10%% of GCC's: %u against %u cycles", mul, gmul);
  CHECK(udiv * 10 <= gudiv * 11, "__udivsi3 within 10%% of GCC's: %u against %u cycles", udiv, gudiv);
  tos_pass("runtime_helpers_keep_pace");
  return 0;
}
