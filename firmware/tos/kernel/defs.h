/* TOS kernel: its data structures and every function one kernel file offers another (xv6's
 * defs.h). Read this first; each section names the file that implements it.
 *
 * The shape (seed 000 section 3.2.1): the kernel is one loop on one supervisor stack,
 *   send phase -> receive phase -> schedule phase -> (the thread runs) -> service phase.
 * A user thread runs until it traps, faults or its 20 ms slice ends; then run_user() returns
 * to the loop with the exception's vector and the thread's context saved in its TCB. */
#ifndef TOS_KERNEL_DEFS_H
#define TOS_KERNEL_DEFS_H
#include <stdarg.h>
#include <stdint.h>
#include <testbed/events.h>
#include <testbed/memory_map.h>
#include <testbed/tos.h>
#include <tos/fs_format.h>
#include <testbed/tos_net.h>
#include <tos/pinfo.h>

#define NULL ((void *)0)
/* A variable entry.S's fast paths touch on every system call and switch: in the .hot section,
 * below 32 KB (kernel.ld), where entry.S reaches it by an absolute short address (4 cycles less
 * an access than a long one). C reaches it as any other. */
#define KERNEL_HOT __attribute__((section(".hot")))
#define KERNEL_HOT_CONST __attribute__((section(".hot.const"))) /* (the same for a constant) */
#define REG16(a) (*(volatile uint16_t *)(a))
#define REG32(a) (*(volatile uint32_t *)(a))

/* ---- TCB: one thread (section 2.2.1). entry.S reaches its fields (and struct proc's) by the
 * offsets kernel/asm_offsets.c generates at build time. ---- */
/* thread states: enum tos_tstate (T_*) of <tos/pinfo.h> */

#define FRAME_MAX 58 /* the 68010's longest exception frame: format $8, 29 words */

struct proc;
struct ofile;
/* What a thread is wherever it runs: its user context (entry.S saves and restores it; the
 * first four fields at the offsets asm_offsets.c gives entry.S) and its place in its family
 * and channels. Migration (migrate.c) sends it as one block and takes it with one assignment,
 * a twin (rex.c) starts from a copy: a field added here travels with the thread without a line
 * more; what stays with the board stays in struct tcb around it. */
struct thread_ctx {
  uint32_t regs[15];       /* 0:  d0-d7, a0-a6 */
  uint32_t usp;            /* 60: user stack pointer */
  uint16_t frame_len;      /* 64: bytes of the exception frame below */
  uint16_t moves;          /* 66: migrations so far (the home keeps the newest location) */
  uint8_t frame[FRAME_MAX + 2]; /* 68: SR, PC, format/vector (and the rest of a $8 frame) */
  int32_t user_id;         /* the id the creator passed */
  uint16_t parent_tid;     /* the creator's TID, TID_NONE for a process's first thread */
  uint16_t stack_pages;
  int32_t children;        /* children still alive */
  int32_t child_code;      /* first non-zero exit code of a child */
  uint32_t cpu_slices;     /* times scheduled */
  uint32_t send_mask[TOS_MAX_CHANNELS / 32]; /* channels it has sent on (its CCBs travel with it) */
  uint32_t recv_mask[TOS_MAX_CHANNELS / 32]; /* ... and received on */
  uint32_t crit_va;        /* pmig_critical: its critical-section depth's user address, 0 none */
  uint8_t gs_note;         /* rex.c: a process the global scheduler heard of (placed, or a twin): its end is noted */
};

struct tcb {
  struct thread_ctx ctx;   /* first: entry.S's context at offset 0 */
  struct tcb *next, *prev; /* ready queue of the process (doubly linked), or the free list */
  struct proc *proc;
  uint16_t tid;            /* (board << 10) | (pid << 6) | slot: TOS_TID_* (tos.toml [tid]) */
  uint8_t slot;            /* thread slot in its process: selects its stack window */
  uint8_t state;           /* enum tos_tstate */
  struct tcb *parent;      /* creator (valid while parent->tid == ctx.parent_tid) */
  uint8_t parent_board;    /* where the parent is, for a thread created from another board */
  int32_t exit_code;
  uint32_t op_buf, op_len; /* a blocked send / receive / write: the user buffer */
  uint32_t op_total;
  int32_t op_chan;
  uint8_t last_link;       /* board + 1 its last communication went to or came from; 0: local or none */
  uint8_t rq_counted;      /* in the rqlen class's ready queue: ready or running (thread.c) */
  uint8_t op_fault;        /* a remote msg found the receive buffer's page gone: EFAULT at its end */
  uint8_t page_from;       /* T_PAGE: board + 1 asked for page_vpage (remote.c); its answer only is taken */
  uint16_t page_vpage;
  uint8_t answer_from;     /* T_REMOTE: board + 1 whose answer it waits for, 0 any (a routed migrate request) */
  uint8_t answer_type;     /* ... and the answer's message type */
  uint8_t rex_placed;      /* rex.c: board + 1 the scheduler last placed its creation on, until its next create */
  uint32_t page_wait;      /* T_PAGE: the virtual page it waits for, bit 31 set for write access (pages.c) */
  /* barrier.c: the barrier it waits at (spinning or T_BARRIER) */
  uint8_t bar_wait;        /* 1 + the barrier's index while it waits, 0 otherwise */
  uint8_t bar_policy;      /* TOS_BARRIER_* */
  uint32_t bar_gen;        /* the barrier's generation on this board when it arrived */
  uint32_t bar_deadline;   /* two-phase: uptime_us() at which its spin ends */
  uint8_t op_route;        /* a blocked psend: 1 + the receiver's slot, routed by the table (route.c); 0 a send */
  /* pages.c: 1 + the page whose arrival woke it from T_PAGE, and cpu_slices then: until it has
   * been scheduled once (and so rerun its access), this board gives that page away to no one */
  uint16_t page_fresh;
  uint32_t fresh_slices;
};
#define TID_NONE ((uint16_t)~0u) /* parent_tid of a process's first thread (no TID is all ones) */
#define TCB_REGS_D0 0
#define TCB_REGS_A0 8

/* ---- Processes ---- */
#define PROC_NAME_LEN 16
/* process states: enum tos_pstate (P_*) of <tos/pinfo.h>; P_ZOMBIE: ended, its code not yet collected */

enum { T_TOKEN_NONE, T_TOKEN_FOCUS, T_TOKEN_RTR }; /* a remote side's token kept in a CCB (rchan.c) */
struct ccb { /* channel control block: one occam channel */
  struct tcb *waiter;  /* the thread blocked on it (a sender or a receiver), or NULL */
  uint8_t peer;        /* board + 1 where the other side was last heard of (0: not yet) */
  uint8_t token;       /* T_TOKEN_*: a remote sender waits (focus) / receiver is ready (rtr) */
  uint8_t token_from;  /* its board */
  uint8_t rtr_sent;    /* our receiver's rtr is on its way */
  uint16_t token_tid;
  uint32_t token_len;
  uint8_t fwd_r, fwd_s; /* board + 1 the receiver / sender of this channel migrated to from here */
  uint8_t quiet;        /* the waiter is a sender that blocked while the process lived here only: no board knows */
  uint16_t token_rtid;  /* a routed focus kept here: the receiver it was routed to (it goes with that thread) */
};

/* A set of boards, a bit each: every board of the largest machine TOS runs (tos.toml [boards] max). */
typedef uint64_t bset_t;
#define BSET(b) ((bset_t)1 << (b))
_Static_assert(TOS_MAX_BOARDS <= 64, "a set of boards is one 64-bit word");

struct proc {
  uint8_t state;                 /* enum tos_pstate */
  uint8_t pid;                   /* 0..15: also its MMU address space */
  uint16_t nthreads;
  char name[PROC_NAME_LEN];
  struct tcb *rq_head, *rq_tail; /* ready threads (Figure 3) */
  struct tcb *slots[TOS_MAX_THREADS];
  uint32_t *ptable;              /* TOS_USER_PAGES entries, ASID = pid */
  uint32_t text_lo, text_hi;     /* virtual pages mapped from the filestore (not owned) */
  struct ccb chan[TOS_MAX_CHANNELS];
  int32_t exit_code;
  int32_t exit_set;
  struct tcb *pwaiter[4];        /* threads blocked in pwait on this process */
  uint32_t serial;               /* distinguishes incarnations of a slot */
  int8_t parent;                 /* the spawning process (collects the exit code), -1: the kernel */
  uint32_t parent_serial;
  int8_t text_node;              /* the filestore file its code is mapped from (fs_map), -1: none */
  uint32_t brk, brk_base;        /* end of the data segment (sbrk moves it), its first value */
  uint32_t env, env_len;         /* its environment block on its first stack (spawn with env 0) */
  struct ofile *fd[TOS_MAX_FDS]; /* open descriptors (file.c) */
  /* across boards (remote.c): the process everywhere is its home's (board, pid, serial) */
  uint8_t guest;                 /* 1: the part of another board's process that lives here */
  uint8_t home_board, home_pid;
  uint32_t home_serial;
  uint8_t home_privileged;       /* guest: its home process is privileged (proc_privileged), as its home said */
  uint8_t dma_pages;             /* frames of its DMA buffers here (dev.c; in the padding before remote_mask) */
  uint32_t remote_mask[2];       /* home: thread slots given to threads on other boards */
  uint16_t remote_threads;
  uint8_t spread;                /* home: a thread has lived elsewhere (the end is told to every board) */
  uint8_t where[TOS_MAX_THREADS];          /* home: the board of a thread in remote_mask */
  uint16_t where_moves[TOS_MAX_THREADS];   /* ... as of its moves-th migration */
  /* home: the children alive (anywhere) whose parent is the thread of a slot, or was: a slot is
   * not given again until they have ended, so a child's end never reaches a later thread with
   * its parent's TID (proc_slot_free; issue #57) */
  uint8_t parent_refs[TOS_MAX_THREADS];
  /* route.c: the routing table (seed 001's Figure 2), on every board holding the process */
  uint8_t route[TOS_MAX_THREADS];          /* board + 1 of a thread, as the master said (0: its tid's home) */
  uint16_t route_seq[TOS_MAX_THREADS];     /* ... as of the home's seq-th placement of that slot */
  uint8_t gone[TOS_MAX_THREADS];           /* board + 1 a thread migrated to from here (routed tokens follow it) */
  uint32_t route_boards[2];                /* home: boards that have held a part of it */
  bset_t dealt;                            /* remote.c: slaves given a thread at random this round */
  uint8_t routed; /* a psend or a routed focus has been here: only then does rchan_pack test each of
                   * the 128 channels for one (that test cost every migration 2.4 ms of packing) */
};

/* A TID of process (home board hb, pid hp): made, and recognised, by its fields whole (tos.toml
 * [tid]; a board field cut to four bits once took board 17's TIDs for board 1's). */
static inline uint32_t tid_make(uint32_t hb, uint32_t hp, uint32_t slot) {
  return (hb & TOS_TID_BOARD_MASK) << TOS_TID_BOARD_SHIFT | (hp & TOS_TID_PROCESS_MASK) << TOS_TID_PROCESS_SHIFT | slot;
}
static inline int tid_of(uint32_t tid, uint32_t hb, uint32_t hp) {
  return tid <= 0xFFFF && (tid >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK) == hb &&
         (tid >> TOS_TID_PROCESS_SHIFT & TOS_TID_PROCESS_MASK) == hp;
}

/* ---- route.c: routing tables kept by the master (seed 001's Figure 2) ---- */
void route_placed(struct proc *p, uint32_t slot, uint32_t board); /* home: a thread is now on board */
uint32_t route_lookup(const struct proc *p, uint32_t slot);       /* the board the table gives */
int route_forward_to(const struct proc *p, uint32_t slot);        /* a routed token for an absent thread: where next, -1 none */
void route_stale(void);                                           /* count a routed token forwarded */
void route_init(void);

/* ---- entry.S ---- */
uint32_t run_user(struct tcb *t);     /* returns the vector that ended the run */
void cpu_idle(void);                  /* STOP until an interrupt */
static inline uint16_t splhigh_inline(void) { /* splhigh without the call, for the trap's fast path */
  uint16_t sr;
  __asm__ volatile("move.w %%sr,%0\n\tmove.w #0x2700,%%sr" : "=d"(sr) : : "memory");
  return sr;
}
static inline void splx_inline(uint16_t sr) { __asm__ volatile("move.w %0,%%sr" : : "d"(sr) : "memory"); }
void spl0(void);                      /* interrupts on (kernel level) */
uint16_t splhigh(void);               /* interrupts off; returns the old SR */
void splx(uint16_t sr);
extern struct tcb *current;

/* ---- main.c: boot, the main loop, board identity ---- */
extern uint16_t board_id;
extern int board_master;
extern const char *board_name;
extern uint32_t nboards; /* the machine's boards: processors 0..nboards-1 (board.c) */
extern uint32_t ram_bytes;
void halt_board(uint32_t code) __attribute__((noreturn));
const char *board_name_of(uint32_t processor);
void board_identify(void); /* board.c: BOARDID read at boot */
/* What sends a trapping thread's call round the main loop (loop_wanted, below): the slice has
 * ended (timer.c), an interrupt or a service left work for the loop (kernel_work), the machine
 * is halting (main.c). Three bytes of one long word, so that the trap's fast path (entry.S)
 * tests them in one instruction. Defined in main.c. */
extern volatile union loop_flags {
  uint32_t any;
  struct { uint8_t slice_over, kernel_work, halting, pad; } f;
} loop_flags;
#define slice_over (loop_flags.f.slice_over)
#define kernel_work (loop_flags.f.kernel_work)
#define halting (loop_flags.f.halting)

/* ---- the operator's console (SERIAL0), interrupt driven: console_uart.c (the port, kputc),
 * console_line.c (reads and writes of descriptors 0..2), console_jobs.c (Ctrl-C, Ctrl-Z),
 * console_remote.c (console switching); what they share among themselves is console.h's ---- */
void console_init(void);
void console_intr(void);
int console_put(const char *s, int n);      /* bytes taken (the rest: no room) */
void kputc(char c);
void kprintf(const char *fmt, ...);
void console_service(void);                 /* main loop: feed blocked writers */
int32_t console_write(struct tcb *t, uint32_t buf, uint32_t len);
int32_t console_read(struct tcb *t, uint32_t buf, uint32_t len);
void console_flush(void);
void console_forget(struct tcb *t);
void console_forget_reader(struct tcb *t);
int console_input(char c);
void console_net_init(void);
void console_send_phase(void);
int console_send_pending(void);              /* output waits for the send phase (to the master) */
void console_no_board(uint32_t b);          /* net.c: a console select the controller could not send */
extern int console_raw;

/* ---- net.c: the Centrenet network interface ---- */
/* A message's header tag: its type (bits 7..0) and operand count (bits 11..8). */
#define NET_TAG(type, nops) ((type) | ((nops) << 8))
#define NET_TYPE(tag) ((tag) & 0xFF)
#define NET_NOPS(tag) (((tag) >> 8) & 0xF)
#define NET_MAX_OPS 13 /* 16 descriptor words: header, operands, one address/length pair */
/* Characters carried in operands, four a word, first in the high byte (console messages). */
static inline void net_pack_chars(uint32_t *words, const char *src, uint32_t n) {
  for (uint32_t i = 0; i < n; i += 4) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < 4; ++k) w = (w << 8) | (uint8_t)(i + k < n ? src[i + k] : 0);
    words[i / 4] = w;
  }
}
static inline char net_unpacked_char(const uint32_t *words, uint32_t i) { return (char)(words[i / 4] >> (24 - 8 * (i % 4))); }
/* enum net_type (NET_*): <testbed/tos_net.h>, generated from sw/tables/tos.toml's [[net_type]],
 * shared with tests that forge messages */
typedef void (*net_handler)(uint32_t from, const uint32_t *ops, uint32_t nops);
/* Messages the network queue holds (net.c). A handler that queues more than there is room for
 * waits (net_queue_wait: region.c's post_data queues a region's pages, one message each), and
 * while it waits the board holds arrived messages in memory, so that a board waiting the same
 * way for it goes on (net.c, "network overflow"); 128 holds several regions' replies, so that
 * this is rare. mem.c holds back a freed frame while a queued message has its data there: one a
 * message at most, so the same number. */
#ifndef NET_TXQ /* a test kernel cuts it (firmware/tos/CMakeLists.txt: tos-txq8) */
#define NET_TXQ 128
#endif
void net_init(void);
uint32_t net_me(void);
void net_link_sample(void); /* REM-COMM, from the main loop */
void net_register(uint32_t type, net_handler h, uint32_t nops); /* nops: operands it must have */
int net_bad(uint32_t from, uint32_t type, const char *why, uint32_t v); /* refused: counted, said once per kind; 0 */
void net_refused_report(void);
int net_queue(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops, uint32_t data, uint32_t len,
              void (*done)(void *), void *ctx);
/* net_queue, waiting until there is room (arrived messages held in memory meanwhile) */
void net_queue_wait(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops, uint32_t data, uint32_t len,
                    void (*done)(void *), void *ctx);
void net_send_wait(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops); /* no data */
int net_input_pending(void); /* messages arrived: in the controller or held in memory */
void net_held_report(void);
uint32_t net_queue_room(void);
int net_packs(void);            /* 1994 mode: outgoing data is copied into the controller's buffer */
uint32_t net_piece_alloc(void); /* 1994 mode: a page-sized buffer the gather reads in place; 0: none (or dma-anywhere) */
void net_piece_sent(void *piece); /* its message's done(): the buffer is free once gathered */
int net_frame_queued(uint32_t pa);
uint32_t net_queue_capacity(void);
int net_tx_pending(void);                    /* messages wait for the send phase */
void net_send_phase(void);
void net_receive_phase(void);
uint32_t net_data_len(void);
void net_take(uint32_t off, uint32_t pa, uint32_t len);
extern uint32_t net_sent, net_received, net_unknown, net_dropped, net_malformed, net_refused_total;
extern uint32_t net_held, net_held_data, net_held_most, net_held_frames_most, net_hold_stalls;
#define NET_MASTER 0 /* the master's processor number (board 0: the LAN link and the MMI are its) */

/* ---- lan.c: the master's LAN link (SERIAL1), the host file service; monitor.c: the MMI ---- */
void lan_init(void);
void lan_intr(void);
void lan_service(void);                     /* main loop: move the transfer on, time it out */
void lan_forget(struct tcb *t);             /* a thread blocked on the link (T_LAN) is removed */

/* ---- rfile.c: files to another board's filestore (cp FILE BOARD:NAME) ---- */
void rfile_init(void);
void rfile_send_phase(void);
void rfile_forget(struct tcb *t);

/* ---- remote.c, rchan.c: a process across boards ---- */
void remote_init(void);
struct proc *proc_by_gpid(uint32_t hb, uint32_t hp, uint32_t hs);
int remote_create(struct tcb *parent, int32_t id, uint32_t n_pages, int32_t processor, uint32_t entry, uint32_t arg,
                  uint32_t ret);
void remote_thread_exit(struct tcb *t, int32_t code, int parent_told);
void remote_fault(struct proc *p, int32_t code); /* a guest part failed (a fault, no frame): the home is told */
void remote_process_gone(struct proc *p);
int remote_prefetch(struct tcb *t);
void remote_fault_report(struct tcb *t, uint32_t va);
void remote_child_report(struct proc *p, uint32_t parent_tid, int32_t code, uint32_t hops);
void remote_drop_pages(struct tcb *t);
int32_t remote_sbrk(struct tcb *t, uint32_t increment);
uint32_t remote_console_room(void);                                        /* a guest's console output: characters one message takes now (0: the queue is full) */
void remote_console_out(const struct tcb *t, const char *src, uint32_t n); /* ... sent home, to the process's console */
extern uint32_t remote_console_lost;                                       /* home: characters of processes already gone */
struct tcb *thread_here(uint32_t hb, uint32_t hp, uint32_t tid); /* migrate.c: thread tid of process (hb, hp), if on this board */ /* a guest's thread: sbrk at the home; it waits */
struct proc *remote_guest(uint32_t hb, uint32_t hp, uint32_t hs);
extern uint32_t remote_lost;
extern uint32_t remote_over_quota; /* creates a quota refused here (guest_parts_per_home, guest_tcbs_per_home) */
extern uint32_t region_over_quota; /* region records a quota refused here (regions_per_process) */
/* pages.c: the page protocol (one owner per writable page, read copies, the home the manager) */
uint32_t pages_reserve(uint32_t lo); /* boot: RAM from lo for a large machine's copy sets; the new lo */
void pages_init(void);
void pages_poll(void); /* steps held back while a blocked call used their page, from the main loop */
int remote_page_fault(struct tcb *t, uint32_t va, int write); /* 1: t waits for the page */
int remote_fetch(struct tcb *t, uint32_t va, uint32_t len, int write); /* a call's buffer: 1 if t waits */
int pages_exists(struct proc *p, uint32_t vpage);    /* home: the page is here or elsewhere */
void pages_free_here(struct proc *p, uint32_t vpage); /* sbrk shrinks: freed unless another board holds it */
void pages_thread_placed(struct proc *p, uint32_t slot, uint32_t n_pages, uint32_t board);
void pages_thread_gone(struct proc *p, uint32_t slot, uint32_t gone_board);
void pages_forget(struct proc *p);
int pages_all_home(struct proc *p);                 /* pmigrate.c: nothing of p is elsewhere */
int pages_all_on(struct proc *p, uint32_t b);       /* ... every page the home's or b's alone */
int pages_owned_by(struct proc *p, uint32_t v, uint32_t b); /* ... page v is b's alone */
void pages_back(struct proc *p, uint32_t b, int keep); /* ... an image from b ended: b's pages mapped here kept, or freed */
void pages_given(struct proc *p, uint32_t v, uint32_t b);
void pages_arrived(struct proc *p, uint32_t v);
/* pmigrate.c: whole-process migration (seed 001, DynamicPVM) */
void pmigrate_init(void);
void pmigrate_poll(void); /* from the main loop: the migration under way takes its next step */
int pmig_in_critical(struct tcb *x); /* x is inside a critical section its program marked (pmig_critical) */
extern uint32_t pmig_out, pmig_in, pmig_ckpt_pages;
extern uint32_t pages_invalidated, pages_moved, pages_copied, pages_deferred, pages_asked;
/* region.c: shared regions and computation migration (seed 003) */
void region_init(void);
void region_process_gone(struct proc *p); /* its part here ends: copies go home, its regions are deleted */
void region_thread_gone(struct tcb *t);  /* its waits go with it (thread.c thread_forget) */
/* a page of the region window (region.c's, not the page protocol's) */
#define REGION_WINDOW_PAGE(v) ((v) >= (TOS_REGION_WINDOW >> TOS_PAGE_SHIFT) && (v) < (TOS_STACK_BASE >> TOS_PAGE_SHIFT))
/* The window's pages a region or a DMA buffer (dev.c) may take: above them a guard page never
 * mapped and the handler stack of region.c's optimistic active messages. Regions are mapped from
 * the bottom up, DMA buffers from the top down, each where the page table has nothing yet. */
#define REGION_WINDOW_HI ((TOS_STACK_BASE >> TOS_PAGE_SHIFT) - 2)
extern uint32_t region_stale;
extern uint8_t region_loop_work;     /* region.c has work for the main loop: optimistic active messages to
                                        run (seed 003 6.2.3), or a set-up round trip on its way (7.3.1) */
int region_loop(void);               /* from the main loop: run them; 1: a set-up is on its way, run no thread */
void region_oam_report(void);        /* the end-of-run line: how they ended (and the set-up round trips) */
void oam_fault(struct tcb *h, uint32_t vector); /* trap.c: such a computation faulted: its process's fault */
void set_vbr(const void *table);     /* entry.S: the vector base (the 68010's VBR) */
extern const uint32_t vectors[256];  /* entry.S: the kernel's vector table */
/* migrate.c: thread migration (seed 000 section 2.2.2, Figure 7) */
void migrate_init(void);
int migrate_out(struct tcb *t, uint32_t dest, struct tcb *caller);
extern uint32_t migrations_out, migrations_in;
/* balance.c: a slave's part of load balancing (section 4.2, Figure 40) */
void balance_init(void);
/* rex.c: RHODOS's REX question to the global scheduler and process_twin (seed 002) */
void rex_init(void);
extern uint32_t rex_asked, rex_unserved, twins_made, rex_searches, rex_domain;
extern uint32_t rex_notes_sent, rex_notes_unheard, rex_notes_taken, rex_notes_lost;
/* A load change the global scheduler hears of (TOS_GS_CREATED, TWIN, EXIT) of thread tid here. */
void rex_note(uint32_t kind, uint32_t tid);
/* Is parent's create on `board` the creation of the scheduler's last placement for it? (once) */
int rex_placed_take(struct tcb *parent, uint32_t board);
void balance_poll(void); /* a waiting reconfiguration request, from the main loop */
extern uint32_t reconf_asked, reconf_moved, reconf_moved_later, reconf_discarded;
void rchan_init(void);
void rchan_send_phase(void);
int rchan_pending(void); /* a msg waits for the send phase to queue its pieces */
void rchan_request(struct tcb *t, struct ccb *c, int sending);
void rchan_adopt(struct proc *p);
void rchan_spread(struct proc *p, const struct tcb *mover);
void rchan_forget(struct tcb *t);
struct mig_chan { /* one channel a migrating thread has used, as it travels */
  uint8_t chan, role; /* role: 1 it sends on it, 2 it receives */
  uint8_t peer;       /* board + 1 where the other side was last heard of, 0: not known */
  uint8_t token, token_from, pad;
  uint16_t token_tid;
  uint32_t token_len;
};
void rchan_pack(struct tcb *t, uint32_t dest, struct mig_chan *e, uint32_t *n);
void rchan_unpack(struct tcb *t, const struct mig_chan *e, uint32_t n);
extern uint32_t rchan_stray, rchan_forwarded;

/* ---- lib/format.c (shared with the user library) ---- */
int tos_vformat(void (*put)(void *, char), void *ctx, const char *fmt, va_list ap);

/* ---- string.c ---- */
void *memcpy(void *d, const void *s, uint32_t n);
void *memset(void *d, int c, uint32_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, uint32_t n);
uint32_t strlen(const char *s);

/* ---- mem.c: 1 KB page frames ---- */
void mem_init(uint32_t lo, uint32_t hi);
uint32_t frame_alloc(void);                 /* zeroed frame's physical address, 0 if none */
void frame_free(uint32_t pa);               /* halts the board on a frame not the pool's or free already */
int frame_owned(uint32_t pa);               /* a frame of the pool (not the kernel's, not a filestore block) */
uint32_t frames_held(void);                 /* freed while a queued message's data: held until it has left */
void frames_release_held(void);             /* net.c, after a launch */
uint32_t frames_free(void);
uint32_t frames_total(void);
uint32_t frames_alloc_run(uint32_t n);      /* n contiguous zeroed frames (a DMA buffer): the first, 0 if none */

/* ---- vm.c: address spaces ---- */
void vm_init(void);
void vm_clear(struct proc *p);
int vm_map(struct proc *p, uint32_t vpage, uint32_t pa, int writable);
uint32_t vm_unmap(struct proc *p, uint32_t vpage);   /* the frame it mapped, or 0 */
uint32_t vm_next(struct proc *p, uint32_t vpage);    /* the first page >= vpage whose entry may not be 0 (TOS_USER_PAGES: none) */
/* User memory: every access goes through vm_user_pa at the moment of the access, and every
 * caller must handle the page being gone (0): these results cannot be ignored. */
#define MUST_CHECK __attribute__((warn_unused_result))
#define RARE __attribute__((cold, noinline)) /* a driver's call, not a path of every run: built for size */
int vm_user_pa(struct proc *p, uint32_t va, int write, uint32_t *pa) MUST_CHECK; /* 1: *pa */
int vm_mapped(struct proc *p, uint32_t va, int write) MUST_CHECK;
int vm_send_pa(struct proc *p, uint32_t va, uint32_t *pa) MUST_CHECK; /* a send's buffer: kept frames too */
int vm_check(struct proc *p, uint32_t va, uint32_t len, int write) MUST_CHECK;
/* The one door for a user buffer a system call names (xv6's copyin/copyout made whole, issue
 * #57): 1 when [va, va+len) is the thread's and usable here now (mapped, user, writable when
 * `write`), so that vm_copyin/vm_copyout of it cannot fail; 0 when a page of it is on another
 * board: the thread now waits for it and the call runs again when it has come; -EFAULT when the
 * range is not the process's. Every call with a user buffer enters through USER_BUFFER (a grep
 * for vm_check outside vm.c and this door finds only the deferred checks of a waiting thread's
 * buffer, chan.c and rchan.c). Inline: the channel calls' fast path pays nothing for it. */
static inline __attribute__((always_inline)) int32_t user_buffer(struct tcb *t, uint32_t va, uint32_t len, int write) {
  if (vm_check(t->proc, va, len, write)) return 1;
  return remote_fetch(t, va, len, write) ? 0 : -TOS_EFAULT;
}
#define USER_BUFFER(t, va, len, write)                                 \
  do {                                                                 \
    int32_t user_buffer_ = user_buffer((t), (va), (len), (write));     \
    if (user_buffer_ <= 0) return user_buffer_;                        \
  } while (0)
int vm_copy(struct proc *dp, uint32_t dva, struct proc *sp, uint32_t sva, uint32_t n) MUST_CHECK;
int vm_copyin(struct proc *p, void *dst, uint32_t va, uint32_t n) MUST_CHECK;
int vm_copyout(struct proc *p, uint32_t va, const void *src, uint32_t n) MUST_CHECK;
int vm_copyinstr(struct proc *p, char *dst, uint32_t va, uint32_t max) MUST_CHECK;
int vm_entry_ok(struct proc *p, uint32_t entry) MUST_CHECK; /* mapped read-only user code */
extern uint16_t vm_asid; /* the address space the MMU translates now (vm.c) */
static inline void vm_activate(struct proc *p) {
  if (vm_asid != p->pid) REG16(TB_MMU_ASID) = vm_asid = p->pid;
}

/* ---- fs.c: the filestore (formatted empty at boot when none was loaded) ----
 * A file is named by its node, which stays the same while directory entries move. */
void fs_init(void);
uint32_t fs_end(void);                     /* first physical byte past the store */
const struct tos_fs_entry *fs_lookup(const char *name);
const uint8_t *fs_data(const struct tos_fs_entry *e);
int fs_node(const char *name);             /* node, or -TOS_ENOENT */
int fs_node_at(uint32_t index);            /* node of directory entry index, or -TOS_ENOENT */
struct tos_fs_entry *fs_entry(int node);   /* valid until the directory changes */
uint8_t *fs_bytes(int node);               /* the file's data (moves when it grows) */
int fs_name_ok(const char *name);
int fs_create(const char *name);           /* new empty file's node, or -error */
int fs_remove(int node);                   /* -TOS_EBUSY while mapped or open */
int fs_rename(int node, const char *name);
int fs_resize(int node, uint32_t size);    /* grow (zero-filled; may move or compact) or shrink */
uint32_t fs_busy(int node);                /* maps + open descriptors */
uint32_t fs_mapped(int node);              /* processes (and the boot script) mapping it */
void fs_use(int node, int readers, int writers); /* file.c: descriptors opened (+) and closed (-) */
int fs_map(const struct tos_fs_entry *e);  /* pin the file (code mapped from it): node, or -TOS_EBUSY */
void fs_unmap(int node);
void fs_remap(int node); /* one more mapping of a mapped node (a twin) */
uint32_t fs_free_blocks(void);
void fs_stat(struct tos_fsstat *st);

/* ---- file.c: descriptors (0, 1, 2: the console) and the file system calls ---- */
void file_inherit(struct proc *p, struct proc *parent); /* 0..2 from the parent (the console if none) */
void file_close_all(struct proc *p);
/* A process's open files carried in its migration checkpoint (pmigrate.c): the descriptor
 * record lists each open file once, with the descriptors pointing to it; its bytes follow. */
#define PMIG_FILE_MAX_BYTES (64u * 1024u) /* a bigger file is refused (EFBIG): the image stays small */
struct pmig_file {
  uint16_t fds;  /* bit i: descriptor i points to it */
  uint8_t flags; /* TOS_O_READ, TOS_O_WRITE, TOS_O_APPEND */
  uint8_t pad;
  uint32_t off, size;
  char name[TOS_FS_NAME_LEN];
};
struct pmig_files {
  uint32_t n;
  struct pmig_file f[TOS_MAX_FDS];
};
/* home: p's open files into r, their nodes into node; n, or -TOS_EBUSY (a file another process
 * uses, or opened twice), -TOS_EFBIG, -TOS_EINVAL (an offset past the largest file) */
int file_checkpoint(struct proc *p, struct pmig_files *r, int16_t *node);
/* destination: the record checked and its files made and opened in p (a guest part); 0, or the
 * refusal's reason (*err: the -error the home is told) */
const char *file_restore(struct proc *p, const struct pmig_files *r, int16_t *node, int32_t *err);
void file_carried(struct proc *p, const struct pmig_files *r); /* home: the carried descriptors closed */
void file_drop_carried(struct proc *p, const struct pmig_files *r, const int16_t *node, uint32_t made);

/* ---- proc.c: processes ---- */
extern struct proc procs[TOS_MAX_PROCESSES];
extern int nprocs;
int proc_spawn(const char *path, const char *args, struct proc *parent, struct proc **out); /* parent's env */
int proc_spawn_env(const char *path, const char *args, const char *env, uint32_t env_len, struct proc *parent,
                   struct proc **out);  /* env: a block in kernel memory, env_len bytes with its end */
int proc_alive(const struct proc *p);
int proc_descends(const struct proc *q, const struct proc *p); /* q is p or one of its descendants */
/* privilege.c: who may do what, decided in one place (tos.toml's "privilege" per call) */
int proc_privileged(const struct proc *p); /* started by the boot script: may halt, kill any, migrate any */
int privilege_controls(const struct proc *caller, const struct proc *target); /* its own, or privileged */
int privilege_owns_device(struct proc *p, uint32_t dev); /* p owns (or now claims) user device dev */
int privilege_holds_a_device(const struct proc *p); /* p owns some user device now (claims none) */
void privilege_process_gone(struct proc *p); /* its devices are free again */
void proc_kill(struct proc *p, int code);
void proc_thread_gone(struct proc *p);
int proc_pwait(struct tcb *t, int pid);
struct proc *proc_new_guest(uint32_t hb, uint32_t hp, uint32_t hs);
struct proc *proc_new_twin(struct proc *p); /* rex.c's process_twin: the twin's slot, nothing mapped */
void proc_drop_twin(struct proc *c);
int32_t proc_sbrk(struct proc *p, uint32_t increment); /* the home's break moves: the old one, or -error */
int proc_reserve_slot(struct proc *p);     /* home: a slot for a thread on another board */
void proc_release_slot(struct proc *p, int slot);
int proc_slot_free(const struct proc *p, uint32_t slot);
void proc_child_born(struct proc *p, uint32_t parent_tid);
void proc_child_ended(struct proc *p, uint32_t parent_tid);

/* ---- thread.c: TCBs, ready queues, create / exit / wait, scheduling ---- */
void thread_init(void);
struct tcb *thread_new(struct proc *p, uint32_t entry, uint32_t stack_pages, uint32_t arg, uint32_t ret);
void thread_free(struct tcb *t);
struct tcb *thread_attach(struct proc *p, uint32_t slot); /* an arriving thread's TCB (no stack) */
void thread_detach(struct tcb *t);          /* a leaving thread's TCB freed (its pages stay) */
uint32_t thread_window_top(uint32_t slot);  /* end of the slot's stack window */
void ready(struct tcb *t);                  /* to the tail of its process's ready queue */
void rq_blocked(struct tcb *t);            /* it blocked: the rq class sees it leave */
void ready_front(struct tcb *t);            /* to the head (continues its slice) */
void ready_woken(struct tcb *t);            /* released from a block: placed as wake_placement says */
extern uint8_t wake_placement;              /* TOS_WAKE_TAIL or TOS_WAKE_HEAD (sched_wakeup) */
void unready(struct tcb *t);
struct tcb *schedule(void);                 /* dequeue the next thread to run, or NULL */
struct tcb *schedule_yield(void);           /* the same for a trap's fast path (NULL: the loop must run) */
void thread_yield(struct tcb *t);           /* to the back of its queue, its slice given up */
int thread_create(struct tcb *parent, int32_t id, uint32_t n_pages, int32_t processor,
                  uint32_t entry, uint32_t arg, uint32_t ret);
int thread_create_local(struct tcb *parent, int32_t id, uint32_t n_pages, uint32_t entry, uint32_t arg,
                        uint32_t ret);
struct tcb *thread_new_in_slot(struct proc *p, uint32_t slot, uint32_t entry, uint32_t stack_pages, uint32_t arg,
                               uint32_t ret);
void child_ended(struct tcb *parent, int32_t code);
void thread_exit(struct tcb *t, int32_t code);
int thread_wait(struct tcb *t);              /* 1: blocked, 0: returned at once */
void finish(struct tcb *t, int32_t result);  /* complete a blocked call, make the thread ready */
uint32_t tcbs_free(void);
extern uint32_t switches;

/* ---- barrier.c: barriers across boards (seed 004) ---- */
void barrier_setup(void);                   /* its kernel messages */

/* ---- chan.c: occam channels ---- */


void chan_forget(struct tcb *t);
#define CHAN_USED(mask, c) ((mask)[(c) / 32] >> ((c) % 32) & 1u)

/* Does the main loop have anything to do before a trapping thread goes on (trap.c's fast
 * path)? Its slice has ended; an interrupt left work (console or LAN input, a Centrenet message
 * waiting: intr() masks it and says so); the service queued something for the send phase
 * (net_queue, a msg's start and console output for the master set kernel_work; the receive
 * phase sets it again while anything is left over); the machine is halting. Otherwise the
 * send and receive phases would find nothing to do. */
static inline int loop_wanted(void) { return loop_flags.any != 0; }

/* ---- trap.c: system calls, faults, interrupts ----
 * A system call's handler: SYSCALL(name) { ... } defines sys_name(t): a body with t and the
 * arguments a1..a6 (d1 d2 d3 a0 a1 a2 as saved in the TCB), inlined into a function of t alone
 * so that a call reads only the arguments it uses (the trap's fast path pushes nothing); it
 * returns the result, or blocks t and returns anything. */
typedef int32_t syscall_fn(struct tcb *t);
#define SYSCALL(name)                                                                             \
  static inline __attribute__((always_inline)) int32_t sys_##name##_body(                        \
      struct tcb *t, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5, uint32_t a6); \
  int32_t sys_##name(struct tcb *t) {                                                             \
    const uint32_t *r_ = t->ctx.regs;                                                                 \
    return sys_##name##_body(t, r_[1], r_[2], r_[3], r_[8], r_[9], r_[10]);                       \
  }                                                                                               \
  static inline __attribute__((always_inline)) int32_t sys_##name##_body(                        \
      struct tcb *t __attribute__((unused)), uint32_t a1 __attribute__((unused)),                 \
      uint32_t a2 __attribute__((unused)), uint32_t a3 __attribute__((unused)),                   \
      uint32_t a4 __attribute__((unused)), uint32_t a5 __attribute__((unused)),                   \
      uint32_t a6 __attribute__((unused)))
void service(struct tcb *t, uint32_t vector);
struct tcb *trap_fast(struct tcb *t);      /* entry.S: a system call at its trap; the thread to enter or NULL */
struct tcb *trap_finish(struct tcb *t, int32_t result); /* entry.S: after its handler, the same */
extern syscall_fn *const syscall_table[TOS_SYSCALL_COUNT];
void intr(uint32_t vector);                 /* a device interrupt (any mode) */
void dev_intr(void);                        /* kernel/dev.c: a user device's interrupt */
void kernel_fault(uint32_t *regs);          /* d0-d7/a0-a7 then the frame */

/* ---- timer.c ---- */
void timer_init(void);
void timer_intr(void);
uint32_t uptime_us(void);

/* ---- event.c: instrumentation (section 2.2.3) ---- */
extern uint16_t dgl;
extern int have_smi;
static inline void send_event(uint16_t n) { REG16(TB_MON_SMI_EVENT) = n; }
#define EVENT(cls, n) do { if (dgl & (cls)) send_event(n); } while (0)
/* An event and its argument are two stores: with interrupts on between them, an interrupt's
 * own event (the timer's TICK) landed between the pair and the decoder read the rest of the
 * board's stream shifted by one word (the remote experiment's trace lost every message's phases
 * so). The pair goes out with interrupts masked. */
#define EVENT2(cls, n, w)                    \
  do {                                       \
    if (dgl & (cls)) {                       \
      uint16_t event_sr_ = splhigh_inline(); \
      send_event(n);                         \
      send_event(w);                         \
      splx_inline(event_sr_);                \
    }                                        \
  } while (0)
void event_init(void);
uint32_t events_lost(void);

/* ---- boot.c: the boot script ---- */
void boot_start(void);
void boot_service(void);
int boot_done(void);

#endif
