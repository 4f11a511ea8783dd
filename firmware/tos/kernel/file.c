/* Files (seed 000 section 2.1.2): descriptors and the file system calls. The store itself
 * (directory, free space, moving files) is fs.c's.
 *
 * A process has TOS_MAX_FDS descriptors; each points to an open file (offset, flags), which
 * dup2 and spawn share (the child inherits 0, 1 and 2, so a shell can redirect a program's
 * output). Descriptors 0, 1 and 2 start as the console: reading it is console_read (the
 * console's line input), writing it console_write. An open file names its file by node, so it
 * stays valid while files move in the store or directory entries are reordered.
 *
 * Rules: open for reading needs read permission, for writing write permission (EPERM); a file
 * a running program's code is mapped from may not be opened for writing (EBUSY), and a program
 * may not start from a file open for writing; an open or mapped file may not be removed. A
 * write that does not fit (EFBIG past 512 KB, ENOSPC) writes nothing. */
#include "defs.h"

enum { F_FREE, F_CONSOLE, F_FILE };

struct ofile {
  uint8_t type;
  uint8_t flags;  /* TOS_O_* */
  uint16_t refs;  /* descriptors pointing here, in every process */
  int16_t node;   /* F_FILE: the file */
  uint32_t off;
};

/* Every descriptor of every process can hold its own open file. */
static struct ofile ofiles[TOS_MAX_PROCESSES * TOS_MAX_FDS];
static struct ofile console_file = {F_CONSOLE, TOS_O_READ | TOS_O_WRITE, 1, -1, 0}; /* never freed */

/* Console input comes from console_line.c; until it is there, reading the console is end of file. */
__attribute__((weak)) int32_t console_read(struct tcb *t, uint32_t buf, uint32_t len) {
  (void)t, (void)buf, (void)len;
  return 0;
}

static void hold(struct ofile *f) {
  if (f != &console_file) ++f->refs;
}

static void drop(struct ofile *f) {
  if (f == &console_file || --f->refs) return;
  fs_use(f->node, f->flags & TOS_O_READ ? -1 : 0, f->flags & TOS_O_WRITE ? -1 : 0);
  f->type = F_FREE;
}

void file_inherit(struct proc *p, struct proc *parent) {
  for (int i = 0; i < TOS_MAX_FDS; ++i) p->fd[i] = NULL;
  for (int i = 0; i < 3; ++i) {
    p->fd[i] = parent ? parent->fd[i] : &console_file;
    if (p->fd[i]) hold(p->fd[i]);
  }
}

void file_close_all(struct proc *p) {
  for (int i = 0; i < TOS_MAX_FDS; ++i)
    if (p->fd[i]) {
      drop(p->fd[i]);
      p->fd[i] = NULL;
    }
}

static struct ofile *get(struct tcb *t, uint32_t fd) { return fd < TOS_MAX_FDS ? t->proc->fd[fd] : NULL; }

/* A file name from user space: -TOS_EFAULT if unmapped, -TOS_EINVAL if longer than a name. */
static int get_name(struct tcb *t, uint32_t va, char *name) {
  for (uint32_t i = 0; i < TOS_FS_NAME_LEN; ++i) {
    uint32_t pa;
    if (!vm_user_pa(t->proc, va + i, 0, &pa)) return -TOS_EFAULT;
    if ((name[i] = *(const char *)pa) == 0) return 0;
  }
  return -TOS_EINVAL;
}

/* Look a file up by its user-space name: its node or -error. */
static int lookup(struct tcb *t, uint32_t va, char *name) {
  int rc = get_name(t, va, name);
  return rc ? rc : fs_node(name);
}

#define O_ALL (TOS_O_READ | TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC | TOS_O_APPEND | TOS_O_EXCL)

SYSCALL(open) {
  char name[TOS_FS_NAME_LEN];
  uint32_t flags = a2;
  if ((flags & ~(uint32_t)O_ALL) || !(flags & (TOS_O_READ | TOS_O_WRITE)) ||
      ((flags & TOS_O_TRUNC) && !(flags & TOS_O_WRITE)))
    return -TOS_EINVAL;
  int rc = get_name(t, a1, name);
  if (rc) return rc;
  struct proc *p = t->proc;
  int fd = 0;
  while (fd < TOS_MAX_FDS && p->fd[fd]) ++fd;
  if (fd == TOS_MAX_FDS) return -TOS_EMFILE;
  struct ofile *f = ofiles, *end = ofiles + sizeof ofiles / sizeof ofiles[0];
  while (f < end && f->type != F_FREE) ++f; /* there is one: a slot per descriptor of every process */
  if (f == end) return -TOS_EMFILE;
  int node = fs_node(name);
  if (node < 0) {
    if (!(flags & TOS_O_CREATE)) return node;
    if ((node = fs_create(name)) < 0) return node;
  } else {
    const struct tos_fs_entry *e = fs_entry(node);
    if ((flags & TOS_O_CREATE) && (flags & TOS_O_EXCL)) return -TOS_EEXIST;
    if ((flags & TOS_O_READ) && !(e->perm & TOS_FS_PERM_READ)) return -TOS_EPERM;
    if ((flags & TOS_O_WRITE) && !(e->perm & TOS_FS_PERM_WRITE)) return -TOS_EPERM;
    if ((flags & TOS_O_WRITE) && fs_mapped(node)) return -TOS_EBUSY; /* a running program's code */
  }
  if ((flags & TOS_O_TRUNC) && (rc = fs_resize(node, 0)) < 0) return rc;
  f->type = F_FILE;
  f->flags = (uint8_t)flags;
  f->refs = 1;
  f->node = (int16_t)node;
  f->off = 0;
  fs_use(node, flags & TOS_O_READ ? 1 : 0, flags & TOS_O_WRITE ? 1 : 0);
  p->fd[fd] = f;
  return fd;
}

SYSCALL(close) {
  struct ofile *f = get(t, a1);
  if (!f) return -TOS_EBADF;
  drop(f);
  t->proc->fd[a1] = NULL;
  return 0;
}

SYSCALL(read) {
  struct ofile *f = get(t, a1);
  if (!f || !(f->flags & TOS_O_READ)) return -TOS_EBADF;
  if (f->type == F_CONSOLE) return console_read(t, a2, a3);
  USER_BUFFER(t, a2, a3, 1);
  uint32_t size = fs_entry(f->node)->size;
  uint32_t n = f->off >= size ? 0 : size - f->off;
  if (n > a3) n = a3;
  if (!vm_copyout(t->proc, a2, fs_bytes(f->node) + f->off, n)) return -TOS_EFAULT;
  f->off += n;
  return (int32_t)n;
}

SYSCALL(write) {
  struct ofile *f = get(t, a1);
  if (!f || !(f->flags & TOS_O_WRITE)) return -TOS_EBADF;
  if (f->type == F_CONSOLE) return console_write(t, a2, a3);
  USER_BUFFER(t, a2, a3, 0);
  uint32_t size = fs_entry(f->node)->size;
  uint32_t off = f->flags & TOS_O_APPEND ? size : f->off, end = off + a3;
  if (end < off || end > TOS_MAX_FS_FILE_BYTES) return -TOS_EFBIG;
  if (end > size) {
    int rc = fs_resize(f->node, end);
    if (rc) return rc;
  }
  if (!vm_copyin(t->proc, fs_bytes(f->node) + off, a2, a3)) return -TOS_EFAULT; /* (checked above: cannot fail) */
  f->off = end;
  return (int32_t)a3;
}

SYSCALL(lseek) {
  struct ofile *f = get(t, a1);
  if (!f) return -TOS_EBADF;
  if (f->type != F_FILE) return -TOS_EINVAL;
  uint32_t base = a3 == TOS_SEEK_SET ? 0 : a3 == TOS_SEEK_CUR ? f->off : fs_entry(f->node)->size;
  if (a3 > TOS_SEEK_END) return -TOS_EINVAL;
  int32_t off = (int32_t)(base + a2);
  if (off < 0) return -TOS_EINVAL;
  f->off = (uint32_t)off;
  return off;
}

SYSCALL(dup2) {
  struct ofile *f = get(t, a1);
  if (!f || a2 >= TOS_MAX_FDS) return -TOS_EBADF;
  struct proc *p = t->proc;
  if (p->fd[a2] == f) return (int32_t)a2;
  if (p->fd[a2]) drop(p->fd[a2]);
  hold(f);
  p->fd[a2] = f;
  return (int32_t)a2;
}

SYSCALL(remove) {
  char name[TOS_FS_NAME_LEN];
  int node = lookup(t, a1, name);
  return node < 0 ? node : fs_remove(node);
}

SYSCALL(rename) {
  char from[TOS_FS_NAME_LEN], to[TOS_FS_NAME_LEN];
  int node = lookup(t, a1, from), rc = get_name(t, a2, to);
  if (node < 0) return node;
  return rc ? rc : fs_rename(node, to);
}

SYSCALL(chmod) {
  char name[TOS_FS_NAME_LEN];
  int node = lookup(t, a1, name);
  if (node < 0) return node;
  if (a2 & ~(uint32_t)(TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC)) return -TOS_EINVAL;
  fs_entry(node)->perm = a2;
  return 0;
}

static int32_t put_stat(struct tcb *t, int node, uint32_t va) {
  const struct tos_fs_entry *e = fs_entry(node);
  struct tos_stat st;
  memset(&st, 0, sizeof st);
  memcpy(st.name, e->name, TOS_FS_NAME_LEN);
  st.size = e->size;
  st.perm = e->perm;
  st.first_block = e->first_block;
  st.busy = fs_busy(node);
  USER_BUFFER(t, va, sizeof st, 1);
  return vm_copyout(t->proc, va, &st, sizeof st) ? 0 : -TOS_EFAULT;
}

SYSCALL(stat) {
  char name[TOS_FS_NAME_LEN];
  int node = lookup(t, a1, name);
  return node < 0 ? node : put_stat(t, node, a2);
}

SYSCALL(readdir) {
  int node = fs_node_at(a1);
  return node < 0 ? node : put_stat(t, node, a2);
}

SYSCALL(fsstat) {
  struct tos_fsstat st;
  fs_stat(&st);
  USER_BUFFER(t, a1, sizeof st, 1);
  return vm_copyout(t->proc, a1, &st, sizeof st) ? 0 : -TOS_EFAULT;
}
