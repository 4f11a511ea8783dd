#include <testbed/tos.h>
/* User program start-up. The kernel starts the first thread at _start as
 * _start(cmdline, env) with return address 0; __tos_start sets environ from the environment
 * block, splits the command line into argv, calls main and exits with its result. */
    .section .text.start,"ax"
    .globl _start
_start:
    move.l  8(%sp),-(%sp)
    move.l  8(%sp),-(%sp)
    jsr     __tos_start
1:  bra.s   1b

/* Threads return here from their entry function: exit with its result. */
    .text
    .globl __tos_thread_return
__tos_thread_return:
    move.l  %d0,-(%sp)
    jsr     exit
2:  bra.s   2b

/* long __tos_twin(n): process_twin's call. During a call the kernel keeps only the registers
 * a call reads; the twin starts with the caller's copy of this stack, so the callee-saved ones
 * come back from it in both. */
    .globl __tos_twin
__tos_twin:
    movem.l %d2-%d7/%a2-%a6,-(%sp)
    move.l  48(%sp),%d0
    trap    #TOS_SYSCALL_TRAP
    movem.l (%sp)+,%d2-%d7/%a2-%a6
    rts

/* long __tos_syscall(n, a, b, c, d, e, f): TRAP #0 with d0 = n, d1 d2 d3 a0 a1 a2 = a..f */
    .globl __tos_syscall
__tos_syscall:
    movem.l %d2-%d3/%a2,-(%sp)
    movem.l 16(%sp),%d0-%d3/%a0-%a2
    trap    #TOS_SYSCALL_TRAP
    movem.l (%sp)+,%d2-%d3/%a2
    rts
