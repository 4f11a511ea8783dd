/* Processes (seed 000 section 2.1.2): up to 16 per board, each its own address space with
 * code + data of up to half a megabyte, made from an m68k ELF executable in the filestore.
 * Code pages are mapped read-only straight from the file's blocks in the filestore, so every
 * invocation of a program shares them; data pages are copied, bss pages zeroed. The file is
 * pinned while the process lives (fs_map: it may not move, be rewritten or be removed). sbrk
 * grows the data segment after bss with fresh zeroed frames. The first thread gets the command
 * line and the environment block on its stack: _start(cmdline, env). The process inherits the
 * spawner's descriptors 0, 1 and 2. A process ends with its last thread. */
#include "defs.h"

struct proc procs[TOS_MAX_PROCESSES];
int nprocs;

/* ELF32, big-endian (the fields the loader reads). */
struct elf_hdr {
  uint8_t ident[16];
  uint16_t type, machine;
  uint32_t version, entry, phoff, shoff, flags;
  uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct elf_phdr {
  uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};
#define ELF_EXEC 2
#define ELF_M68K 4
#define PT_LOAD 1
#define PF_W 2
#define MAX_PHDRS 8

/* A free process slot made new: cleared, its page table kept, a new serial (a slot's
 * incarnations are told apart by it). Returns its number. */
static uint8_t proc_slot_reset(struct proc *p) {
  uint32_t *pt = p->ptable, serial = p->serial + 1;
  uint8_t pid = (uint8_t)(p - procs);
  memset(p, 0, sizeof *p);
  p->ptable = pt;
  p->pid = pid;
  p->serial = serial;
  return pid;
}

static int refuse(const char *path, const char *why, uint32_t v) {
  kprintf("tos: %s: %s: not a TOS executable: %s (0x%x)\n", board_name, path, why, v);
  return -TOS_ENOEXEC;
}

/* Check the ELF image of `e` against TOS's rules before anything is allocated. */
static int check_elf(const char *path, const struct tos_fs_entry *e, const struct elf_hdr **out) {
  const uint8_t *f = fs_data(e);
  const struct elf_hdr *h = (const struct elf_hdr *)f;
  if (e->size < sizeof *h || h->ident[0] != 0x7F || h->ident[1] != 'E' || h->ident[2] != 'L' || h->ident[3] != 'F')
    return refuse(path, "no ELF header", e->size);
  if (h->ident[4] != 1 || h->ident[5] != 2) return refuse(path, "not 32-bit big-endian ELF", h->ident[4]);
  if (h->machine != ELF_M68K) return refuse(path, "not an m68k executable, machine", h->machine);
  if (h->type != ELF_EXEC) return refuse(path, "not an executable, type", h->type);
  if (h->phentsize != sizeof(struct elf_phdr) || h->phnum == 0 || h->phnum > MAX_PHDRS ||
      h->phoff > e->size || h->phoff + h->phnum * sizeof(struct elf_phdr) > e->size || (h->phoff & 1))
    return refuse(path, "bad program headers at", h->phoff);
  const struct elf_phdr *ph = (const struct elf_phdr *)(f + h->phoff);
  uint32_t lo = 0xFFFFFFFFu, hi = 0;
  int entry_ok = 0;
  for (int i = 0; i < h->phnum; ++i) {
    const struct elf_phdr *s = &ph[i];
    if (s->type != PT_LOAD || s->memsz == 0) continue;
    if (s->memsz > TOS_MAX_IMAGE_BYTES) return refuse(path, "image larger than 512 KB", s->memsz);
    if (s->vaddr < TOS_USER_BASE || s->vaddr + s->memsz > TOS_USER_IMAGE_TOP || s->vaddr + s->memsz < s->vaddr)
      return refuse(path, "linked outside the user image area, segment at", s->vaddr);
    if (s->filesz > s->memsz || s->offset + s->filesz > e->size || s->offset + s->filesz < s->offset)
      return refuse(path, "segment past the end of the file, offset", s->offset);
    if ((s->vaddr ^ s->offset) & (TOS_PAGE_SIZE - 1))
      return refuse(path, "segment not page-aligned in the file, at", s->vaddr);
    if (!(s->flags & PF_W) && s->memsz != s->filesz) return refuse(path, "read-only segment with bss at", s->vaddr);
    if (s->vaddr < lo) lo = s->vaddr;
    if (s->vaddr + s->memsz > hi) hi = s->vaddr + s->memsz;
    if (!(s->flags & PF_W) && h->entry >= s->vaddr && h->entry < s->vaddr + s->memsz) entry_ok = 1;
  }
  if (hi == 0) return refuse(path, "nothing to load", 0);
  if (hi - lo > TOS_MAX_IMAGE_BYTES) return refuse(path, "image larger than 512 KB", hi - lo);
  if (!entry_ok) return refuse(path, "entry point outside the code, at", h->entry);
  *out = h;
  return 0;
}

/* Which of a process's pages are its own: a frame of the pool (data, bss, heap, stacks, pages
 * copied from another board) is; a code page is a filestore block, shared by every invocation
 * and never the process's to free, whatever order the segments were listed in or however far
 * the loading got. The pool (mem.c) and the filestore are disjoint, so the frame says it. */
static int owns(struct proc *p, uint32_t v) {
  uint32_t e = p->ptable[v];
  return (e & TB_MMU_PTE_VALID) && frame_owned(e & TB_MMU_PTE_FRAME);
}

static void release_memory(struct proc *p) {
  region_process_gone(p); /* its region frames are the region module's, mapped in its window */
  privilege_process_gone(p); /* the devices it owned */
  /* the image, pages copied into stack windows from another board (threads' own stacks went
   * with them), and its DMA buffers (dev.c: pool frames mapped in its region window) */
  for (uint32_t v = vm_next(p, 0); v < TOS_USER_PAGES; v = vm_next(p, v + 1)) {
    int own = owns(p, v);
    uint32_t pa = vm_unmap(p, v);
    if (pa && own) frame_free(pa);
  }
  fs_unmap(p->text_node);
  p->text_node = -1;
  file_close_all(p);
}

static int load(struct proc *p, const char *path, const struct tos_fs_entry *e, const struct elf_hdr *h) {
  const uint8_t *f = fs_data(e);
  const struct elf_phdr *ph = (const struct elf_phdr *)(f + h->phoff);
  p->text_lo = p->text_hi = 0;
  p->brk = 0;
  for (int i = 0; i < h->phnum; ++i) {
    const struct elf_phdr *s = &ph[i];
    if (s->type != PT_LOAD || s->memsz == 0) continue;
    if (s->vaddr + s->memsz > p->brk) /* the heap starts on the page after the image */
      p->brk = p->brk_base = (s->vaddr + s->memsz + TOS_PAGE_SIZE - 1) & ~(uint32_t)(TOS_PAGE_SIZE - 1);
    uint32_t v0 = s->vaddr >> TOS_PAGE_SHIFT, v1 = (s->vaddr + s->memsz - 1) >> TOS_PAGE_SHIFT;
    if (!(s->flags & PF_W)) { /* code: the filestore's own blocks, read-only, shared */
      uint32_t pa = (uint32_t)f + (s->offset & ~(uint32_t)(TOS_PAGE_SIZE - 1));
      for (uint32_t v = v0; v <= v1; ++v, pa += TOS_PAGE_SIZE) {
        if (vm_mapped(p, v << TOS_PAGE_SHIFT, 0)) return refuse(path, "segments share a page at", v << TOS_PAGE_SHIFT);
        vm_map(p, v, pa, 0);
      }
      if (!p->text_hi || v0 < p->text_lo) p->text_lo = v0; /* segments in any order */
      if (v1 + 1 > p->text_hi) p->text_hi = v1 + 1;
      continue;
    }
    for (uint32_t v = v0; v <= v1; ++v) { /* data + bss: private frames */
      if (vm_mapped(p, v << TOS_PAGE_SHIFT, 0)) return refuse(path, "segments share a page at", v << TOS_PAGE_SHIFT);
      uint32_t pa = frame_alloc();
      if (!pa) {
        kprintf("tos: %s: %s: out of memory\n", board_name, path);
        return -TOS_ENOMEM;
      }
      vm_map(p, v, pa, 1);
    }
    if (!vm_copyout(p, s->vaddr, f + s->offset, s->filesz)) return refuse(path, "data segment not mapped at", s->vaddr);
  }
  return 0;
}

int proc_alive(const struct proc *p) { return p->state != P_FREE && p->state != P_ZOMBIE; }

/* The environment block of `parent` (the one it was started with), or an empty one. */
static uint32_t env_of(struct proc *parent, char *env) {
  if (parent && parent->env_len && parent->env_len <= TOS_MAX_ENV_BYTES &&
      vm_copyin(parent, env, parent->env, parent->env_len) && env[parent->env_len - 1] == 0)
    return parent->env_len;
  env[0] = 0;
  return 1;
}

int proc_spawn(const char *path, const char *args, struct proc *parent, struct proc **out) {
  char env[TOS_MAX_ENV_BYTES];
  uint32_t n = env_of(parent, env);
  return proc_spawn_env(path, args, env, n, parent, out);
}

int proc_spawn_env(const char *path, const char *args, const char *env, uint32_t env_len, struct proc *parent,
                   struct proc **out) {
  const struct tos_fs_entry *e = fs_lookup(path);
  if (!e) return -TOS_ENOENT;
  if (!(e->perm & TOS_FS_PERM_EXEC)) return -TOS_EPERM;
  const struct elf_hdr *h;
  int rc = check_elf(path, e, &h);
  if (rc) return rc;
  struct proc *p = NULL;
  for (int i = 0; i < TOS_MAX_PROCESSES && !p; ++i)
    if (procs[i].state == P_FREE) p = &procs[i];
  if (!p) return -TOS_ENOPROC;
  int node = fs_map(e); /* EBUSY: the file is open for writing */
  if (node < 0) return node;
  uint8_t pid = proc_slot_reset(p);
  p->home_board = (uint8_t)net_me(); /* its name on every board */
  p->home_pid = pid;
  p->home_serial = p->serial;
  p->parent = parent ? (int8_t)parent->pid : -1;
  p->parent_serial = parent ? parent->serial : 0;
  p->text_node = (int8_t)node;
  uint32_t n = 0;
  const char *base = path;
  while (base[n] && n < PROC_NAME_LEN - 1) {
    p->name[n] = base[n];
    ++n;
  }
  vm_clear(p);
  p->state = P_FOREGROUND;
  ++nprocs;
  rc = load(p, path, e, h);
  struct tcb *t = rc ? NULL : thread_new(p, h->entry, TOS_MAX_MAIN_STACK_PAGES, 0, 0);
  if (rc || (int32_t)t < 0) {
    if (!rc) rc = (int32_t)t;
    release_memory(p);
    p->state = P_FREE;
    --nprocs;
    return rc;
  }
  /* the environment and the command line on the stack: entry(cmdline, env), returning to 0
   * (crt0 never returns) */
  uint32_t envp = (t->ctx.usp + 8 - env_len) & ~3u;
  p->env = envp;
  p->env_len = env_len;
  uint32_t len = strlen(args) + 1;
  if (len > TOS_MAX_ARGS_BYTES) len = TOS_MAX_ARGS_BYTES;
  uint32_t str = (envp - len) & ~3u;
  uint32_t zero = 0;
  t->ctx.usp = str - 12;
  /* (the first stack's top pages were mapped just now: these cannot fail) */
  if (!vm_copyout(p, envp, env, env_len) || !vm_copyout(p, str, args, len - 1) ||
      !vm_copyout(p, str + len - 1, "", 1) || !vm_copyout(p, t->ctx.usp, &zero, 4) ||
      !vm_copyout(p, t->ctx.usp + 4, &str, 4) || !vm_copyout(p, t->ctx.usp + 8, &envp, 4)) {
    thread_free(t);
    release_memory(p);
    p->state = P_FREE;
    --nprocs;
    return -TOS_ENOMEM;
  }
  file_inherit(p, parent);
  ready(t);
  if (out) *out = p;
  return pid;
}

/* process_twin (rex.c): a new process like p, its child, with nothing mapped yet: its code's
 * file mapped once more, its heap's bounds, its environment block's place and descriptors 0..2
 * as spawn gives them. NULL: no free slot. */
struct proc *proc_new_twin(struct proc *p) {
  struct proc *c = NULL;
  for (int i = 0; i < TOS_MAX_PROCESSES && !c; ++i)
    if (procs[i].state == P_FREE) c = &procs[i];
  if (!c) return NULL;
  uint8_t pid = proc_slot_reset(c);
  c->home_board = (uint8_t)net_me();
  c->home_pid = pid;
  c->home_serial = c->serial;
  c->parent = (int8_t)p->pid;
  c->parent_serial = p->serial;
  c->text_node = p->text_node;
  fs_remap(c->text_node);
  memcpy(c->name, p->name, PROC_NAME_LEN);
  c->text_lo = p->text_lo;
  c->text_hi = p->text_hi;
  c->brk = p->brk;
  c->brk_base = p->brk_base;
  c->env = p->env;
  c->env_len = p->env_len;
  vm_clear(c);
  c->state = P_FOREGROUND;
  ++nprocs;
  file_inherit(c, p);
  return c;
}

/* ... and given back when the twin could not be made. */
void proc_drop_twin(struct proc *c) {
  release_memory(c);
  c->state = P_FREE;
  --nprocs;
}

/* Remove every thread of p (a fault, kill): blocked ones leave their channels and queues. */
void proc_kill(struct proc *p, int code) {
  if (!proc_alive(p)) return;
  if (!p->exit_set) {
    p->exit_code = code;
    p->exit_set = 1;
  }
  remote_process_gone(p); /* its threads on other boards go too */
  p->remote_threads = 0;
  p->remote_mask[0] = p->remote_mask[1] = 0;
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *t = p->slots[i];
    if (!t) continue;
    if (t->state == T_READY) unready(t);
    t->parent = NULL;
    thread_free(t); /* (it forgets every wait: thread.c's thread_forget) */
  }
  proc_thread_gone(p);
}

static void reap(struct proc *p) {
  p->state = P_FREE;
  --nprocs;
}

/* The part of another board's process that lives here: an empty address space (pages come
 * from the home on demand), the console for 0..2, no exit code to keep. */
struct proc *proc_new_guest(uint32_t hb, uint32_t hp, uint32_t hs) {
  struct proc *p = NULL;
  for (int i = 0; i < TOS_MAX_PROCESSES && !p; ++i)
    if (procs[i].state == P_FREE) p = &procs[i];
  if (!p) return NULL;
  proc_slot_reset(p);
  p->parent = -1;
  p->text_node = -1;
  p->guest = 1;
  p->home_board = (uint8_t)hb;
  p->home_pid = (uint8_t)hp;
  p->home_serial = hs;
  memcpy(p->name, "(remote)", 9);
  vm_clear(p);
  file_inherit(p, NULL);
  p->state = P_BACKGROUND;
  ++nprocs;
  return p;
}

/* May slot s be given to a new thread? Not while a thread holds it, here or elsewhere, nor while
 * a child of its last thread lives: the child names that thread's TID as its parent's, and its
 * end would go to the new thread (the home keeps the count: proc_child_born / _ended). */
int proc_slot_free(const struct proc *p, uint32_t s) {
  return !p->slots[s] && !(p->remote_mask[s / 32] >> (s % 32) & 1) && !p->parent_refs[s];
}

/* The home: a thread is born to (or has ended under) the thread of TID parent_tid. Every
 * creation is the home's, and every thread's end reaches the home (thread_exit here,
 * NET_EXITED from elsewhere), so the count is whole; the process's end clears it. */
void proc_child_born(struct proc *p, uint32_t parent_tid) {
  if (!p->guest && parent_tid != TID_NONE) ++p->parent_refs[parent_tid & (TOS_MAX_THREADS - 1)];
}
void proc_child_ended(struct proc *p, uint32_t parent_tid) {
  uint8_t *n = &p->parent_refs[parent_tid & (TOS_MAX_THREADS - 1)];
  if (!p->guest && parent_tid != TID_NONE && *n) --*n;
}

int proc_reserve_slot(struct proc *p) {
  if (p->nthreads + p->remote_threads >= TOS_MAX_THREADS) return -TOS_ENOTHREAD;
  for (uint32_t s = 0; s < TOS_MAX_THREADS; ++s)
    if (proc_slot_free(p, s)) {
      p->remote_mask[s / 32] |= 1u << (s % 32);
      ++p->remote_threads;
      return (int)s;
    }
  return -TOS_ENOTHREAD;
}

void proc_release_slot(struct proc *p, int slot) {
  if (slot < 0 || slot >= TOS_MAX_THREADS || !(p->remote_mask[slot / 32] >> (slot % 32) & 1)) return;
  p->remote_mask[slot / 32] &= ~(1u << (slot % 32));
  --p->remote_threads;
}

/* The last thread has gone: free the address space; the exit code waits for the spawner
 * (a zombie) if it is still alive, else the slot is free at once. pwait-ers get the code. */
void proc_thread_gone(struct proc *p) {
  if (!proc_alive(p)) return;
  remote_process_gone(p); /* the parts it had on other boards go too */
  release_memory(p);
  struct proc *par = p->parent >= 0 ? &procs[p->parent] : NULL;
  int collected = 0;
  for (int i = 0; i < 4; ++i) {
    struct tcb *w = p->pwaiter[i];
    if (w && w->state == T_PWAIT && w->proc != p) {
      finish(w, p->exit_code);
      collected = 1;
    }
    p->pwaiter[i] = NULL;
  }
  p->state = P_ZOMBIE;
  if (collected || !par || !proc_alive(par) || par->serial != p->parent_serial) reap(p);
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) /* its own uncollected children go with it */
    if (procs[i].state == P_ZOMBIE && procs[i].parent == p->pid && procs[i].parent_serial == p->serial) reap(&procs[i]);
}

/* pwait(pid): 1 if the thread blocked, else it already has its result in d0. */
int proc_pwait(struct tcb *t, int pid) {
  if (pid < 0 || pid >= TOS_MAX_PROCESSES || procs[pid].state == P_FREE || &procs[pid] == t->proc) {
    t->ctx.regs[TCB_REGS_D0] = (uint32_t)-TOS_ECHILD;
    return 0;
  }
  struct proc *p = &procs[pid];
  if (p->state == P_ZOMBIE) { /* it has ended: collect its code */
    t->ctx.regs[TCB_REGS_D0] = (uint32_t)p->exit_code;
    reap(p);
    return 0;
  }
  for (int i = 0; i < 4; ++i)
    if (!p->pwaiter[i]) {
      p->pwaiter[i] = t;
      t->state = T_PWAIT;
      return 1;
    }
  t->ctx.regs[TCB_REGS_D0] = (uint32_t)-TOS_EINVAL;
  return 0;
}

/* ---- system calls ---- */
SYSCALL(spawn) {
  char path[TOS_FS_NAME_LEN], args[TOS_MAX_ARGS_BYTES], env[TOS_MAX_ENV_BYTES];
  if (!vm_copyinstr(t->proc, path, a1, sizeof path) || !vm_copyinstr(t->proc, args, a2, sizeof args))
    return -TOS_EFAULT;
  if (!a3) return proc_spawn(path, args, t->proc, NULL); /* the caller's own environment */
  uint32_t n = 0; /* "NAME=value\0...\0\0": up to the first empty string */
  do {
    if (n == sizeof env) return -TOS_EINVAL;
    uint32_t pa;
    if (!vm_user_pa(t->proc, a3 + n, 0, &pa)) return -TOS_EFAULT;
    env[n++] = *(const char *)pa;
  } while (env[n - 1] || (n > 1 && env[n - 2]));
  return proc_spawn_env(path, args, env, n, t->proc, NULL);
}

/* sbrk(increment): move the end of the data segment; pages after the image are mapped from
 * fresh zeroed frames as it grows and freed as it shrinks (and with the process). */
int32_t proc_sbrk(struct proc *p, uint32_t a1) {
  uint32_t old = p->brk, brk = old + a1;
  if ((int32_t)a1 > 0 && (brk > TOS_USER_IMAGE_TOP || brk < old)) return -TOS_ENOMEM;
  if ((int32_t)a1 < 0 && (brk < p->brk_base || brk > old)) return -TOS_EINVAL;
  uint32_t v0 = (old + TOS_PAGE_SIZE - 1) >> TOS_PAGE_SHIFT, v1 = (brk + TOS_PAGE_SIZE - 1) >> TOS_PAGE_SHIFT;
  for (uint32_t v = v0; v < v1; ++v) {
    if (pages_exists(p, v)) continue; /* kept when it shrank: another board had it */
    uint32_t pa = frame_alloc();
    if (!pa) {
      while (v-- > v0) pages_free_here(p, v);
      return -TOS_ENOMEM;
    }
    vm_map(p, v, pa, 1);
  }
  for (uint32_t v = v1; v < v0; ++v) pages_free_here(p, v); /* (one another board holds stays) */
  p->brk = brk;
  return (int32_t)old;
}
/* A guest part of a process has no break of its own: its thread's sbrk goes home (remote.c),
 * where the pages are made and whence the page protocol brings them. */
SYSCALL(sbrk) { return t->proc->guest ? remote_sbrk(t, a1) : proc_sbrk(t->proc, a1); }
SYSCALL(pwait) {
  if ((int32_t)a1 >= 0 && a1 < TOS_MAX_PROCESSES && procs[a1].state != P_FREE && !privilege_controls(t->proc, &procs[a1]))
    return -TOS_EPERM; /* another's exit code is its parent's to collect */
  proc_pwait(t, (int32_t)a1);
  return (int32_t)t->ctx.regs[TCB_REGS_D0];
}
/* Is q p itself or one of its descendants (parent links, each checked by serial)? */
static int descends(const struct proc *q, const struct proc *p) {
  for (int hops = 0; hops <= TOS_MAX_PROCESSES && q->state != P_FREE; ++hops) { /* a zombie child too */
    if (q == p) return 1;
    if (q->parent < 0) return 0;
    const struct proc *up = &procs[q->parent];
    if (up->serial != q->parent_serial) return 0; /* its parent has ended: an orphan */
    q = up;
  }
  return 0;
}
int proc_descends(const struct proc *q, const struct proc *p) { return descends(q, p); }

SYSCALL(kill) {
  if ((int32_t)a1 < 0 || a1 >= TOS_MAX_PROCESSES || !proc_alive(&procs[a1])) return -TOS_ECHILD;
  if (!privilege_controls(t->proc, &procs[a1])) return -TOS_EPERM;
  proc_kill(&procs[a1], -1);
  return 0;
}

SYSCALL(pinfo) {
  if ((int32_t)a1 < 0 || a1 >= TOS_MAX_PROCESSES || procs[a1].state == P_FREE) return -TOS_ECHILD;
  if (a3 < sizeof(struct tos_pinfo)) return -TOS_EINVAL;
  struct proc *p = &procs[a1];
  static struct tos_pinfo info;
  memset(&info, 0, sizeof info);
  memcpy(info.name, p->name, sizeof info.name);
  info.state = p->state;
  info.parent = p->parent;
  info.exit_code = p->exit_code;
  for (uint32_t v = 0; v < TOS_USER_PAGES; ++v)
    if (owns(p, v)) ++info.frames;
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *th = p->slots[i];
    if (!th) continue;
    struct tos_pinfo_thread *o = &info.thread[info.nthreads++];
    o->tid = th->tid;
    o->state = th->state;
    o->slot = th->slot;
    memcpy(&o->pc, &th->ctx.frame[2], 4);
    o->sp = th->ctx.usp;
    o->slices = th->ctx.cpu_slices;
    o->d0 = th->ctx.regs[TCB_REGS_D0];
    o->board = (uint8_t)net_me();
  }
  for (uint32_t i = 0; i < TOS_MAX_THREADS && !p->guest; ++i) /* the home knows where its others are */
    if (p->remote_mask[i / 32] >> (i % 32) & 1) {
      struct tos_pinfo_thread *o = &info.thread[info.nthreads++];
      o->tid = (uint16_t)tid_make(p->home_board, p->home_pid, i);
      o->state = T_AWAY;
      o->slot = (uint8_t)i;
      o->board = p->where[i];
    }
  USER_BUFFER(t, a2, sizeof info, 1);
  return vm_copyout(t->proc, a2, &info, sizeof info) ? 0 : -TOS_EFAULT;
}

SYSCALL(pstate) {
  if ((int32_t)a1 < 0 || a1 >= TOS_MAX_PROCESSES || !proc_alive(&procs[a1])) return -TOS_ECHILD;
  struct proc *p = &procs[a1];
  if (a2 != 0 && !privilege_controls(t->proc, p)) return -TOS_EPERM;
  if (a2 == P_FOREGROUND || a2 == P_BACKGROUND || a2 == P_SUSPENDED) p->state = (uint8_t)a2;
  else if (a2 != 0) return -TOS_EINVAL;
  return p->state;
}
