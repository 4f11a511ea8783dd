/* The few string routines the kernel needs (freestanding: no libc). GCC may also call memcpy
 * and memset for structure copies. */
#include "defs.h"

void *memcpy(void *d, const void *s, uint32_t n) {
  uint8_t *dp = d;
  const uint8_t *sp = s;
  if ((((uint32_t)dp | (uint32_t)sp) & 1) == 0) {
    while (n >= 4) {
      *(uint32_t *)dp = *(const uint32_t *)sp;
      dp += 4;
      sp += 4;
      n -= 4;
    }
  }
  while (n--) *dp++ = *sp++;
  return d;
}

/* A long at a time, as memcpy: a TCB cleared byte by byte was a quarter of an arriving thread's
 * unpacking (issue #32, tos-profile of a migration). */
void *memset(void *d, int c, uint32_t n) {
  uint8_t *p = d;
  if (((uint32_t)p & 1) == 0) {
    uint32_t w = (uint8_t)c;
    w |= w << 8;
    w |= w << 16;
    while (n >= 4) {
      *(uint32_t *)p = w;
      p += 4;
      n -= 4;
    }
  }
  while (n--) *p++ = (uint8_t)c;
  return d;
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return (uint8_t)*a - (uint8_t)*b;
}

int strncmp(const char *a, const char *b, uint32_t n) {
  for (; n; --n, ++a, ++b) {
    if (*a != *b) return (uint8_t)*a - (uint8_t)*b;
    if (!*a) return 0;
  }
  return 0;
}

uint32_t strlen(const char *s) {
  uint32_t n = 0;
  while (s[n]) ++n;
  return n;
}
