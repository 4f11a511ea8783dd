// m68k_slow_call: how a handler calls a slow path (m68k_exec.h, slow_call) on x86-64.
//
// In:  RAX the C++ function (System V ABI), RDI RSI RDX RCX R8 its arguments.
// Out: RAX its result. Every other general register is as it was, so the handler that calls
// from inline asm needs no callee-saved registers of its own. The stack may be at any
// alignment on entry (the asm does not know the caller's frame); it is aligned for the call.
// A C++ exception thrown by the function (a bus error) unwinds through this frame by its CFI.
#if defined(__x86_64__)
        .text
        .p2align 4
        .globl  m68k_slow_call
        .hidden m68k_slow_call
        .type   m68k_slow_call, @function
m68k_slow_call:
        .cfi_startproc
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        pushq   %rdx
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %r8
        .cfi_adjust_cfa_offset 8
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        pushq   %r10
        .cfi_adjust_cfa_offset 8
        pushq   %r11
        .cfi_adjust_cfa_offset 8
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp
        callq   *%rax
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        popq    %r11
        .cfi_adjust_cfa_offset -8
        popq    %r10
        .cfi_adjust_cfa_offset -8
        popq    %r9
        .cfi_adjust_cfa_offset -8
        popq    %r8
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   m68k_slow_call, .-m68k_slow_call
#endif
        .section .note.GNU-stack,"",@progbits
