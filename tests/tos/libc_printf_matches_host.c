/* printf against the host's C library: every case of the generated table (formats crossed with
 * values, tests/tos/gen_libc_printf_matches_host.py, formatted on the host by its own snprintf)
 * is formatted here by newlib's snprintf on the 68010 and compared by length and hash; every
 * seventh case is formatted again into a buffer too small for it, which must hold the output's
 * prefix, NUL-terminated, with nothing written past the size and the full length returned. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tos_check.h"

struct pcase {
  uint16_t fmt;
  uint8_t kind, nstars;
  int8_t w, p;
  uint32_t hi, lo;
  uint16_t len;
  uint32_t hash;
};
enum { K_INT, K_UINT, K_LONG, K_ULONG, K_LL, K_ULL, K_DOUBLE, K_STR, K_CHAR };
#include "libc_printf_cases.h"

static uint32_t fnv(const char *s, int n) {
  uint32_t h = 0x811C9DC5u;
  for (int i = 0; i < n; ++i) h = (h ^ (uint8_t)s[i]) * 0x01000193u;
  return h;
}

/* The format is data here, so the compiler cannot check it: each kind passes the argument type
 * its length modifier reads on the 68010. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int format(char *buf, size_t size, const struct pcase *c) {
  const char *f = formats[c->fmt];
  uint64_t bits = (uint64_t)c->hi << 32 | c->lo;
  union {
    uint64_t u;
    double d;
  } dv = {bits};
  int w = c->w, p = c->p;
#define CALL(arg)                                            \
  (c->nstars == 0   ? snprintf(buf, size, f, arg)          \
   : c->nstars == 1 ? snprintf(buf, size, f, w, arg)       \
                    : snprintf(buf, size, f, w, p, arg))
  switch (c->kind) {
    case K_INT: case K_CHAR: return CALL((int)c->lo);
    case K_UINT: return CALL((unsigned)c->lo);
    case K_LONG: return CALL((long)c->lo);
    case K_ULONG: return CALL((unsigned long)c->lo);
    case K_LL: return CALL((long long)bits);
    case K_ULL: return CALL((unsigned long long)bits);
    case K_DOUBLE: return CALL(dv.d);
    case K_STR: return CALL(strings[c->lo]);
  }
  return -1;
}

int main(void) {
  static char buf[600], small[40];
  int bad = 0, truncations = 0;
  for (int i = 0; i < N_CASES; ++i) {
    const struct pcase *c = &cases[i];
    int n = format(buf, sizeof buf, c);
    if (n != c->len || fnv(buf, n < 0 ? 0 : n) != c->hash || (n >= 0 && buf[n] != 0)) {
      if (++bad <= 20) printf("libc_printf_matches_host: case %d: format \"%s\" value 0x%08lx%08lx: got \"%s\" (%d chars, the host's %u chars)\n",
                              i, formats[c->fmt], (unsigned long)c->hi, (unsigned long)c->lo, buf, n, c->len);
      continue;
    }
    if (i % 7 == 0) {
      size_t k = (size_t)(i / 7 % 12); /* 0 .. 11 bytes */
      memset(small, '#', sizeof small);
      int m = format(small, k, c);
      size_t kept = k == 0 ? 0 : ((size_t)n < k - 1 ? (size_t)n : k - 1);
      int ok = m == n && memcmp(small, buf, kept) == 0 && (k == 0 || small[kept] == 0);
      for (size_t j = k; j < sizeof small; ++j) ok = ok && small[j] == '#';
      if (!ok && ++bad <= 20) printf("libc_printf_matches_host: case %d: snprintf into %u bytes: returned %d (full %d), \"%.*s\"\n",
                                     i, (unsigned)k, m, n, (int)(k ? k - 1 : 0), small);
      ++truncations;
    }
  }
  printf("libc_printf_matches_host: %d cases, %d formats, %d truncated: %d differ from the host\n", N_CASES, N_FORMATS, truncations, bad);
  CHECK(bad == 0, "every case as the host prints it");
  tos_pass("libc_printf_matches_host");
  return 0;
}
