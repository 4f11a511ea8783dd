/* Whole-process migration (seed 001: DynamicPVM, Overeinder et al. 1996, section 3 and
 * Figure 4), built on thread migration (migrate.c) and the page protocol (pages.c).
 *
 * A process moves in DynamicPVM's five phases, driven by its home from the main loop:
 *   1. new context: the destination makes the process's part there (NET_PMIG_BEGIN; it checks
 *      it has the frames for the image and refuses, ENOMEM, if not);
 *   2. disconnect: the home waits until every thread of the process is in the ready queue,
 *      none inside a system call -- a channel operation is the seed's critical section, so a
 *      checkpoint never cuts a message in two -- nor inside a critical section its program
 *      marked (pmig_critical: the PVM layer's calls, as DynamicPVM's library holds the
 *      migration signal back), and stops them (P_SUSPENDED) until phase 5;
 *   3. checkpoint: every page the process owns (data, bss, heap, stacks; code is the
 *      filestore's and follows on demand) goes DIRECT to the destination (NET_PMIG_PAGE), or
 *      INDIRECT to a checkpoint file in the master's filestore (NET_PMIG_CKPT), which the
 *      master then restores to the destination page by page and removes;
 *   4. move: the destination, image complete, answers NET_PMIG_READY; the home gives up its
 *      frames and records the destination as every page's owner;
 *   5. restart and reconnect: each thread goes by thread migration (its TCB and its channels:
 *      a message that arrived meanwhile is waiting in its channel state and is delivered to it
 *      there, as for any migrated thread), and the process runs again.
 * The process keeps its identity: its home stays the board it was made on, so its PID, its
 * TIDs and its channels stay valid (the seed's routing: the home knows where each thread is).
 * Until phase 4 nothing has changed at the home, so any failure (a refusal, 20 s without an
 * answer) resumes the process where it was.
 *
 * Its open files go in the checkpoint (file.c's file_checkpoint): a descriptor record first
 * (REC_FILES: each file's name, flags, offset, size and descriptors), then each file's bytes a
 * block at a time (REC_PIECE), then the pages; the destination makes and opens the files as the
 * record says and the home, once the image is there, closes its descriptors and removes its
 * copies. A process with no file open sends exactly the image it sent before.
 *
 * What it moves: a process with nothing elsewhere (no thread on another board, no page held by
 * another) -- DynamicPVM's unit, a task on one host; one migration at a time per home.
 * Every message is checked against who may send it and what is under way. */
#include "defs.h"

#define PM_QUIESCE_US 2000000u /* threads not all outside a call by then: EAGAIN */
#define PM_READY_US 20000000u  /* no answer from the destination by then: ETIMEDOUT */
#define CKPT_REC (4u + TOS_PAGE_SIZE) /* a checkpoint file's record: the virtual page, its bytes */
#define CKPT_MAX (TOS_MAX_FS_FILE_BYTES / CKPT_REC)
/* An image's records past its pages (the checkpoint file keeps the same word): */
#define REC_FILES 0x10000u  /* the descriptor record (struct pmig_files) */
#define REC_PIECE 0x20000u  /* | file << 9 | block: a block of a carried file */
#define PIECE_FILE(v) ((v) >> 9 & 15u)
#define PIECE_BLOCK(v) ((v) & 511u)
#define IS_PIECE(v) (((v) & ~0x1FFFu) == REC_PIECE)
#define FILE_BLOCKS(size) (((size) + TOS_PAGE_SIZE - 1) / TOS_PAGE_SIZE)
#define PM_MAX_RECORDS (TOS_USER_PAGES + 1 + TOS_MAX_FDS * (PMIG_FILE_MAX_BYTES / TOS_PAGE_SIZE))
static int rec_ok(uint32_t v) { return v < TOS_USER_PAGES || v == REC_FILES || IS_PIECE(v); }

static void ckpt_poll(void); /* the master's restore of a checkpoint file */

/* PM_PULL, PM_BACK: the home bringing its process back (pmigrate to the home): asked the board
 * holding it for its image, then waiting for its threads */
enum { PM_IDLE, PM_QUIESCE, PM_SEND, PM_WAIT, PM_THREADS, PM_PULL, PM_BACK };

uint32_t pmig_out, pmig_in, pmig_ckpt_pages;

/* ---- the home's side: one migration at a time ---- */
static struct {
  uint8_t state, mode, dest, old_state;
  uint8_t pulled;           /* this board sends a guest part home, asked by its home (NET_PMIG_PULL) */
  uint8_t then;             /* 1 + the board a process pulled home goes on to (0: it stays home) */
  uint16_t text_lo, text_hi; /* ... the home's code pages: copies here, not the image's */
  struct proc *p;
  uint32_t serial;
  struct tcb *caller;
  uint16_t caller_tid;
  uint32_t t0, n, sent;
  uint16_t v[TOS_USER_PAGES];
  /* its open files: the records before its pages (nfrec: 0 with none), pinned (fs_remap) while
   * queued messages still read their blocks (inflight) */
  uint32_t nfrec, inflight;
  uint8_t pinned;
  int16_t node[TOS_MAX_FDS];
  struct pmig_files files;
} pm;
static uint32_t fdrec[TOS_PAGE_SIZE / 4]; /* the descriptor record as sent: a whole block */

static void unpin(void) {
  for (uint32_t i = 0; i < pm.files.n; ++i) fs_unmap(pm.node[i]);
  pm.pinned = 0;
}

static void file_sent(void *ctx) { /* a queued record of the files has left */
  (void)ctx;
  if (--pm.inflight == 0 && pm.pinned && pm.state == PM_IDLE) unpin();
}

static uint32_t gword(const struct proc *p) { return (uint32_t)p->home_board << 8 | p->home_pid; }

static int caller_waits(void) {
  struct tcb *c = pm.caller;
  return c && c->tid == pm.caller_tid && c->state == T_REMOTE && c->answer_type == NET_PMIG_READY;
}

static void end(int32_t result) {
  struct proc *p = pm.p;
  if (p && proc_alive(p) && p->serial == pm.serial && p->state == P_SUSPENDED) p->state = pm.old_state;
  if (caller_waits()) finish(pm.caller, result);
  if (pm.pulled && result < 0 && p) { /* the home asked: it is told (its caller waits) */
    uint32_t o[4] = {p->home_board, p->home_pid, p->home_serial, (uint32_t)result};
    net_send_wait(p->home_board, NET_PMIG_READY, o, 4);
  }
  pm.pulled = 0;
  pm.then = 0;
  if (result == 0) ++pmig_out;
  pm.state = PM_IDLE;
  pm.p = NULL;
  if (pm.pinned && pm.inflight == 0) unpin();
}

static int image_page(struct proc *p, uint32_t v) {
  uint32_t e = p->ptable[v];
  return (e & TB_MMU_PTE_VALID) && (e & TB_MMU_PTE_USER) && !(v >= p->text_lo && v < p->text_hi) &&
         frame_owned(e & TB_MMU_PTE_FRAME);
}

/* Back home: p's threads all on one other board (the board), none here, every page the home's
 * or that board's alone. The board, or -1. */
static int away_whole(struct proc *p) {
  int b = -1;
  if (p->nthreads || !p->remote_threads) return -1;
  for (uint32_t s = 0; s < TOS_MAX_THREADS; ++s)
    if (p->remote_mask[s / 32] >> (s % 32) & 1) {
      if (b >= 0 && p->where[s] != b) return -1;
      b = p->where[s];
    }
  return b >= 0 && pages_all_on(p, (uint32_t)b) ? b : -1;
}

/* A process leaves its home only with nothing elsewhere: every page the home's, no thread away,
 * no region or DMA buffer mapped in its window. 0 or EBUSY. */
static int32_t can_leave(struct proc *p) {
  if (p->remote_threads || !pages_all_home(p)) return -TOS_EBUSY;
  for (uint32_t v = 0; v < TOS_USER_PAGES; ++v)
    if (REGION_WINDOW_PAGE(v) && (p->ptable[v] & TB_MMU_PTE_VALID)) return -TOS_EBUSY; /* a shared region's, or a DMA buffer (dev.c) */
  return 0;
}

/* pmigrate(pid, processor, mode). A process away whole on one board and asked to another goes
 * by way of its home: pulled home, then sent on (two images; DynamicPVM sent it from host to
 * host). The caller waits for the last leg; a failure after the first leaves it home. */
SYSCALL(pmigrate) {
  uint32_t pid = a1, dest = a2, mode = a3;
  if (dest >= nboards) return -TOS_EINVAL;
  if (mode != TOS_PMIG_DIRECT && mode != TOS_PMIG_INDIRECT) return -TOS_EINVAL;
  if (mode == TOS_PMIG_INDIRECT && (net_me() == NET_MASTER || dest == NET_MASTER))
    return -TOS_EINVAL; /* the master holds the file: it cannot send one to itself */
  if (pid >= TOS_MAX_PROCESSES || !proc_alive(&procs[pid]) || procs[pid].guest) return -TOS_ESRCH;
  struct proc *p = &procs[pid];
  if (p == t->proc) return -TOS_EINVAL; /* the caller would be inside a call: never checkpointed */
  if (!privilege_controls(t->proc, p)) return -TOS_EPERM;
  if (pm.state != PM_IDLE || pm.pinned) return -TOS_EBUSY;
  uint32_t then = 0;
  if (dest == net_me() || p->remote_threads) { /* from the one board holding it, which sends its image home */
    int from = away_whole(p);
    if (from < 0 || (uint32_t)from == dest) return -TOS_EBUSY;
    if (mode == TOS_PMIG_INDIRECT && from == NET_MASTER) return -TOS_EINVAL;
    uint32_t o[6] = {p->home_board, p->home_pid, p->home_serial, mode, p->text_lo, p->text_hi};
    if (!net_queue((uint32_t)from, NET_PMIG_PULL, o, 6, 0, 0, NULL, NULL)) return -TOS_EAGAIN;
    if (dest != net_me()) then = dest + 1;
    dest = (uint32_t)from; /* (pm.dest: the other board) */
    pm.state = PM_PULL;
  } else {
    int32_t r = can_leave(p);
    if (r) return r;
    pm.state = PM_QUIESCE;
  }
  pm.mode = (uint8_t)mode;
  pm.dest = (uint8_t)dest;
  pm.pulled = 0;
  pm.then = (uint8_t)then;
  pm.text_lo = pm.text_hi = 0;
  pm.p = p;
  pm.serial = p->serial;
  pm.caller = t;
  pm.caller_tid = t->tid;
  pm.t0 = uptime_us();
  t->state = T_REMOTE; /* until the process runs there */
  t->answer_type = NET_PMIG_READY;
  t->answer_from = (uint8_t)(dest + 1);
  return 0;
}

/* pmig_critical(depth): the word at `depth` is the thread's critical-section depth. Read
 * only where used (pmig_in_critical), and only through the process's page table. */
SYSCALL(pmig_critical) {
  uint32_t pa;
  if (a1 & 3) return -TOS_EINVAL;
  if (a1 && !vm_user_pa(t->proc, a1, 1, &pa)) return -TOS_EFAULT;
  t->ctx.crit_va = a1;
  return 0;
}

/* Is thread x inside a critical section its program marked (DynamicPVM: inside a PVM call)?
 * The address came from the program, or with the thread from another board: a word that is
 * not the process's now (unmapped since, or forged) is no critical section. */
int pmig_in_critical(struct tcb *x) {
  uint32_t va = x->ctx.crit_va, pa;
  if (!va || (va & 3) || !vm_user_pa(x->proc, va, 0, &pa)) return 0;
  return *(volatile const uint32_t *)pa != 0;
}

/* Phase 2: every thread here and in the ready queue (none in a call, a channel's included) and
 * none inside a critical section: the migration's request is held back until then. */
static int quiet(struct proc *p) {
  if (p->nthreads == 0) return 0;
  for (int i = 0; i < TOS_MAX_THREADS; ++i)
    if (p->slots[i] && (p->slots[i]->state != T_READY || pmig_in_critical(p->slots[i]))) return 0;
  return 1;
}

void pmigrate_poll(void) {
  ckpt_poll();
  if (pm.state == PM_IDLE) return;
  struct proc *p = pm.p;
  if (!proc_alive(p) || p->serial != pm.serial) { end(-TOS_ESRCH); return; } /* ended meanwhile */
  if (!caller_waits() && !pm.pulled && pm.state < PM_WAIT) { end(-TOS_ESRCH); return; } /* nobody asks any more */
  uint32_t hb = p->home_board, hp = p->home_pid, hs = p->home_serial;
  switch (pm.state) {
    case PM_QUIESCE: {
      if (!quiet(p) || p->remote_threads) {
        if (uptime_us() - pm.t0 > PM_QUIESCE_US) end(-TOS_EAGAIN);
        return;
      }
      if (net_queue_room() < 2) return;
      pm.old_state = p->state;
      p->state = P_SUSPENDED; /* the scheduler passes it over from now */
      slice_over = 1;
      EVENT2(DGL_THREADS, EV_PMIG_DISCONNECT, gword(p));
      pm.n = pm.sent = 0;
      for (uint32_t v = 0; v < TOS_USER_PAGES; ++v)
        if (image_page(p, v) && !(v >= pm.text_lo && v < pm.text_hi)) pm.v[pm.n++] = (uint16_t)v;
      if (pm.n == 0) { end(-TOS_EINVAL); return; }
      int nf = file_checkpoint(p, &pm.files, pm.node);
      if (nf < 0) { pm.files.n = 0; end(nf); return; }
      pm.nfrec = 0;
      if (nf) {
        pm.nfrec = 1;
        for (int i = 0; i < nf; ++i) {
          pm.nfrec += FILE_BLOCKS(pm.files.f[i].size);
          fs_remap(pm.node[i]); /* its blocks stay put until the pieces have left */
        }
        pm.pinned = 1;
        memset(fdrec, 0, sizeof fdrec);
        memcpy(fdrec, &pm.files, sizeof pm.files);
      }
      pm.n += pm.nfrec;
      if (pm.mode == TOS_PMIG_INDIRECT && pm.n > CKPT_MAX) { end(-TOS_ENOSPC); return; }
      uint32_t o[5] = {hb, hp, hs, pm.mode, pm.n};
      net_queue(pm.dest, NET_PMIG_BEGIN, o, 5, 0, 0, NULL, NULL);
      EVENT2(DGL_THREADS, EV_PMIG_CHECKPOINT, pm.n);
      pm.t0 = uptime_us();
      pm.state = PM_SEND;
      return;
    }
    case PM_SEND:
      /* the pages stay mapped (the threads are stopped) until the destination has them all */
      while (pm.sent < pm.n && net_queue_room() > 1) {
        uint32_t v, pa;
        void (*done)(void *) = NULL;
        if (pm.sent >= pm.nfrec) {
          v = pm.v[pm.sent - pm.nfrec];
          pa = p->ptable[v] & TB_MMU_PTE_FRAME;
        } else if (pm.sent == 0) {
          v = REC_FILES;
          pa = (uint32_t)fdrec;
          done = file_sent;
        } else { /* the k-th block of the files, in the record's order */
          uint32_t k = pm.sent - 1, f = 0;
          while (k >= FILE_BLOCKS(pm.files.f[f].size)) k -= FILE_BLOCKS(pm.files.f[f++].size);
          v = REC_PIECE | f << 9 | k;
          pa = (uint32_t)fs_bytes(pm.node[f]) + k * TOS_PAGE_SIZE; /* (the file's own block: whole) */
          done = file_sent;
        }
        if (done) ++pm.inflight;
        if (pm.mode == TOS_PMIG_DIRECT) {
          uint32_t o[6] = {hb, hp, hs, v, pm.sent, pm.n};
          net_queue(pm.dest, NET_PMIG_PAGE, o, 6, pa, TOS_PAGE_SIZE, done, NULL);
        } else {
          uint32_t o[7] = {hb, hp, hs, v, pm.dest, pm.sent, pm.n};
          net_queue(NET_MASTER, NET_PMIG_CKPT, o, 7, pa, TOS_PAGE_SIZE, done, NULL);
        }
        ++pm.sent;
      }
      if (pm.sent == pm.n) pm.state = PM_WAIT;
      return;
    case PM_WAIT:
      if (uptime_us() - pm.t0 > PM_READY_US) end(-TOS_ETIMEDOUT);
      return;
    case PM_PULL: /* (the other board gives up sooner: quiesce, then its own wait) */
      if (uptime_us() - pm.t0 > PM_QUIESCE_US + PM_READY_US + 5000000u) end(-TOS_ETIMEDOUT);
      return;
    case PM_BACK:
      if (p->remote_threads == 0) {
        EVENT2(DGL_THREADS, EV_PMIG_RESTART, gword(p));
        if (!pm.then || !caller_waits()) {
          end(0); /* (its caller gone: it stays home) */
        } else { /* home whole: the second leg, as a migration asked here */
          int32_t r = can_leave(p);
          if (r) return (void)end(r);
          pm.dest = (uint8_t)(pm.then - 1);
          pm.then = 0;
          pm.t0 = uptime_us();
          pm.caller->answer_from = (uint8_t)(pm.dest + 1);
          pm.state = PM_QUIESCE;
          kernel_work = 1;
        }
      } else if (uptime_us() - pm.t0 > PM_READY_US) {
        end(-TOS_ETIMEDOUT); /* (its image is home; a thread that comes later is taken as any) */
      }
      return;
    case PM_THREADS:
      for (int i = 0; i < TOS_MAX_THREADS; ++i) {
        struct tcb *x = p->slots[i];
        if (x && migrate_out(x, pm.dest, NULL) != 0) return; /* (the outbox is full: next round) */
      }
      EVENT2(DGL_THREADS, EV_PMIG_RESTART, gword(p));
      end(0);
      return;
  }
}

/* Phase 4 at the home: the destination has the image (or says why not). */
static void on_ready(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = pm.p;
  int32_t r = (int32_t)o[3];
  if (pm.state == PM_PULL) { /* the home: the board holding the process could not send it */
    if (from != pm.dest || o[0] != net_me() || o[1] != p->home_pid || o[2] != p->home_serial || r >= 0 || r < -1000)
      return (void)net_bad(from, NET_PMIG_READY, "an answer to a pull not from the board asked, process", o[1]);
    end(r);
    return;
  }
  if (pm.state != PM_WAIT && pm.state != PM_SEND)
    return (void)net_bad(from, NET_PMIG_READY, "an image's answer with no migration under way, process", o[1]);
  if (o[0] != p->home_board || o[1] != p->home_pid || o[2] != p->home_serial)
    return (void)net_bad(from, NET_PMIG_READY, "an image's answer for another process, process", o[1]);
  if (r > 0 || r < -1000) return (void)net_bad(from, NET_PMIG_READY, "result", o[3]);
  /* the destination answers; the master only to say the checkpoint file could not be written */
  if (from != pm.dest && !(from == NET_MASTER && pm.mode == TOS_PMIG_INDIRECT && r < 0))
    return (void)net_bad(from, NET_PMIG_READY, "an image's answer from a board not its destination", from);
  if (r < 0) {
    if (from == pm.dest) pm.pulled = 0; /* (the home said it: not told back) */
    end(r);
    return;
  }
  if (pm.state != PM_WAIT)
    return (void)net_bad(from, NET_PMIG_READY, "an image said complete before it was all sent, pages", pm.sent);
  if (pm.files.n) { /* the files are the destination's now: the home's copies go */
    file_carried(p, &pm.files);
    if (pm.inflight == 0) { /* (every piece has left: the destination has them all) */
      unpin();
      for (uint32_t i = 0; i < pm.files.n; ++i) fs_remove(pm.node[i]);
    }
  }
  for (uint32_t i = 0; i < pm.n - pm.nfrec; ++i) { /* the destination owns them now */
    uint32_t pa = vm_unmap(p, pm.v[i]);
    if (pa) frame_free(pa); /* (held by mem.c while a queued page still reads it) */
    if (!p->guest) pages_given(p, pm.v[i], pm.dest); /* (a guest part sends them home: the home's record) */
  }
  EVENT2(DGL_THREADS, EV_PMIG_MOVE, gword(p));
  pm.state = PM_THREADS;
  kernel_work = 1;
}

/* ---- the destination's side: the images arriving (two at once at most) ---- */
#define PM_IN 2
static struct pm_in {
  uint8_t used, hb, hp, mode;
  uint8_t src, back; /* the board sending it (its home, or the board a pulled process comes from); 1: pulled home */
  uint32_t pserial;  /* back: the home process's serial */
  uint32_t hs, n, got;
  int32_t err;
  struct proc *p;
  uint32_t fe, fk; /* the carried files: the block expected next (file fe's fk-th) */
  uint8_t made;    /* the files are made here (and pinned) */
  int16_t node[TOS_MAX_FDS];
  struct pmig_files files;
} in[PM_IN];

static struct pm_in *incoming(const uint32_t *o) {
  for (int i = 0; i < PM_IN; ++i)
    if (in[i].used && in[i].hb == o[0] && in[i].hp == o[1] && in[i].hs == o[2]) return &in[i];
  return NULL;
}

static void tell_home(struct pm_in *m, int32_t r) { /* (the sender: the home, or the board it comes back from) */
  uint32_t o[4] = {m->hb, m->hp, m->hs, (uint32_t)r};
  net_send_wait(m->src, NET_PMIG_READY, o, 4);
}

/* The image could not be taken whole: what came is freed, the home keeps the process (and the
 * originals of its files). */
static void drop_image(struct pm_in *m) {
  struct proc *p = m->p;
  if (p && proc_alive(p) && p->guest)
    for (uint32_t v = 0; v < TOS_USER_PAGES; ++v)
      if (image_page(p, v)) pages_free_here(p, v);
  int here = p && proc_alive(p) && (m->back ? !p->guest && p->serial == m->pserial : p->guest);
  if (m->back && here) pages_back(p, m->src, 0); /* the board it came from keeps them */
  if (m->made) file_drop_carried(here ? p : NULL, &m->files, m->node, m->files.n);
  m->made = 0;
  /* the part on_begin made for it goes too (no thread came): else every failed image, a forged
   * one's included, would keep a process slot here until the run ended */
  if (p && proc_alive(p) && p->guest && p->nthreads == 0) proc_kill(p, -1);
}

/* The next block of the carried files is past file fe's last: on to the next file with bytes. */
static void next_file(struct pm_in *m) {
  while (m->fe < m->files.n && m->fk >= FILE_BLOCKS(m->files.f[m->fe].size)) {
    ++m->fe;
    m->fk = 0;
  }
}

/* A record of the carried files (the descriptor record, a block); 0 or the refusal's reason. */
static const char *file_record(struct pm_in *m, uint32_t v, uint32_t index) {
  if (v == REC_FILES) {
    if (index != 0) return "a descriptor record not first in its image, index";
    net_take(0, (uint32_t)&m->files, sizeof m->files);
    int32_t err;
    const char *why = file_restore(m->p, &m->files, m->node, &err);
    if (why) return why;
    if (err) m->err = err; /* (this store cannot take them: the home is told) */
    else {
      m->made = 1;
      m->fe = m->fk = 0;
      next_file(m);
    }
    return NULL;
  }
  if (!m->made || PIECE_FILE(v) != m->fe || PIECE_BLOCK(v) != m->fk)
    return "a block of a carried file out of its files' order, record";
  const struct pmig_file *f = &m->files.f[m->fe];
  int node = m->node[m->fe];
  uint32_t off = m->fk * TOS_PAGE_SIZE, n = f->size - off; /* (next_file: off < size) */
  if (n > TOS_PAGE_SIZE) n = TOS_PAGE_SIZE;
  if (fs_entry(node)->size != f->size) m->err = -TOS_EINVAL; /* (pinned: cannot happen) */
  else net_take(0, (uint32_t)fs_bytes(node) + off, n);
  ++m->fk;
  next_file(m);
  return NULL;
}

static void on_begin(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (o[1] >= TOS_MAX_PROCESSES || o[3] > TOS_PMIG_INDIRECT || o[4] == 0 || o[4] > PM_MAX_RECORDS)
    return (void)net_bad(from, NET_PMIG_BEGIN, "operand out of range, process", o[1]);
  /* from the process's home; or to it, from the board its home asked to send it back */
  struct proc *h = o[0] == net_me() ? proc_by_gpid(o[0], o[1], o[2]) : NULL;
  int back = h && !h->guest && pm.state == PM_PULL && pm.p == h && from == pm.dest;
  if (from != o[0] && !back)
    return (void)net_bad(from, NET_PMIG_BEGIN, "not from the home of the process it names, home", o[0]);
  if (incoming(o)) return (void)net_bad(from, NET_PMIG_BEGIN, "an image already arriving, process", o[1]);
  struct pm_in *m = NULL;
  for (int i = 0; i < PM_IN && !m; ++i)
    if (!in[i].used) m = &in[i];
  static struct pm_in tmp; /* (static: the files' record makes it large) */
  memset(&tmp, 0, sizeof tmp);
  tmp.used = 1;
  tmp.hb = (uint8_t)o[0];
  tmp.hp = (uint8_t)o[1];
  tmp.mode = (uint8_t)o[3];
  tmp.hs = o[2];
  tmp.n = o[4];
  tmp.src = (uint8_t)from;
  tmp.back = (uint8_t)back;
  if (!m) { tell_home(&tmp, -TOS_EBUSY); return; }
  *m = tmp;
  if (back) { /* its home part is the one the image fills */
    if (frames_free() < m->n + 16) {
      m->used = 0;
      tell_home(&tmp, -TOS_ENOMEM);
      return;
    }
    m->p = h;
    m->pserial = h->serial;
    EVENT2(DGL_THREADS, EV_PMIG_CONTEXT, o[0] << 8 | o[1]);
    return;
  }
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (p) { /* a part of it is here already */
    m->used = 0;
    tell_home(&tmp, -TOS_EBUSY);
    return;
  }
  if (frames_free() < m->n + 16 || !(p = remote_guest(o[0], o[1], o[2])))
  {
    m->used = 0;
    tell_home(&tmp, -TOS_ENOMEM);
    return;
  }
  m->p = p;
  EVENT2(DGL_THREADS, EV_PMIG_CONTEXT, o[0] << 8 | o[1]);
}

static void on_page(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct pm_in *m = incoming(o);
  if (!m) return (void)net_bad(from, NET_PMIG_PAGE, "a page of no image arriving here, process", o[1]);
  if (from != (m->mode == TOS_PMIG_DIRECT ? m->src : NET_MASTER))
    return (void)net_bad(from, NET_PMIG_PAGE, "a page of an image from a board that is not sending it, board", from);
  uint32_t v = o[3];
  if (o[4] != m->got || o[5] != m->n || net_data_len() != TOS_PAGE_SIZE)
    return (void)net_bad(from, NET_PMIG_PAGE, "a page out of its image's order, index", o[4]);
  int file = v == REC_FILES || IS_PIECE(v);
  if (!file && (v < (TOS_USER_BASE >> TOS_PAGE_SHIFT) || v >= TOS_USER_PAGES || REGION_WINDOW_PAGE(v)))
    return (void)net_bad(from, NET_PMIG_PAGE, "virtual page", v);
  struct proc *p = m->p;
  int gone = m->back ? p->guest || p->serial != m->pserial || pm.state != PM_PULL || pm.p != p : !p->guest;
  if (!proc_alive(p) || gone) {
    /* its part here has ended (the process was killed), or its home gave up waiting */
    if (m->made) file_drop_carried(NULL, &m->files, m->node, m->files.n); /* (its descriptors closed with it) */
    m->used = 0;
    return;
  }
  ++m->got;
  if (file) {
    const char *why = m->err ? NULL : file_record(m, v, o[4]);
    if (why) { /* refused and counted; the image fails (the home is told and keeps the process) */
      net_bad(from, NET_PMIG_PAGE, why, v);
      m->err = -TOS_EINVAL;
    }
  } else if (m->made && m->fe < m->files.n) {
    m->err = -TOS_EINVAL; /* a page before the files were whole: not an image */
  } else if (m->back && !pages_owned_by(p, v, m->src)) {
    net_bad(from, NET_PMIG_PAGE, "a page coming home that its home did not give that board, virtual page", v);
    m->err = -TOS_EINVAL;
  } else if (m->err == 0) {
    uint32_t pa;
    if (p->ptable[v] & TB_MMU_PTE_VALID) m->err = -TOS_EINVAL; /* twice the same page: not an image */
    else if (!(pa = frame_alloc())) m->err = -TOS_ENOMEM;
    else {
      net_take(0, pa, TOS_PAGE_SIZE);
      if (vm_map(p, v, pa, 1) < 0) {
        frame_free(pa);
        m->err = -TOS_ENOMEM;
      } else
        pages_arrived(p, v);
    }
  }
  if (m->got < m->n) return;
  if (m->err == 0 && m->made && m->fe < m->files.n) m->err = -TOS_EINVAL; /* files announced, not all sent */
  if (m->err) drop_image(m);
  else {
    ++pmig_in;
    if (m->made) {
      for (uint32_t i = 0; i < m->files.n; ++i) fs_unmap(m->node[i]); /* theirs to use now */
      m->made = 0;
    }
    if (m->back) { /* home whole: its pages are the home's alone again; its threads follow */
      pages_back(p, m->src, 1);
      pm.state = PM_BACK;
      pm.t0 = uptime_us();
      kernel_work = 1;
    }
  }
  if (m->err && m->back) end(m->err);
  tell_home(m, m->err);
  m->used = 0;
}

/* ---- the master's side: checkpoint files (indirect), one at a time ---- */
static struct {
  uint8_t used, hb, hp, dest, src; /* src: the board sending the file (the home, or one sending it home) */
  uint32_t hs, n, got, sent;
  int node;
  int32_t err;
} ck;

static void ckpt_name(char *s, uint32_t hb, uint32_t hp) { /* pmig.B.P: a file per home process */
  const char *f = "pmig.";
  int i = 0;
  while (*f) s[i++] = *f++;
  s[i++] = (char)('0' + hb % 10);
  s[i++] = '.';
  if (hp >= 10) s[i++] = (char)('0' + hp / 10);
  s[i++] = (char)('0' + hp % 10);
  s[i] = 0;
}

static void ckpt_fail(int32_t r) {
  uint32_t o[4] = {ck.hb, ck.hp, ck.hs, (uint32_t)r};
  net_send_wait(ck.src, NET_PMIG_READY, o, 4);
}

static void on_ckpt(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (net_me() != NET_MASTER || (o[0] != from && o[4] != o[0]) || from == net_me())
    return (void)net_bad(from, NET_PMIG_CKPT, "a checkpoint page not from its home or not to the master, home", o[0]);
  if (o[1] >= TOS_MAX_PROCESSES || o[4] >= nboards || o[4] == from || o[4] == NET_MASTER ||
      o[6] == 0 || o[6] > CKPT_MAX || o[5] >= o[6] || !rec_ok(o[3]) || net_data_len() != TOS_PAGE_SIZE)
    return (void)net_bad(from, NET_PMIG_CKPT, "operand out of range, process", o[1]);
  if (o[5] == 0) { /* a new checkpoint file */
    if (ck.used) return (void)net_bad(from, NET_PMIG_CKPT, "a checkpoint while another is written, process", o[1]);
    char name[16];
    ckpt_name(name, o[0], o[1]);
    int old = fs_node(name);
    if (old >= 0 && fs_busy(old) == 0) fs_remove(old); /* a stale one from a migration that failed */
    ck.used = 1;
    ck.hb = (uint8_t)o[0];
    ck.hp = (uint8_t)o[1];
    ck.hs = o[2];
    ck.dest = (uint8_t)o[4];
    ck.src = (uint8_t)from;
    ck.n = o[6];
    ck.got = ck.sent = 0;
    ck.err = 0;
    ck.node = fs_create(name);
    if (ck.node < 0) ck.err = ck.node;
  } else if (!ck.used || ck.hb != o[0] || ck.hp != o[1] || ck.hs != o[2] || ck.dest != o[4] || ck.n != o[6] ||
             ck.got != o[5] || ck.src != from)
    return (void)net_bad(from, NET_PMIG_CKPT, "a checkpoint page out of its file's order, index", o[5]);
  ++ck.got;
  if (ck.err == 0) {
    int r = fs_resize(ck.node, ck.got * CKPT_REC);
    if (r < 0) ck.err = r;
    else {
      uint8_t *rec = fs_bytes(ck.node) + (ck.got - 1) * CKPT_REC;
      memcpy(rec, &o[3], 4);
      net_take(0, (uint32_t)(rec + 4), TOS_PAGE_SIZE);
      ++pmig_ckpt_pages;
    }
  }
  if (ck.got < ck.n) return;
  if (ck.err) {
    if (ck.node >= 0) fs_remove(ck.node);
    ckpt_fail(ck.err);
    ck.used = 0;
    return;
  }
  if (fs_map(fs_entry(ck.node)) < 0) { /* pinned while the restore reads it */
    fs_remove(ck.node);
    ckpt_fail(-TOS_EBUSY);
    ck.used = 0;
    return;
  }
  kernel_work = 1; /* the restore starts in the main loop (ckpt_poll) */
}

static void restored(void *ctx) {
  (void)ctx;
  fs_unmap(ck.node);
  fs_remove(ck.node);
  ck.used = 0;
}

/* Restore: the file's pages to the destination, as the network takes them. */
static void ckpt_poll(void) {
  if (!ck.used || ck.got < ck.n) return;
  while (ck.sent < ck.n && net_queue_room() > 1) {
    const uint8_t *rec = fs_bytes(ck.node) + ck.sent * CKPT_REC;
    uint32_t v;
    memcpy(&v, rec, 4);
    uint32_t o[6] = {ck.hb, ck.hp, ck.hs, v, ck.sent, ck.n};
    ++ck.sent;
    net_queue(ck.dest, NET_PMIG_PAGE, o, 6, (uint32_t)(rec + 4), TOS_PAGE_SIZE, ck.sent == ck.n ? restored : NULL,
              NULL);
  }
}

/* The home asks for its process back (pmigrate to the home): this board, holding all of it,
 * checkpoints its part and sends it home as any image goes, then its threads. */
static void on_pull(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = o[1] < TOS_MAX_PROCESSES ? proc_by_gpid(o[0], o[1], o[2]) : NULL;
  if (!p || !p->guest) return (void)net_bad(from, NET_PMIG_PULL, "a process with no part here, process", o[1]);
  if (o[3] > TOS_PMIG_INDIRECT || o[4] > o[5] || o[5] > TOS_USER_PAGES)
    return (void)net_bad(from, NET_PMIG_PULL, "operand out of range, process", o[1]);
  int32_t r = 0;
  if (pm.state != PM_IDLE || pm.pinned) r = -TOS_EBUSY;
  else if (o[3] == TOS_PMIG_INDIRECT && net_me() == NET_MASTER) r = -TOS_EINVAL;
  for (uint32_t v = 0; v < TOS_USER_PAGES && !r; ++v)
    if (REGION_WINDOW_PAGE(v) && (p->ptable[v] & TB_MMU_PTE_VALID)) r = -TOS_EBUSY; /* a shared region's, or a DMA buffer (dev.c) */
  if (r) {
    uint32_t a[4] = {o[0], o[1], o[2], (uint32_t)r};
    net_send_wait(from, NET_PMIG_READY, a, 4);
    return;
  }
  pm.state = PM_QUIESCE;
  pm.mode = (uint8_t)o[3];
  pm.dest = (uint8_t)from;
  pm.pulled = 1;
  pm.text_lo = (uint16_t)o[4];
  pm.text_hi = (uint16_t)o[5];
  pm.p = p;
  pm.serial = p->serial;
  pm.caller = NULL;
  pm.t0 = uptime_us();
  kernel_work = 1;
}

void pmigrate_init(void) {
  net_register(NET_PMIG_PULL, on_pull, 6);
  net_register(NET_PMIG_BEGIN, on_begin, 5);
  net_register(NET_PMIG_PAGE, on_page, 6);
  net_register(NET_PMIG_CKPT, on_ckpt, 7);
  net_register(NET_PMIG_READY, on_ready, 4);
}
