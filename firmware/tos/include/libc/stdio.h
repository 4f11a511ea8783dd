/* <stdio.h> of the TOS C library (seed 000 section 2.1.3: opening, flushing, closing, seeking
 * and removing files, formatted printing, character and block reading and writing).
 *
 * stdin, stdout and stderr are descriptors 0, 1 and 2 (the console unless the shell redirected
 * them). Output to stdout and stderr is written at the end of every call (one write per printf,
 * so threads printing at once do not mix their lines); files from fopen are fully buffered
 * (BUFSIZ bytes, allocated at the first access) and flushed by fflush, fclose, fseek and exit.
 * A FILE is not locked: two threads should not use the same FILE at once. Errors: the
 * function's own failure value, and tos_errno (<tos/tos.h>) says why (TOS_ENOSPC, ...). */
#ifndef TOS_STDIO_H
#define TOS_STDIO_H
#include <stdarg.h>
#include <stddef.h>
#include <testbed/tos.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#define EOF (-1)
#define BUFSIZ 1024
#define FOPEN_MAX 16        /* streams open at once, stdin, stdout and stderr included */
#define FILENAME_MAX 28     /* a filestore name (27 characters) and its NUL */
#define SEEK_SET TOS_SEEK_SET
#define SEEK_CUR TOS_SEEK_CUR
#define SEEK_END TOS_SEEK_END

typedef struct tos_file FILE;
extern FILE *const stdin, *const stdout, *const stderr;

FILE *fopen(const char *path, const char *mode);   /* "r" "w" "a" "r+" "w+" "a+" ("b" ignored) */
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
int fflush(FILE *f);                                /* NULL: every stream */
int fseek(FILE *f, long offset, int whence);
long ftell(FILE *f);
void rewind(FILE *f);
int fileno(FILE *f);
int remove(const char *path);
int rename(const char *from, const char *to);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vprintf(const char *fmt, va_list ap);
int vfprintf(FILE *f, const char *fmt, va_list ap);
int vsprintf(char *buf, const char *fmt, va_list ap);
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);

int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int putchar(int c);
int fputs(const char *s, FILE *f);
int puts(const char *s);
int fgetc(FILE *f);
int getc(FILE *f);
int getchar(void);
char *fgets(char *s, int n, FILE *f);
int ungetc(int c, FILE *f);
size_t fread(void *buf, size_t size, size_t n, FILE *f);
size_t fwrite(const void *buf, size_t size, size_t n, FILE *f);

int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);
void perror(const char *s);                         /* "s: TOS_Exxx" for tos_errno, on stderr */

#endif
