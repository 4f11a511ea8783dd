/* The service phase: what a thread asked for (TRAP #0) or what went wrong with it (a fault),
 * and the device interrupts. System call numbers and error codes come from tos.toml. */
#include "defs.h"

void console_intr(void);

/* A device interrupt, from the main loop (the thread's run was cut short) or in place. It
 * serves every pending source whatever its level, so it runs with all interrupts off: a timer
 * interrupt (IPL 6) inside a serial handler (IPL 3) would otherwise run that handler again in
 * the middle of itself (two writes to a busy transmitter: a character lost). */
void intr(uint32_t vector) {
  uint16_t sr = splhigh();
  uint16_t pending = REG16(TB_INTC_PENDING) & REG16(TB_INTC_ENABLE);
  (void)vector;
  if (pending & TB_INTC_PENDING_TIMER) timer_intr();
  if (pending & TB_INTC_PENDING_SERIAL0) console_intr();
  if (pending & TB_INTC_PENDING_SERIAL1) lan_intr();
  if (pending & TB_INTC_PENDING_DEV) dev_intr(); /* kernel/dev.c: counted, the line off until re-armed */
  if (pending & TB_INTC_PENDING_NET) { /* level while messages wait: off until the receive phase */
    REG16(TB_INTC_ENABLE) &= (uint16_t)~TB_INTC_ENABLE_NET;
    kernel_work = 1; /* the next trap goes round the loop (loop_wanted) */
  }
  splx(sr);
}

static const char *fault_name(uint32_t v) {
  switch (v) {
    case 2: return "bus error";
    case 3: return "address error";
    case 4: return "illegal instruction";
    case 5: return "divide by zero";
    case 6: return "CHK out of bounds";
    case 7: return "TRAPV overflow";
    case 8: return "privilege violation";
    case 9: return "trace";
    case 10: return "line-A instruction";
    case 11: return "line-F instruction";
    case 14: return "format error";
    default: return v >= 32 && v < 48 ? "unassigned trap" : "unexpected exception";
  }
}

static uint32_t frame_pc(const struct tcb *t) {
  uint32_t pc;
  memcpy(&pc, &t->ctx.frame[2], 4);
  return pc;
}

/* The stack has overflowed: an access below the thread's stack, in its window (down to the
 * guard page at the window's foot), or below its stack and at most a page below its stack
 * pointer, wherever that now is: a frame larger than what is left (big local arrays) moves the
 * stack pointer out of the window, even below every window, before its first access. */
static int stack_overflow(const struct tcb *t, uint32_t addr) {
  uint32_t top = thread_window_top(t->slot), lo = top - t->ctx.stack_pages * TOS_PAGE_SIZE;
  if (addr < lo && addr >= top - TOS_STACK_WINDOW) return 1;
  return addr < lo && t->ctx.usp <= top && addr + TOS_PAGE_SIZE >= t->ctx.usp;
}

/* A user thread's fault ends its process, with all its threads on every board: where the thread
 * is a guest the home is told (remote_fault), which removes the process everywhere. The one way
 * a fault ends a process (user_fault, remote_fault_report). */
static void fault_ends_process(struct tcb *t, int32_t code) {
  EVENT2(DGL_PROFILE, EV_FAULT, t->tid);
  if (t->proc->guest) remote_fault(t->proc, code);
  proc_kill(t->proc, code);
}

/* A user thread faulted: report it in one line and remove its process. `who` names what ran:
 * a thread, or a migrated computation run without one (oam_fault). */
static void fault_report(struct tcb *t, uint32_t vector, const char *who) {
  uint32_t addr = 0;
  const char *why = "";
  if (vector == 2 || vector == 3) { /* format $8 frame: the fault address at +10 */
    memcpy(&addr, &t->ctx.frame[10], 4);
    uint16_t st = REG16(TB_MMU_FAULT_STATUS);
    if (vector == 2 && (st & TB_MMU_FAULT_STATUS_VALID)) {
      addr = REG32(TB_MMU_FAULT_ADDR);
      uint32_t reason = (st & TB_MMU_FAULT_STATUS_REASON) >> TB_MMU_FAULT_STATUS_REASON_SHIFT;
      why = reason == TB_MMU_FAULT_STATUS_REASON_READ_ONLY ? " (write to a read-only page)"
            : reason == TB_MMU_FAULT_STATUS_REASON_UNMAPPED ? " (unmapped page)"
                                                             : " (not a user page)";
      if (reason == TB_MMU_FAULT_STATUS_REASON_UNMAPPED && stack_overflow(t, addr)) why = " (stack overflow)";
      REG16(TB_MMU_FAULT_STATUS) = 0;
    }
  }
  kprintf("tos: %s: process %u (%s) %s %x: %s at pc 0x%x address 0x%x%s: process removed\n",
          board_name, t->proc->pid, t->proc->name, who, t->tid, fault_name(vector), frame_pc(t), addr, why);
  fault_ends_process(t, -(int32_t)(0x100 + vector));
}
static void user_fault(struct tcb *t, uint32_t vector) { fault_report(t, vector, "thread"); }

/* A migrated computation run as an optimistic active message (region.c) faulted: user code of
 * the process, run in user mode in its address space, so the fault is the process's, as any of
 * its threads' would be. `h` holds the handler's context and the caller's TID. */
void oam_fault(struct tcb *h, uint32_t vector) { fault_report(h, vector, "migrated computation of thread"); }

/* System calls: one handler per call, sys_<name>, defined by the module that owns it; the
 * table is built from tos.toml's list (a call without a handler does not link). The test-only
 * calls (net_inject: a raw kernel message) exist only in the test kernel, tos-test.elf: in
 * tos.elf, the kernel users run, their numbers answer ENOSYS like any unknown call.
 * A call tos.toml marks "privileged" is entered through its gate, which refuses every other
 * caller with EPERM before the call runs (privilege.c decides); the other calls are entered
 * directly, so the check costs them nothing. */
#define X(name, number, nargs, privilege) syscall_fn sys_##name;
TOS_SYSCALL_LIST(X)
#ifdef TOS_TEST_CALLS
TOS_TEST_SYSCALL_LIST(X)
#endif
#undef X
#define GATE_ANY(name)
#define GATE_OWN(name)
#define GATE_OWNER(name)
#define GATE_PRIVILEGED_TO_SET(name)
#define GATE_PRIVILEGED(name) \
  static int32_t gate_##name(struct tcb *t) { return proc_privileged(t->proc) ? sys_##name(t) : -TOS_EPERM; }
#define X(name, number, nargs, privilege) GATE_##privilege(name)
TOS_SYSCALL_LIST(X)
#ifdef TOS_TEST_CALLS
TOS_TEST_SYSCALL_LIST(X)
#endif
#undef X
#define ENTRY_ANY(name) sys_##name
#define ENTRY_OWN(name) sys_##name
#define ENTRY_OWNER(name) sys_##name
#define ENTRY_PRIVILEGED_TO_SET(name) sys_##name
#define ENTRY_PRIVILEGED(name) gate_##name
syscall_fn *const syscall_table[TOS_SYSCALL_COUNT] KERNEL_HOT_CONST = { /* entry.S's fast path indexes it too */
#define X(name, number, nargs, privilege) [number] = ENTRY_##privilege(name),
    TOS_SYSCALL_LIST(X)
#ifdef TOS_TEST_CALLS
    TOS_TEST_SYSCALL_LIST(X)
#endif
#undef X
};

SYSCALL(info) {
  switch (a1) {
    case TOS_INFO_FREE_FRAMES: return (int32_t)frames_free();
    case TOS_INFO_TOTAL_FRAMES: return (int32_t)frames_total();
    case TOS_INFO_FREE_TCBS: return (int32_t)tcbs_free();
    case TOS_INFO_PROCS: return nprocs; /* alive or not yet collected */
    case TOS_INFO_BOARD: return board_id;
    case TOS_INFO_BOARDS: return (int32_t)nboards;
    case TOS_INFO_SWITCHES: return (int32_t)switches;
    case TOS_INFO_EVENTS_LOST: return (int32_t)events_lost();
    case TOS_INFO_MASTER: return board_master;
    case TOS_INFO_NET_REFUSED: return (int32_t)net_refused_total;
    case TOS_INFO_RGN_STALE: return (int32_t)region_stale;
  }
  return -TOS_EINVAL;
}

SYSCALL(time) {
  return (int32_t)uptime_us();
}

/* A system call, served where it was taken (entry.S), on the kernel stack: the report's
 * service phase. d0 holds the number; d1 d2 d3 a0 a1 a2 the arguments (SYSCALL reads them from
 * the TCB). TRAP7 marks the transition from user to system mode for a request to communicate
 * (Figure 5's vertex 2), so it is written here, before anything else is done. A call done at
 * once leaves its result in d0; then, unless the main loop has something to do (loop_wanted),
 * the thread goes straight back to its slice, and a yield or a call that blocks (a channel,
 * wait, a barrier) straight to the scheduler's next choice: no queue is polled for nothing.
 * The thread to enter is returned with interrupts off (its RTE turns them on), or NULL, with
 * the level as it was: the main loop takes over.
 *
 * entry.S does the common case itself when no event class is on (dgl 0): the table's handler,
 * then, for a thread still running with nothing for the loop, its registers back and RTE;
 * anything else comes here (trap_fast, events on or a number without a handler) or to
 * trap_finish (the call blocked or yielded, the loop has work, or the call turned events on). */
static void trap_events(uint32_t n) { /* some class is on */
  if (n == SYS_SEND || n == SYS_RECEIVE) EVENT(DGL_COMMS, EV_TRAP7);
  EVENT(DGL_CPU, EV_USER_OFF);
  EVENT(DGL_PHASE, EV_PHASE_SERVICE);
  EVENT2(DGL_PROFILE, EV_SYSCALL, n);
}

struct tcb *trap_fast(struct tcb *t) {
  uint32_t n = t->ctx.regs[TCB_REGS_D0];
  if (dgl) trap_events(n);
  syscall_fn *f = n < TOS_SYSCALL_COUNT ? syscall_table[n] : NULL;
  return trap_finish(t, f ? f(t) : -TOS_ENOSYS);
}

struct tcb *trap_finish(struct tcb *t, int32_t result) {
  int running = t->state == T_RUNNING;
  if (running) t->ctx.regs[TCB_REGS_D0] = (uint32_t)result;
  uint16_t sr = splhigh_inline();
  if (loop_wanted()) {
    splx_inline(sr);
    return NULL;
  }
  if (!running) {
    /* Yielded, or blocked on a channel, a child, a process or a barrier: with nothing for the
     * loop, its pass would poll every queue for nothing and then choose as the scheduler does
     * here (the 10 MHz 68010 spent about 8,000 cycles on such a pass: one each blocking call).
     * Any other state (ended, away, waiting for a device or a page) goes round the loop. */
    int blocked = t->state == T_SEND || t->state == T_RECV || t->state == T_WAIT || t->state == T_PWAIT ||
                  t->state == T_BARRIER;
    if (blocked) rq_blocked(t);
    if ((!blocked && t->state != T_READY) || !(t = schedule_yield())) { /* the loop; or nothing ready */
      splx_inline(sr);
      return NULL;
    }
    if (dgl) EVENT(DGL_PHASE, EV_PHASE_SCHEDULE);
  }
  if (dgl) EVENT(DGL_CPU, EV_USER_ON);
  return t;
}

/* The service phase, for what run_user() brought back to the main loop. A system call has
 * been served already (trap_fast). */
void service(struct tcb *t, uint32_t vector) {
  if (vector >= 24 && vector <= 31) { /* its slice ended */
    EVENT(DGL_PROFILE, EV_PREEMPT);
    ready(t);
    return;
  }
  if (vector == 32 + TOS_SYSCALL_TRAP) {
    if (t->state == T_RUNNING) ready_front(t); /* done at once: the thread keeps the rest of its slice */
    return;
  }
  if (vector == 2) { /* a page elsewhere, or a read copy written: the page protocol (Figure 8) */
    uint16_t st = REG16(TB_MMU_FAULT_STATUS);
    uint32_t reason = (st & TB_MMU_FAULT_STATUS_REASON) >> TB_MMU_FAULT_STATUS_REASON_SHIFT;
    if ((st & TB_MMU_FAULT_STATUS_VALID) &&
        (reason == TB_MMU_FAULT_STATUS_REASON_UNMAPPED || reason == TB_MMU_FAULT_STATUS_REASON_READ_ONLY ||
         reason == TB_MMU_FAULT_STATUS_REASON_NOT_USER) && /* NOT_USER: a frame kept for a send (pages.c) */
        remote_page_fault(t, REG32(TB_MMU_FAULT_ADDR), (st & TB_MMU_FAULT_STATUS_WRITE) != 0)) {
      REG16(TB_MMU_FAULT_STATUS) = 0;
      return;
    }
  }
  user_fault(t, vector);
}

/* A guest thread's page that the home does not have either: the fault it is. */
void remote_fault_report(struct tcb *t, uint32_t va) {
  kprintf("tos: %s: process %u (%s) thread %x: bus error at pc 0x%x address 0x%x (a page no board has): "
          "process removed\n", board_name, t->proc->pid, t->proc->name, t->tid, frame_pc(t), va);
  fault_ends_process(t, -(int32_t)(0x100 + 2));
}

static const char *const reg_names[16] = {"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
                                          "a0", "a1", "a2", "a3", "a4", "a5", "a6", "sp"};

/* An exception in the kernel itself: dump what there is and halt this board only. */
void kernel_fault(uint32_t *regs) {
  const uint8_t *frame = (const uint8_t *)(regs + 16);
  uint16_t sr = (uint16_t)(frame[0] << 8 | frame[1]), fv = (uint16_t)(frame[6] << 8 | frame[7]);
  uint32_t pc;
  memcpy(&pc, frame + 2, 4);
  uint32_t vector = (fv & 0x0FFFu) >> 2;
  kprintf("\ntos: %s: KERNEL FAULT: %s (vector %u) at pc 0x%x sr 0x%x\n", board_name, fault_name(vector),
          vector, pc, sr);
  if (fv >> 12 == 8) {
    uint32_t addr;
    memcpy(&addr, frame + 10, 4);
    kprintf("tos: %s: fault address 0x%x\n", board_name, addr);
  }
  for (int i = 0; i < 16; ++i) kprintf("%s %08x%s", reg_names[i], regs[i], (i & 3) == 3 ? "\n" : "  ");
  kprintf("tos: %s: halted\n", board_name);
  console_flush();
  halt_board(0x200 + vector);
}
