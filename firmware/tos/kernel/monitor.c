/* The master's side of the hybrid monitor (seed 000 section 2.2.4): the Master Monitoring
 * Interface, for a trusted logger. The MMI polls the SMIs into its FIFO of (source SMI,
 * 16-bit word) entries; the master reads them as the bare-metal demo does: a move.l from
 * MMI DATA_HI reads DATA_HI (which pops the head into a holding register: EMPTY, source)
 * and then DATA_LO (the word). mon_read hands those 32-bit values to the caller as they are;
 * re-uniting time stamps with events is the logger's work (programs/logger.c).
 *
 * The window is touched only when a program asks: a board without an MMI behind it (a lone
 * testbed-board) would answer with a bus error. Slaves have SMIs, not the MMI: -ENODEV. */
#include "defs.h"

#define MMI_EMPTY ((uint32_t)TB_MON_MMI_DATA_HI_EMPTY << 16) /* in the move.l value */

static uint32_t words; /* entries delivered since boot */

/* mon_read(buf, max_words): drain up to max_words entries, never waiting for more. */
SYSCALL(mon_read) {
  if (!board_master) return -TOS_ENODEV;
  if ((int32_t)a2 < 0 || a2 > TOS_USER_TOP / 4) return -TOS_EINVAL;
  if (!vm_check(t->proc, a1, a2 * 4, 1) || (a1 & 1)) return -TOS_EFAULT;
  uint32_t chunk[32], n = 0;
  while (n < a2) {
    uint32_t k = 0;
    while (k < sizeof chunk / sizeof chunk[0] && n + k < a2) {
      uint32_t w = REG32(TB_MON_MMI_DATA_HI); /* pops and latches, then the word */
      if (w & MMI_EMPTY) break;
      chunk[k++] = w;
    }
    if (!vm_copyout(t->proc, a1 + n * 4, chunk, k * 4)) return -TOS_EFAULT; /* (checked above: cannot fail) */
    n += k;
    if (k < sizeof chunk / sizeof chunk[0]) break; /* the FIFO ran dry (or max reached) */
  }
  words += n;
  return (int32_t)n;
}

SYSCALL(mon_status) {
  if (!board_master) return -TOS_ENODEV;
  switch (a1) {
    case TOS_MON_LEVEL: return REG16(TB_MON_MMI_LEVEL);
    case TOS_MON_STATUS: return REG16(TB_MON_MMI_STATUS);
    case TOS_MON_STALL: return (int32_t)REG32(TB_MON_MMI_STALL);
    case TOS_MON_WORDS: return (int32_t)words;
  }
  return -TOS_EINVAL;
}
