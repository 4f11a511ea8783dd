/* RHODOS's services (seed 002 section 2.3, Hobbs et al.): the Remote Execution manager's
 * question to the global scheduler, and process_twin().
 *
 * The global scheduler is a program (the balancer with a gsched family, -P rhodos-*|dpvm, on
 * the master, whose monitor it reads) that registers with its board's kernel by serving
 * requests. A REX manager (this file, on every board) finds it as RHODOS's do (seed 002 section
 * 3.1): by broadcast. Not knowing where the scheduler is, it sends NET_GS_FIND to every other
 * board; the board whose scheduler serves adds the asker to its domain and answers NET_GS_HERE,
 * every other board NET_GS_NONE. The answer is kept: later questions go straight there. A REX
 * creation asks the scheduler where: NET_GS_ASK to its board, whose kernel queues the question
 * for the scheduler; the scheduler answers with the board (gs_answer), its kernel sends
 * NET_GS_PLACE back, and the library creates the worker there with TOS's remote creation
 * (remote.c). With no scheduler found, or one that has stopped serving (its board's answer says
 * so, and the asker forgets it), the creation is local, "where you are", as in RHODOS without a
 * global scheduler, and counted.
 *
 * A REX manager also tells the scheduler of every load change it should know (section 3.3,
 * Figure 5): a process created where the scheduler placed it, a twin made, and the end of
 * either, wherever it ends (NET_GS_NOTE: kind and TID, from the board it happened on). Notes are
 * not answered. The scheduler's board queues them with the questions, in the order they came,
 * for gs_serve; it refuses a note from a board that never found it (not in its domain), one of a
 * kind it does not know and a twin told by a board other than the twin's home. A board that does
 * not know where the scheduler is holds its notes and searches; when the search finds none, the
 * notes are counted unheard. The thread of a placed creation or a twin carries its mark
 * (ctx.gs_note) when it migrates, so that its end is noted where it ends.
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

#define ASKS 16  /* questions of this board waiting for a search */
#define QUEUE 32 /* on the scheduler's board: questions and notes, in the order they came */
static struct {
  uint8_t kind, board; /* TOS_GS_* */
  uint16_t tid;
} queue[QUEUE];
static uint32_t nqueued;
static struct proc *scheduler; /* the serving program's process (this board's), and its incarnation */
static uint32_t scheduler_serial;
uint32_t rex_asked, rex_unserved, twins_made, rex_searches, rex_domain;
uint32_t rex_notes_sent, rex_notes_unheard, rex_notes_taken, rex_notes_lost;

static int serving(void) { return scheduler && proc_alive(scheduler) && scheduler->serial == scheduler_serial; }

/* The REX manager's knowledge of the scheduler: its board as the last search found it. */
#define NOWHERE 0xFF
static uint8_t gs_board = NOWHERE;
static uint8_t find_due[TOS_MAX_BOARDS]; /* a search is out: the boards whose answer is due */
static uint32_t finds_due;
static uint16_t seeking[ASKS];           /* threads here whose question waits for the search */
static uint32_t nseeking;
static uint8_t in_domain[TOS_MAX_BOARDS]; /* this board's scheduler: the boards that found it */
#define NOTES 16
static struct {
  uint8_t kind;
  uint16_t tid;
} held[NOTES]; /* notes of this board waiting for a search */
static uint32_t nheld;

/* A thread of this board waiting for the scheduler's answer. */
static struct tcb *asker(uint32_t tid) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    struct tcb *t = proc_alive(p) && tid <= 0xFFFF ? p->slots[tid & (TOS_MAX_THREADS - 1)] : NULL;
    if (t && t->tid == tid && t->state == T_REMOTE && t->answer_type == NET_GS_PLACE) return t;
  }
  return NULL;
}

/* The answer to board's thread tid; `served`: by a scheduler (0: this board has none serving now,
 * the asker forgets it). */
static void answer(uint32_t board, uint32_t tid, uint32_t place, uint32_t served) {
  uint32_t o[3] = {tid, place, served};
  if (board == net_me()) {
    struct tcb *t = asker(tid);
    if (!t) return;
    if (served) t->rex_placed = (uint8_t)(place + 1); /* its next create is the placement's */
    finish(t, (int32_t)place);
    return;
  }
  net_send_wait(board, NET_GS_PLACE, o, 3);
}

static void enqueue(uint32_t kind, uint32_t board, uint32_t tid) {
  queue[nqueued].kind = (uint8_t)kind;
  queue[nqueued].board = (uint8_t)board;
  queue[nqueued].tid = (uint16_t)tid;
  ++nqueued;
}

/* On the scheduler's board: a question from board `board`'s thread `tid`. */
static void ask(uint32_t board, uint32_t tid) {
  ++rex_asked;
  if (!serving() || nqueued == QUEUE) {
    ++rex_unserved; /* counted in the done line: creations the scheduler did not place */
    answer(board, tid, board, serving());
    return;
  }
  enqueue(TOS_GS_ASK, board, tid);
}

/* On the scheduler's board: a note from `board` (this one, or one of its domain). */
static void take_note(uint32_t kind, uint32_t board, uint32_t tid) {
  if (!serving() || nqueued == QUEUE) { /* it has stopped serving, or is that far behind */
    ++rex_notes_lost;
    return;
  }
  ++rex_notes_taken;
  enqueue(kind, board, tid);
}

static void send_note(uint32_t kind, uint32_t tid) {
  uint32_t o[2] = {kind, tid};
  ++rex_notes_sent;
  net_send_wait(gs_board, NET_GS_NOTE, o, 2);
}

/* A search for the scheduler: every other board asked. */
static void search_over(void);
static void search(void) {
  ++rex_searches;
  for (uint32_t b = 0; b < nboards; ++b)
    if (b != net_me()) {
      find_due[b] = 1;
      ++finds_due;
    }
  if (!finds_due) return search_over(); /* a machine of one board */
  for (uint32_t b = 0; b < nboards; ++b)
    if (b != net_me()) net_send_wait(b, NET_GS_FIND, NULL, 0);
}

void rex_note(uint32_t kind, uint32_t tid) {
  if (serving()) return take_note(kind, net_me(), tid);
  if (gs_board != NOWHERE) return send_note(kind, tid);
  if (nheld == NOTES) {
    ++rex_notes_unheard;
    return;
  }
  held[nheld].kind = (uint8_t)kind;
  held[nheld].tid = (uint16_t)tid;
  ++nheld;
  if (!finds_due) search();
}

int rex_placed_take(struct tcb *parent, uint32_t board) {
  int r = parent->rex_placed == board + 1;
  parent->rex_placed = 0;
  return r;
}

static void on_gs_note(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  uint32_t home = o[1] >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK;
  if (o[0] != TOS_GS_CREATED && o[0] != TOS_GS_TWIN && o[0] != TOS_GS_EXIT)
    return (void)net_bad(from, NET_GS_NOTE, "kind", o[0]);
  if (o[1] > 0xFFFF || home >= nboards) return (void)net_bad(from, NET_GS_NOTE, "TID", o[1]);
  if (!in_domain[from])
    return (void)net_bad(from, NET_GS_NOTE, "a note from a board that never found the scheduler here, board", from);
  if (o[0] == TOS_GS_TWIN && home != from)
    return (void)net_bad(from, NET_GS_NOTE, "a twin told by a board that is not its home, TID", o[1]);
  take_note(o[0], from, o[1]);
}

static void on_gs_ask(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  /* (a TID names its process's home board: a migrated thread asks from another, which the
   * answer goes back to) */
  if (o[0] > 0xFFFF || (o[0] >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK) >= nboards)
    return (void)net_bad(from, NET_GS_ASK, "asking TID", o[0]);
  ask(from, o[0]);
}

/* Thread t's question to the scheduler on board b (this board: queued here). */
static void ask_at(struct tcb *t, uint32_t b) {
  t->answer_from = (uint8_t)(b + 1);
  if (b == net_me()) {
    ask(b, t->tid); /* may answer at once (finish) */
  } else {
    uint32_t o[1] = {t->tid};
    net_send_wait(b, NET_GS_ASK, o, 1);
  }
}

/* A search is over: the questions that waited for it go to the scheduler found, or are answered
 * here when there is none. */
static void search_over(void) {
  for (uint32_t i = 0; i < nseeking; ++i) {
    struct tcb *t = asker(seeking[i]);
    if (!t) continue; /* ended meanwhile */
    if (gs_board != NOWHERE) {
      ask_at(t, gs_board);
    } else {
      ++rex_unserved;
      finish(t, (int32_t)net_me());
    }
  }
  nseeking = 0;
  for (uint32_t i = 0; i < nheld; ++i) {
    if (gs_board != NOWHERE) send_note(held[i].kind, held[i].tid);
    else ++rex_notes_unheard;
  }
  nheld = 0;
}

static void on_gs_place(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (o[1] >= nboards) return (void)net_bad(from, NET_GS_PLACE, "board", o[1]);
  struct tcb *t = asker(o[0]);
  if (!t || t->answer_from != from + 1) return (void)net_bad(from, NET_GS_PLACE, "a placement no thread here asked that board for, TID", o[0]);
  if (!o[2] && gs_board == from) gs_board = NOWHERE; /* it serves no more: search again next time */
  if (o[2]) t->rex_placed = (uint8_t)(o[1] + 1); /* its next create is the placement's */
  finish(t, (int32_t)o[1]);
}

/* NET_GS_FIND: a REX manager looks for the scheduler. */
static void on_gs_find(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)o, (void)nops;
  if (!serving()) return (void)net_send_wait(from, NET_GS_NONE, NULL, 0);
  if (!in_domain[from]) {
    in_domain[from] = 1;
    ++rex_domain;
  }
  net_send_wait(from, NET_GS_HERE, NULL, 0);
}

/* NET_GS_HERE / NET_GS_NONE: a board's answer to this board's search. */
static void found(uint32_t from, uint32_t type, int here) {
  if (!find_due[from]) return (void)net_bad(from, type, "an answer to a search this board did not make of it, board", from);
  find_due[from] = 0;
  --finds_due;
  if (here) gs_board = (uint8_t)from;
  if (here || !finds_due) search_over(); /* (later answers of the same search are still due) */
}
static void on_gs_here(uint32_t from, const uint32_t *o, uint32_t nops) { (void)o, (void)nops, found(from, NET_GS_HERE, 1); }
static void on_gs_none(uint32_t from, const uint32_t *o, uint32_t nops) { (void)o, (void)nops, found(from, NET_GS_NONE, 0); }

/* rex_place(): the board the global scheduler chooses for a new process (blocks until it
 * answers) */
SYSCALL(rex_place) {
  (void)a1;
  if (!serving() && gs_board == NOWHERE && nseeking == ASKS) { /* more questions than a search holds */
    ++rex_unserved;
    return (int32_t)net_me(); /* here, counted */
  }
  t->rex_placed = 0;
  t->state = T_REMOTE; /* until the answer */
  t->answer_type = NET_GS_PLACE;
  t->answer_from = 0;
  if (serving()) return ask_at(t, net_me()), 0;
  if (gs_board != NOWHERE) return ask_at(t, gs_board), 0;
  seeking[nseeking++] = (uint16_t)t->tid;
  if (!finds_due) search(); /* (else a search is out: this question waits for it too) */
  return 0;
}

/* gs_serve(buf, max): the global scheduler (a privileged program) takes the questions and notes
 * waiting, as words kind | board | TID (tos.toml's gs_word); the first call makes its process the
 * scheduler. Does not block: the scheduler may also follow the monitor. */
SYSCALL(gs_serve) {
  if (!serving()) {
    scheduler = t->proc;
    scheduler_serial = t->proc->serial;
  } else if (scheduler != t->proc) {
    return -TOS_EBUSY;
  }
  uint32_t n = nqueued < a2 ? nqueued : a2;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t w = (uint32_t)queue[i].kind << TOS_GS_KIND_SHIFT | (uint32_t)queue[i].board << TOS_GS_BOARD_SHIFT | queue[i].tid;
    if (!vm_copyout(t->proc, a1 + 4 * i, &w, 4)) return -TOS_EFAULT;
  }
  for (uint32_t i = n; i < nqueued; ++i) queue[i - n] = queue[i];
  nqueued -= n;
  return (int32_t)n;
}

/* gs_answer(board, tid, place): the scheduler's answer to board's thread tid */
SYSCALL(gs_answer) {
  if (!serving() || scheduler != t->proc) return -TOS_EPERM;
  if (a1 >= nboards || a3 >= nboards) return -TOS_EINVAL;
  if (a2 > 0xFFFF) return -TOS_ESRCH;
  answer(a1, a2, a3, 1);
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
  k->ctx.gs_note = 1;
  rex_note(TOS_GS_TWIN, k->tid);
  ready(k);
  return c->pid;
}

void rex_init(void) {
  net_register(NET_GS_ASK, on_gs_ask, 1);
  net_register(NET_GS_PLACE, on_gs_place, 3);
  net_register(NET_GS_FIND, on_gs_find, 0);
  net_register(NET_GS_HERE, on_gs_here, 0);
  net_register(NET_GS_NONE, on_gs_none, 0);
  net_register(NET_GS_NOTE, on_gs_note, 2);
}
