/* TOS kernel entry: the vector table, reset, the one exception entry, and the switch between
 * the kernel's main loop and a user thread.
 *
 * Every vector but reset and the two traps of the ABI points at `exception`. The 68010's frame
 * carries its vector number, so one entry serves them all:
 *  - from user mode: the thread's registers, USP and exception frame are saved in its TCB
 *    (`current`). A system call (TRAP #0, `syscall`) is served at once, on the kernel stack
 *    where it stands (trap_fast, trap.c): when it completed and nothing waits for the main
 *    loop, the thread goes straight back (RTE), and a yield (TRAP #1, `yield`) goes straight to
 *    the thread the scheduler chose (with every event class off, chosen here). A call keeps
 *    the C ABI's callee-saved registers only (tos.toml): d1/a0/a1 are not kept;
 *    otherwise, and for every other exception, the frame is
 *    popped and run_user() returns to the main loop with the vector number. The thread goes on
 *    later by run_user(), which pushes the saved frame back and RTEs (a $8 bus-error frame
 *    too: the 68010 reruns the faulted cycle).
 *  - from supervisor mode: an interrupt is handled in place (intr) and RTEs; anything else is
 *    a kernel fault (kernel_fault: register dump, the board halts). */
#include <testbed/memory_map.h>
#include <testbed/tos.h>

#include "asm_offsets.h"   /* T_* and P_*: struct tcb and struct proc offsets, generated (asm_offsets.c) */

    .section .vectors,"a"
    .globl vectors
vectors:
    .long TOS_KERNEL_STACK_TOP
    .long _start
    .rept 30+TOS_SYSCALL_TRAP
    .long exception
    .endr
    .long syscall               /* TRAP #TOS_SYSCALL_TRAP: a system call */
    .long yield                 /* TRAP #TOS_YIELD_TRAP: yield, the call a thread switch is made of */
    .rept 254-32-TOS_SYSCALL_TRAP
    .long exception
    .endr
    .if TOS_YIELD_TRAP != TOS_SYSCALL_TRAP + 1
    .error "the vector table has the yield trap next to the system call trap (tos.toml)"
    .endif

    .section .text.start,"ax"
    .globl _start
_start:
    move.w  #0x2700,%sr
    move.l  #TOS_KERNEL_STACK_TOP,%sp
    lea     __bss_start,%a0
    lea     __bss_end,%a1
1:  cmp.l   %a1,%a0
    bcc.s   2f
    clr.l   (%a0)+
    bra.s   1b
2:  jsr     kmain
3:  bra.s   3b

    .text
/* uint32_t run_user(struct tcb *t) */
    .globl run_user
run_user:
    movem.l %d2-%d7/%a2-%a6,-(%sp)
    move.l  %sp,kernel_sp:w
    move.l  48(%sp),%a0
    move.l  %a0,current:w
resume:                             /* a0: the thread to enter; the stack as run_user left it */
    move.w  #0x2700,%sr             /* no interrupt between the frame and the RTE */
resume_off:
    move.l  T_USP(%a0),%a1
    move.l  %a1,%usp
    move.w  T_FLEN(%a0),%d0         /* push the saved frame back, last word first */
    cmp.w   #8,%d0
    bne.s   3f
    move.l  T_FRAME+4(%a0),-(%sp)   /* format $0 (a trap, an interrupt): two long words */
    move.l  T_FRAME(%a0),-(%sp)
    movem.l T_REGS(%a0),%d0-%d7/%a0-%a6
rte_thread1:                        /* into a thread: a fault here is the thread's (kfault) */
    rte
3:  lea     T_FRAME(%a0,%d0.w),%a1
    lsr.w   #1,%d0
    subq.w  #1,%d0
4:  move.w  -(%a1),-(%sp)
    dbra    %d0,4b
    /* A thread that runs has a frame length of 8 in its TCB: a trap, which enters by a format $0
     * frame, need not write it on every way in (issue 32). Should this RTE fault, kfault puts
     * the $8 frame's length back. */
    move.w  #8,T_FLEN(%a0)
    movem.l T_REGS(%a0),%d0-%d7/%a0-%a6
rte_thread2:                        /* into a thread: a fault here is the thread's (kfault) */
    rte

    .globl syscall
syscall:
    btst    #5,(%sp)                /* S bit of the stacked SR: the kernel makes no calls */
    bne     from_kernel
sys_general:                        /* (a yield with events on comes in here, its number in d0) */
    move.l  %a0,-(%sp)
    move.l  current:w,%a0
    /* Into the TCB: the registers a call reads (d0-d3, a0-a2: its number and arguments), the
     * USP and the frame (a call may move the PC back; migrate packs it). d4-d7 and a3-a6 are
     * callee-saved in C, so they are still the thread's when the call returns: they go into the
     * TCB only when the thread does not go straight back. migrate packs the whole context during
     * the call: it gets everything saved now. */
    cmp.l   #SYS_MIGRATE,%d0
    beq.s   1f
    movem.l %d0-%d3,T_REGS(%a0)     /* (MOVEM stores its list contiguously: two of them) */
    movem.l %a1-%a2,T_REGS+36(%a0)
    bra.s   2f
1:  movem.l %d0-%d7/%a0-%a6,T_REGS(%a0)
2:  move.l  (%sp)+,T_REGS+32(%a0)   /* the thread's own a0 */
    move.l  %usp,%a1
    move.l  %a1,T_USP(%a0)
    move.l  (%sp),T_FRAME(%a0)      /* (its length is 8 already: resume) */
    move.l  4(%sp),T_FRAME+4(%a0)
sys_saved:                          /* (a yield that needs C comes in here) */
    move.l  %a0,-(%sp)
    /* The common case, without C around it (issue 32): no event class on, a number with a
     * handler. Events on (TRAP7 and the phases are written before the call) or an unknown
     * number: trap_fast does it all. */
    tst.w   dgl:w
    bne.s   3f
    cmp.l   #TOS_SYSCALL_COUNT,%d0
    bcc.s   3f
    add.w   %d0,%d0
    add.w   %d0,%d0
    lea     syscall_table:w,%a1
    move.l  (%a1,%d0.w),%d1
    beq.s   3f
    move.l  %d1,%a1
    jsr     (%a1)                   /* sys_<name>(t): the result in d0 */
    move.l  current:w,%a0           /* t (not from its argument slot: C may reuse that) */
    tst.w   dgl:w                   /* the call turned events on: USER_ON is written (trap_finish) */
    bne.s   4f
    cmp.b   #T_RUNNING_STATE,T_STATE(%a0)
    bne.s   4f                      /* blocked or yielded: trap_finish (the scheduler's choice) */
    move.l  %d0,T_REGS(%a0)         /* the result, where a later look at the TCB finds it */
    move.w  %sr,%d1                 /* (the level the call left, for the loop's way) */
    move.w  #0x2700,%sr             /* no interrupt between the last look and the RTE */
    tst.l   loop_flags:w            /* loop_wanted(), defs.h: slice over, kernel work, halting */
    bne.s   5f
    addq.l  #4,%sp
    moveq   #0,%d1                  /* the scratch registers C used: the ABI does not keep them, */
    move.l  %d1,%a1                 /* and what the kernel left there is none of the thread's */
    move.l  %d1,%a0                 /* business (d0 is the result) */
rte_thread3:                        /* into a thread: a fault here is the thread's (kfault) */
    rte
5:  move.w  %d1,%sr
4:  move.l  %d0,(%sp)              /* trap_finish(t, result) */
    move.l  current:w,-(%sp)
    jsr     trap_finish
    addq.l  #4,%sp
    bra.s   6f
3:  jsr     trap_fast               /* the thread to enter (interrupts off), or 0: the loop */
6:  addq.l  #4,%sp
    move.l  current:w,%a1
    tst.l   %d0
    beq.s   call_to_loop
    move.l  %d0,%a0
    cmp.l   %a1,%a0
    bne.s   8f
    /* The same thread goes on: the registers C may have used come back from the TCB (d0: the
     * result), the rest never left; its frame is the one on the stack (a call that changed its
     * own thread's frame has blocked it: remote_fetch). */
    move.l  T_REGS(%a0),%d0
    move.l  T_REGS+4(%a0),%d1
    move.l  T_REGS+36(%a0),%a1
    move.l  T_REGS+32(%a0),%a0
rte_thread4:                        /* into a thread: a fault here is the thread's (kfault) */
    rte
8:  movem.l %d4-%d7,T_REGS+16(%a1)  /* another thread (a yield): the rest of this one's */
    movem.l %a3-%a6,T_REGS+44(%a1)
    addq.l  #8,%sp
    move.l  %a0,current:w
    bra     resume
call_to_loop:                       /* served: the loop goes on (its vector: the call's) */
    movem.l %d4-%d7,T_REGS+16(%a1)
    movem.l %a3-%a6,T_REGS+44(%a1)
    addq.l  #8,%sp
    moveq   #32+TOS_SYSCALL_TRAP,%d0
    bra.s   9f

    .globl exception
exception:
    btst    #5,(%sp)                /* S bit of the stacked SR */
    bne     from_kernel
    /* From a user thread, a fault or an interrupt: its whole context into its TCB. */
    move.l  %a0,-(%sp)
    move.l  current:w,%a0
save_all:                           /* a fault or an interrupt */
    movem.l %d0-%d7/%a0-%a6,T_REGS(%a0)
    move.l  (%sp)+,T_REGS+32(%a0)   /* the thread's own a0 */
    move.l  %usp,%a1
    move.l  %a1,T_USP(%a0)
to_loop:
    move.w  6(%sp),%d1              /* format/vector word */
    moveq   #8,%d0                  /* format $0: 4 words */
    btst    #15,%d1
    beq.s   5f
    moveq   #58,%d0                 /* format $8: 29 words */
5:  move.w  %d0,T_FLEN(%a0)
    lea     T_FRAME(%a0),%a1
    lsr.w   #1,%d0
    subq.w  #1,%d0
6:  move.w  (%sp)+,(%a1)+           /* copy and pop the frame */
    dbra    %d0,6b
    and.l   #0x0FFF,%d1
    lsr.l   #2,%d1
    move.l  %d1,%d0                 /* run_user's result: the vector */
9:  move.l  kernel_sp:w,%sp
    movem.l (%sp)+,%d2-%d7/%a2-%a6
    rts                             /* SR keeps the exception's IPL: the loop lowers it */

from_kernel:
    move.l  %d0,-(%sp)
    move.w  4+6(%sp),%d0
    and.w   #0x0FFF,%d0
    lsr.w   #2,%d0
    cmp.w   #24,%d0
    blo.s   kfault
    cmp.w   #31,%d0
    bhi.s   kfault
    movem.l %d1/%a0-%a1,-(%sp)      /* the C ABI's scratch registers */
    and.l   #0xFF,%d0
    move.l  %d0,-(%sp)
    jsr     intr
    addq.l  #4,%sp
    movem.l (%sp)+,%d1/%a0-%a1
    move.l  (%sp)+,%d0
    rte
kfault:
    tst.b   dev_probing             /* a user device refused dev_io's access (kernel/dev_io.S) */
    bne     dev_io_fault
    /* The RTE into a thread faulted (its PC or first instruction words on a page that is not
     * mapped: gone since it last ran, say): the 68010 takes that in supervisor mode, with the
     * RTE's own address as the PC to rerun (it is rolled back), but it is the thread's fault.
     * Its frame is still in its TCB, and so are its registers but the callee-saved ones a call
     * done at once never stored (they are still the thread's here): run_user() returns the
     * vector, as for a fault in user mode, and the thread's process is dealt with. Which RTE
     * faulted is in the frame: no flag is written on every way in and out of a thread. */
    cmp.l   #rte_thread1,4+2(%sp)
    beq.s   9f
    cmp.l   #rte_thread2,4+2(%sp)
    beq.s   10f
    cmp.l   #rte_thread3,4+2(%sp)
    beq.s   9f
    cmp.l   #rte_thread4,4+2(%sp)
    beq.s   9f
    cmp.l   #rte_thread5,4+2(%sp)
    bne.s   8f
10: move.l  current:w,%a0           /* its $8 frame is still in its TCB: its length too */
    move.w  #58,T_FLEN(%a0)         /* (FRAME_MAX, defs.h: format $8, 29 words) */
9:  move.l  current:w,%a0
    movem.l %d4-%d7,T_REGS+16(%a0)
    movem.l %a3-%a6,T_REGS+44(%a0)
    and.l   #0xFF,%d0
    move.l  kernel_sp:w,%sp
    movem.l (%sp)+,%d2-%d7/%a2-%a6
    rts
8:  move.l  (%sp)+,%d0
    movem.l %d0-%d7/%a0-%a7,-(%sp)
    move.l  %sp,-(%sp)
    jsr     kernel_fault
7:  bra.s   7b

/* A yield (issue 32: "a yield is a choice of TCB plus a register restore"): when no event class
 * is on and the main loop has nothing to do, the scheduler's choice (thread.c: thread_yield,
 * then choose() and next_in_turn(), with the same queue order, slice owner, turn and counters)
 * is made here and the chosen thread entered by `resume`. Anything else takes the C path, with
 * nothing changed yet: events on, loop work pending, a caller that does not own the slice (the
 * owner's rest of slice comes first), a chosen process that is not foreground or background
 * (the C rotation skips it) or is a guest (its code page may have to come first). The thread
 * goes to the tail of its process's queue, as thread_yield() puts it; its d0-d1/a0-a1 are not
 * kept (a call's scratch registers, the ABI: tos.toml). A thread of another process
 * costs one more compare and a write of the MMU's ASID: no reason to leave that to C. */
y_rotate:                           /* next_in_turn(): the lowest ready pid from turn + 1, else the lowest */
    move.l  sched_turn:w,%d1
    addq.w  #1,%d1
    and.w   #15,%d1
    add.w   %d1,%d1
    lea     sched_from_pid:w,%a2
    move.w  (%a2,%d1.w),%d2
    and.w   %d0,%d2
    bne.s   6f
    move.w  %d0,%d2
6:  lea     sched_low_bit:w,%a2
    moveq   #0,%d1
    move.b  %d2,%d1
    beq.s   7f
    move.b  (%a2,%d1.w),%d1
    bra.s   8f
7:  lsr.w   #8,%d2
    move.b  %d2,%d1
    move.b  (%a2,%d1.w),%d1
    addq.w  #8,%d1
8:  move.w  %d1,%d2
    add.w   %d2,%d2
    add.w   %d2,%d2
    lea     sched_proc_at:w,%a2
    move.l  (%a2,%d2.w),%a2
    bra     y_chosen
y_c:                                /* the C path, nothing changed: the level as the trap left it */
    move.w  (%sp),%d0
    and.w   #0x0700,%d0
    or.w    #0x2000,%d0
    move.w  %d0,%sr
    moveq   #SYS_YIELD,%d0          /* the call, where trap_fast reads it (it takes no argument) */
    move.l  %d0,T_REGS(%a0)
    move.l  T_REGS+8(%a0),%d2       /* the callee-saved registers used above, back as the thread had them */
    move.l  T_REGS+40(%a0),%a2
    bra     sys_saved
y_kernel:
    bra     from_kernel
y_events:                           /* as TRAP #0 with d0 = SYS_YIELD */
    moveq   #SYS_YIELD,%d0
    bra     sys_general

yield:                              /* TRAP #TOS_YIELD_TRAP */
    btst    #5,(%sp)                /* S bit of the stacked SR: the kernel makes no calls */
    bne.s   y_kernel
    tst.w   dgl:w                   /* events on: the call's C path writes them */
    bne.s   y_events
    /* A yield is a call: the C ABI's scratch registers (d0-d1/a0-a1) are the caller's to lose
     * (the ABI, tos.toml), so only the callee-saved ones go into the TCB. Every way back into
     * a thread reloads all fifteen: a thread that yielded gets its own older values of the
     * scratch four (no other thread's, no kernel's), one that was preempted all of its own. */
    move.l  current:w,%a0
    movem.l %d2-%d7,T_REGS+8(%a0)   /* (MOVEM stores its list contiguously: two of them) */
    movem.l %a2-%a6,T_REGS+40(%a0)
    move.l  %usp,%a1
    move.l  %a1,T_USP(%a0)
    move.l  (%sp),T_FRAME(%a0)      /* (its length is 8 already: resume) */
    move.l  4(%sp),T_FRAME+4(%a0)
    move.w  #0x2700,%sr             /* as trap_finish: the last look at the loop's flags, then the RTE */
    tst.l   loop_flags:w            /* loop_wanted(): the C path (the loop runs) */
    bne.s   y_c
    cmp.l   sched_slice_owner:w,%a0 /* not its slice: choose() may give another thread the rest of its own */
    bne.s   y_c
    move.l  T_PROC(%a0),%a1         /* a1: p, t's process */
    moveq   #0,%d1
    move.b  P_PID(%a1),%d1
    move.l  sched_rq_procs:w,%d0
    bclr    %d1,%d0
    tst.l   %d0                     /* another process with a ready thread: the turn decides */
    bne.s   y_others
    /* Only p: its head after t joins it (the common case, written out: p's bit is set while its
     * queue is not empty, and the MMU already translates p's space, as t runs in it). A thread
     * that runs is unlinked (next and prev NULL: rq_unlink, or y_go's unlink, made it run) and
     * counted in RQ-LENGTH (rq_counted: it was when it was queued), so ready(t) here writes only
     * its state and the links that change. */
    move.b  (%a1),%d2
    subq.b  #P_FOREGROUND,%d2
    cmp.b   #P_BACKGROUND-P_FOREGROUND,%d2
    bhi.s   y_cs
    tst.b   P_GUEST(%a1)
    bne.s   y_cs
    move.l  P_RQ_HEAD(%a1),%d2
    beq.s   y_alone                 /* t alone: it goes on, as the C path has it */
    move.l  %d2,%a3                 /* a3: the head, the thread chosen */
    move.b  #T_READY_STATE,T_STATE(%a0)
    move.l  T_NEXT(%a3),%d2
    bne.s   1f
    move.l  %a0,P_RQ_HEAD(%a1)      /* the head was p's only ready thread: now t is (two threads */
    move.l  %a0,P_RQ_TAIL(%a1)      /* taking turns: the head's links are NULL already) */
    bra     y_book
y_cs:                               /* (a short branch's reach from the checks above) */
    bra     y_c
1:  move.l  %d2,%a4                 /* rq_unlink(the head): its next becomes the head */
    move.l  %d2,P_RQ_HEAD(%a1)
    clr.l   T_PREV(%a4)
    clr.l   T_NEXT(%a3)
    move.l  P_RQ_TAIL(%a1),%a4      /* t to the tail */
    move.l  %a0,T_NEXT(%a4)
    move.l  %a4,T_PREV(%a0)
    move.l  %a0,P_RQ_TAIL(%a1)
    bra     y_book
y_alone:
    move.l  %a0,%a3
    bra     y_book
y_others:
    bset    %d1,%d0                 /* d0: the ready processes once t is queued (ready()) */
    bra     y_rotate
y_chosen:                           /* a2: q, the process chosen; d1: its pid; d0: the ready set */
    move.b  P_STATE(%a2),%d2
    subq.b  #P_FOREGROUND,%d2
    cmp.b   #P_BACKGROUND-P_FOREGROUND,%d2
    bhi     y_c                     /* suspended or ending: the C rotation looks further */
    tst.b   P_GUEST(%a2)
    bne     y_c                     /* schedule_yield's remote_prefetch */
    /* Decided: from here on as the C path would have it. ready(t): the tail of p's queue. */
y_go:                               /* (t's next is NULL and it is counted: as above) */
    move.b  #T_READY_STATE,T_STATE(%a0)
    move.l  P_RQ_TAIL(%a1),%d2
    move.l  %d2,T_PREV(%a0)
    beq.s   1f
    move.l  %d2,%a3
    move.l  %a0,T_NEXT(%a3)
    bra.s   2f
1:  move.l  %a0,P_RQ_HEAD(%a1)
2:  move.l  %a0,P_RQ_TAIL(%a1)
    /* rq_unlink(q's head): t itself when it is alone */
    move.l  P_RQ_HEAD(%a2),%a3
    move.l  T_NEXT(%a3),%d2
    move.l  %d2,P_RQ_HEAD(%a2)
    beq.s   3f
    move.l  %d2,%a4
    clr.l   T_PREV(%a4)
    bra.s   4f
3:  clr.l   P_RQ_TAIL(%a2)
    bclr    %d1,%d0                 /* q's queue is empty now */
4:  clr.l   T_NEXT(%a3)             /* (its prev is NULL: it was the head) */
    move.l  %d0,sched_rq_procs:w
    cmp.w   vm_asid:w,%d1           /* vm_activate() */
    beq.s   y_book
    move.w  %d1,vm_asid:w
    move.w  %d1,TB_MMU_ASID
y_book:                             /* a3: the thread chosen; d1: its pid */
    move.l  %d1,sched_turn:w        /* choose(): its slice begins (slice_over is 0: loop_flags) */
    move.l  %a3,sched_slice_owner:w
    addq.l  #1,switches:w
    addq.l  #1,T_CPU_SLICES(%a3)
    move.b  #T_RUNNING_STATE,T_STATE(%a3)
    move.l  %a3,current:w
    cmp.w   #8,T_FLEN(%a3)
    bne.s   9f
    move.l  T_USP(%a3),%a1          /* resume's, with its frame over t's (which is in t's TCB) */
    move.l  %a1,%usp
    move.l  T_FRAME(%a3),(%sp)      /* SR and PC: the format word there is t's trap's, format $0 */
    move.w  T_FRAME+4(%a3),4(%sp)   /* (RTE reads no more of it; the vector number does not matter) */
    movem.l T_REGS(%a3),%d0-%d7/%a0-%a6
rte_thread5:                        /* into a thread: a fault here is the thread's (kfault) */
    rte
9:  addq.l  #8,%sp                  /* a longer frame (a bus error's): resume pushes it */
    move.l  %a3,%a0
    bra     resume_off
/* void set_vbr(const void *table): region.c runs a migrated computation with a copy of the
 * table whose two call traps go to `exception` (to the kernel's loop, not to a call's handler):
 * such a computation is no thread, and makes no calls. */
    .globl set_vbr
set_vbr:
    move.l  4(%sp),%d0
    movec   %d0,%vbr
    rts

    .globl cpu_idle
cpu_idle:
    stop    #0x2000
    rts

    .globl spl0
spl0:
    move.w  #0x2000,%sr
    rts

    .globl splhigh
splhigh:
    move.w  %sr,%d0
    move.w  #0x2700,%sr
    rts

    .globl splx
splx:
    move.w  6(%sp),%sr
    rts

    .section .hot,"aw"              /* (below 32 KB: kernel.ld) */
    .globl current
    .even
current:    .long 0
kernel_sp:  .long 0
