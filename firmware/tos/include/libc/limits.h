/* <limits.h> for TOS programs (the cross compiler's own needs the C library's beneath it, and
 * TOS programs are compiled without glibc's headers). The 68010 with GCC: 8-bit char (signed),
 * 16-bit short, 32-bit int and long. */
#ifndef TOS_LIMITS_H
#define TOS_LIMITS_H
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MIN (-2147483647L - 1)
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295ul
#endif
