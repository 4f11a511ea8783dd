/* Exception entry points of the board test: bus error (MMU page faults fixed in C, or a probe
 * of an absent device), the timer interrupt (preemptive switch between two tasks), TRAP #0
 * (back from user mode), and the helpers that enter user mode and probe an address. */
#include <testbed/memory_map.h>

    .text
    .globl bus_error_entry, timer_entry, trap0_entry, probe, enter_user, stop_until_interrupt

/* int probe(volatile void *a): 1 if a word read at a answers, 0 on a bus error. */
probe:
    move.l  4(%sp),%a0
    move.l  %sp,probe_sp
    tst.w   (%a0)
    clr.l   probe_sp
    moveq   #1,%d0
    rts

bus_error_entry:
    tst.l   probe_sp
    beq.s   1f
    move.l  probe_sp,%sp        /* drop the format $8 frame: probe() returns 0 */
    clr.l   probe_sp
    moveq   #0,%d0
    rts
1:  movem.l %d0-%d1/%a0-%a1,-(%sp)
    jsr     page_fault          /* 0: fixed, rerun the access; else the failure code */
    tst.l   %d0
    bne.s   2f
    movem.l (%sp)+,%d0-%d1/%a0-%a1
    rte
2:  move.l  %d0,TB_SIMCTL_EXIT
3:  bra.s   3b

/* Level-6 autovector: save the interrupted task, let C pick the next, resume it. */
timer_entry:
    movem.l %d0-%d7/%a0-%a6,-(%sp)
    move.l  %sp,%d0
    move.l  %d0,-(%sp)
    jsr     timer_tick          /* unsigned long timer_tick(unsigned long sp): next task's sp */
    addq.l  #4,%sp
    move.l  %d0,%sp
    movem.l (%sp)+,%d0-%d7/%a0-%a6
    rte

/* void enter_user(void (*fn)(void), unsigned long usp): runs fn in user mode until it
 * executes TRAP #0, then returns. */
enter_user:
    move.l  4(%sp),%a0
    move.l  8(%sp),%a1
    move.l  %a1,%usp
    move.l  %sp,user_return_sp
    clr.w   -(%sp)              /* format 0, vector offset 0 */
    move.l  %a0,-(%sp)          /* PC */
    clr.w   -(%sp)              /* SR: user mode, interrupts enabled */
    rte

trap0_entry:
    move.l  user_return_sp,%sp
    move.w  #0x2700,%sr
    rts

/* Sleeps in STOP (interrupts enabled) until an interrupt has been taken. */
stop_until_interrupt:
    stop    #0x2000
    move.w  #0x2700,%sr
    rts

    .bss
    .align 4
probe_sp:       .space 4
user_return_sp: .space 4
