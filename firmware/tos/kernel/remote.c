/* A process across boards (seed 000 sections 2.2.1, 2.2.2): remote creation, threads ending
 * elsewhere.
 *
 * A process lives on its home board (where it was spawned); its threads may live on other
 * boards, where the process has a guest part: a local process slot with its own address space,
 * named everywhere by the home's (board, pid, serial). A guest starts with no pages at all:
 * every page a thread touches first comes on demand (the thread takes a bus error, the kernel
 * asks the home, blocks the thread, maps the page when it arrives and the 68010 reruns the
 * faulted access from its saved format $8 frame: Figure 8), by the page protocol of pages.c.
 * Thread slots, and so TIDs and stack windows, are given out by the home only.
 *
 * Messages: CREATE (home -> target) and CREATED (target -> home); EXITED (a remote thread
 * ended: target -> home); KILL (home -> every board: the process is gone); the PAGE_* messages
 * are pages.c's. */
#include <tos/rand.h>

#include "defs.h"

static uint32_t rand_state;

/* A board for create(..., processor < 0, ...): a slave dealt at random from those the process
 * has not been given in this round, so that its threads go to the slaves in equal numbers (the
 * report's "random allocation, which assigns equal numbers of threads to each processor",
 * section 4.3.4; drawn independently, 20 threads once put 8 on one slave and 2 on another).
 * The same sequence every run. */
static uint32_t random_board(struct proc *p) {
  if (nboards < 2) return 0; /* no slave: this board, the master */
  uint32_t left = 0;
  for (uint32_t b = 1; b < nboards; ++b) left += !(p->dealt & BSET(b));
  if (!left) {
    p->dealt = 0;
    left = nboards - 1;
  }
  rand_state = TOS_RAND_NEXT(rand_state);
  uint32_t k = (rand_state >> 16) % left, b = 1;
  for (;; ++b)
    if (!(p->dealt & BSET(b)) && k-- == 0) break;
  p->dealt |= BSET(b);
  return b;
}

struct proc *proc_by_gpid(uint32_t hb, uint32_t hp, uint32_t hs) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    if (proc_alive(p) && p->home_board == hb && p->home_pid == hp && p->home_serial == hs) return p;
  }
  return NULL;
}

uint32_t remote_lost; /* reports that found no one to deliver to (each also printed) */

/* The part of process (hb, hp, hs) on this board, made if there is none. */
struct proc *remote_guest(uint32_t hb, uint32_t hp, uint32_t hs) {
  struct proc *p = proc_by_gpid(hb, hp, hs);
  if (p) return p;
  p = proc_new_guest(hb, hp, hs);
  if (p) rchan_adopt(p);
  return p;
}

/* ---- who may ask what (the sender: the network interface's source board) ----
 * A process's own requests come from where its threads are: its home (creation, the end of the
 * process) or the board the home knows one of its threads is on (a page, a thread's end, the
 * thread's arrival). Every operand is checked against the limits before it is used. */
static int in_mask(const struct proc *p, uint32_t slot) { return p->remote_mask[slot / 32] >> (slot % 32) & 1; }

/* The home: is the thread of `slot` on board `b`, as far as the home knows? */
static int home_thread_on(const struct proc *p, uint32_t slot, uint32_t b) {
  return slot < TOS_MAX_THREADS && in_mask(p, slot) && p->where[slot] == b;
}

/* ---- creation ---- */
int remote_create(struct tcb *parent, int32_t id, uint32_t n_pages, int32_t processor, uint32_t entry, uint32_t arg,
                  uint32_t ret) {
  struct proc *p = parent->proc;
  uint32_t target = processor < 0 ? random_board(p) : (uint32_t)processor;
  if (target == net_me()) return thread_create_local(parent, id, n_pages, entry, arg, ret);
  if (target >= nboards) return -TOS_EINVAL;
  if (n_pages == 0 || n_pages > TOS_MAX_STACK_PAGES) return -TOS_EINVAL;
  int slot = proc_reserve_slot(p);
  if (slot < 0) return slot;
  /* op 10: the home's privileges (bit 0), and where the global scheduler placed it (bit 1) */
  uint32_t ops[12] = {net_me(), p->pid, p->serial, (uint32_t)slot, entry, arg, ret, n_pages,
                      parent->tid, (uint32_t)id,
                      (uint32_t)proc_privileged(p) | (uint32_t)rex_placed_take(parent, target) << 1, 0};
  net_send_wait(target, NET_CREATE, ops, 11); /* the caller waits for CREATED anyway (create has no EAGAIN) */
  rchan_spread(p, NULL);
  proc_child_born(p, parent->tid);
  ++parent->ctx.children;
  pages_thread_placed(p, (uint32_t)slot, n_pages, target);
  p->where[slot] = (uint8_t)target;
  p->where_moves[slot] = 0;
  p->spread = 1;
  parent->state = T_REMOTE; /* until CREATED */
  parent->answer_type = NET_CREATED;
  parent->answer_from = (uint8_t)(target + 1);
  return 0;
}

/* Quotas (tos.toml [limits], issue #57): the processes of one home board hold at most
 * guest_parts_per_home of this board's process slots and guest_tcbs_per_home of its TCBs, so
 * that no board's programs can fill another board for its own programs and the other boards'.
 * 0, or the error the creator gets. */
static int32_t guest_quota(uint32_t home, const struct proc *part) {
  uint32_t parts = 0, threads = 0;
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i)
    if (proc_alive(&procs[i]) && procs[i].guest && procs[i].home_board == home) {
      ++parts;
      threads += procs[i].nthreads;
    }
  if (!part && parts >= TOS_MAX_GUEST_PARTS_PER_HOME) return -TOS_ENOPROC;
  if (threads >= TOS_MAX_GUEST_TCBS_PER_HOME) return -TOS_ENOTCB;
  return 0;
}
uint32_t remote_over_quota; /* creates refused by a quota here (the end-of-run line) */

static void on_create(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  /* thread slots are the home's to give: a create comes from the process's home only (net.c) */
  if (o[1] >= TOS_MAX_PROCESSES) return (void)net_bad(from, NET_CREATE, "process", o[1]);
  if (o[3] >= TOS_MAX_THREADS) return (void)net_bad(from, NET_CREATE, "thread slot", o[3]);
  if (o[4] < TOS_USER_BASE || o[4] >= TOS_USER_IMAGE_TOP || (o[4] & 1))
    return (void)net_bad(from, NET_CREATE, "entry", o[4]);
  if (o[7] == 0 || o[7] > TOS_MAX_STACK_PAGES) return (void)net_bad(from, NET_CREATE, "stack pages", o[7]);
  if (!tid_of(o[8], o[0], o[1])) return (void)net_bad(from, NET_CREATE, "parent TID", o[8]);
  if (nops > 10 && o[10] > 3) return (void)net_bad(from, NET_CREATE, "flags", o[10]);
  int32_t result = guest_quota(from, proc_by_gpid(o[0], o[1], o[2]));
  struct proc *p = result ? NULL : remote_guest(o[0], o[1], o[2]);
  if (p) p->home_privileged = nops > 10 && (o[10] & 1); /* the home's word: its privileges go with it */
  if (result) {
    if (!remote_over_quota++)
      kprintf("tos: %s: %s's processes are at their quota here: create refused (%s; more are only counted)\n",
              board_name, board_name_of(from), result == -TOS_ENOPROC ? "process slots" : "TCBs");
  } else if (!p) {
    result = -TOS_ENOPROC;
  } else {
    struct tcb *t = thread_new_in_slot(p, o[3], o[4], o[7], o[5], o[6]);
    if ((int32_t)t >= 0) {
      t->ctx.user_id = (int32_t)o[9];
      t->parent = NULL;
      t->ctx.parent_tid = (uint16_t)o[8];
      t->parent_board = (uint8_t)from;
      p->gone[o[3]] = 0;
      EVENT2(DGL_PROFILE, EV_CREATE, t->tid);
      if (nops > 10 && (o[10] & 2)) { /* placed by the global scheduler: this board's REX manager tells it */
        t->ctx.gs_note = 1;
        rex_note(TOS_GS_CREATED, t->tid);
      }
      ready(t);
      result = t->tid;
    } else {
      result = (int32_t)t;
    }
  }
  uint32_t r[5] = {o[0], o[1], o[2], o[3], (uint32_t)result};
  r[3] |= o[8] << 8; /* slot and the parent's TID */
  net_send_wait(from, NET_CREATED, r, 5); /* (the home's creator waits for it: it must not be dropped) */
}

static void on_created(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = o[0] == net_me() ? proc_by_gpid(o[0], o[1], o[2]) : NULL;
  if (!p || p->guest) return (void)net_bad(from, NET_CREATED, "an answer to a create this board did not ask, process", o[1]);
  uint32_t slot = o[3] & 0xFF, ptid = o[3] >> 8;
  if (!home_thread_on(p, slot, from))
    return (void)net_bad(from, NET_CREATED, "an answer from a board not asked to create in slot", slot);
  if (!tid_of(ptid, o[0], o[1])) return (void)net_bad(from, NET_CREATED, "parent TID", ptid);
  int32_t result = (int32_t)o[4];
  struct tcb *par = p->slots[ptid & (TOS_MAX_THREADS - 1)];
  if (result < 0) {
    pages_thread_gone(p, slot, from); /* its stack was never made */
    proc_release_slot(p, (int)slot);
    proc_child_ended(p, ptid);
    if (par && par->tid == ptid) --par->ctx.children;
  } else {
    route_placed(p, slot, from); /* (now that its part there exists: the master's update finds it) */
  }
  if (par && par->tid == ptid && par->state == T_REMOTE && par->answer_type == NET_CREATED) finish(par, result);
}

/* ---- sbrk on a guest board ----
 * The break and the heap's pages are the home's: a page is made at the home and reaches the
 * other boards by the page protocol (pages.c), which the home's directory must know of. So a
 * thread on a guest board asks the home, and waits for the old break (or -error). */
int32_t remote_sbrk(struct tcb *t, uint32_t increment) {
  struct proc *p = t->proc;
  uint32_t o[5] = {p->home_board, p->home_pid, p->home_serial, t->tid, increment};
  net_send_wait(p->home_board, NET_SBRK, o, 5);
  t->state = T_REMOTE; /* until SBRK_DONE */
  t->answer_type = NET_SBRK_DONE;
  t->answer_from = (uint8_t)(p->home_board + 1);
  return 0;
}

static void on_sbrk(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (!tid_of(o[3], o[0], o[1])) return (void)net_bad(from, NET_SBRK, "asking TID", o[3]);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (p && !home_thread_on(p, o[3] & (TOS_MAX_THREADS - 1), from)) /* only where a thread of it is */
    return (void)net_bad(from, NET_SBRK, "an sbrk from a board the home knows none of the process's threads on, thread", o[3]);
  int32_t result = p ? proc_sbrk(p, o[4]) : -TOS_ESRCH; /* (gone: the asker's part goes too) */
  uint32_t r[2] = {o[3], (uint32_t)result};
  net_send_wait(from, NET_SBRK_DONE, r, 2);
}

static void on_sbrk_done(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct tcb *t = thread_here(from, o[0] >> TOS_TID_PROCESS_SHIFT & TOS_TID_PROCESS_MASK, o[0]);
  if (t && t->proc->guest && t->state == T_REMOTE && t->answer_type == NET_SBRK_DONE) {
    finish(t, (int32_t)o[1]);
    return;
  }
  net_bad(from, NET_SBRK_DONE, "an answer to an sbrk no thread here waits for, thread", o[0]);
}

/* ---- a thread on this board that belongs to another board's process ends ---- */
void remote_thread_exit(struct tcb *t, int32_t code, int parent_told) {
  struct proc *p = t->proc;
  uint32_t ops[7] = {p->home_board, p->home_pid, p->home_serial, t->slot, t->ctx.parent_tid, (uint32_t)code,
                     (uint32_t)parent_told};
  net_send_wait(p->home_board, NET_EXITED, ops, 7);
}

/* A child of thread `ptid` has ended with `code`: tell the parent wherever it is. The home
 * knows where its threads are (NET_MOVED keeps it told); other boards send the news home. */
void remote_child_report(struct proc *p, uint32_t ptid, int32_t code, uint32_t hops) {
  uint32_t slot = ptid & (TOS_MAX_THREADS - 1);
  struct tcb *par = p->slots[slot];
  if (par && par->tid == ptid) {
    child_ended(par, code);
    return;
  }
  uint32_t dest = p->home_board;
  if (!p->guest) {
    if (!(p->remote_mask[slot / 32] >> (slot % 32) & 1)) return; /* the parent has ended */
    dest = p->where[slot];
  }
  if (hops > 2 * nboards) { /* chasing a parent that keeps moving: give up, loudly */
    ++remote_lost;
    kprintf("tos: %s: the end of a child of thread %x could not be delivered: dropped\n", board_name, ptid);
    return;
  }
  uint32_t ops[6] = {p->home_board, p->home_pid, p->home_serial, ptid, (uint32_t)code, hops + 1};
  net_send_wait(dest, NET_CHILD, ops, 6);
}

static void on_child(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p) return;
  /* the news goes home, and from the home on to the parent's board */
  if (p->guest ? from != p->home_board : !p->spread)
    return (void)net_bad(from, NET_CHILD, "a child's end from a board with no part of its process, process", o[1]);
  if (!tid_of(o[3], o[0], o[1])) return (void)net_bad(from, NET_CHILD, "parent TID", o[3]);
  remote_child_report(p, o[3], (int32_t)o[4], o[5]);
}

static void on_exited(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p) return;
  if (p->guest || !home_thread_on(p, o[3], from))
    return (void)net_bad(from, NET_EXITED, "the end of a thread that is not on the sender, slot", o[3]);
  if (o[4] != TID_NONE && !tid_of(o[4], o[0], o[1])) return (void)net_bad(from, NET_EXITED, "parent TID", o[4]);
  if (o[6] > 1) return (void)net_bad(from, NET_EXITED, "parent told", o[6]);
  if (o[3] < TOS_MAX_THREADS) pages_thread_gone(p, o[3], from); /* its stack pages elsewhere go */
  if (o[3] == 0 && !p->exit_set) { /* the main thread ended elsewhere: its code is the process's, as in thread_exit */
    p->exit_code = (int32_t)o[5];
    p->exit_set = 1;
  }
  proc_release_slot(p, (int)o[3]);
  if (!o[6] && o[4] != TID_NONE) remote_child_report(p, o[4], (int32_t)o[5], 0);
  proc_child_ended(p, o[4]);
  if (p->nthreads == 0 && p->remote_threads == 0) proc_thread_gone(p);
}

/* The part here of another board's process failed (a thread's fault, trap.c; no frame for its
 * page, pages.c): the part is removed at once by the caller, and the home is told, which removes
 * the process with all its threads, on every board (its exit code this one), as a fault at home
 * does. The message names a thread slot the process has here, as the home knows it. */
void remote_fault(struct proc *p, int32_t code) {
  for (uint32_t s = 0; s < TOS_MAX_THREADS; ++s)
    if (p->slots[s]) {
      uint32_t ops[5] = {p->home_board, p->home_pid, p->home_serial, s, (uint32_t)code};
      net_send_wait(p->home_board, NET_FAULT, ops, 5);
      return;
    }
}

static void on_fault(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops; /* o: home (board, pid, serial), slot, code */
  struct proc *p = o[0] == net_me() ? proc_by_gpid(o[0], o[1], o[2]) : NULL;
  if (!p) return; /* ended meanwhile */
  if (p->guest || !home_thread_on(p, o[3], from))
    return (void)net_bad(from, NET_FAULT, "a fault of a thread that is not on the sender, slot", o[3]);
  int32_t code = (int32_t)o[4];
  if (code >= 0) return (void)net_bad(from, NET_FAULT, "exit code", o[4]);
  kprintf("tos: %s: process %u (%s): its part on %s failed (thread slot %u, exit code %d): process removed\n",
          board_name, p->pid, p->name, board_name_of(from), o[3], code);
  proc_kill(p, code);
}

/* The home process is gone: every board removes its guest part. */
void remote_process_gone(struct proc *p) {
  pages_forget(p);
  if (p->guest || !p->spread) return;
  p->spread = 0;
  uint32_t ops[3] = {p->home_board, p->home_pid, p->home_serial};
  for (uint32_t b = 0; b < nboards; ++b)
    if (b != net_me()) net_send_wait(b, NET_KILL, ops, 3);
}

static void on_kill(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  (void)from; /* only the home says its process is gone (net.c) */
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (p && p->guest) proc_kill(p, -1);
}

/* ---- pages (pages.c): a thread's end gives its stack window back everywhere ---- */
void remote_drop_pages(struct tcb *t) {
  if (!t->proc->guest) pages_thread_gone(t->proc, t->slot, net_me()); /* a guest's: on NET_EXITED */
}

/* ---- a process's console is its home's ----
 * A program's output reaches the console it was started from, wherever its threads run (as a
 * remote login's job prints on the terminal that started it, not on the machine it runs on): a
 * thread away from home writes its console output home, GUEST_OUT_CHARS characters a message,
 * and the home prints it. The writer waits (console_line.c's writers' queue) while the network
 * queue is full. Messages from one board to another arrive in order, so a thread's output does. */
#define GUEST_OUT_HEAD 5
#define GUEST_OUT_CHARS (4 * (NET_MAX_OPS - GUEST_OUT_HEAD))
uint32_t remote_console_room(void) { return net_queue_room() ? GUEST_OUT_CHARS : 0; }

void remote_console_out(const struct tcb *t, const char *src, uint32_t n) {
  const struct proc *p = t->proc;
  uint32_t o[NET_MAX_OPS] = {p->home_board, p->home_pid, p->home_serial, t->tid, n};
  net_pack_chars(o + GUEST_OUT_HEAD, src, n);
  net_queue(p->home_board, NET_GUEST_OUT, o, GUEST_OUT_HEAD + (n + 3) / 4, 0, 0, NULL, NULL);
}

uint32_t remote_console_lost; /* characters of a process that had ended when they came home */

static void on_guest_out(uint32_t from, const uint32_t *o, uint32_t nops) {
  if (!tid_of(o[3], o[0], o[1])) return (void)net_bad(from, NET_GUEST_OUT, "writing TID", o[3]);
  if (o[4] > 4 * (nops - GUEST_OUT_HEAD)) return (void)net_bad(from, NET_GUEST_OUT, "count", o[4]);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p) { /* ended meanwhile (a kill): its output goes with it, counted */
    remote_console_lost += o[4];
    return;
  }
  if (!home_thread_on(p, o[3] & (TOS_MAX_THREADS - 1), from))
    return (void)net_bad(from, NET_GUEST_OUT, "output from a board the home knows none of the process's threads on, thread", o[3]);
  for (uint32_t i = 0; i < o[4]; ++i) {
    char c = net_unpacked_char(o + GUEST_OUT_HEAD, i);
    if (c == '\r') continue; /* kputc adds it back before '\n' */
    kputc(c);
  }
}

void remote_init(void) {
  rand_state = 0x5EED0000u + net_me();
  net_register(NET_CREATE, on_create, 10);
  net_register(NET_CREATED, on_created, 5);
  net_register(NET_EXITED, on_exited, 7);
  net_register(NET_KILL, on_kill, 3);
  net_register(NET_FAULT, on_fault, 5);
  pages_init();
  region_init();
  net_register(NET_CHILD, on_child, 6);
  net_register(NET_SBRK, on_sbrk, 5);
  net_register(NET_SBRK_DONE, on_sbrk_done, 2);
  net_register(NET_GUEST_OUT, on_guest_out, GUEST_OUT_HEAD);
}
