/* Every message arriving at the PVM-style task layer is hostile (seed 001; lib/pvm.c): a task
 * on air bypasses the layer and writes raw messages on its channel to the master task -- shorter
 * than a header, a bad magic, a forged source tid (another task's), a destination that is not
 * the receiver, a length that is not the bytes sent, a tag past PVM_TAG_MAX, a sequence number
 * out of order, an oversized one -- then one good message through the layer. pvm_recv refuses
 * each, counts it under its reason, and returns the good one, whose contents are intact. */
#include <tos/pvm.h>
#include "tos_check.h"

static int master, third;

static void forger(void *arg) {
  (void)arg;
  int me = pvm_mytid(), ch = PVM_CHAN_BASE + (me & 63) * PVM_MAX_TASKS + (master & 63);
  uint32_t m[8];
  const uint32_t good[8] = {0x50564D31ul, (uint32_t)me, (uint32_t)master, 5, 8, 1, (uint32_t)3 << 24 | 1, 42};
  static char huge[PVM_MAX_BYTES + 64];
  int v = 4141;
  if (pvm_initsend() || pvm_pkint(&v, 1, 1) || pvm_send(master, 4)) exit(9); /* sequence number 1 */
  memcpy(m, good, sizeof m);
  if (send_block(ch, m, 3)) exit(10); /* short */
  m[0] = 0x50564D32ul;
  if (send_block(ch, m, sizeof m)) exit(11); /* magic */
  memcpy(m, good, sizeof m);
  m[1] = (uint32_t)third;
  if (send_block(ch, m, sizeof m)) exit(12); /* another task's tid as source */
  memcpy(m, good, sizeof m);
  m[2] = (uint32_t)third;
  if (send_block(ch, m, sizeof m)) exit(13); /* not for the receiver */
  memcpy(m, good, sizeof m);
  m[4] = 4000;
  if (send_block(ch, m, sizeof m)) exit(14); /* says 4000 bytes, has 8 */
  memcpy(m, good, sizeof m);
  m[3] = 0x80000001ul;
  if (send_block(ch, m, sizeof m)) exit(15); /* tag */
  memcpy(m, good, sizeof m);
  m[5] = 7;
  if (send_block(ch, m, sizeof m)) exit(16); /* sequence: 7 where 2 is due */
  memcpy(huge, good, sizeof good);
  ((uint32_t *)huge)[4] = PVM_MAX_BYTES + 64 - 24;
  if (send_block(ch, huge, sizeof huge)) exit(17); /* past the largest message */
  v = 4242;
  if (pvm_initsend() || pvm_pkint(&v, 1, 1) || pvm_send(master, 5)) exit(18);
}

int main(void) {
  master = pvm_init();
  CHECK(master >= 0, "pvm_init");
  third = (master & ~63) | 9; /* a task slot of the job, not the forger's */
  int f = pvm_spawn(forger, NULL, 2, 8);
  CHECK(f > 0, "spawn the forger on air");
  int v = 0, tag = 0, from = 0;
  CHECK(pvm_recv(f, 4) == 8 && pvm_upkint(&v, 1, 1) == 0 && v == 4141, "the first good message: %d", v);
  int n = pvm_recv(f, 5);
  CHECK(n == 8, "the good message: %d", n);
  CHECK(pvm_bufinfo(NULL, &tag, &from) == 0 && tag == 5 && from == f, "its tag %d and source %x", tag, from);
  CHECK(pvm_upkint(&v, 1, 1) == 0 && v == 4242, "its int %d", v);
  static const int want[PVM_R_N] = {1, 1, 1, 1, 2, 1, 1, 0, 0}; /* length: the lying one and the oversized one */
  for (int r = 0; r < PVM_R_N; ++r) {
    printf("pvm_forged_refused: %lu refused: %s\n", pvm_refused(r), pvm_reason(r));
    CHECK(pvm_refused(r) == (unsigned long)want[r], "reason %d (%s): %lu, want %d", r, pvm_reason(r), pvm_refused(r),
          want[r]);
  }
  CHECK(wait() == 0, "a task failed");
  tos_pass("pvm_forged_refused");
  return 0;
}
