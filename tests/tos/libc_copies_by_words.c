/* The C library's block functions on the 68010: right at every alignment and length, and copying
 * a long at a time where both sides allow it. memcpy, memmove (both directions of overlap),
 * memset, memcmp and strlen are checked against a byte-at-a-time reference for source and
 * destination offsets 0..3 and lengths 0..67 and 1021..1027, the bytes either side of each
 * destination untouched. Then memcpy, memmove and memset of 4 KB between long-aligned buffers are
 * timed with the board clock (10 MHz: 10 cycles a microsecond) and must stay within 12 cycles a
 * byte. Measured when set (memcpy, memmove, memset): newlib's C built -Os, which then goes a byte
 * at a time, 72.5, 56.5 and 42.3; built -O2 (firmware/tos/newlib/newlib.cmake) 10.8, 10.8, 6.6. The budget is a regression
 * guard, not a target. An overlapping memmove that must copy backwards is newlib's byte loop at
 * any optimisation: its time is printed, not budgeted. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tos_check.h"

#define BIG 4096
#define TIMED BIG
#define AREA (BIG + 64)
static uint8_t src[AREA], dst[AREA], ref[AREA];
static unsigned long seed = 12345;
/* the bytes the checks compare: the operations write from 16 + doff, at most 8 further on, len
 * bytes; 16 either side are checked untouched */
#define SPAN(len) ((len) + 48)

static void fill(uint8_t *p, unsigned n) {
  for (unsigned i = 0; i < n; ++i) p[i] = (uint8_t)tos_check_next(&seed);
}

/* ref := dst, a byte at a time (the reference must not use what it checks) */
static void snapshot(unsigned len) {
  for (unsigned i = 0; i < SPAN(len); ++i) ref[i] = dst[i];
}

/* dst after the operation must equal ref over SPAN(len) */
static int same(const char *what, unsigned soff, unsigned doff, unsigned len) {
  for (unsigned i = 0; i < SPAN(len); ++i)
    if (dst[i] != ref[i]) {
      printf("libc_copies_by_words: %s src+%u dst+%u len %u: byte %u is %02x, not %02x\n", what, soff, doff, len, i,
             dst[i], ref[i]);
      return 0;
    }
  return 1;
}

static int check_one(unsigned soff, unsigned doff, unsigned len) {
  fill(src, SPAN(len));
  fill(dst, SPAN(len));
  /* memcpy */
  snapshot(len);
  for (unsigned i = 0; i < len; ++i) ref[16 + doff + i] = src[16 + soff + i];
  if (memcpy(dst + 16 + doff, src + 16 + soff, len) != dst + 16 + doff || !same("memcpy", soff, doff, len)) return 0;
  /* memmove within one buffer, the destination after the source and before it */
  for (int dir = 0; dir < 2; ++dir) {
    unsigned from = dir ? 16 + soff + 8 : 16 + soff, to = dir ? 16 + doff : 16 + doff + 8;
    snapshot(len);
    uint8_t tmp[1100];
    for (unsigned i = 0; i < len; ++i) tmp[i] = ref[from + i];
    for (unsigned i = 0; i < len; ++i) ref[to + i] = tmp[i];
    if (memmove(dst + to, dst + from, len) != dst + to || !same(dir ? "memmove down" : "memmove up", soff, doff, len))
      return 0;
  }
  /* memset */
  snapshot(len);
  for (unsigned i = 0; i < len; ++i) ref[16 + doff + i] = 0xA5;
  if (memset(dst + 16 + doff, 0xA5, len) != dst + 16 + doff || !same("memset", soff, doff, len)) return 0;
  /* memcmp: equal, then one byte changed at the end */
  memcpy(dst + 16 + doff, src + 16 + soff, len);
  if (memcmp(dst + 16 + doff, src + 16 + soff, len) != 0) {
    printf("libc_copies_by_words: memcmp of equal bytes src+%u dst+%u len %u is not 0\n", soff, doff, len);
    return 0;
  }
  if (len) {
    dst[16 + doff + len - 1] = (uint8_t)(src[16 + soff + len - 1] + 1);
    int want = dst[16 + doff + len - 1] > src[16 + soff + len - 1] ? 1 : -1;
    int got = memcmp(dst + 16 + doff, src + 16 + soff, len);
    if ((got > 0) - (got < 0) != want) {
      printf("libc_copies_by_words: memcmp src+%u dst+%u len %u gives %d, its sign should be %d\n", soff, doff, len,
             got, want);
      return 0;
    }
  }
  /* strlen: no zero in the first len bytes, then one */
  for (unsigned i = 0; i < len; ++i) dst[16 + doff + i] = (uint8_t)(src[16 + soff + i] | 1);
  dst[16 + doff + len] = 0;
  if (strlen((const char *)dst + 16 + doff) != len) {
    printf("libc_copies_by_words: strlen at dst+%u of %u bytes gives %u\n", doff, len,
           (unsigned)strlen((const char *)dst + 16 + doff));
    return 0;
  }
  return 1;
}

/* cycles a byte (in tenths) over TIMED bytes, 10 cycles a microsecond */
static unsigned tenths_per_byte(unsigned long us) { return (unsigned)(us * 10ul * 10ul / TIMED); }

int main(void) {
  for (unsigned soff = 0; soff < 4; ++soff)
    for (unsigned doff = 0; doff < 4; ++doff) {
      for (unsigned len = 0; len < 68; ++len)
        if (!check_one(soff, doff, len)) return 1;
      for (unsigned len = 1021; len < 1028; ++len)
        if (!check_one(soff, doff, len)) return 1;
    }
  printf("libc_copies_by_words: memcpy, memmove, memset, memcmp and strlen right at offsets 0..3, 75 lengths\n");

  /* long-aligned blocks (the arrays are; checked rather than assumed) */
  if (((uintptr_t)src | (uintptr_t)dst) & 3) {
    printf("libc_copies_by_words: the buffers are not long-aligned\n");
    return 1;
  }
  /* each the best of 4 runs over 4 KB: the timer's interrupts fall into every run (a 4 KB copy
   * takes about 4 ms); a run the main loop's other work also fell into is longer by that */
  unsigned long best[4] = {~0ul, ~0ul, ~0ul, ~0ul};
  for (int r = 0; r < 4; ++r) {
    unsigned long t0 = time_us();
    memcpy(dst, src, TIMED);
    unsigned long t1 = time_us();
    memmove(dst, src, TIMED);
    unsigned long t2 = time_us();
    memset(dst, 0x5A, TIMED);
    unsigned long t3 = time_us();
    memmove(dst + 4, dst, TIMED);
    unsigned long t4 = time_us(), d[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
    for (int i = 0; i < 4; ++i)
      if (d[i] < best[i]) best[i] = d[i];
  }
  unsigned cpy = tenths_per_byte(best[0]), mov = tenths_per_byte(best[1]), set = tenths_per_byte(best[2]),
           back = tenths_per_byte(best[3]);
  printf("libc_copies_by_words: 4 KB memcpy %u.%u, memmove %u.%u, memset %u.%u cycles a byte "
         "(memmove overlapping, backwards: %u.%u)\n",
         cpy / 10, cpy % 10, mov / 10, mov % 10, set / 10, set % 10, back / 10, back % 10);
  static const char *const name[] = {"memcpy", "memmove", "memset"};
  const unsigned got[] = {cpy, mov, set}, budget = 120; /* tenths of a cycle a byte */
  int ok = 1;
  for (int i = 0; i < 3; ++i)
    if (got[i] > budget) {
      printf("libc_copies_by_words: %s %u.%u cycles a byte exceeds its budget of %u.%u\n", name[i], got[i] / 10,
             got[i] % 10, budget / 10, budget % 10);
      ok = 0;
    }
  if (!ok) return 1;
  printf("libc_copies_by_words: PASS\n");
  return 0;
}
