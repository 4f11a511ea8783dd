/* Instrumentation (seed 000 section 2.2.3): `if (dgl & CLASS) send_event(n)`, one store to the
 * board's SMI. The master has the MMI in that window and writes no events, so its dgl stays 0.
 * A full SMI loses the event and counts it (SMI_LOST); the kernel never waits for room. */
#include "defs.h"

uint16_t dgl KERNEL_HOT;
int have_smi;

void event_init(void) {
  have_smi = !board_master && board_id < TOS_MAX_SLOTS_PER_NODE; /* the monitor's SMIs are node 0's: elsewhere no events */
  dgl = 0;
}

uint32_t events_lost(void) { return have_smi ? REG32(TB_MON_SMI_LOST) : 0; }

SYSCALL(dgl) {
  if (have_smi) dgl = (uint16_t)((dgl | a1) & ~a2);
  return dgl;
}
SYSCALL(event) {
  EVENT(DGL_OVERFLOW, (uint16_t)a1);
  return 0;
}
