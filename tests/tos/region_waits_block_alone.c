/* A thread waiting for the region protocol blocks alone (MCRL, not CRL's spinning): the home
 * (earth) holds a region open for writing; on air one thread asks to write it and waits, while a
 * second thread on air counts to 2000 and says so; only when the home has seen that (the second
 * thread ran while the first waited) does it end its write, and then
 * the waiting thread gets the region with the home's value. */
#include <tos/region.h>
#include "tos_check.h"

static rid_t id;
static volatile long counted, waiter_got, waiter_started;
static volatile long counter_done __attribute__((aligned(1024))); /* its own page */

static void waiter(void *unused) {
  (void)unused;
  long *r = rgn_map(id);
  CHECK(r, "rgn_map");
  waiter_started = 1;
  CHECK(rgn_start_write(r) == 0, "start_write");
  waiter_got = r[0];
  rgn_end_write(r);
  exit(0);
}

static void counter(void *unused) { /* counts on its own stack, yielding to the waiter now and then */
  (void)unused;
  volatile long c = 0;
  while (c < 2000)
    if (++c % 64 == 0) yield();
  counted = c;
  counter_done = 1;
  exit(0);
}

int main(void) {
  id = rgn_create(32);
  long *r = rgn_map(id);
  CHECK(id && r && rgn_start_write(r) == 0, "the home writes");
  r[0] = 4242;
  CHECK(create(1, 4, 2, waiter, NULL) && create(2, 4, 2, counter, NULL), "create on air");
  while (!waiter_started) yield();
  long t0 = (long)time_us();
  while (!counter_done) {
    CHECK((long)time_us() - t0 < 20000000, "air's second thread did not run while the first waited");
    for (volatile int d = 0; d < 2000; ++d) { /* (no page traffic while it counts) */
    }
  }
  CHECK(!waiter_got, "the waiter got the region while the home still held it open");
  rgn_end_write(r);
  CHECK(wait() == 0, "a thread on air failed");
  CHECK(waiter_got == 4242, "the waiter saw %ld, the home wrote 4242", waiter_got);
  printf("region_wait: air counted to %ld while its other thread waited\n", counted);
  tos_pass("region_waits_block_alone");
  return 0;
}
