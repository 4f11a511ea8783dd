/* Minimal start-up for a board image: reset vectors, stack, .bss clear, main(), exit code to
 * the simulator-control port. Vectors other than reset point at a catch-all that reports the
 * vector number as the exit code (so an unexpected exception never passes silently). */
#include <testbed/memory_map.h>
    .section .vectors,"a"
    .long __stack_top
    .long _start
    .rept 254
    .long _unexpected
    .endr

    .section .text.start,"ax"
    .globl _start
_start:
    move.w  #0x2700,%sr
    move.l  #__stack_top,%sp
    lea     __bss_start,%a0
    lea     __bss_end,%a1
1:  cmp.l   %a1,%a0
    bcc.s   2f
    clr.l   (%a0)+
    bra.s   1b
2:  jsr     main
    /* exit code = main's return value; 0 is success: the SIMCTL protocol wants 1 */
    tst.l   %d0
    bne.s   3f
    moveq   #1,%d0
    bra.s   4f
3:  add.l   #0x100,%d0
4:  move.l  %d0,TB_SIMCTL_EXIT
5:  bra.s   5b

    .globl _unexpected
_unexpected:
    /* 68010 frame: SR, PC, format/vector word; report 0x200 + vector number */
    move.w  6(%sp),%d0
    and.l   #0x0FFF,%d0
    lsr.l   #2,%d0
    add.l   #0x200,%d0
    move.l  %d0,TB_SIMCTL_EXIT
6:  bra.s   6b
