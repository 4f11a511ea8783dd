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

/* ---- open files in a migration checkpoint (pmigrate.c) ----
 * A process's files go with it (DynamicPVM's checkpoint carries the open files; there they
 * stayed on a shared file system, here each board has its own store, so the bytes travel too):
 * the home lists each open file once with its descriptors, flags and offset; the destination
 * makes the file in its store (replacing one of that name nobody uses and that may be written)
 * and opens it at the same descriptors and offset; once the image is there, the home closes its
 * descriptors and removes its copy. Only a file no other process has open moves, and a file open twice is refused:
 * two offsets into one file would need the bytes sent once and shared. */
#define CARRIED_FLAGS (TOS_O_READ | TOS_O_WRITE | TOS_O_APPEND)

static uint32_t uses(const struct ofile *f) {
  return (f->flags & TOS_O_READ ? 1u : 0u) + (f->flags & TOS_O_WRITE ? 1u : 0u);
}

static uint32_t bits(uint32_t m) {
  uint32_t n = 0;
  for (; m; m &= m - 1) ++n;
  return n;
}

int file_checkpoint(struct proc *p, struct pmig_files *r, int16_t *node) {
  struct ofile *of[TOS_MAX_FDS];
  memset(r, 0, sizeof *r);
  for (uint32_t fd = 0; fd < TOS_MAX_FDS; ++fd) {
    struct ofile *f = p->fd[fd];
    if (!f || f->type != F_FILE) continue; /* the console: the guest part has its own */
    uint32_t i = 0;
    while (i < r->n && of[i] != f) ++i;
    if (i == r->n) {
      for (uint32_t j = 0; j < r->n; ++j)
        if (node[j] == f->node) return -TOS_EBUSY; /* one file open twice */
      of[r->n] = f;
      node[r->n++] = f->node;
    }
    r->f[i].fds = (uint16_t)(r->f[i].fds | 1u << fd);
  }
  for (uint32_t i = 0; i < r->n; ++i) {
    const struct tos_fs_entry *e = fs_entry(node[i]);
    if (bits(r->f[i].fds) != of[i]->refs || fs_busy(node[i]) != uses(of[i])) return -TOS_EBUSY; /* not its alone */
    if (e->size > PMIG_FILE_MAX_BYTES) return -TOS_EFBIG;
    if (of[i]->off > TOS_MAX_FS_FILE_BYTES) return -TOS_EINVAL;
    r->f[i].flags = (uint8_t)(of[i]->flags & CARRIED_FLAGS);
    r->f[i].off = of[i]->off;
    r->f[i].size = e->size;
    memcpy(r->f[i].name, e->name, TOS_FS_NAME_LEN);
  }
  return (int)r->n;
}

/* Every field of a record from another board checked before anything is made. */
static const char *record_bad(const struct pmig_files *r) {
  uint32_t fds = 0;
  if (r->n == 0 || r->n > TOS_MAX_FDS) return "a file record with a bad count of files, count";
  for (uint32_t i = 0; i < r->n; ++i) {
    const struct pmig_file *f = &r->f[i];
    if (f->fds == 0 || ((uint32_t)f->fds >> TOS_MAX_FDS) || (fds & f->fds))
      return "a carried file at a bad descriptor index, file";
    fds |= f->fds;
    if ((f->flags & ~(uint32_t)CARRIED_FLAGS) || !(f->flags & (TOS_O_READ | TOS_O_WRITE)))
      return "a carried file with bad flags, file";
    if (f->size > PMIG_FILE_MAX_BYTES || f->off > TOS_MAX_FS_FILE_BYTES)
      return "a carried file with a bad size or offset, file";
    if (f->name[TOS_FS_NAME_LEN - 1] != 0 || !fs_name_ok(f->name))
      return "a carried file with a bad name, file";
    for (uint32_t j = 0; j < i; ++j)
      if (strcmp(r->f[j].name, f->name) == 0) return "a carried file named twice, file";
  }
  return NULL;
}

const char *file_restore(struct proc *p, const struct pmig_files *r, int16_t *node, int32_t *err) {
  const char *why = record_bad(r);
  *err = 0;
  if (why) return why;
  uint32_t free_slots = 0;
  for (uint32_t i = 0; i < sizeof ofiles / sizeof ofiles[0]; ++i) free_slots += ofiles[i].type == F_FREE;
  if (free_slots < r->n) return (void)(*err = -TOS_EMFILE), NULL;
  for (uint32_t i = 0; i < r->n; ++i) { /* nothing is made unless every file can be */
    int n = fs_node(r->f[i].name);
    if (n >= 0 && fs_busy(n)) return (void)(*err = -TOS_EBUSY), NULL;
    if (n >= 0 && !(fs_entry(n)->perm & TOS_FS_PERM_WRITE)) /* (as open for writing would be) */
      return (void)(*err = -TOS_EPERM), NULL;
  }
  for (uint32_t i = 0; i < r->n; ++i) {
    int n = fs_node(r->f[i].name);
    if (n < 0) n = fs_create(r->f[i].name);
    int rc = n < 0 ? n : fs_resize(n, r->f[i].size);
    if (rc < 0) {
      if (n >= 0) fs_remove(n);
      file_drop_carried(p, r, node, i);
      *err = rc;
      return NULL;
    }
    node[i] = (int16_t)n;
    struct ofile *f = ofiles;
    while (f->type != F_FREE) ++f; /* (counted above) */
    f->type = F_FILE;
    f->flags = r->f[i].flags;
    f->refs = (uint16_t)bits(r->f[i].fds);
    f->node = (int16_t)n;
    f->off = r->f[i].off;
    fs_use(n, f->flags & TOS_O_READ ? 1 : 0, f->flags & TOS_O_WRITE ? 1 : 0);
    fs_remap(n); /* pinned until the bytes are in: not opened, moved or removed meanwhile */
    for (uint32_t fd = 0; fd < TOS_MAX_FDS; ++fd)
      if (r->f[i].fds >> fd & 1) {
        if (p->fd[fd]) drop(p->fd[fd]);
        p->fd[fd] = f;
      }
  }
  return NULL;
}

/* The destination: an image that failed (or the first `made` of its files, while they were
 * made): its descriptors closed, the files removed (the home keeps the originals). */
void file_drop_carried(struct proc *p, const struct pmig_files *r, const int16_t *node, uint32_t made) {
  for (uint32_t i = 0; i < made; ++i) {
    for (uint32_t fd = 0; fd < TOS_MAX_FDS && p; ++fd) /* (p NULL: the part has ended, its descriptors with it) */
      if ((r->f[i].fds >> fd & 1) && p->fd[fd]) {
        drop(p->fd[fd]);
        p->fd[fd] = fd < 3 ? &console_file : NULL;
      }
    fs_unmap(node[i]);
    fs_remove(node[i]);
  }
}

void file_carried(struct proc *p, const struct pmig_files *r) {
  for (uint32_t i = 0; i < r->n; ++i)
    for (uint32_t fd = 0; fd < TOS_MAX_FDS; ++fd)
      if ((r->f[i].fds >> fd & 1) && p->fd[fd]) {
        drop(p->fd[fd]);
        p->fd[fd] = NULL;
      }
}
