/* The C library the Embench benchmarks see (embench_libc.c): only what they call. */
#ifndef EMBENCH_STRING_H
#define EMBENCH_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
char *strchr(const char *s, int c);
int strcmp(const char *a, const char *b);
#endif
