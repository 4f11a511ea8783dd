/* A region belongs to its process, named by its home board, pid and serial together (issue #57,
 * finding 1): every board's first program is pid 0 with serial 1, so a region's home that checked
 * pid and serial alone mapped earth's region into air's first program as soon as earth's process
 * had a thread on air. Here the owner (earth's first program) writes a secret into a region and
 * keeps a thread on air; the thief (air's first program, the same pid and serial) asks earth for
 * every region id earth can have handed out by then. Each ask must fail with ENOENT, and the
 * owner's data must be unchanged. Before the fix the thief read the secret (FAIL on air). */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define NAME "regions_stay_private"
#define SECRET 0x5EC2E7L
#define EARTH 1
#define AIR 2

static volatile int stop;

static void keeper(void *unused) { /* the owner's part on air: the thief's board */
  (void)unused;
  while (!stop) yield();
  exit(0);
}

static int owner(void) {
  CHECK((gettid() >> 6 & 15) == 0, "the owner is not earth's first program");
  rid_t id = rgn_create(64);
  long *r = rgn_map(id);
  CHECK(id && r, "rgn_create: %s", tos_strerror(tos_errno));
  CHECK(rgn_start_write(r) == 0, "start_write");
  r[0] = SECRET;
  rgn_end_write(r);
  CHECK(create(1, 2, AIR, keeper, NULL), "a thread on air: %s", tos_strerror(tos_errno));
  tos_check_spin_us(1500000); /* while the thief asks */
  stop = 1;
  CHECK(wait() == 0, "the keeper");
  CHECK(rgn_start_read(r) == 0 && r[0] == SECRET && rgn_end_read(r) == 0, "the owner's data changed");
  tos_pass(NAME " owner");
  return 0;
}

static int thief(void) {
  CHECK((gettid() >> 6 & 15) == 0, "the thief is not air's first program");
  tos_check_spin_us(300000); /* the owner has made its region and its thread on air */
  int asked = 0;
  for (unsigned gen = 1; gen <= 3; ++gen)
    for (unsigned idx = 0; idx < 8; ++idx) {
      rid_t rid = (rid_t)(EARTH << 24 | gen << 8 | idx);
      long *r = rgn_map(rid);
      CHECK(!r, "mapped earth's region %lx of another process and read %lx", (long)rid, r[0]);
      CHECK(tos_errno == TOS_ENOENT, "rgn_map(%lx): %s, not ENOENT", (long)rid, tos_strerror(tos_errno));
      ++asked;
    }
  printf(NAME ": %d region ids of earth refused\n", asked);
  tos_pass(NAME " thief");
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "owner") == 0) return owner();
  if (argc > 1 && strcmp(argv[1], "thief") == 0) return thief();
  CHECK(0, "usage: " NAME " owner|thief");
  return 1;
}
