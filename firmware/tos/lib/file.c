/* File system calls (the filestore: sw/tables/tos.toml, docs/tos_abi.md): thin wrappers that
 * return -error and set tos_errno. read() and write() are tos.c's. */
#include <tos/tos.h>

static long check(long r) {
  if (r < 0) tos_errno = (int)-r;
  return r;
}
#define CALL(n, a, b, c) check(__tos_syscall((n), (long)(a), (long)(b), (long)(c), 0, 0, 0))

int open(const char *path, int flags) { return (int)CALL(SYS_OPEN, path, flags, 0); }
int close(int fd) { return (int)CALL(SYS_CLOSE, fd, 0, 0); }
long lseek(int fd, long offset, int whence) { return CALL(SYS_LSEEK, fd, offset, whence); }
int chmod(const char *path, int perm) { return (int)CALL(SYS_CHMOD, path, perm, 0); }
int stat(const char *path, struct tos_stat *st) { return (int)CALL(SYS_STAT, path, st, 0); }
int readdir(int index, struct tos_stat *st) { return (int)CALL(SYS_READDIR, index, st, 0); }
int fsstat(struct tos_fsstat *st) { return (int)CALL(SYS_FSSTAT, st, 0, 0); }
int dup2(int fd, int newfd) { return (int)CALL(SYS_DUP2, fd, newfd, 0); }
/* C's remove and rename: 0, or -1 with errno and tos_errno (syscalls.c) saying why. */
long __tos_ret(long r);
int remove(const char *path) { return (int)__tos_ret(__tos_syscall(SYS_REMOVE, (long)path, 0, 0, 0, 0, 0)); }
int rename(const char *from, const char *to) {
  return (int)__tos_ret(__tos_syscall(SYS_RENAME, (long)from, (long)to, 0, 0, 0, 0));
}

void *sbrk(long increment) {
  long r = CALL(SYS_SBRK, increment, 0, 0);
  return r < 0 ? (void *)-1 : (void *)r;
}

long tos_clock(unsigned long *usec) { return __tos_syscall(SYS_CLOCK, (long)usec, 0, 0, 0, 0, 0); }
