/* A region is homed on the board where the thread that creates it runs (MCRL), not on its
 * process's home: from earth (the process's home), a maker thread on every board creates a
 * region there and must find that board in its rid's top byte; one more thread is created on
 * air and migrates to fire before it creates, and its region must be homed on fire. Then two
 * workers on every board map every region (those homed on guest boards are mapped through the
 * process's home, which vouches for the asker) and, in a random mix, increment each one's
 * counter (a write: every word of the region the next value) or read it (every word equal,
 * never older than what the same thread saw before); a computation migrated to a guest home
 * (STATIC: writes run at the home, in a server thread there) increments a second counter. At the
 * end the process's home reads every region: each counter holds exactly the increments made (no
 * lost update), and only a thread on a region's home may delete it. */
#include <tos/region.h>
#include "tos_check.h"

#define N TOS_BOARD_NAME_COUNT /* boards 1..N-1 (earth and the other slaves): regions 0..N-1, the last fire's mover's */
#define SIZE 1500 /* two Centrenet pieces */
#define WORDS (SIZE / 4 - 1)
#define ITER 24
#define PER_BOARD 2
#define R N
static volatile rid_t rids[R];
static volatile int homes[R];
static rid_t done_id; /* (on earth) how many workers have finished: then the servers stop */

static void maker(void *arg) {
  int k = (int)arg;
  rid_t id = rgn_create(SIZE);
  CHECK(id, "board %d: rgn_create: %s", HERE, tos_strerror(tos_errno));
  CHECK((int)(id >> 24) == HERE, "a region made on board %d is homed on board %lu", HERE, (unsigned long)(id >> 24));
  uint32_t *r = rgn_map(id);
  CHECK(r && rgn_policy(r, TOS_CM_POLICY_STATIC) == 0, "board %d: the home sets its policy", HERE);
  CHECK(rgn_start_write(r) == 0, "start_write at the home");
  for (int w = 0; w < WORDS; ++w) r[w] = 0;
  r[WORDS] = 0;
  rgn_end_write(r);
  homes[k] = HERE;
  rids[k] = id;
  exit(0);
}

/* a thread made on air moves to fire first: its regions are fire's */
static void mover(void *arg) {
  CHECK(migrate(gettid(), 3) == 0 && HERE == 3, "the mover reaches fire");
  maker(arg);
}

static uint32_t lcg(uint32_t *s) { return *s = TOS_RAND_NEXT(*s), *s >> 16; }

static long inc_cm(void *rgn, long unused) {
  (void)unused;
  uint32_t *r = rgn;
  return (long)++r[WORDS];
}

static int writes_of(int k, int i) { /* does thread k's iteration i write (else read)? */
  uint32_t s = 0xBEEF + (uint32_t)k * 104729u;
  int w = 0;
  for (int j = 0; j <= i; ++j) w = lcg(&s) % 100 < 40;
  return w;
}

static void worker(void *arg) {
  int k = (int)arg;
  uint32_t *r[R], seen[R];
  for (int i = 0; i < R; ++i) {
    r[i] = rgn_map(rids[i]);
    CHECK(r[i], "board %d: rgn_map of a region homed on %lu: %s", HERE, (unsigned long)(rids[i] >> 24), tos_strerror(tos_errno));
    seen[i] = 0;
  }
  for (int i = 0; i < ITER; ++i) {
    int g = (i + k) % R;
    if (writes_of(k, i)) {
      CHECK(rgn_start_write(r[g]) == 0, "start_write: %s", tos_strerror(tos_errno));
      uint32_t v = r[g][0];
      for (int w = 1; w < WORDS; ++w) CHECK(r[g][w] == v, "board %d: region %d torn at word %d", HERE, g, w);
      CHECK(v >= seen[g], "board %d: region %d went back from %lu to %lu", HERE, g, (unsigned long)seen[g], (unsigned long)v);
      for (int w = 0; w < WORDS; ++w) r[g][w] = v + 1;
      seen[g] = v + 1;
      CHECK(rgn_end_write(r[g]) == 0, "end_write");
    } else {
      CHECK(rgn_start_read(r[g]) == 0, "start_read: %s", tos_strerror(tos_errno));
      uint32_t v = r[g][0];
      for (int w = 1; w < WORDS; ++w) CHECK(r[g][w] == v, "board %d: region %d torn at word %d", HERE, g, w);
      CHECK(v >= seen[g], "board %d: region %d read %lu after %lu", HERE, g, (unsigned long)v, (unsigned long)seen[g]);
      seen[g] = v;
      CHECK(rgn_end_read(r[g]) == 0, "end_read");
    }
    int how = 0;
    CHECK(cm_call_how(r[g], TOS_CM_WRITE, inc_cm, 0, &how) > 0 && how > 0, "board %d: cm_call on region %d: %d", HERE, g, how);
  }
  uint32_t *done = rgn_map(done_id);
  CHECK(done && rgn_start_write(done) == 0, "done");
  ++done[0];
  rgn_end_write(done);
  exit(0);
}

/* Once every worker is done: the regions homed here ran migrated writes (STATIC), the servers
 * here stop. */
static void stopper(void *arg) {
  int total = (int)arg;
  uint32_t *done = rgn_map(done_id);
  CHECK(done, "stopper maps");
  for (;;) {
    CHECK(rgn_start_read(done) == 0, "stopper reads");
    int n = (int)done[0];
    rgn_end_read(done);
    if (n == total) break;
    yield();
  }
  for (int g = 0; g < R; ++g)
    if (homes[g] == HERE) {
      uint32_t *r = rgn_map(rids[g]);
      CHECK(r && rgn_count(r, TOS_CM_COUNT_COMPUTE) > 0, "board %d: no write migrated to region %d homed here", HERE, g);
    }
  cm_serve_stop();
  exit(0);
}

static void deleter(void *arg) {
  int k = (int)arg;
  uint32_t *r = rgn_map(rids[k]);
  CHECK(r, "deleter maps");
  int rc = rgn_delete(r);
  CHECK(HERE == homes[k] ? rc == 0 : rc == -TOS_EPERM, "board %d: rgn_delete of a region homed on %d gave %d", HERE, homes[k], rc);
  exit(0);
}

int main(void) {
  done_id = rgn_create(16);
  CHECK(done_id && (int)(done_id >> 24) == HERE, "earth's own region: %s", tos_strerror(tos_errno));
  for (int b = 1; b < N; ++b) CHECK(create(b, 4, b, maker, (void *)(b - 1)), "maker on board %d: %s", b, tos_strerror(tos_errno));
  CHECK(create(N, 4, 2, mover, (void *)(R - 1)), "mover: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "a maker failed (its board's console says why)");
  for (int b = 1; b < N; ++b) CHECK(homes[b - 1] == b, "maker %d's region is homed on %d", b - 1, homes[b - 1]);
  CHECK(homes[R - 1] == 3 && (rids[R - 1] >> 24) == 3, "the migrated thread's region is homed on fire");
  for (int b = 1; b < N; ++b)
    CHECK(b == HERE ? cm_serve_start(4) : cm_serve_start_on(b, 4), "a server on board %d: %s", b, tos_strerror(tos_errno));
  int k = 0, writes[R] = {0}, cms[R] = {0};
  for (int b = 1; b < N; ++b)
    for (int j = 0; j < PER_BOARD; ++j, ++k) {
      for (int i = 0; i < ITER; ++i) {
        writes[(i + k) % R] += writes_of(k, i);
        ++cms[(i + k) % R];
      }
      CHECK(create(100 + k, 4, b, worker, (void *)k), "worker on board %d: %s", b, tos_strerror(tos_errno));
    }
  for (int b = 1; b < N; ++b) CHECK(create(200 + b, 4, b, stopper, (void *)k), "stopper on board %d", b);
  CHECK(wait() == 0, "a worker failed (its board's console says why)");
  for (int g = 0; g < R; ++g) {
    uint32_t *r = rgn_map(rids[g]);
    CHECK(r && rgn_start_read(r) == 0, "earth reads region %d", g);
    CHECK(r[0] == (uint32_t)writes[g], "region %d (home %d): %lu, %d writes made", g, homes[g], (unsigned long)r[0], writes[g]);
    CHECK(r[WORDS] == (uint32_t)cms[g], "region %d (home %d): %lu migrated increments, %d made", g, homes[g], (unsigned long)r[WORDS], cms[g]);
    rgn_end_read(r);
  }
  CHECK(create(300, 4, 3, deleter, (void *)1) && wait() == 0, "fire may not delete air's region");
  CHECK(create(301, 4, 2, deleter, (void *)1) && wait() == 0, "air deletes its region");
  printf("regions: %d regions homed on %d boards, %d threads, all counts exact\n", R, N - 1, k);
  tos_pass("regions_homed_where_created");
  return 0;
}
