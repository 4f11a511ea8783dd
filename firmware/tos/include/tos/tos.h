/* The TOS user library: what a program for the Testbed links against (seed 000 section
 * 2.1.3). Threads and channels follow occam; the rest is a small part of the C library.
 * System call numbers, error codes and limits: <testbed/tos.h> (from sw/tables/tos.toml),
 * documented in docs/tos_abi.md. */
#ifndef TOS_TOS_H
#define TOS_TOS_H
#include <stdarg.h>
#include <stdint.h>
#include <testbed/events.h>
#include <testbed/tos.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
typedef unsigned long size_t;

/* ---- threads (occam PAR) ---- */
/* Start a child running entry(arg) with n_pages of stack on `processor` (this board's number,
 * or negative: chosen by TOS). Returns the child's TID, or 0 if it cannot be created (the
 * reason: tos_errno). */
int create(int id, int n_pages, int processor, void (*entry)(void *), void *arg);
int wait(void);               /* wait for all children; 0, or the first non-zero exit code */
void exit(int code) __attribute__((noreturn));
int gettid(void);
void yield(void);
extern int tos_errno;         /* the last failed call's error (TOS_E*) */

/* ---- channels (occam ! and ?) ---- */
int send_block(int chan, const void *buf, int len);  /* 0, or -error */
int receive(int chan, void *buf, int len);           /* bytes received, or -error */

/* ---- processes ---- */
int spawn(const char *path, const char *args);       /* process number, or -error */
int pwait(int pid);                                  /* its exit code, or -error */
int kill(int pid);

/* ---- the kernel ---- */
long tos_info(int what);                             /* TOS_INFO_* */
int dgl_set(int set, int clear);                     /* event classes (DGL_*) on / off */
void send_event(int code);                           /* a user event (class overflow) */
unsigned long time_us(void);                         /* real-time clock, microseconds */
long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);

/* ---- output ---- */
int write(int fd, const void *buf, int len);
int putchar(int c);
int puts(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
const char *tos_strerror(int err);

/* ---- strings and memory ---- */
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strcpy(char *d, const char *s);
int atoi(const char *s);

#endif
