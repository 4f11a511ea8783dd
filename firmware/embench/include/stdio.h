/* The C library the Embench benchmarks see: they include <stdio.h> but call nothing of it (their
 * printf calls are commented out or in debug macros never expanded). */
#ifndef EMBENCH_STDIO_H
#define EMBENCH_STDIO_H
#include <stddef.h>
#endif
