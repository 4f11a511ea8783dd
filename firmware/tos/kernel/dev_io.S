/* One access to a user device that survives a bus error (kernel/dev.c): the device may refuse
 * an access (a write to a read-only register, a width it does not decode), and that is the
 * program's mistake, not a kernel fault. Like setjmp: the kernel's stack pointer is kept, and
 * entry.S's kfault, seeing dev_probing set, comes back here with the frame dropped.
 *   int32_t dev_io(uint32_t width_write, uint32_t addr, uint32_t *value): 0, or -1 (bus error)
 * width_write: 2 or 4, plus 1 for a write. */
    .text
    .globl dev_io
    .globl dev_io_fault
dev_io:
    movem.l %d2-%d7/%a2-%a6,-(%sp)
    move.l  %sp,dev_io_sp
    move.l  4+44(%sp),%d0           /* width_write */
    move.l  8+44(%sp),%a0           /* addr */
    move.l  12+44(%sp),%a1          /* value */
    st      dev_probing
    cmp.l   #2,%d0
    beq.s   1f
    cmp.l   #3,%d0
    beq.s   2f
    cmp.l   #4,%d0
    beq.s   3f
    move.l  (%a1),(%a0)             /* 5: a 32-bit write */
    bra.s   9f
1:  moveq   #0,%d1                  /* 2: a 16-bit read */
    move.w  (%a0),%d1
    move.l  %d1,(%a1)
    bra.s   9f
2:  move.w  2(%a1),(%a0)            /* 3: a 16-bit write (the value's low word) */
    bra.s   9f
3:  move.l  (%a0),(%a1)             /* 4: a 32-bit read */
9:  sf      dev_probing
    moveq   #0,%d0
    movem.l (%sp)+,%d2-%d7/%a2-%a6
    rts
/* From kfault (entry.S) with dev_probing set: the access faulted. */
dev_io_fault:
    sf      dev_probing
    move.l  dev_io_sp,%sp
    moveq   #-1,%d0
    movem.l (%sp)+,%d2-%d7/%a2-%a6
    rts

    .bss
    .globl dev_probing
dev_io_sp:   .long 0
dev_probing: .byte 0
    .even
