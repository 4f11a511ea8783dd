/* <string.h> of the TOS C library (seed 000 section 2.1.3: copying, concatenating, comparing
 * and searching strings, memory block copying). */
#ifndef TOS_STRING_H
#define TOS_STRING_H
#include <stddef.h>

#ifndef NULL
#define NULL ((void *)0)
#endif

void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
char *strcpy(char *d, const char *s);
char *strncpy(char *d, const char *s, size_t n);
char *strcat(char *d, const char *s);
char *strncat(char *d, const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *s, const char *sub);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strtok(char *s, const char *delim);           /* not for two threads at once */
char *strerror(int err);                            /* "TOS_ENOENT"-style name of a TOS error */

#endif
