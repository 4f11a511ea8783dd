/* The page protocol: a process's pages across its boards (seed 000 sections 2.1.4, 2.2.2;
 * Figure 8), after Li and Hudak's fixed distributed manager with the home as every page's
 * manager.
 *
 * Code pages are copied freely: a guest that touches one is sent a copy by the home and
 * nobody keeps track. Every other page (data, bss, heap, thread stacks) has, at any time, one
 * owner, the board whose copy is the page's value, and a copy set, the boards holding a valid
 * copy (the owner among them). Only an owner alone in its copy set maps the page writable;
 * every other copy is mapped read-only, so a write to it traps. The home keeps, per page, the
 * owner and the copy set (dir_owner, dir_copies; an entry 0 means "the home's alone, if it has
 * it": the state a page is loaded, grown or created in), and serves one request per page at a
 * time, in the order they came, so the protocol's steps never cross:
 *   read fault on X:  X -> home PAGE_REQ; home -> owner PAGE_FWD (copy); the owner drops to
 *                     read-only and sends X the page (PAGE); X maps it read-only, PAGE_DONE.
 *   write fault on X: X -> home PAGE_REQ; home -> every other holder PAGE_INVAL (each frees its
 *                     copy, PAGE_INVAL_ACK); then, if X holds no copy, home -> owner PAGE_FWD
 *                     (move: the page leaves the owner) and the owner sends it to X, else home
 *                     -> X PAGE_GRANT; X maps it writable and is the owner, PAGE_DONE.
 * A thread's fault on its own stack window is a write request: its stack pages follow it
 * (seed 000: "pages holding the stack area of a thread that has just migrated may be copied
 * if the thread uses them again"), while a child reading its parent's stack gets a read copy.
 * The faulting thread waits (T_PAGE) and the board runs others; when a page arrives every
 * thread waiting for it that it satisfies goes on (the 68010 reruns the access). A page that
 * a blocked system call of a thread here is using (a receive's buffer, a send's data) is held
 * until the call is over: an invalidation or a forward for it waits (pages_poll).
 *
 * When a thread ends, the home drops its stack window everywhere (NET_PAGE_DROP); when the
 * process ends, every board frees what it holds (release_memory, NET_KILL). */
#include "defs.h"

#define NONE 0xFFu
#define BIT(b) BSET(b)
#define PTE_FRAME TB_MMU_PTE_FRAME

/* ---- the home's directory: per process slot, per virtual page ---- */
static uint8_t dir_owner[TOS_MAX_PROCESSES][TOS_USER_PAGES];  /* owner board + 1; 0: the home's alone */
/* The copy sets: a bit per board holding a valid copy. A byte each on a machine of up to 8 boards
 * (the Testbed: the kernel as small and its directory as quick to clear as ever); on a larger
 * machine a bset_t each, in RAM set aside at boot (pages_reserve: 400 KB, too much to keep in
 * every machine's kernel). */
static uint8_t dir_copies8[TOS_MAX_PROCESSES][TOS_USER_PAGES];
static bset_t (*dir_wide)[TOS_USER_PAGES];
static bset_t dir_get(uint32_t pid, uint32_t v) { return dir_wide ? dir_wide[pid][v] : dir_copies8[pid][v]; }
static void dir_put(uint32_t pid, uint32_t v, bset_t c) {
  if (dir_wide) dir_wide[pid][v] = c;
  else dir_copies8[pid][v] = (uint8_t)c;
}

/* Requests waiting at the home: one per thread (a thread waits for one page at a time), so the
 * table cannot overflow whatever arrives; served oldest first. */
struct pg_req {
  uint16_t vpage, tid;
  uint8_t board, write, used;
  uint32_t seq;
};
static struct pg_req pend[TOS_MAX_PROCESSES][TOS_MAX_THREADS];
static uint8_t npend[TOS_MAX_PROCESSES];

/* Requests being served: at most one per page. */
#define PG_ACTIVE 16
struct pg_act {
  struct proc *p;
  uint16_t vpage, tid;
  uint8_t board, write, need_data, used;
  bset_t waiting_acks; /* boards still to acknowledge an invalidation (bit per board) */
  uint32_t seq;
};
static struct pg_act act[PG_ACTIVE];
static uint32_t next_seq = 1;

/* Forwards and invalidations waiting here for a blocked call to let go of their page: at most
 * one per page being served anywhere, so PG_ACTIVE per home. */
#define PG_DEFER (PG_ACTIVE * nboards) /* this machine's */
struct pg_defer {
  struct proc *p;
  uint32_t serial, vpage, type, to, move, seq;
};
static struct pg_defer deferred6[PG_ACTIVE * TOS_BOARD_NAME_COUNT]; /* the Testbed's, in the kernel */
static struct pg_defer *deferred = deferred6; /* a larger machine's: set aside at boot (pages_reserve) */
static uint32_t ndeferred;

uint32_t pages_reserve(uint32_t lo) {
  lo = (lo + 7) & ~7u;
  if (nboards > TOS_BOARD_NAME_COUNT) {
    deferred = (struct pg_defer *)lo;
    memset(deferred, 0, sizeof *deferred * PG_DEFER);
    lo += sizeof *deferred * PG_DEFER;
  }
  if (nboards <= 8) return lo;
  dir_wide = (bset_t(*)[TOS_USER_PAGES])lo;
  memset(dir_wide, 0, sizeof(bset_t) * TOS_MAX_PROCESSES * TOS_USER_PAGES);
  return lo + sizeof(bset_t) * TOS_MAX_PROCESSES * TOS_USER_PAGES;
}

uint32_t pages_invalidated, pages_moved, pages_copied, pages_deferred, pages_asked; /* (say_done prints them) */

static uint32_t me(void) { return net_me(); }
static int is_code(const struct proc *p, uint32_t v) { return v >= p->text_lo && v < p->text_hi; }

static uint32_t owner_of(struct proc *p, uint32_t v) {
  uint8_t o = dir_owner[p->pid][v];
  if (o) return o - 1u;
  return (p->ptable[v] & TB_MMU_PTE_VALID) ? me() : NONE;
}

static bset_t copies_of(struct proc *p, uint32_t v) {
  if (dir_owner[p->pid][v]) return dir_get(p->pid, v);
  return (p->ptable[v] & TB_MMU_PTE_VALID) ? BIT(me()) : 0;
}

static void set_dir(struct proc *p, uint32_t v, uint32_t owner, bset_t copies) {
  dir_owner[p->pid][v] = (uint8_t)(owner + 1);
  dir_put(p->pid, v, copies);
}

/* Does the home know a page v anywhere (mapped here, or held elsewhere)? */
int pages_exists(struct proc *p, uint32_t v) {
  return v < TOS_USER_PAGES && !REGION_WINDOW_PAGE(v) && (dir_owner[p->pid][v] || (p->ptable[v] & TB_MMU_PTE_VALID));
}

/* sbrk shrinks over page v: it goes if no other board holds it and no step is under way
 * (else it stays, with its value, until the process ends or the heap grows over it again). */
static struct pg_act *busy(struct proc *p, uint32_t v);
void pages_free_here(struct proc *p, uint32_t v) {
  if (!p->guest && (busy(p, v) || (copies_of(p, v) & ~BIT(me())))) return;
  uint32_t e = p->ptable[v];
  uint32_t pa = vm_unmap(p, v);
  if (pa && frame_owned(e & TB_MMU_PTE_FRAME)) frame_free(pa); /* (never a filestore block) */
  if (!p->guest) {
    dir_owner[p->pid][v] = 0;
    dir_put(p->pid, v, 0);
  }
}

static void set_writable(struct proc *p, uint32_t v, int writable) {
  if (writable) p->ptable[v] |= TB_MMU_PTE_WRITABLE;
  else p->ptable[v] &= ~(uint32_t)TB_MMU_PTE_WRITABLE;
  REG32(TB_MMU_FLUSH) = v << TOS_PAGE_SHIFT;
}

/* ---- sending: to another board, or to ourselves as a call ---- */
static void on_req(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_fwd(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_grant(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_none(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_inval(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_ack(uint32_t from, const uint32_t *o, uint32_t nops);
static void on_done(uint32_t from, const uint32_t *o, uint32_t nops);

static void send(uint32_t dest, uint32_t type, struct proc *p, uint32_t v, uint32_t a, uint32_t b, uint32_t c,
                 uint32_t nops) {
  uint32_t o[7] = {p->home_board, p->home_pid, p->home_serial, v, a, b, c};
  if (dest != me()) {
    net_send_wait(dest, type, o, nops);
    return;
  }
  switch (type) {
    case NET_PAGE_REQ: on_req(dest, o, nops); break;
    case NET_PAGE_FWD: on_fwd(dest, o, nops); break;
    case NET_PAGE_GRANT: on_grant(dest, o, nops); break;
    case NET_PAGE_NONE: on_none(dest, o, nops); break;
    case NET_PAGE_INVAL: on_inval(dest, o, nops); break;
    case NET_PAGE_ACK: on_ack(dest, o, nops); break;
    case NET_PAGE_DONE: on_done(dest, o, nops); break;
  }
}

static void free_sent_frame(void *pa) { frame_free((uint32_t)pa); }

/* ---- threads waiting for a page ---- */
static int satisfied(struct proc *p, uint32_t v, int write) {
  uint32_t e = p->ptable[v];
  return (e & TB_MMU_PTE_VALID) && (e & TB_MMU_PTE_USER) && (!write || (e & TB_MMU_PTE_WRITABLE));
}

/* A page this board gave up while a blocked call of its own was still reading it (a send's data
 * still to go): the frame stays for the kernel (VALID without USER: the thread's own accesses
 * fault and fetch the page again), holding the value the page had when it left, and is freed
 * once the call is over (pages_poll). */
#define KEPT(e) (((e) & (TB_MMU_PTE_VALID | TB_MMU_PTE_USER)) == TB_MMU_PTE_VALID)
static uint32_t nkept;
/* Where a process's kept pages are (a send's buffer: a few adjacent pages), so that the main
 * loop's look for frames to free reads those entries, not the whole page table: the whole
 * table of every process was 30 ms of every loop pass while a send was blocked on a kept page. */
static uint16_t kept_lo[TOS_MAX_PROCESSES], kept_hi[TOS_MAX_PROCESSES]; /* [lo, hi); empty: lo >= hi */
#define ORPHANS 32
static struct { struct proc *p; uint32_t serial, vpage, pa; } orphan[ORPHANS];
static uint32_t norphans;
uint32_t pages_leaked;

/* Page v has come (or changed here): every thread waiting for it that it now satisfies goes on;
 * the others' own requests are still at the home. */
static void wake(struct proc *p, uint32_t v) {
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *t = p->slots[i];
    if (!t || t->state != T_PAGE || (t->page_wait & 0xFFFFu) != v) continue;
    if (!satisfied(p, v, (int)(t->page_wait >> 31))) continue;
    REG16(TB_MMU_FAULT_STATUS) = 0;
    t->page_fresh = (uint16_t)(v + 1);
    t->fresh_slices = t->ctx.cpu_slices;
    ready(t); /* RTE reruns the faulted access; a system call runs again */
  }
}

/* No board has page v: the threads waiting for it take the fault they took. */
static void fault_waiters(struct proc *p, uint32_t v) {
  for (int i = 0; i < TOS_MAX_THREADS && proc_alive(p); ++i) {
    struct tcb *t = p->slots[i];
    if (t && t->state == T_PAGE && (t->page_wait & 0xFFFFu) == v) {
      t->state = T_RUNNING;
      remote_fault_report(t, v << TOS_PAGE_SHIFT);
    }
  }
}

/* Is page v in use by a blocked call of one of p's threads here? 2: a call that will write it,
 * or a console or LAN transfer (its buffer must stay: steps that would take it wait), 1: a send
 * that reads it (the page may go, its frame stays for the send: keep()), 0: no. */
static int pinned(struct proc *p, uint32_t v) {
  uint32_t lo = v << TOS_PAGE_SHIFT, hi = lo + TOS_PAGE_SIZE;
  int pin = 0;
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *t = p->slots[i];
    if (!t || !t->op_len || t->op_buf >= hi || t->op_buf + t->op_len <= lo) continue;
    switch (t->state) {
      case T_RECV: /* only once its rtr has gone is data on its way (else the focus refetches) */
        if (p->chan[t->op_chan].rtr_sent || p->chan[t->op_chan].waiter != t) return 2;
        break;
      case T_CONSOLE: case T_CONSOLE_IN: case T_LAN: return 2; /* (served here, without waiting for any board) */
      case T_SEND: pin = 1; break;
      default: break;
    }
  }
  return pin;
}

/* The page leaves (invalidated or moved) while a send here still reads it: keep the frame. */
static void keep(struct proc *p, uint32_t v) {
  p->ptable[v] &= TB_MMU_PTE_FRAME | TB_MMU_PTE_VALID;
  REG32(TB_MMU_FLUSH) = v << TOS_PAGE_SHIFT;
  uint32_t i = p->pid;
  if (kept_lo[i] >= kept_hi[i]) {
    kept_lo[i] = (uint16_t)v;
    kept_hi[i] = (uint16_t)(v + 1);
  } else if (v < kept_lo[i]) {
    kept_lo[i] = (uint16_t)v;
  } else if (v >= kept_hi[i]) {
    kept_hi[i] = (uint16_t)(v + 1);
  }
  ++nkept;
}

/* Has page v just come here for a thread of p that has not run since? Taking it away before the
 * thread reruns its access makes that thread fault again and ask again: boards whose threads all
 * wait behind others on the CPU (spinners at a barrier) passed one page round for ever, none of
 * them using it (tos_barriers_hold_every_policy, spin with head wake-up). The page stays until
 * the thread has been scheduled once: at most the slices of the threads before it. */
static int fresh(struct proc *p, uint32_t v) {
  if (p->state == P_SUSPENDED) return 0; /* (its threads do not run until it goes on) */
  for (int i = 0; i < TOS_MAX_THREADS; ++i) {
    struct tcb *t = p->slots[i];
    if (t && t->page_fresh == v + 1 && t->state == T_READY && t->ctx.cpu_slices == t->fresh_slices) return 1;
  }
  return 0;
}

static int defer(struct proc *p, uint32_t v, uint32_t type, uint32_t to, uint32_t move, uint32_t seq) {
  /* a send loses nothing: a copy leaves it its page, keep() its frame */
  if (pinned(p, v) < 2 && !fresh(p, v)) return 0;
  for (uint32_t i = 0; i < PG_DEFER; ++i)
    if (!deferred[i].p) {
      deferred[i] = (struct pg_defer){p, p->serial, v, type, to, move, seq};
      ++ndeferred;
      ++pages_deferred;
      return 1;
    }
  kprintf("tos: %s: no room to hold back a page step (page %x): done at once\n", board_name, v << TOS_PAGE_SHIFT);
  return 0;
}

/* ---- the home: requests in order, one at a time per page ---- */
static struct pg_act *busy(struct proc *p, uint32_t v) {
  for (int i = 0; i < PG_ACTIVE; ++i)
    if (act[i].used && act[i].p == p && act[i].vpage == v) return &act[i];
  return NULL;
}

static struct pg_act *act_by_seq(struct proc *p, uint32_t v, uint32_t seq) {
  struct pg_act *a = busy(p, v);
  return a && a->seq == seq ? a : NULL;
}

static void act_end(struct pg_act *a);

/* All other copies are gone: the page goes to (or stays with) the writer. */
static void grant_write(struct pg_act *a) {
  struct proc *p = a->p;
  uint32_t owner = owner_of(p, a->vpage);
  set_dir(p, a->vpage, a->board, BIT(a->board));
  EVENT2(DGL_COMMS, EV_PAGE_OWNER, (a->board << 12) | a->vpage);
  if (a->need_data) send(owner, NET_PAGE_FWD, p, a->vpage, a->board, 1, a->seq, 7);
  else send(a->board, NET_PAGE_GRANT, p, a->vpage, 0, 1, a->seq, 7);
}

static void start(struct proc *p, struct pg_req r) {
  uint32_t v = r.vpage, x = r.board, owner = owner_of(p, v);
  bset_t copies = copies_of(p, v);
  if (owner == NONE) { /* no board has it: the fault is real */
    send(x, NET_PAGE_NONE, p, v, r.tid, 0, 0, 7);
    return;
  }
  if (copies & BIT(x)) {
    if (!r.write || (owner == x && copies == BIT(x))) { /* it has what it asked for already */
      send(x, NET_PAGE_GRANT, p, v, r.tid, owner == x && copies == BIT(x), 0, 7);
      return;
    }
  }
  struct pg_act *a = NULL;
  for (int i = 0; i < PG_ACTIVE && !a; ++i)
    if (!act[i].used) a = &act[i];
  if (!a) return; /* (pump() starts nothing without room) */
  *a = (struct pg_act){p, (uint16_t)v, r.tid, (uint8_t)x, r.write, !(copies & BIT(x)), 1, 0, next_seq++};
  if (!next_seq) next_seq = 1;
  if (!r.write) { /* a read copy from the owner, which keeps the page read-only from now on */
    set_dir(p, v, owner, copies | BIT(x));
    send(owner, NET_PAGE_FWD, p, v, x, 0, a->seq, 7);
    return;
  }
  bset_t inval = copies & ~BIT(x);
  if (a->need_data) inval &= ~BIT(owner); /* the owner gives its copy up as it sends it */
  a->waiting_acks = inval;
  if (!inval) {
    grant_write(a);
    return;
  }
  uint32_t seq = a->seq; /* the last acknowledgement grants it (one from here comes at once) */
  for (uint32_t b = 0; b < nboards; ++b)
    if (inval & BIT(b)) send(b, NET_PAGE_INVAL, p, v, seq, 0, 0, 5);
}

/* Start every waiting request whose page is free, oldest first. Steps done at once for
 * ourselves may end a request inside start(): the loop picks up from there. */
static void pump(void) {
  static int pumping, again;
  if (pumping) {
    again = 1;
    return;
  }
  pumping = 1;
  do {
    again = 0;
    for (;;) {
      struct pg_req *best = NULL;
      struct proc *bp = NULL;
      for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
        if (!npend[i]) continue;
        for (int s = 0; s < TOS_MAX_THREADS; ++s) {
          struct pg_req *r = &pend[i][s];
          if (r->used && !busy(&procs[i], r->vpage) && (!best || (int32_t)(r->seq - best->seq) < 0)) {
            best = r;
            bp = &procs[i];
          }
        }
      }
      int room = 0;
      for (int i = 0; i < PG_ACTIVE; ++i) room |= !act[i].used;
      if (!best || !room) break;
      struct pg_req r = *best;
      best->used = 0;
      --npend[bp->pid];
      if (proc_alive(bp) && !bp->guest) start(bp, r);
    }
  } while (again);
  pumping = 0;
}

static void act_end(struct pg_act *a) {
  a->used = 0;
  pump();
}

/* A request arrives at the home (or is made here). */
static void request(struct proc *p, uint32_t v, uint32_t board, uint32_t tid, uint32_t write) {
  if (is_code(p, v)) { /* code: a free copy, nobody keeps track (or a write to it: a fault) */
    uint32_t pa = 0;
    if (write || !vm_user_pa(p, v << TOS_PAGE_SHIFT, 0, &pa)) pa = 0;
    uint32_t o[7] = {p->home_board, p->home_pid, p->home_serial, v, tid, 0, 0};
    EVENT(DGL_COMMS, EV_PAGE_FWD);
    if (board == me()) return; /* (the home has its code; never asked) */
    net_queue_wait(board, pa ? NET_PAGE : NET_PAGE_NONE, o, 7, pa, pa ? TOS_PAGE_SIZE : 0, NULL, NULL);
    ++pages_copied;
    return;
  }
  uint32_t slot = tid & (TOS_MAX_THREADS - 1);
  struct pg_req *r = &pend[p->pid][slot];
  if (!r->used) ++npend[p->pid];
  *r = (struct pg_req){(uint16_t)v, (uint16_t)tid, (uint8_t)board, (uint8_t)(write != 0), 1, next_seq++};
  if (!next_seq) next_seq = 1;
  pump();
}

/* The home process p a message names by its first three operands (net.c's table made sure it is
 * this board's), or NULL: it has ended meanwhile, and there is nothing to serve. */
static struct proc *home_proc(const uint32_t *o) {
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  return p && !p->guest ? p : NULL;
}

static void on_req(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (from != me()) EVENT(DGL_COMMS, EV_RX_MPC);
  struct proc *p = home_proc(o);
  if (!p) return;
  if (o[3] >= TOS_USER_PAGES) return (void)net_bad(from, NET_PAGE_REQ, "page out of range", o[3]);
  if (REGION_WINDOW_PAGE(o[3])) return (void)net_bad(from, NET_PAGE_REQ, "a page of the region window", o[3]);
  if (!tid_of(o[4], p->home_board, p->home_pid))
    return (void)net_bad(from, NET_PAGE_REQ, "thread not of the process", o[4]);
  /* from another board, only for a thread of the process that is away from home (a request
   * names its thread: a board may not ask in the name of one that is here) */
  uint32_t slot = o[4] & (TOS_MAX_THREADS - 1);
  if (from != me() && !(p->remote_mask[slot / 32] >> (slot % 32) & 1))
    return (void)net_bad(from, NET_PAGE_REQ, "a page asked for in the name of a thread that is not away, thread", o[4]);
  request(p, o[3], from, o[4], o[5] != 0);
}

static void on_ack(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = home_proc(o);
  if (!p) return;
  struct pg_act *a = o[3] < TOS_USER_PAGES ? act_by_seq(p, o[3], o[4]) : NULL;
  if (!a || from >= nboards || !(a->waiting_acks & BIT(from)))
    return (void)net_bad(from, NET_PAGE_ACK, "no invalidation of the page asked of that board, page", o[3]);
  EVENT(DGL_COMMS, EV_PAGE_INVAL_ACK);
  a->waiting_acks &= ~BIT(from);
  if (!a->waiting_acks) grant_write(a);
}

static void on_done(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = home_proc(o);
  if (!p) return;
  struct pg_act *a = o[3] < TOS_USER_PAGES ? act_by_seq(p, o[3], o[4]) : NULL;
  if (!a || a->board != from || a->waiting_acks)
    return (void)net_bad(from, NET_PAGE_DONE, "no page sent to that board, page", o[3]);
  act_end(a);
}

/* ---- a holder: the home's orders ---- */
/* The guest part (or home process) a message from the home is about, or NULL. */
static struct proc *holder_proc(uint32_t from, uint32_t type, const uint32_t *o) {
  if (o[3] >= TOS_USER_PAGES) {
    net_bad(from, type, "page out of range", o[3]);
    return NULL;
  }
  return proc_by_gpid(o[0], o[1], o[2]); /* (NULL: the part has gone with its process) */
}

static void do_inval(struct proc *p, uint32_t v, uint32_t seq) {
  if ((p->ptable[v] & TB_MMU_PTE_USER) && pinned(p, v)) keep(p, v);
  else if (!KEPT(p->ptable[v])) {
    uint32_t pa = vm_unmap(p, v);
    if (pa) frame_free(pa);
  }
  ++pages_invalidated;
  EVENT(DGL_COMMS, EV_PAGE_INVAL);
  send(p->home_board, NET_PAGE_ACK, p, v, seq, 0, 0, 5);
}

static void do_fwd(struct proc *p, uint32_t v, uint32_t to, uint32_t move, uint32_t seq) {
  uint32_t pa = 0;
  if (!(p->ptable[v] & TB_MMU_PTE_USER) || !vm_user_pa(p, v << TOS_PAGE_SHIFT, 0, &pa)) pa = 0;
  EVENT(DGL_COMMS, EV_PAGE_FWD);
  if (!pa || to == me()) { /* we should have it and do not: no board has it */
    send(to, NET_PAGE_NONE, p, v, 0, 0, seq, 7);
    return;
  }
  uint32_t o[7] = {p->home_board, p->home_pid, p->home_serial, v, 0, move, seq};
  int kept = move && pinned(p, v); /* a send here still reads it: the frame stays a while */
  net_queue_wait(to, NET_PAGE, o, 7, pa, TOS_PAGE_SIZE, move && !kept ? free_sent_frame : NULL,
                 move && !kept ? (void *)pa : NULL);
  if (kept) {
    keep(p, v);
    ++pages_moved;
  } else if (move) {
    p->ptable[v] = 0; /* the frame goes when the page has left */
    REG32(TB_MMU_FLUSH) = v << TOS_PAGE_SHIFT;
    ++pages_moved;
  } else {
    set_writable(p, v, 0);
    ++pages_copied;
  }
}

static void on_inval(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = holder_proc(from, NET_PAGE_INVAL, o);
  if (!p || defer(p, o[3], NET_PAGE_INVAL, 0, 0, o[4])) return;
  do_inval(p, o[3], o[4]);
}

static void on_fwd(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  if (from != me()) EVENT(DGL_COMMS, EV_RX_MPC);
  struct proc *p = holder_proc(from, NET_PAGE_FWD, o);
  if (!p) return;
  if (o[4] >= nboards) return (void)net_bad(from, NET_PAGE_FWD, "no such board", o[4]);
  if (defer(p, o[3], NET_PAGE_FWD, o[4], o[5] != 0, o[6])) return;
  do_fwd(p, o[3], o[4], o[5] != 0, o[6]);
}

/* Held-back steps whose page is free now: from the main loop. */
static void release_kept(void) {
  uint32_t left = 0;
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    struct proc *p = &procs[i];
    uint32_t lo = kept_lo[i], hi = kept_hi[i];
    kept_lo[i] = kept_hi[i] = 0;
    if (lo >= hi || !proc_alive(p)) continue; /* (an ended process's frames went with it) */
    for (uint32_t v = lo; v < hi && v < TOS_USER_PAGES; ++v) {
      if (!KEPT(p->ptable[v])) continue;
      if (pinned(p, v)) {
        ++left;
        if (kept_lo[i] >= kept_hi[i]) kept_lo[i] = (uint16_t)v;
        kept_hi[i] = (uint16_t)(v + 1);
        continue;
      }
      frame_free(vm_unmap(p, v));
    }
  }
  for (uint32_t i = 0; i < ORPHANS; ++i) {
    if (!orphan[i].p) continue;
    struct proc *p = orphan[i].p;
    int alive = proc_alive(p) && p->serial == orphan[i].serial;
    if (alive && pinned(p, orphan[i].vpage)) {
      ++left;
      continue;
    }
    frame_free(orphan[i].pa);
    orphan[i].p = NULL;
    --norphans;
  }
  nkept = left;
}

void pages_poll(void) {
  if (nkept || norphans) release_kept();
  if (!ndeferred) return;
  for (uint32_t i = 0; i < PG_DEFER; ++i) {
    struct pg_defer d = deferred[i];
    if (!d.p) continue;
    if (proc_alive(d.p) && d.p->serial == d.serial && (pinned(d.p, d.vpage) || fresh(d.p, d.vpage))) continue;
    deferred[i].p = NULL;
    --ndeferred;
    if (!proc_alive(d.p) || d.p->serial != d.serial) continue;
    if (d.type == NET_PAGE_INVAL) do_inval(d.p, d.vpage, d.seq);
    else do_fwd(d.p, d.vpage, d.to, d.move, d.seq);
  }
}

/* ---- the requester ---- */
static void done(struct proc *p, uint32_t v, uint32_t seq) {
  if (seq) send(p->home_board, NET_PAGE_DONE, p, v, seq, 0, 0, 5);
}

/* A page: a code copy from the home (seq 0), or the protocol's (from its owner). */
static void on_page(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT(DGL_COMMS, EV_RX_MPC);
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p) return;
  uint32_t v = o[3];
  if (v >= TOS_USER_PAGES || net_data_len() != TOS_PAGE_SIZE)
    return (void)net_bad(from, NET_PAGE, "bad page or length, page", v);
  if (!o[6] && from != p->home_board) return (void)net_bad(from, NET_PAGE, "a code copy not from the home, page", v);
  if (!o[6] && (p->ptable[v] & TB_MMU_PTE_VALID)) { /* a second copy of a code page: one is enough */
    wake(p, v);
    return;
  }
  uint32_t e = p->ptable[v];
  uint32_t pa = (e & TB_MMU_PTE_VALID) && !KEPT(e) ? (e & PTE_FRAME) : frame_alloc();
  if (!pa) {
    kprintf("tos: %s: no frame for a page from %s\n", board_name, board_name_of(from));
    if (p->guest) remote_fault(p, -TOS_ENOMEM); /* the whole process ends, as a fault ends it */
    proc_kill(p, -TOS_ENOMEM);
    return;
  }
  if (KEPT(e)) { /* the send still reading the old frame keeps it until it is over */
    uint32_t i = 0;
    while (i < ORPHANS && orphan[i].p) ++i;
    if (i < ORPHANS) {
      orphan[i].p = p;
      orphan[i].serial = p->serial;
      orphan[i].vpage = v;
      orphan[i].pa = e & PTE_FRAME;
      ++norphans;
    } else {
      ++pages_leaked;
      kprintf("tos: %s: no room to keep a frame a send still reads: left (%u so far)\n", board_name, pages_leaked);
    }
  }
  net_take(0, pa, TOS_PAGE_SIZE);
  vm_map(p, v, pa, o[6] && o[5]);
  EVENT(DGL_COMMS, EV_PAGE_IN);
  wake(p, v);
  done(p, v, o[6]);
}

static void on_grant(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = holder_proc(from, NET_PAGE_GRANT, o);
  if (!p) return;
  if (o[5] && satisfied(p, o[3], 0)) set_writable(p, o[3], 1);
  EVENT(DGL_COMMS, EV_PAGE_IN);
  wake(p, o[3]);
  done(p, o[3], o[6]);
}

static void on_none(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = proc_by_gpid(o[0], o[1], o[2]);
  if (!p || o[3] >= TOS_USER_PAGES) return;
  (void)from;
  fault_waiters(p, o[3]);
  if (proc_alive(p)) done(p, o[3], o[6]);
}

/* A thread's stack window is given back everywhere (its thread ended); also a thread's end or
 * failed creation on another board. */
static void on_drop(uint32_t from, const uint32_t *o, uint32_t nops) {
  (void)nops;
  struct proc *p = holder_proc(from, NET_PAGE_DROP, o);
  uint32_t pa = p ? vm_unmap(p, o[3]) : 0;
  if (pa) frame_free(pa);
}

/* ---- what the rest of the kernel calls ---- */
/* A user thread took a bus error on page va (a write if `write`): ask the home. 1 if the thread
 * now waits for the page, 0 if this is a real fault. */
int remote_page_fault(struct tcb *t, uint32_t va, int write) {
  struct proc *p = t->proc;
  uint32_t v = va >> TOS_PAGE_SHIFT;
  if (v >= TOS_USER_PAGES || REGION_WINDOW_PAGE(v) || satisfied(p, v, write)) return 0; /* (region.c's) */
  if (!p->guest && (is_code(p, v) || !pages_exists(p, v))) return 0;
  uint32_t top = thread_window_top(t->slot) >> TOS_PAGE_SHIFT;
  if (v < top && v >= top - TOS_STACK_WINDOW / TOS_PAGE_SIZE) write = 1; /* its own stack: it follows */
  t->page_wait = v | (write ? 1u << 31 : 0);
  t->state = T_PAGE;
  ++pages_asked;
  EVENT2(DGL_COMMS, write && (p->ptable[v] & TB_MMU_PTE_VALID) ? EV_PAGE_WFAULT : EV_PAGE_FAULT, t->tid);
  if (p->home_board == me()) EVENT(DGL_COMMS, EV_PAGE_REQ); /* (served here, perhaps at once) */
  send(p->home_board, NET_PAGE_REQ, p, v, t->tid, write != 0, 0, 6);
  if (p->home_board != me()) EVENT(DGL_COMMS, EV_PAGE_REQ); /* submitted to Centrenet */
  return 1;
}

/* Before a guest thread runs: the 68010 fetches its first instruction words during the RTE
 * that enters it, so a fault there would be taken in supervisor mode, as the kernel's own. The
 * pages under its PC are brought over first. 1 if the thread now waits for one. */
int remote_prefetch(struct tcb *t) {
  uint32_t pc;
  memcpy(&pc, &t->ctx.frame[2], 4);
  return remote_page_fault(t, pc, 0) || remote_page_fault(t, pc + 6, 0);
}

/* A system call names a buffer whose pages are elsewhere (or here read-only, for a call that
 * writes it): fetch the first and run the call again when it has come (the saved PC goes back
 * over the TRAP). 1 if the thread now waits; 0 if the buffer is simply bad. */
int remote_fetch(struct tcb *t, uint32_t va, uint32_t len, int write) {
  if (len == 0 || va + len < va) return 0;
  for (uint32_t pg = va >> TOS_PAGE_SHIFT; pg <= (va + len - 1) >> TOS_PAGE_SHIFT && pg < TOS_USER_PAGES; ++pg) {
    if (satisfied(t->proc, pg, write)) continue;
    uint32_t pc;
    memcpy(&pc, &t->ctx.frame[2], 4);
    pc -= 2; /* TRAP #n is one word (set before asking: the answer may come at once) */
    memcpy(&t->ctx.frame[2], &pc, 4);
    if (remote_page_fault(t, pg << TOS_PAGE_SHIFT, write)) return 1;
    pc += 2;
    memcpy(&t->ctx.frame[2], &pc, 4);
    return 0;
  }
  return 0;
}

/* Home: a thread is being created on `board` in `slot` with n stack pages: they are its. */
void pages_thread_placed(struct proc *p, uint32_t slot, uint32_t n, uint32_t board) {
  uint32_t top = thread_window_top(slot) >> TOS_PAGE_SHIFT;
  for (uint32_t i = 1; i <= n && i <= TOS_MAX_STACK_PAGES; ++i) set_dir(p, top - i, board, BIT(board));
}

/* Home: the thread of `slot` has ended on board `gone` (which freed what it had): every other
 * copy of its stack window goes. */
void pages_thread_gone(struct proc *p, uint32_t slot, uint32_t gone) {
  uint32_t top = thread_window_top(slot) >> TOS_PAGE_SHIFT, here = me();
  bset_t told = BIT(gone) | BIT(here); /* (a 64-bit shift is a library call on the 68010: once) */
  for (uint32_t v = top - TOS_STACK_WINDOW / TOS_PAGE_SIZE; v < top; ++v) {
    bset_t copies = dir_owner[p->pid][v] ? dir_get(p->pid, v) & ~told : 0;
    for (uint32_t b = 0; copies; ++b, copies >>= 1) /* most pages have no copy elsewhere */
      if (copies & 1) {
        uint32_t o[4] = {p->home_board, p->home_pid, p->home_serial, v};
        net_send_wait(b, NET_PAGE_DROP, o, 4);
      }
    if (gone != here) {
      uint32_t pa = vm_unmap(p, v);
      if (pa) frame_free(pa);
    }
    dir_owner[p->pid][v] = 0;
    dir_put(p->pid, v, 0);
  }
}

/* ---- whole-process migration (pmigrate.c) ---- */
/* Home: is every page of p here alone (no other board owns or copies one)? */
int pages_all_home(struct proc *p) {
  for (uint32_t v = 0; v < TOS_USER_PAGES; ++v)
    if (dir_owner[p->pid][v] && (dir_owner[p->pid][v] != me() + 1u || dir_get(p->pid, v) != BSET(me()))) return 0;
  for (int i = 0; i < PG_ACTIVE; ++i)
    if (act[i].used && act[i].p == p) return 0;
  return npend[p->pid] == 0;
}

/* Home: is every page of p the home's alone or board b's alone, with no step under way? (The
 * process comes back whole from b: pmigrate to its home.) */
int pages_all_on(struct proc *p, uint32_t b) {
  for (uint32_t v = 0; v < TOS_USER_PAGES; ++v) {
    uint8_t o = dir_owner[p->pid][v];
    if (o && !(o == me() + 1u && dir_get(p->pid, v) == BSET(me())) && !(o == b + 1u && dir_get(p->pid, v) == BSET(b)))
      return 0;
  }
  for (int i = 0; i < PG_ACTIVE; ++i)
    if (act[i].used && act[i].p == p) return 0;
  return npend[p->pid] == 0;
}

/* Home: is page v of p board b's alone (so b may send it back in an image)? */
int pages_owned_by(struct proc *p, uint32_t v, uint32_t b) {
  return v < TOS_USER_PAGES && dir_owner[p->pid][v] == b + 1u && dir_get(p->pid, v) == BSET(b);
}

/* Home: an image from board b has ended: each page b held that is mapped here now is the
 * home's alone (keep), or is unmapped and freed (the image failed: b keeps them). */
void pages_back(struct proc *p, uint32_t b, int keep) {
  for (uint32_t v = 0; v < TOS_USER_PAGES; ++v) {
    if (dir_owner[p->pid][v] != b + 1u || !(p->ptable[v] & TB_MMU_PTE_VALID)) continue;
    if (keep) {
      dir_owner[p->pid][v] = 0;
      dir_put(p->pid, v, 0);
    } else {
      uint32_t pa = vm_unmap(p, v);
      if (pa) frame_free(pa);
    }
  }
}

/* Home: page v of p now lives on board b alone (the home's frame is gone). */
void pages_given(struct proc *p, uint32_t v, uint32_t b) { set_dir(p, v, b, BIT(b)); }

/* Destination: page v of an arriving image is mapped: threads waiting for it go on. */
void pages_arrived(struct proc *p, uint32_t v) { wake(p, v); }

/* The process p has ended here (home or guest part): nothing of it is kept. */
void pages_forget(struct proc *p) {
  for (uint32_t i = 0; i < PG_DEFER; ++i)
    if (deferred[i].p == p) {
      deferred[i].p = NULL;
      --ndeferred;
    }
  if (p->guest) return;
  for (int i = 0; i < PG_ACTIVE; ++i)
    if (act[i].p == p) act[i].used = 0;
  for (int s = 0; s < TOS_MAX_THREADS; ++s) pend[p->pid][s].used = 0;
  npend[p->pid] = 0;
  memset(dir_owner[p->pid], 0, sizeof dir_owner[p->pid]);
  if (dir_wide) memset(dir_wide[p->pid], 0, sizeof dir_wide[p->pid]);
  else memset(dir_copies8[p->pid], 0, sizeof dir_copies8[p->pid]);
  pump(); /* other processes' requests may have waited for a free slot */
}

void pages_init(void) {
  net_register(NET_PAGE_REQ, on_req, 6);
  net_register(NET_PAGE, on_page, 7);
  net_register(NET_PAGE_NONE, on_none, 7);
  net_register(NET_PAGE_DROP, on_drop, 4);
  net_register(NET_PAGE_FWD, on_fwd, 7);
  net_register(NET_PAGE_GRANT, on_grant, 7);
  net_register(NET_PAGE_INVAL, on_inval, 5);
  net_register(NET_PAGE_ACK, on_ack, 5);
  net_register(NET_PAGE_DONE, on_done, 5);
}
