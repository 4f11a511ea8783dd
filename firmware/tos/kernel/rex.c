/* RHODOS's services (seed 002 section 2.3, Hobbs et al.): the Remote Execution manager's
 * question to the global scheduler, and process_twin().
 *
 * The global scheduler is a program on the master (the balancer with a gsched family, -P
 * rhodos-*|dpvm) that registers with the master's kernel by serving requests. A REX creation
 * asks it where: the asking thread's kernel sends NET_GS_ASK to the master, whose kernel queues
 * the question for the scheduler; the scheduler answers with the board (gs_answer), the master
 * sends NET_GS_PLACE back, and the library creates the worker there with TOS's remote creation
 * (remote.c). With no scheduler serving, the master answers at once "where you are" (local
 * creation, as in RHODOS without a global scheduler) and counts it.
 *
 * process_twin duplicates the calling process, here on its own board: a new process whose
 * image, heap and stack pages are copies of the caller's at the call (code pages shared, read
 * only, as spawn maps them), whose one thread continues from the call with the caller's
 * registers and returns 0 where the caller gets the twin's pid. The scheduler hears of it by
 * the TWIN event (class threads) and may migrate it (a twin is a single-threaded worker: TOS's thread
 * migration of its one thread moves it). The callee-saved registers are not in the TCB during
 * a call (entry.S's fast path): the library's wrapper keeps them on the user stack, which the
 * twin has a copy of. */
#include "defs.h"

#define ASKS 16
static struct {
  uint8_t board;
  uint16_t tid;
} asks[ASKS];
static uint32_t nasks;
static struct proc *scheduler; /* the serving program's process (master), and its incarnation */
static uint32_t scheduler_serial;
uint32_t rex_asked, rex_unserved, twins_made;

static int serving(void) { return scheduler && proc_alive(scheduler) && scheduler->serial == scheduler_serial; }

/* A thread of this board waiting for the scheduler's answer. */
static struct tcb *asker(uint32_t tid) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    struct tcb *t = proc_alive(p) && tid <= 0xFFFF ? p->slots[tid & (TOS_MAX_THREADS - 1)] : NULL;
    if (t && t->tid == tid && t->state == T_REMOTE && t->answer_type == NET_GS_PLACE) return t;
  }
  return NULL;
}

static void answer(uint32_t board, uint32_t tid, uint32_t place) {
  uint32_t o[2] = {tid, place};
  if (board == net_me()) {
    struct tcb *t = asker(tid);
    if (t) finish(t, (int32_t)place);
    return;
  }
  net_send_wait(board, NET_GS_PLACE, o, 2);
}

/* On the master: a question from board `board`'s thread `tid`. */
static void ask(uint32_t board, uint32_t tid) {
  ++rex_asked;
  if (!serving() || nasks == ASKS) {
    ++rex_unserved; /* counted in the done line: creations the scheduler did not place */
    answer(board, tid, board);
    return;
  }
  asks[nasks].board = (uint8_t)board;
  asks[nasks].tid = (uint16_t)tid;
  ++nasks;
}

static void on_gs_ask(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (o[0] > 0xFFFF || (o[0] >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK) >= nboards) return (void)net_bad(from, NET_GS_ASK, "asking TID", o[0]);
  ask(from, o[0]);
}

static void on_gs_place(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (o[1] >= TOS_BOARD_NAME_COUNT) return (void)net_bad(from, NET_GS_PLACE, "board", o[1]);
  struct tcb *t = asker(o[0]);
  if (!t) return (void)net_bad(from, NET_GS_PLACE, "a placement no thread here asked for, TID", o[0]);
  finish(t, (int32_t)o[1]);
}

/* rex_place(): the board the global scheduler chooses for a new process (blocks until the
 * master answers) */
SYSCALL(rex_place) {
  (void)a1;
  t->state = T_REMOTE; /* until the answer */
  t->answer_type = NET_GS_PLACE;
  t->answer_from = 1; /* the master */
  if (net_me() == 0) {
    ask(0, t->tid); /* may answer at once (finish) */
  } else {
    uint32_t o[1] = {t->tid};
    net_send_wait(0, NET_GS_ASK, o, 1);
  }
  return 0;
}

/* gs_serve(buf, max): the global scheduler (a privileged program on the master) takes the
 * questions waiting, as words (board << 16) | TID; the first call makes its process the
 * scheduler. Does not block: the scheduler also follows the monitor. */
SYSCALL(gs_serve) {
  if (net_me() != 0) return -TOS_EINVAL; /* the scheduler is the master's */
  if (!serving()) {
    scheduler = t->proc;
    scheduler_serial = t->proc->serial;
  } else if (scheduler != t->proc) {
    return -TOS_EBUSY;
  }
  uint32_t n = nasks < a2 ? nasks : a2;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t w = (uint32_t)asks[i].board << 16 | asks[i].tid;
    if (!vm_copyout(t->proc, a1 + 4 * i, &w, 4)) return -TOS_EFAULT;
  }
  for (uint32_t i = n; i < nasks; ++i) asks[i - n] = asks[i];
  nasks -= n;
  return (int32_t)n;
}

/* gs_answer(board, tid, place): the scheduler's answer to board's thread tid */
SYSCALL(gs_answer) {
  if (!serving() || scheduler != t->proc) return -TOS_EPERM;
  if (a1 >= TOS_BOARD_NAME_COUNT || a3 >= TOS_BOARD_NAME_COUNT) return -TOS_EINVAL;
  if (a2 > 0xFFFF) return -TOS_ESRCH;
  answer(a1, a2, a3);
  return 0;
}

/* ---- process_twin ---- */
static int twin_page(struct proc *c, struct proc *p, uint32_t v) {
  uint32_t e = p->ptable[v];
  if (!(e & TB_MMU_PTE_VALID)) return 0;
  uint32_t pa = e & TB_MMU_PTE_FRAME;
  if (!frame_owned(pa)) { /* code from the filestore: shared, read only */
    vm_map(c, v, pa, 0);
    return 0;
  }
  uint32_t n = frame_alloc();
  if (!n) return -TOS_ENOMEM;
  memcpy((void *)n, (const void *)pa, TOS_PAGE_SIZE);
  vm_map(c, v, n, 1);
  return 0;
}

SYSCALL(process_twin) {
  (void)a1;
  struct proc *p = t->proc;
  /* a RHODOS process: one thread, all here (a spread process's pages are partly elsewhere) */
  if (p->guest || p->spread || p->nthreads != 1 || p->remote_threads) return -TOS_EINVAL;
  struct proc *c = proc_new_twin(p);
  if (!c) return -TOS_ENOPROC;
  int32_t rc = 0;
  for (uint32_t v = vm_next(p, 0); v < TOS_USER_PAGES && !rc; v = vm_next(p, v + 1))
    if (v < TOS_USER_IMAGE_TOP >> TOS_PAGE_SHIFT || v >= TOS_STACK_BASE >> TOS_PAGE_SHIFT) /* not regions */
      rc = twin_page(c, p, v);
  struct tcb *k = rc || !tcbs_free() ? NULL : thread_attach(c, t->slot);
  if (!k) {
    proc_drop_twin(c);
    return rc ? rc : -TOS_ENOTCB;
  }
  memcpy(k->ctx.regs, t->ctx.regs, sizeof k->ctx.regs);
  k->ctx.regs[TCB_REGS_D0] = 0; /* the twin's answer */
  k->ctx.usp = t->ctx.usp;
  k->ctx.frame_len = t->ctx.frame_len;
  memcpy(k->ctx.frame, t->ctx.frame, sizeof k->ctx.frame);
  k->ctx.stack_pages = t->ctx.stack_pages;
  k->ctx.user_id = t->ctx.user_id;
  ++twins_made;
  EVENT2(DGL_THREADS, EV_TWIN, k->tid);
  ready(k);
  return c->pid;
}

void rex_init(void) {
  net_register(NET_GS_ASK, on_gs_ask, 1);
  net_register(NET_GS_PLACE, on_gs_place, 2);
}
