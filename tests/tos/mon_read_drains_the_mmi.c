/* mon_read on the master: the MMI's entries as it presents them (source SMI in bits 19..16,
 * the word below), never waiting. With no events on, the stream is the SMIs' wrap markers: each
 * SMI's pairs are (time stamp, 0xAAnn) with nn counting 1, 2, 3... (seed 000 section 2.2.3).
 * Also: an empty MMI gives 0 at once, mon_status reports the MMI's level, and bad arguments
 * are refused. */
#include "tos_check.h"

#define NSMI 5
static uint32_t words[512];

int main(void) {
  CHECK(tos_info(TOS_INFO_MASTER) == 1, "runs on the master");
  unsigned long t0 = time_us();
  while (time_us() - t0 < 250000ul) yield(); /* three wraps of the 65.536 ms global clock */
  long level = mon_status(TOS_MON_LEVEL);
  CHECK(level >= 2 * NSMI * 3, "the MMI holds the markers: level %ld", level);
  int have_ts[NSMI + 1] = {0}, markers[NSMI + 1] = {0}, total = 0, n;
  while ((n = mon_read(words, 7)) > 0) { /* an odd count: pairs split across calls */
    for (int i = 0; i < n; ++i) {
      uint32_t w = words[i];
      unsigned k = (w >> 16) & 0xF;
      CHECK((w & 0xFFF00000ul) == 0 && k >= 1 && k <= NSMI, "word 0x%lx: source %u", (unsigned long)w, k);
      if (!have_ts[k]) {
        have_ts[k] = 1;
        continue;
      }
      have_ts[k] = 0;
      CHECK((w & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE, "SMI %u: event word 0x%lx is a wrap marker", k,
            (unsigned long)(w & 0xFFFF));
      CHECK((w & 0xFF) == (uint32_t)markers[k] + 1, "SMI %u: marker %lu follows %d", k, (unsigned long)(w & 0xFF),
            markers[k]);
      ++markers[k];
    }
    total += n;
  }
  CHECK(n == 0, "mon_read: %d (%s)", n, tos_strerror(n));
  for (int k = 1; k <= NSMI; ++k) CHECK(markers[k] >= 3 && !have_ts[k], "SMI %d: %d markers", k, markers[k]);
  CHECK(mon_status(TOS_MON_WORDS) == total, "mon_status WORDS counts what was delivered");
  CHECK(mon_read(words, 0) == 0, "max_words 0");
  CHECK(mon_read((uint32_t *)0x10, 4) == -TOS_EFAULT, "an unmapped buffer");
  CHECK(mon_read(words, -1) == -TOS_EINVAL, "a negative count");
  CHECK(mon_status(99) == -TOS_EINVAL, "an unknown selector");
  printf("mon_read_drains_the_mmi: %d words, %d markers from SMI 1\n", total, markers[1]);
  tos_pass("mon_read_drains_the_mmi");
  return 0;
}
