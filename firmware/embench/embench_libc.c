/* The few C library functions the Embench benchmarks call (memcpy, memmove, memset, memcmp,
 * strlen, strchr, strcmp, isdigit, isspace, isxdigit, tolower, abort), plainly, byte by byte:
 * they run as part of the measured work, identically on both models. Declared in include/.
 * TOS's newlib (firmware/tos/newlib) is compiled for the 68010 only, so the 68000 images cannot
 * link it. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <testbed/memory_map.h>

void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s) {
    while (n--) *d++ = *s++;
  } else {
    d += n;
    s += n;
    while (n--) *--d = *--s;
  }
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (; n; n--, p++, q++)
    if (*p != *q) return *p - *q;
  return 0;
}

size_t strlen(const char *s) {
  const char *p = s;
  while (*p) p++;
  return (size_t)(p - s);
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return NULL;
  }
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return (unsigned char)*a - (unsigned char)*b;
}

int isdigit(int c) { return c >= '0' && c <= '9'; }
int isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
int isxdigit(int c) { return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int tolower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* A failed check inside a benchmark (nettle-sha256's, a failed assert): the exit code lib/crt0.S
 * gives a main that returns 2. */
void abort(void) {
  *(volatile unsigned *)TB_SIMCTL_EXIT = 0x100 + 2;
  for (;;) {
  }
}
