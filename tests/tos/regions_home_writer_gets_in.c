/* The home's own writer gets in while threads on every other board read the region as fast as
 * they can. Earth (the region's home) writes once; a reader on each of the other four slaves
 * reads in a loop until it sees that value. Each of the home's write requests invalidates the
 * readers' copies, and each reader asks again at once: a read request from another board is
 * queued before the home's write request is complete. The copy that request got must go to the
 * home's waiting writer first (region.c: grant_home_waiters); otherwise the queued reads take it
 * away, the writer asks again at the back of the queue, and the readers read the old value for
 * ever (the livelock of tos_regions_homed_where_created's stopper threads once yields got cheap).
 * A reader gives up after 2 s simulated (the write comes in within milliseconds when it is not
 * starved). */
#include <tos/region.h>
#include "tos_check.h"

#define PATIENCE_US 2000000ul
static rid_t id;

static void reader(void *unused) {
  (void)unused;
  volatile long *r = rgn_map(id);
  CHECK(r, "board %d: rgn_map: %s", HERE, tos_strerror(tos_errno));
  unsigned long t0 = time_us(), reads = 0;
  long v = 0;
  while (!v) {
    CHECK(rgn_start_read((void *)r) == 0, "board %d: start_read: %s", HERE, tos_strerror(tos_errno));
    v = r[0];
    rgn_end_read((void *)r);
    ++reads;
    CHECK(time_us() - t0 < PATIENCE_US, "board %d: %lu reads in %lu ms and the home's write has not come in", HERE,
          reads, PATIENCE_US / 1000);
  }
  CHECK(v == 4242, "board %d read %ld, the home wrote 4242", HERE, v);
  exit(0);
}

int main(void) {
  id = rgn_create(16);
  volatile long *r = rgn_map(id);
  CHECK(id && r, "earth's region: %s", tos_strerror(tos_errno));
  for (int b = 2; b < TOS_BOARD_NAME_COUNT; ++b)
    CHECK(create(b, 4, b, reader, NULL), "a reader on board %d: %s", b, tos_strerror(tos_errno));
  tos_check_spin_us(100000); /* the readers are at it */
  unsigned long t0 = time_us();
  CHECK(rgn_start_write((void *)r) == 0, "earth's start_write: %s", tos_strerror(tos_errno));
  unsigned long waited = time_us() - t0;
  r[0] = 4242;
  rgn_end_write((void *)r);
  CHECK(wait() == 0, "a reader failed (its board's console says why)");
  printf("regions: the home's writer got in after %lu us against %d readers\n", waited, TOS_BOARD_NAME_COUNT - 2);
  tos_pass("regions_home_writer_gets_in");
  return 0;
}
