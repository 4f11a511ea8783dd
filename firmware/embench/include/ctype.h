/* The C library the Embench benchmarks see (embench_libc.c): only what they call. */
#ifndef EMBENCH_CTYPE_H
#define EMBENCH_CTYPE_H
int isdigit(int c);
int isspace(int c);
int isxdigit(int c);
int tolower(int c);
#endif
