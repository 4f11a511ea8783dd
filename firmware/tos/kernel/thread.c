/* Threads (seed 000 sections 2.1.2, 2.1.3, 2.2.1): TCBs on a free list, a doubly-linked ready
 * queue per process (Figure 3), equal-priority round robin with a 20 ms slice, and occam's
 * PAR: create children, wait for them, exit.
 *
 * Scheduling: processes take turns; within a process its ready threads take turns. A thread
 * that makes a call the kernel completes at once goes back to the head of its queue and keeps
 * the rest of its slice; one whose slice ended goes to the tail and the next process runs. */
#include "defs.h"

static struct tcb tcbs[TOS_MAX_TCBS];
static struct tcb *free_tcbs;
static uint32_t nfree_tcbs;
uint32_t switches KERNEL_HOT;
/* The scheduler's state and tables are also read and written by entry.S's yield (the same
 * choice, in assembly, for the common case: events off, nothing for the loop): hence the
 * global assembler names. */
int turn __asm__("sched_turn") KERNEL_HOT = TOS_MAX_PROCESSES - 1; /* the process that ran last */
struct tcb *slice_owner __asm__("sched_slice_owner") KERNEL_HOT;
/* Bit pid set while process pid's ready queue is not empty: the scheduler finds the next
 * process with work without visiting every process (a yield is a choice of TCB). */
uint32_t rq_procs __asm__("sched_rq_procs") KERNEL_HOT;
_Static_assert(TOS_MAX_PROCESSES == 16, "rq_procs and the scheduler's tables assume 16 processes");
static uint16_t proc_bit[TOS_MAX_PROCESSES];  /* 1 << pid */
uint16_t from_pid[TOS_MAX_PROCESSES] __asm__("sched_from_pid") KERNEL_HOT;  /* the bits of pid and above */
struct proc *proc_at[TOS_MAX_PROCESSES] __asm__("sched_proc_at") KERNEL_HOT; /* &procs[pid] without a multiplication */
uint8_t low_bit[256] __asm__("sched_low_bit") KERNEL_HOT; /* the lowest set bit of a byte (of 0: unused) */

void thread_init(void) {
  free_tcbs = NULL;
  for (int i = TOS_MAX_TCBS - 1; i >= 0; --i) {
    tcbs[i].state = T_FREE;
    tcbs[i].next = free_tcbs;
    free_tcbs = &tcbs[i];
  }
  nfree_tcbs = TOS_MAX_TCBS;
  for (uint32_t i = 0; i < TOS_MAX_PROCESSES; ++i) {
    proc_bit[i] = (uint16_t)(1u << i);
    from_pid[i] = (uint16_t)(0xFFFFu << i);
    proc_at[i] = &procs[i];
  }
  for (uint32_t b = 1; b < 256; ++b) {
    uint32_t n = 0;
    while (!(b >> n & 1u)) ++n;
    low_bit[b] = (uint8_t)n;
  }
}

uint32_t tcbs_free(void) { return nfree_tcbs; }

/* ---- ready queues ---- */
/* Two views of the ready queue. The rq class (Table 2) shows ours as it is: the running thread
 * is unlinked from it, and section 3's analysis reads [TID] as "TID runs now". The rqlen class
 * is section 4.1's RQ-LENGTH: the report's queue, which a thread joins when it becomes ready
 * and leaves when it blocks, ends or migrates ("they do not leave the queue when they are
 * scheduled on the CPU"), one word without a TID each way; a flag per TCB follows it. */
static inline void rq_join(struct tcb *t) {
  if (t->rq_counted) return;
  t->rq_counted = 1;
  EVENT(DGL_RQLEN, EV_RQ_GROW);
}
void rq_blocked(struct tcb *t) {
  if (!t->rq_counted || t->state == T_READY || t->state == T_RUNNING) return;
  t->rq_counted = 0;
  EVENT(DGL_RQLEN, EV_RQ_SHRINK);
}

void ready(struct tcb *t) {
  struct proc *p = t->proc;
  struct tcb *tail = p->rq_tail;
  t->state = T_READY;
  t->next = NULL;
  t->prev = tail;
  if (tail) tail->next = t; else p->rq_head = t;
  p->rq_tail = t;
  rq_procs |= proc_bit[p->pid];
  EVENT(DGL_RQ, EV_RQ_JOIN_BIT | t->tid);
  rq_join(t);
}

void ready_front(struct tcb *t) {
  struct proc *p = t->proc;
  struct tcb *head = p->rq_head;
  t->state = T_READY;
  t->prev = NULL;
  t->next = head;
  if (head) head->prev = t; else p->rq_tail = t;
  p->rq_head = t;
  rq_procs |= proc_bit[p->pid];
  EVENT(DGL_RQ, EV_RQ_JOIN_BIT | t->tid);
  rq_join(t);
}

static inline void rq_unlink(struct tcb *t) {
  struct proc *p = t->proc;
  struct tcb *next = t->next, *prev = t->prev;
  if (prev) prev->next = next; else p->rq_head = next;
  if (next) next->prev = prev; else p->rq_tail = prev;
  t->next = t->prev = NULL;
  if (!p->rq_head) rq_procs &= ~proc_bit[p->pid];
  EVENT(DGL_RQ, t->tid);
}
void unready(struct tcb *t) { rq_unlink(t); }

/* The next process with a ready thread after the one that ran last, in turn: the lowest set bit
 * of rq_procs at or above turn + 1, else the lowest below. Tables instead of the 68010's
 * variable shifts and loops: a yield's choice is a few loads (issue 32). */
static struct tcb *next_in_turn(void) {
  uint32_t first = (uint32_t)(turn + 1) & (TOS_MAX_PROCESSES - 1);
  uint32_t m = rq_procs & from_pid[first], rest = rq_procs & ~from_pid[first];
  for (;;) {
    if (!m) {
      if (!rest) return NULL;
      m = rest;
      rest = 0;
    }
    uint32_t pid = (m & 0xFFu) ? low_bit[m & 0xFFu] : 8u + low_bit[(m >> 8) & 0xFFu];
    m &= m - 1;
    struct proc *p = proc_at[pid];
    if ((p->state == P_FOREGROUND || p->state == P_BACKGROUND) && p->rq_head) { /* not ended or suspended */
      turn = (int)pid;
      return p->rq_head;
    }
  }
}

/* The slice: the board timer runs free (timer.c) and every tick ends the slice of whatever
 * runs, so a thread scheduled after a tick has until the next one. */
static inline __attribute__((always_inline)) struct tcb *choose(void) {
  struct tcb *t = slice_owner;
  if (t && t->state == T_READY && !slice_over && t->proc->rq_head == t) {
    unready(t); /* the same thread goes on with the rest of its slice */
  } else {
    /* A thread that was given the rest of its slice back (a system call done at once) and whose
     * slice then ended goes to the back: at the head it would start a new slice at once, and
     * threads that make many calls would keep the CPU from the others for seconds. */
    if (t && t->state == T_READY && t->proc->rq_head == t && t->next) {
      unready(t);
      ready(t);
    }
    t = next_in_turn();
    if (!t) return NULL;
    rq_unlink(t);
    slice_owner = t;
    slice_over = 0;
    ++switches;
    ++t->ctx.cpu_slices;
    EVENT(DGL_PROFILE, EV_SCHEDULE_BIT | t->tid);
  }
  t->state = T_RUNNING;
  vm_activate(t->proc);
  return t;
}
struct tcb *schedule(void) { return choose(); }

/* A yield's next thread, chosen in its trap (trap.c): the scheduler's choice, unless that
 * thread is a guest whose code page must come first (the main loop waits for it). */
struct tcb *schedule_yield(void) {
  struct tcb *t = choose(); /* (inlined: a yield's choice makes no call it need not) */
  if (t && t->proc->guest && remote_prefetch(t)) {
    rq_blocked(t);
    return NULL;
  }
  return t;
}

void thread_yield(struct tcb *t) {
  if (slice_owner == t) slice_owner = NULL; /* its slice is given up: another thread's turn */
  ready(t);
}

/* Where a thread released from a block goes (sched_wakeup, seed 004): TOS's tail, or the head
 * with its process's turn next, as the seed's schedulers run a thread just unblocked. */
uint8_t wake_placement = TOS_WAKE_TAIL;
void ready_woken(struct tcb *t) {
  if (wake_placement != TOS_WAKE_HEAD) {
    ready(t);
    return;
  }
  ready_front(t);
  turn = (t->proc->pid + TOS_MAX_PROCESSES - 1) & (TOS_MAX_PROCESSES - 1);
}

/* Complete a blocked call with `result` in d0 and queue the thread. */
void finish(struct tcb *t, int32_t result) {
  t->ctx.regs[TCB_REGS_D0] = (uint32_t)result;
  ready_woken(t);
}

/* ---- TCBs and stacks ---- */
/* A slot's stack window is one page more than the largest stack: its lowest page is never
 * mapped, so that a stack that overflows, whatever its size, faults there (trap.c reports a
 * stack overflow) instead of running into the window below, another thread's stack. */
uint32_t thread_window_top(uint32_t slot) { return TOS_STACK_BASE + (slot + 1) * TOS_STACK_WINDOW; }
#define window_top thread_window_top

static void free_stack(struct tcb *t) {
  uint32_t top = window_top(t->slot) >> TOS_PAGE_SHIFT;
  for (uint32_t i = 1; i <= t->ctx.stack_pages; ++i) {
    uint32_t pa = vm_unmap(t->proc, top - i);
    if (pa) frame_free(pa);
  }
  t->ctx.stack_pages = 0;
}

/* A new TCB in process p, ready to start at `entry` as entry(arg) returning to `ret`. */
struct tcb *thread_new(struct proc *p, uint32_t entry, uint32_t stack_pages, uint32_t arg, uint32_t ret) {
  if (p->nthreads + p->remote_threads >= TOS_MAX_THREADS) return (struct tcb *)-TOS_ENOTHREAD;
  uint32_t slot = 0;
  while (slot < TOS_MAX_THREADS && !proc_slot_free(p, slot)) ++slot;
  if (slot == TOS_MAX_THREADS) return (struct tcb *)-TOS_ENOTHREAD; /* slots held for living orphans */
  return thread_new_in_slot(p, slot, entry, stack_pages, arg, ret);
}

/* The same in a given slot (a thread created from another board: its slot is the home's). */
struct tcb *thread_new_in_slot(struct proc *p, uint32_t slot, uint32_t entry, uint32_t stack_pages, uint32_t arg,
                               uint32_t ret) {
  if (slot >= TOS_MAX_THREADS || p->slots[slot]) return (struct tcb *)-TOS_EINVAL;
  if (!free_tcbs) return (struct tcb *)-TOS_ENOTCB;
  if (stack_pages == 0 || stack_pages > TOS_MAX_STACK_PAGES) return (struct tcb *)-TOS_EINVAL;
  if (stack_pages > frames_free()) return (struct tcb *)-TOS_ENOMEM;
  struct tcb *t = thread_attach(p, slot);
  uint32_t top = window_top(slot);
  for (uint32_t i = 1; i <= stack_pages; ++i) {
    uint32_t old = vm_unmap(p, (top >> TOS_PAGE_SHIFT) - i); /* an earlier thread's, not yet given back */
    if (old) frame_free(old);
    vm_map(p, (top >> TOS_PAGE_SHIFT) - i, frame_alloc(), 1);
    t->ctx.stack_pages = (uint16_t)i;
  }
  /* entry(arg) with return address ret: the C calling convention's frame (on the pages just
   * mapped: cannot fail) */
  uint32_t sp = top - 8;
  if (!vm_copyout(p, sp, &ret, 4) || !vm_copyout(p, sp + 4, &arg, 4)) {
    thread_free(t);
    return (struct tcb *)-TOS_ENOMEM;
  }
  t->ctx.usp = sp;
  /* a format $0 frame: SR (user mode, interrupts on), PC, format/vector 0 */
  t->ctx.frame_len = 8;
  t->ctx.frame[0] = 0x00;
  t->ctx.frame[1] = 0x00;
  memcpy(&t->ctx.frame[2], &entry, 4);
  t->ctx.frame[6] = t->ctx.frame[7] = 0;
  return t;
}

/* A TCB for slot `slot` of p: a new thread's, or one arriving by migration. */
struct tcb *thread_attach(struct proc *p, uint32_t slot) {
  struct tcb *t = free_tcbs;
  free_tcbs = t->next;
  --nfree_tcbs;
  memset(t, 0, sizeof *t);
  t->proc = p;
  t->slot = (uint8_t)slot;
  t->tid = (uint16_t)tid_make(p->home_board, p->home_pid, slot);
  t->ctx.parent_tid = TID_NONE;
  p->slots[slot] = t;
  ++p->nthreads;
  EVENT2(DGL_THREADS, EV_THREAD_IN, t->tid); /* N-THREADS: created or migrated in */
  return t;
}

/* Everything on this board that waits for t or points at it lets go: the one way out on exit,
 * kill and fault (thread_free), so that no entry outlives its thread and the next thread given
 * this TCB and TID (the same process slot and thread slot) inherits nothing. Each forget looks
 * only at what t holds, so it is safe for a thread in any state. */
static void thread_forget(struct tcb *t) {
  chan_forget(t);
  if (t->state == T_CONSOLE) console_forget(t);
  if (t->state == T_CONSOLE_IN) console_forget_reader(t);
  if (t->state == T_REMOTE) rfile_forget(t);
  if (t->state == T_LAN) lan_forget(t);
  region_thread_gone(t);
  t->bar_wait = 0;
}

void thread_free(struct tcb *t) {
  if (t->ctx.gs_note) rex_note(TOS_GS_EXIT, t->tid); /* a process the global scheduler counts has ended */
  thread_forget(t);
  free_stack(t);
  thread_detach(t);
}

/* The TCB goes back to the free list; the stack pages are the caller's business. */
void thread_detach(struct tcb *t) {
  struct proc *p = t->proc;
  EVENT2(DGL_THREADS, EV_THREAD_OUT, t->tid); /* N-THREADS: ended or migrated away */
  if (t->rq_counted) EVENT(DGL_RQLEN, EV_RQ_SHRINK);
  t->rq_counted = 0;
  p->slots[t->slot] = NULL;
  --p->nthreads;
  if (slice_owner == t) slice_owner = NULL;
  t->state = T_FREE;
  t->tid = 0;
  t->next = free_tcbs;
  free_tcbs = t;
  ++nfree_tcbs;
}

/* create(): a child of `parent` on this board. */
int thread_create(struct tcb *parent, int32_t id, uint32_t n_pages, int32_t processor,
                  uint32_t entry, uint32_t arg, uint32_t ret) {
  if (parent->proc->guest) return -TOS_EREMOTE; /* thread slots are the home's to give */
  if (!vm_entry_ok(parent->proc, entry)) return -TOS_EINVAL; /* the home has every code page */
  if (processor < 0 || (uint32_t)processor != net_me()) /* another board (or one chosen at random) */
    return remote_create(parent, id, n_pages, processor, entry, arg, ret);
  return thread_create_local(parent, id, n_pages, entry, arg, ret);
}

int thread_create_local(struct tcb *parent, int32_t id, uint32_t n_pages, uint32_t entry, uint32_t arg,
                        uint32_t ret) {
  struct tcb *t = thread_new(parent->proc, entry, n_pages, arg, ret);
  if ((int32_t)t < 0) return (int32_t)t;
  t->ctx.user_id = id;
  t->parent = parent;
  t->ctx.parent_tid = parent->tid;
  proc_child_born(t->proc, parent->tid);
  ++parent->ctx.children;
  t->proc->gone[t->slot] = 0;
  if (t->proc->route[t->slot]) route_placed(t->proc, t->slot, net_me()); /* a slot last used elsewhere */
  EVENT2(DGL_PROFILE, EV_CREATE, t->tid);
  if (rex_placed_take(parent, net_me())) { /* where the global scheduler placed it */
    t->ctx.gs_note = 1;
    rex_note(TOS_GS_CREATED, t->tid);
  }
  ready(t);
  return t->tid;
}

/* The thread ends: its parent learns, its process may end with it. */
/* A child of `parent` has ended with `code` (here or on another board). */
void child_ended(struct tcb *parent, int32_t code) {
  if (parent->state == T_FREE) return;
  if (code && !parent->ctx.child_code) parent->ctx.child_code = code;
  if (--parent->ctx.children == 0 && parent->state == T_WAIT) {
    int32_t c = parent->ctx.child_code;
    parent->ctx.child_code = 0;
    finish(parent, c);
  }
}

void thread_exit(struct tcb *t, int32_t code) {
  struct proc *p = t->proc;
  struct tcb *par = t->parent;
  EVENT2(DGL_PROFILE, EV_EXIT, t->tid);
  int told = 0;
  if (par && par->tid == t->ctx.parent_tid) {
    child_ended(par, code);
    told = 1;
  }
  if (p->guest) remote_thread_exit(t, code, told); /* the home learns, and the parent wherever it is */
  else if (!told && t->ctx.parent_tid != TID_NONE) remote_child_report(p, t->ctx.parent_tid, code, 0);
  proc_child_ended(p, t->ctx.parent_tid); /* (the home's count; a guest's end is counted there) */
  remote_drop_pages(t); /* stack pages it left on other boards */
  /* orphans: children of this thread no longer report to it */
  for (int i = 0; i < TOS_MAX_THREADS; ++i)
    if (p->slots[i] && p->slots[i]->parent == t) p->slots[i]->parent = NULL;
  if (t->slot == 0 && !p->exit_set) {
    p->exit_code = code;
    p->exit_set = 1;
  }
  thread_free(t);
  if (!p->guest && p->nthreads == 0 && p->remote_threads == 0) proc_thread_gone(p);
  /* a guest part stays until its home says the process is gone (NET_KILL): channels may
   * still be forwarded from it and pages fetched from it */
}

int thread_wait(struct tcb *t) {
  if (t->ctx.children == 0) {
    int32_t c = t->ctx.child_code;
    t->ctx.child_code = 0;
    return c;
  }
  t->state = T_WAIT;
  return 0;
}

/* ---- system calls ---- */
SYSCALL(exit) {
  thread_exit(t, (int32_t)a1);
  return 0;
}
SYSCALL(create) { return thread_create(t, (int32_t)a1, a2, (int32_t)a3, a4, a5, a6); }
SYSCALL(wait) { return thread_wait(t); }
SYSCALL(yield) {
  thread_yield(t);
  return 0;
}
SYSCALL(gettid) { return t->tid; }
