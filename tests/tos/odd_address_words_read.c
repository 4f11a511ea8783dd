/* A user program that assembles big-endian words from bytes -- the idiom of every parser of a
 * wire or file format, p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] -- works at odd addresses.
 * GCC 12 merges such byte loads into one MOVE.L or MOVE.W (its bswap pass, at -O2 and -Os, even
 * with -mstrict-align), which the 68010 cannot do at an odd address: the program dies of an
 * address error. TOS_PROGRAM_CFLAGS (firmware/tos/CMakeLists.txt, what tos-cc and TOSConfig
 * give every program) turns the pass off; without it this test is killed at offset 1. The
 * reference accumulates a byte at a time through a volatile, which no pass merges. */
#include <stdint.h>
#include <stdio.h>
#include "tos_check.h"

static uint8_t wire[64];

/* noinline: the pointer's alignment must be unknown where the loads are made */
__attribute__((noinline)) static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
__attribute__((noinline)) static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
__attribute__((noinline)) static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint32_t reference(const uint8_t *p, int n, int little) {
  volatile uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | p[little ? n - 1 - i : i];
  return v;
}

int main(void) {
  for (unsigned i = 0; i < sizeof wire; ++i) wire[i] = (uint8_t)(i * 37 + 11);
  for (int off = 0; off < 8; ++off) {
    const uint8_t *p = wire + off;
    CHECK(be32(p) == reference(p, 4, 0), "be32 at offset %d: %lx, not %lx", off, (unsigned long)be32(p),
          (unsigned long)reference(p, 4, 0));
    CHECK(be16(p) == reference(p, 2, 0), "be16 at offset %d", off);
    CHECK(le32(p) == reference(p, 4, 1), "le32 at offset %d", off);
  }
  tos_pass("odd_address_words_read");
  return 0;
}
