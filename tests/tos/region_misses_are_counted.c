/* A board counts its own misses on a region (rgn_count's TOS_CM_COUNT_MISS, seed 003's
 * counting network reads it on the clients' boards): every access its copy could not grant,
 * read or write, at any board; a hit adds nothing; the count stays with the board's record from
 * one thread of the process to the next. Earth is the home. Air writes (a miss: the home holds
 * the copy), writes and reads again (hits); the home writes (a miss at the home: air's copy is
 * called back); air reads (a miss) and reads again (a hit); fire writes (a miss at fire, air's
 * copy invalidated) and air reads (a miss). The home's decision counts stay the home's. */
#include <tos/region.h>
#include "tos_check.h"

static rid_t id;
struct step {
  int board;
  const char *ops; /* w: a write, r: a read, each start and end */
  long misses;     /* this board's count after them */
};

static void one(void *arg) {
  const struct step *s = arg;
  long *r = rgn_map(id);
  CHECK(r, "board %d: rgn_map: %s", s->board, tos_strerror(tos_errno));
  for (const char *o = s->ops; *o; ++o) {
    int w = *o == 'w';
    CHECK((w ? rgn_start_write(r) : rgn_start_read(r)) == 0, "board %d: start: %s", s->board, tos_strerror(tos_errno));
    if (w) ++r[0];
    CHECK((w ? rgn_end_write(r) : rgn_end_read(r)) == 0, "board %d: end", s->board);
  }
  long m = rgn_count(r, TOS_CM_COUNT_MISS);
  CHECK(m == s->misses, "board %d after \"%s\": %ld misses counted, expected %ld", s->board, s->ops, m, s->misses);
  CHECK(rgn_count(r, TOS_CM_COUNT_DATA) == -TOS_EPERM, "board %d: the home's decision counts are the home's", s->board);
  exit(0);
}

int main(void) {
  id = rgn_create(16);
  long *r = rgn_map(id);
  CHECK(id && r, "earth's region: %s", tos_strerror(tos_errno));
  CHECK(rgn_count(r, TOS_CM_COUNT_MISS) == 0, "a new region: no misses");
  CHECK(rgn_start_write(r) == 0 && rgn_end_write(r) == 0, "the home's first write");
  CHECK(rgn_count(r, TOS_CM_COUNT_MISS) == 0, "the home's write with no copy elsewhere is a hit");
  static const struct step air1 = {2, "wwr", 1}, air2 = {2, "rr", 2}, fire = {3, "w", 1}, air3 = {2, "r", 3};
  CHECK(create(1, 4, air1.board, one, (void *)&air1) && wait() == 0, "air's first accesses (its console says why)");
  CHECK(rgn_start_write(r) == 0 && r[0] == 2, "the home's write after air's: %ld", r[0]);
  ++r[0];
  rgn_end_write(r);
  CHECK(rgn_count(r, TOS_CM_COUNT_MISS) == 1, "the home called air's copy back: one miss at the home, %ld counted",
        rgn_count(r, TOS_CM_COUNT_MISS));
  CHECK(create(2, 4, air2.board, one, (void *)&air2) && wait() == 0, "air's reads (its console says why)");
  CHECK(create(3, 4, fire.board, one, (void *)&fire) && wait() == 0, "fire's write (its console says why)");
  CHECK(create(4, 4, air3.board, one, (void *)&air3) && wait() == 0, "air's read after fire's write");
  CHECK(rgn_start_read(r) == 0 && r[0] == 4, "four writes in all: %ld", r[0]);
  rgn_end_read(r);
  CHECK(rgn_count((void *)0x10, TOS_CM_COUNT_MISS) == -TOS_ENOENT, "no region there");
  printf("regions: misses counted on air, fire and the home\n");
  tos_pass("region_misses_are_counted");
  return 0;
}
