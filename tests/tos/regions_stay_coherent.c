/* Shared regions stay coherent under concurrent readers and writers across boards (seed 003,
 * CRL's invalidation protocol): from earth (the home), two threads on every board (earth too)
 * read and write one region of 2,500 bytes (three Centrenet pieces) in a random mix with
 * random pauses, so that requests, invalidations and recalls cross in many orders. A writer
 * sets every word to the next value and its own signature; a reader must see every word the
 * same (no torn or half-arrived copy), never a value older than one it saw or wrote before, nor
 * older than any write that had ended (as published in ordinary shared memory) before the read
 * began (every read sees the last write), and the end must hold exactly
 * as many increments as were made (no lost update). A second region of 16 bytes is written by
 * all at once, and both are checked from every board at the end. */
#include <tos/region.h>
#include "tos_check.h"

#define BIG 2500
#define WORDS (BIG / 4)
#define ITER 60
#define PER_BOARD 2
static rid_t big_id, small_id;
/* What each thread has written, published after its end_write in ordinary shared memory (the
 * page protocol keeps it coherent): a read that starts later must see at least the largest. */
static volatile uint32_t published[TOS_BOARD_NAME_COUNT * PER_BOARD];

static uint32_t lower_bound(void) {
  uint32_t lb = 0;
  for (int i = 0; i < TOS_BOARD_NAME_COUNT * PER_BOARD; ++i)
    if (published[i] > lb) lb = published[i];
  return lb;
}

static uint32_t lcg(uint32_t *s) { return *s = TOS_RAND_NEXT(*s), *s >> 16; }

/* How many writes thread k makes: fixed by its seed alone, whatever the schedule. */
static int writes_of(int k, int *small_writes) {
  uint32_t s = 0xC0FFEE + (uint32_t)k * 7919u;
  int w = 0, sw = 0;
  for (int i = 0; i < ITER; ++i) {
    uint32_t x = lcg(&s);
    if (x % 100 < 35) ++w;
    else if (x % 100 < 50) ++sw;
    lcg(&s);
  }
  *small_writes = sw;
  return w;
}

static void worker(void *arg) {
  int k = (int)arg;
  uint32_t *big = rgn_map(big_id), *small = rgn_map(small_id);
  CHECK(big && small, "thread %d: rgn_map: %s", k, tos_strerror(tos_errno));
  uint32_t s = 0xC0FFEE + (uint32_t)k * 7919u, seen = 0;
  for (int i = 0; i < ITER; ++i) {
    uint32_t x = lcg(&s), pause = lcg(&s) % 400;
    for (volatile uint32_t d = 0; d < pause; ++d) {
    }
    if (x % 100 < 35) { /* write the big region: every word the next value */
      CHECK(rgn_start_write(big) == 0, "start_write: %s", tos_strerror(tos_errno));
      uint32_t v = big[0];
      for (int w = 1; w < WORDS; ++w) CHECK(big[w] == v, "thread %d write %d: word %d is %lu, word 0 %lu", k, i, w, (unsigned long)big[w], (unsigned long)v);
      CHECK(v >= seen, "thread %d: value went back from %lu to %lu", k, (unsigned long)seen, (unsigned long)v);
      for (int w = 0; w < WORDS; ++w) big[w] = v + 1;
      seen = v + 1;
      CHECK(rgn_end_write(big) == 0, "end_write");
      published[k] = v + 1;
    } else if (x % 100 < 50) { /* the small region: an increment */
      CHECK(rgn_start_write(small) == 0, "start_write small");
      small[1] = small[0] + 1;
      small[0] = small[1];
      CHECK(rgn_end_write(small) == 0, "end_write small");
    } else { /* read */
      uint32_t lb = lower_bound();
      CHECK(rgn_start_read(big) == 0, "start_read: %s", tos_strerror(tos_errno));
      uint32_t v = big[0];
      CHECK(v >= lb, "thread %d read %lu after a write of %lu had ended", k, (unsigned long)v, (unsigned long)lb);
      for (int w = 1; w < WORDS; ++w) CHECK(big[w] == v, "thread %d read %d: word %d is %lu, word 0 %lu", k, i, w, (unsigned long)big[w], (unsigned long)v);
      CHECK(v >= seen, "thread %d: read %lu after having seen %lu", k, (unsigned long)v, (unsigned long)seen);
      seen = v;
      CHECK(rgn_end_read(big) == 0, "end_read");
    }
  }
  exit(0);
}

int main(void) {
  big_id = rgn_create(BIG);
  small_id = rgn_create(16);
  CHECK(big_id && small_id, "rgn_create: %s", tos_strerror(tos_errno));
  CHECK(rgn_create(0) == 0 && tos_errno == TOS_EINVAL, "a region of 0 bytes is refused");
  CHECK(rgn_create(TOS_MAX_REGION_BYTES + 1) == 0 && tos_errno == TOS_EINVAL, "a region past the largest is refused");
  uint32_t *big = rgn_map(big_id), *small = rgn_map(small_id);
  CHECK(big && small, "rgn_map at the home");
  CHECK(rgn_map(big_id ^ 0x100) == NULL && tos_errno == TOS_ENOENT, "no such region");
  int k = 0, total = 0, small_total = 0;
  for (int b = 1; b < TOS_BOARD_NAME_COUNT; ++b)
    for (int j = 0; j < PER_BOARD; ++j, ++k) {
      int sw;
      total += writes_of(k, &sw);
      small_total += sw;
      CHECK(create(k, 4, b, worker, (void *)k), "create on board %d: %s", b, tos_strerror(tos_errno));
    }
  CHECK(wait() == 0, "a worker failed (its board's console says why)");
  CHECK(rgn_start_read(big) == 0, "final read");
  for (int w = 0; w < WORDS; ++w) CHECK(big[w] == (uint32_t)total, "word %d is %lu, %d writes were made", w, (unsigned long)big[w], total);
  CHECK(rgn_end_read(big) == 0, "final end");
  CHECK(rgn_end_read(big) == -TOS_EINVAL && rgn_end_write(big) == -TOS_EINVAL, "an end with no access open is refused");
  CHECK(rgn_start_read(small) == 0 && small[0] == (uint32_t)small_total, "small region %lu, %d increments", (unsigned long)small[0], small_total);
  rgn_end_read(small);
  printf("regions: %d threads on %d boards, %d writes of %d bytes and %d of 16 bytes, all seen\n", k,
         TOS_BOARD_NAME_COUNT - 1, total, BIG, small_total);
  CHECK(rgn_delete(big) == 0 && rgn_start_read(big) == -TOS_ENOENT, "deleted");
  tos_pass("regions_stay_coherent");
  return 0;
}
