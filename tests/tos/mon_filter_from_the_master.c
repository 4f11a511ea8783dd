/* mon_filter on the master (issue #37): slave 2's SMI event filter is programmed and read back
 * through the MMI, a settings change puts filter markers 0xABnn (nn = generation) into SMI 2's
 * stream and no other's, the library's command words set what they name, and bad arguments are
 * refused before the hardware is touched. */
#include "tos_check.h"

#include <testbed/memory_map.h>

#define NSMI 5
static uint32_t words[512];

int main(void) {
  CHECK(tos_info(TOS_INFO_MASTER) == 1, "runs on the master");
  long ctl = mon_filter(2, TB_MON_FLT_CTL_OFF, -1);
  CHECK(ctl == 0, "after reset: filter off, generation 0 (FLT_CTL %ld)", ctl);
  CHECK(mon_filter(2, TB_MON_FLT_CLASS_PASS_OFF, -1) == 0xFFFF, "after reset every class passes");
  /* (string constants, not char arrays on the stack: gcc -m68010 stores those with move.l at odd
   * frame offsets, an address error on a 68010) */
  char *w0 = (char *)"only", *w1 = (char *)"comms,cpu";
  char *cmd[] = {w0, w1};
  CHECK(mon_filter_apply(2, 2, cmd) == 0, "filter 2 only comms,cpu");
  CHECK(mon_filter(2, TB_MON_FLT_CLASS_PASS_OFF, -1) == (DGL_COMMS | DGL_CPU), "the class mask is the dgl bits");
  ctl = mon_filter(2, TB_MON_FLT_CTL_OFF, -1);
  CHECK((ctl & TB_MON_FLT_CTL_ENABLE) && (ctl & TB_MON_FLT_CTL_GEN) >> TB_MON_FLT_CTL_GEN_SHIFT == 2,
        "enabled, generation 2 (FLT_CTL 0x%lx)", ctl);
  CHECK(mon_filter(3, TB_MON_FLT_CTL_OFF, -1) == 0, "SMI 3's filter is untouched");
  CHECK(mon_filter(2, TB_MON_FLT_PASSED0_OFF + 4 * EV_FILTER_CLASS_COMMS, -1) >= 0, "a counter reads");
  /* Errors, before anything is selected. */
  CHECK(mon_filter(0, TB_MON_FLT_CTL_OFF, -1) == -TOS_EINVAL, "SMI 0");
  CHECK(mon_filter(16, TB_MON_FLT_CTL_OFF, -1) == -TOS_EINVAL, "SMI 16");
  CHECK(mon_filter(2, TB_MON_FLT_CTL_OFF + 1, -1) == -TOS_EINVAL, "an odd offset");
  CHECK(mon_filter(2, TB_MON_FLT_SEL_OFF, 1) == -TOS_EINVAL, "FLT_SEL is the kernel's");
  CHECK(mon_filter(2, TB_MON_MMI_DATA_HI_OFF, -1) == -TOS_EINVAL, "not a filter register");
  CHECK(mon_filter(2, TB_MON_FLT_PASSED0_OFF, 5) == -TOS_EINVAL, "a write to a counter");
  CHECK(mon_filter(2, TB_MON_FLT_CTL_OFF, 0x10000) == -TOS_EINVAL, "a value past 16 bits");
  CHECK(mon_filter(2, 0x2C, -1) == -TOS_EINVAL, "a hole between the registers");
  char *bad = (char *)"bogusclass";
  char *cmd2[] = {w0, bad};
  CHECK(mon_filter_apply(2, 2, cmd2) < 0, "an unknown class is refused");
  /* The markers: SMI 2's stream holds 0xAB01 and 0xAB02 (or only 0xAB02 if they merged while
   * waiting), in order; the others none. */
  unsigned long t0 = time_us();
  while (time_us() - t0 < 100000ul) yield();
  int have_ts[NSMI + 1] = {0}, fm[NSMI + 1] = {0}, last = 0, n;
  while ((n = mon_read(words, 64)) > 0)
    for (int i = 0; i < n; ++i) {
      unsigned k = (words[i] >> 16) & 0xF;
      uint16_t v = (uint16_t)words[i];
      if (k < 1 || k > NSMI) continue;
      if (!have_ts[k]) {
        have_ts[k] = 1;
        continue;
      }
      have_ts[k] = 0;
      if ((v & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE) {
        ++fm[k];
        if (k == 2) {
          CHECK((v & 0xFF) > last, "filter markers count up (0x%x after %d)", v, last);
          last = v & 0xFF;
        }
      }
    }
  CHECK(fm[2] >= 1 && last == 2, "SMI 2's stream has its filter markers (%d, last generation %d)", fm[2], last);
  for (int k = 1; k <= NSMI; ++k)
    if (k != 2) CHECK(fm[k] == 0, "SMI %d: no filter marker", k);
  char *r0 = (char *)"reset";
  char *cmd3[] = {r0};
  CHECK(mon_filter_apply(2, 1, cmd3) == 0, "filter 2 reset");
  CHECK(mon_filter(2, TB_MON_FLT_CLASS_PASS_OFF, -1) == 0xFFFF && !(mon_filter(2, TB_MON_FLT_CTL_OFF, -1) & 1),
        "reset: every class passes, filter off");
  tos_pass("mon_filter_from_the_master");
  return 0;
}
