/* For the simulator's gdb stub (sim/gdb, README "Debugging with gdb"): where this kernel keeps
 * what gdb's `info threads` shows, so that the stub follows struct tcb and struct proc of
 * defs.h as they are compiled. Read-only data; nothing in the kernel uses it. The stub reads it
 * with the symbols `procs` and `current`; version 1: the words below, in this order. */
#include "defs.h"

const uint32_t tos_gdb_info[] = {
    1,                                        /* version of this table */
    sizeof(struct tcb),
    __builtin_offsetof(struct tcb, ctx.regs),     /* d0-d7, a0-a6 */
    __builtin_offsetof(struct tcb, ctx.usp),
    __builtin_offsetof(struct tcb, ctx.frame),    /* SR, PC, format/vector */
    __builtin_offsetof(struct tcb, proc),
    __builtin_offsetof(struct tcb, tid),      /* 16 bits */
    __builtin_offsetof(struct tcb, state),    /* 8 bits, enum tos_tstate */
    __builtin_offsetof(struct tcb, ctx.user_id),
    sizeof(struct proc),
    __builtin_offsetof(struct proc, state),   /* 8 bits, enum tos_pstate */
    __builtin_offsetof(struct proc, pid),     /* 8 bits */
    __builtin_offsetof(struct proc, name),
    __builtin_offsetof(struct proc, slots),
    __builtin_offsetof(struct proc, ptable),
    TOS_MAX_PROCESSES,
    TOS_MAX_THREADS,
    PROC_NAME_LEN,
    TOS_USER_PAGES,
};
