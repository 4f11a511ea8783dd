/* TOS's side of newlib (newlib's porting guide, "System calls"): the functions newlib's libc
 * calls for what only the operating system can do, each over a TOS system call. newlib reaches
 * them through its reent layer (_read_r -> _read, ...). Failures set errno (newlib's, per
 * <errno.h>) and tos_errno (the TOS code) alike, so programs written for either see the reason.
 *
 * What TOS has no call for: _fstat knows only the kind of descriptor (0, 1 and 2 are the console
 * unless redirected: a character device, so stdio line-buffers them; others are files); _kill
 * can end only the caller's own process (abort's raise(SIGABRT)); _times counts real time since
 * the process started (TOS keeps no processor time per process). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <testbed/tos.h> /* <tos/tos.h> declares TOS's open, stat, kill: not POSIX's */

long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);
extern int tos_errno;
int gettid(void);
void _exit(int code) __attribute__((noreturn));
long tos_clock(unsigned long *usec);

#undef errno
extern int errno;

/* The errno value closest to a TOS error (sw/tables/tos.toml); TOS's own reasons without a C
 * name (no thread slot, no TCB) become the nearest C one. */
static int errno_of(int tos) {
  switch (tos) {
    case TOS_EINVAL: return EINVAL;
    case TOS_ENOPROC: return EAGAIN;
    case TOS_ENOTHREAD: return EAGAIN;
    case TOS_ENOTCB: return ENOMEM;
    case TOS_ENOMEM: return ENOMEM;
    case TOS_ENOENT: return ENOENT;
    case TOS_ENOEXEC: return ENOEXEC;
    case TOS_EPERM: return EACCES;
    case TOS_ECHILD: return ECHILD;
    case TOS_EFAULT: return EFAULT;
    case TOS_ENOSYS: return ENOSYS;
    case TOS_EAGAIN: return EAGAIN;
    case TOS_EREMOTE: return EPERM;
    case TOS_EFBIG: return EFBIG;
    case TOS_ENOSPC: return ENOSPC;
    case TOS_ENFILE: return ENFILE;
    case TOS_EMFILE: return EMFILE;
    case TOS_EBADF: return EBADF;
    case TOS_EBUSY: return EBUSY;
    case TOS_EEXIST: return EEXIST;
    case TOS_ESRCH: return ESRCH;
    case TOS_ENOTREADY: return EBUSY;
    case TOS_ENODEV: return ENODEV;
    case TOS_ETIMEDOUT: return ETIMEDOUT;
    case TOS_EIO: return EIO;
    default: return EIO;
  }
}

/* r from a TOS call: >= 0 passes, -code sets errno and tos_errno and gives -1. */
long __tos_ret(long r) {
  if (r >= 0) return r;
  tos_errno = (int)-r;
  errno = errno_of((int)-r);
  return -1;
}
#define CALL(n, a, b, c) __tos_ret(__tos_syscall((n), (long)(a), (long)(b), (long)(c), 0, 0, 0))

/* Byte counts past what an int holds are cut to the largest (TOS's calls take an int). */
static int count(size_t n) { return n > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)n; }

int _read(int fd, void *buf, size_t n) { return (int)CALL(SYS_READ, fd, buf, count(n)); }
int _write(int fd, const void *buf, size_t n) { return (int)CALL(SYS_WRITE, fd, buf, count(n)); }
int _close(int fd) { return (int)CALL(SYS_CLOSE, fd, 0, 0); }

off_t _lseek(int fd, off_t offset, int whence) {
  int w = whence == SEEK_SET ? TOS_SEEK_SET : whence == SEEK_CUR ? TOS_SEEK_CUR : whence == SEEK_END ? TOS_SEEK_END : -1;
  if (w < 0) {
    errno = EINVAL;
    tos_errno = TOS_EINVAL;
    return -1;
  }
  return (off_t)CALL(SYS_LSEEK, fd, offset, w);
}

int _open(const char *path, int flags, int mode) {
  (void)mode; /* TOS creates files rw- */
  int acc = flags & O_ACCMODE;
  int f = acc == O_RDONLY ? TOS_O_READ : acc == O_WRONLY ? TOS_O_WRITE : TOS_O_READ | TOS_O_WRITE;
  if (flags & O_CREAT) f |= TOS_O_CREATE;
  if (flags & O_TRUNC) f |= TOS_O_TRUNC;
  if (flags & O_APPEND) f |= TOS_O_APPEND;
  if (flags & O_EXCL) f |= TOS_O_EXCL;
  return (int)CALL(SYS_OPEN, path, f, 0);
}

int _unlink(const char *path) { return (int)CALL(SYS_REMOVE, path, 0, 0); }

int _fstat(int fd, struct stat *st) {
  if (fd < 0) {
    errno = EBADF;
    tos_errno = TOS_EBADF;
    return -1;
  }
  memset(st, 0, sizeof *st);
  st->st_mode = fd <= 2 ? S_IFCHR : S_IFREG;
  return 0;
}

int _isatty(int fd) {
  if (fd >= 0 && fd <= 2) return 1;
  errno = ENOTTY;
  return 0;
}

void *_sbrk(ptrdiff_t increment) {
  long r = CALL(SYS_SBRK, increment, 0, 0);
  if (r < 0) errno = ENOMEM;
  return r < 0 ? (void *)-1 : (void *)r;
}

/* _exit and _Exit end the calling thread, as TOS's exit does (occam style). */
extern int __tos_main_tid; /* tos.c */
void _exit(int code) {
  if (__tos_syscall(SYS_GETTID, 0, 0, 0, 0, 0, 0) == __tos_main_tid) __tos_main_tid = -1;
  __tos_syscall(SYS_EXIT, code, 0, 0, 0, 0, 0);
  for (;;) {
  }
}
void _Exit(int code) { _exit(code); }

/* The process number: a TID is (home board << 10) | (process << 6) | thread slot
 * (firmware/tos/kernel/defs.h, struct tcb). */
int _getpid(void) { return (gettid() >> 6) & 15; }

/* raise() with the default action (abort's SIGABRT, ...): the process ends as if killed. */
int _kill(int pid, int sig) {
  if (pid != _getpid()) {
    errno = EPERM;
    return -1;
  }
  static const char msg[] = "killed by signal ";
  char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), '\n', 0};
  _write(2, msg, sizeof msg - 1);
  _write(2, sig >= 10 ? num : num + 1, sig >= 10 ? 3 : 2);
  __tos_syscall(SYS_KILL, pid, 0, 0, 0, 0, 0); /* ends every thread of the process, this one too */
  _exit(128 + sig); /* the kill failed: end this thread at least */
}

static unsigned long start_s, start_us; /* when the process first asked for the time */

int _gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  unsigned long us;
  long s = tos_clock(&us);
  if (tv) {
    tv->tv_sec = s;
    tv->tv_usec = (suseconds_t)us;
  }
  return 0;
}

clock_t _times(struct tms *t) {
  unsigned long us;
  unsigned long s = (unsigned long)tos_clock(&us);
  if (!start_s && !start_us) {
    start_s = s;
    start_us = us;
  }
  unsigned long long elapsed = (unsigned long long)(s - start_s) * 1000000ull + us - start_us;
  clock_t ticks = (clock_t)(elapsed / (1000000ull / CLOCKS_PER_SEC));
  if (t) {
    t->tms_utime = ticks;
    t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
  }
  return ticks;
}
