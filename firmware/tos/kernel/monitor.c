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
  if (a1 & 1) return -TOS_EFAULT;
  USER_BUFFER(t, a1, a2 * 4, 1);
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

/* mon_filter(smi, reg, value): SMI smi's event filter through the MMI (FLT_SEL, then the
 * register), with interrupts off between the two so no other master thread's access can
 * select another SMI in between. value -1 reads; 0..0xFFFF writes a settings register. */
static int flt_setting(uint32_t reg) {
  return (reg >= TB_MON_FLT_CTL_OFF && reg <= TB_MON_FLT_GUARD_WINDOW_OFF) ||
         (reg >= TB_MON_FLT_CODE_PASS0_OFF && reg <= TB_MON_FLT_CODE_PASS7_OFF);
}
static int flt_wide(uint32_t reg) { /* the 32-bit registers' offsets */
  return reg == TB_MON_FLT_GUARD_DROPS_OFF ||
         (reg >= TB_MON_FLT_PASSED0_OFF && reg <= TB_MON_FLT_FILTERED15_OFF && (reg & 3) == 0);
}
SYSCALL(mon_filter) {
  if (!board_master) return -TOS_ENODEV;
  uint32_t smi = a1, reg = a2;
  int32_t value = (int32_t)a3;
  if (smi < 1 || smi > 15 || (reg & 1) || reg <= TB_MON_FLT_SEL_OFF || reg > TB_MON_FLT_FILTERED15_OFF + 2)
    return -TOS_EINVAL;
  if (value < -1 || value > 0xFFFF || (value >= 0 && !flt_setting(reg))) return -TOS_EINVAL;
  if (reg > TB_MON_FLT_GUARD_DROPS_OFF + 2 && reg < TB_MON_FLT_CODE_PASS0_OFF) return -TOS_EINVAL; /* a hole */
  uint16_t sr = splhigh();
  REG16(TB_MON_FLT_SEL) = (uint16_t)smi;
  if (value >= 0) REG16(TB_MON_BASE + reg) = (uint16_t)value;
  uint32_t v = flt_wide(reg) ? REG32(TB_MON_BASE + reg) : REG16(TB_MON_BASE + reg);
  splx(sr);
  return (int32_t)(v & 0x7FFFFFFFu);
}
