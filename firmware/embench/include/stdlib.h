/* The C library the Embench benchmarks see (embench_libc.c): only what they call. */
#ifndef EMBENCH_STDLIB_H
#define EMBENCH_STDLIB_H
#include <stddef.h>
void abort(void) __attribute__((noreturn));
#endif
