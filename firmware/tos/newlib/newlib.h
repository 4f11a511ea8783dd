/* newlib's configuration for TOS (what newlib's configure writes into newlib.h; TOS builds
 * newlib's sources with CMake file lists instead, firmware/tos/newlib/newlib.cmake). The
 * choices: C99 printf and scanf in full (hh h l ll j z t, %a) with long long; long double read
 * as double by printf (the 68010 runtime computes long double in double precision, README
 * "The C library"; _HAVE_LONG_DOUBLE declares strtold, which reads a double: newlib.cmake);
 * locks that TOS implements (lib/lock.c: threads of a process share stdio);
 * 32-bit time_t (the board's clock counts from boot); no multibyte locales, no iconv. */
#ifndef __NEWLIB_H__
#define __NEWLIB_H__ 1
#include <_newlib_version.h>
#define _WANT_IO_C99_FORMATS 1
#define _WANT_IO_LONG_LONG 1
#define _MB_LEN_MAX 1
#define _ATEXIT_DYNAMIC_ALLOC 1
#define _FVWRITE_IN_STREAMIO 1
#define _WIDE_ORIENT 1
#define _UNBUF_STREAM_OPT 1
#define _RETARGETABLE_LOCKING 1
#define _WANT_USE_LONG_TIME_T 1
#define _HAVE_LONG_DOUBLE 1
#endif
