/* <stdlib.h> of the TOS C library (seed 000 section 2.1.3: string-to-integer conversion,
 * memory allocation, exit and environment variables; a few more).
 *
 * malloc takes memory from the heap after the program's data (sbrk: fresh zeroed page frames,
 * up to the 512 KB image limit, all freed when the process ends); it is safe for threads of
 * one process. The environment is what spawn passed (NAME=value strings): getenv reads it,
 * setenv / unsetenv change this process's copy, which spawn() passes on to its children. */
#ifndef TOS_STDLIB_H
#define TOS_STDLIB_H
#include <stddef.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 0x7FFF

int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
int abs(int v);
long labs(long v);

void *malloc(size_t n);
void free(void *p);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);

void exit(int code) __attribute__((noreturn));    /* ends the calling thread (occam style) */

extern char **environ;
char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int rand(void);
void srand(unsigned seed);

#endif
