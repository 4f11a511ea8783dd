/* <string.h>: the TOS C library's string and memory routines (the one copy; the kernel has its
 * own few in kernel/string.c). Plain C, word copies where both pointers are even: the 68010
 * faults on a misaligned word access. */
#include <string.h>
#include <testbed/tos.h>

void *memcpy(void *d, const void *s, size_t n) {
  char *dp = d;
  const char *sp = s;
  if ((((unsigned long)dp | (unsigned long)sp) & 1) == 0)
    for (; n >= 4; n -= 4, dp += 4, sp += 4) *(long *)dp = *(const long *)sp;
  while (n--) *dp++ = *sp++;
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  char *dp = d;
  const char *sp = s;
  if (dp <= sp || dp >= sp + n) return memcpy(d, s, n); /* a forward copy is safe */
  dp += n;
  sp += n;
  while (n--) *--dp = *--sp;
  return d;
}

void *memset(void *d, int c, size_t n) {
  unsigned char *p = d;
  if (n >= 8) {
    while ((unsigned long)p & 3) *p++ = (unsigned char)c, --n;
    unsigned long w = (unsigned char)c;
    w |= w << 8;
    w |= w << 16;
    for (; n >= 4; n -= 4, p += 4) *(unsigned long *)p = w;
  }
  while (n--) *p++ = (unsigned char)c;
  return d;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (; n; --n, ++x, ++y)
    if (*x != *y) return *x - *y;
  return 0;
}

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n; --n, ++p)
    if (*p == (unsigned char)c) return (void *)p;
  return NULL;
}

size_t strlen(const char *s) {
  const char *p = s;
  while (*p) ++p;
  return (size_t)(p - s);
}

char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++) != 0) {
  }
  return r;
}

char *strncpy(char *d, const char *s, size_t n) {
  char *r = d;
  for (; n && *s; --n) *d++ = *s++;
  for (; n; --n) *d++ = 0;
  return r;
}

char *strcat(char *d, const char *s) {
  strcpy(d + strlen(d), s);
  return d;
}

char *strncat(char *d, const char *s, size_t n) {
  char *p = d + strlen(d);
  for (; n && *s; --n) *p++ = *s++;
  *p = 0;
  return d;
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; --n, ++a, ++b) {
    if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
    if (!*a) return 0;
  }
  return 0;
}

char *strchr(const char *s, int c) {
  for (;; ++s) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return NULL;
  }
}

char *strrchr(const char *s, int c) {
  const char *last = NULL;
  for (;; ++s) {
    if (*s == (char)c) last = s;
    if (!*s) return (char *)last;
  }
}

char *strstr(const char *s, const char *sub) {
  size_t n = strlen(sub);
  if (!n) return (char *)s;
  for (; *s; ++s)
    if (*s == *sub && strncmp(s, sub, n) == 0) return (char *)s;
  return NULL;
}

size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] && strchr(accept, s[n])) ++n;
  return n;
}

size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] && !strchr(reject, s[n])) ++n;
  return n;
}

char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s ? (char *)s : NULL;
}

char *strtok(char *s, const char *delim) {
  static char *next;
  if (!s) s = next;
  if (!s) return NULL;
  s += strspn(s, delim);
  if (!*s) {
    next = NULL;
    return NULL;
  }
  char *end = s + strcspn(s, delim);
  if (*end) *end++ = 0;
  else end = NULL;
  next = end;
  return s;
}

const char *tos_strerror(int err);

char *strerror(int err) { return (char *)tos_strerror(err); }
