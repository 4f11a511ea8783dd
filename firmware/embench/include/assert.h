/* The C library the Embench benchmarks see: a failed assert ends the run as a wrong result
 * (abort, embench_libc.c). Included by support/beebsc.c and the nettle benchmarks. */
#ifndef EMBENCH_ASSERT_H
#define EMBENCH_ASSERT_H
#include <stdlib.h>
#define assert(e) ((e) ? (void)0 : abort())
#endif
