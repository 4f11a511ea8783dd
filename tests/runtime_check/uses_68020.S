/* Functions that each hold an instruction or addressing mode the 68010 does not have. */
    .text
    .globl uses_extb, calls_far, scaled_index, memory_indirect
uses_extb:                      /* EXTB.L: sign-extend a byte to a long */
    extb.l %d0
    rts
calls_far:                      /* BSR.L: a branch with a 32-bit displacement */
    bsr.l uses_extb
    rts
scaled_index:                   /* (d8,An,Xn*4): a 68010 ignores the scale */
    move.l (%a0,%d0.l*4),%d1
    rts
memory_indirect:                /* ([bd,An]): a full extension word */
    move.l ([8,%a0]),%d1
    rts
