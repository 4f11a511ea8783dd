/* The offsets and constants entry.S uses, taken from the C structures at build time (Linux's
 * asm-offsets): this file is compiled to assembly only, with each kernel image's own flags, and
 * asm_offsets.cmake turns every "->NAME value" mark below into "#define NAME value" in the
 * generated asm_offsets.h that entry.S includes. When a structure changes, the build makes the
 * header again: no offset is kept by hand. Not linked into any image (CMakeLists.txt). */
#include "defs.h"

#define DEFINE(sym, val) __asm__ volatile("\n.ascii \"->" #sym " %0\"" : : "i"(val))
/* A field's offset, and the width entry.S's instructions give it (move.b, move.w, a MOVEM of
 * 15 registers): a field that changes width fails the build here instead of being half-read. */
#define FIELD(sym, type, member, bytes)                                                          \
  do {                                                                                           \
    _Static_assert(sizeof(((type *)0)->member) == (bytes), "entry.S reads " #sym " as " #bytes " bytes"); \
    DEFINE(sym, __builtin_offsetof(type, member));                                               \
  } while (0)

void asm_offsets(void);
void asm_offsets(void) {
  /* struct tcb: the thread's context (the exception entry, run_user) */
  FIELD(T_REGS, struct tcb, ctx.regs, 15 * 4);
  FIELD(T_USP, struct tcb, ctx.usp, 4);
  FIELD(T_FLEN, struct tcb, ctx.frame_len, 2);
  FIELD(T_FRAME, struct tcb, ctx.frame, FRAME_MAX + 2);
  FIELD(T_STATE, struct tcb, state, 1);
  /* ... and what yield's scheduling in assembly reads and writes */
  FIELD(T_NEXT, struct tcb, next, 4);
  FIELD(T_PREV, struct tcb, prev, 4);
  FIELD(T_PROC, struct tcb, proc, 4);
  FIELD(T_CPU_SLICES, struct tcb, ctx.cpu_slices, 4);
  DEFINE(T_RUNNING_STATE, T_RUNNING);
  DEFINE(T_READY_STATE, T_READY);

  /* struct proc */
  FIELD(P_STATE, struct proc, state, 1);
  FIELD(P_PID, struct proc, pid, 1);
  FIELD(P_RQ_HEAD, struct proc, rq_head, 4);
  FIELD(P_RQ_TAIL, struct proc, rq_tail, 4);
  FIELD(P_GUEST, struct proc, guest, 1);
  DEFINE(P_FOREGROUND, P_FOREGROUND);
  DEFINE(P_BACKGROUND, P_BACKGROUND);
}
