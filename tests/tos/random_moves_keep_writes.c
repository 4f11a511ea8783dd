/* Nothing lost, nothing stale (issue 39): worker threads write and read shared globals and a
 * shared heap block while they move between boards at random, and every value is checked
 * against a sequential model.
 *   - Each worker owns slots in a global array and in the heap, interleaved with the other
 *     workers' so that every page is written from several boards at once (ownership moves,
 *     copies are flushed). It keeps the model of its slots on its own stack (which follows it)
 *     and checks all of them after every move and at random; another worker's slot must always
 *     hold a value that worker wrote (its number in the top half), never a torn or foreign one.
 *   - A shared counter is protected by a token: main, at home, hands the token to one worker at
 *     a time over channels; the holder increments the counter and gives the token back, and main
 *     checks after every hand-back that the counter has counted exactly that many increments.
 *   - At the end main checks every slot against the value the last write of its owner must have
 *     left (each worker's writes are a deterministic sequence: its seed).
 * random_moves_keep_writes SEED ROUNDS [MOVES]: MOVES 1 (default) the workers migrate
 * themselves at random; 0 they do not (the balancer moves them). */
#include <stdlib.h>
#include "tos_check.h"

#define WORKERS 6
#define SLOTS 96 /* per worker: 96 x 6 x 4 bytes, a little over two pages, each page shared by all */
#define HSLOTS 64
#define TOKENS 8 /* counter increments per worker */

static volatile long slot[SLOTS][WORKERS];
static volatile long *heap; /* [HSLOTS][WORKERS] */
static volatile long counter;
static unsigned long seed = 1;
static int rounds = 200, moves = 1;

static unsigned long next(unsigned long *s) {
  *s = TOS_RAND_NEXT(*s);
  return (*s >> 16) & 0x7FFF;
}

static void fail(int code, long w, long i, long got, long want) {
  printf("random_moves_keep_writes: FAIL code %d: worker %ld slot %ld is %ld, not %ld (board %ld)\n", code,
         w, i, got, want, tos_info(TOS_INFO_BOARD));
  exit(code);
}

static void spin(unsigned long us) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < us) {
  }
}

static void check_own(long w, const long *model, const long *hmodel) {
  for (int i = 0; i < SLOTS; ++i)
    if (slot[i][w] != model[i]) fail(31, w, i, slot[i][w], model[i]);
  for (int i = 0; i < HSLOTS; ++i)
    if (heap[i * WORKERS + w] != hmodel[i]) fail(32, w, i, heap[i * WORKERS + w], hmodel[i]);
}

static void worker(void *arg) {
  long w = (long)arg;
  long model[SLOTS], hmodel[HSLOTS];
  for (int i = 0; i < SLOTS; ++i) model[i] = 0;
  for (int i = 0; i < HSLOTS; ++i) hmodel[i] = 0;
  unsigned long s = seed * 7919 + (unsigned long)w;
  int tokens = 0;
  for (long r = 1; r <= rounds; ++r) {
    unsigned long a = next(&s) % 100;
    long v = (w + 1) << 20 | r;
    if (a < 35) { /* write a global slot */
      int i = (int)(next(&s) % SLOTS);
      slot[i][w] = model[i] = v;
    } else if (a < 60) { /* write a heap slot */
      int i = (int)(next(&s) % HSLOTS);
      heap[i * WORKERS + w] = hmodel[i] = v;
    } else if (a < 75) { /* read another's slots: each must be one of its writes */
      int o = (int)(next(&s) % WORKERS), i = (int)(next(&s) % SLOTS);
      long x = slot[i][o], y = heap[(i % HSLOTS) * WORKERS + o];
      if (x && (x >> 20) != o + 1) fail(33, o, i, x, (long)(o + 1) << 20);
      if (y && (y >> 20) != o + 1) fail(34, o, i, y, (long)(o + 1) << 20);
    } else if (a < 85) {
      check_own(w, model, hmodel);
    } else if (a < 95 || !moves) { /* the shared counter, with the token */
      unsigned long d = next(&s);
      if (tokens < TOKENS && (d & 1)) {
        long tok;
        if (receive(1 + 2 * (int)w, &tok, sizeof tok) != sizeof tok) fail(41, w, 0, 0, 0);
        long c = counter;
        if (c != tok) fail(42, w, 0, c, tok); /* main's count of increments so far */
        counter = c + 1;
        if (send_block(2 + 2 * (int)w, &tok, sizeof tok) != 0) fail(43, w, 0, 0, 0);
        ++tokens;
      }
      spin((moves ? 200 : 4000) + next(&s) % 800); /* (without moves: long enough for the balancer) */
    } else { /* move */
      int b = (int)(next(&s) % TOS_BOARD_NAME_COUNT);
      if (migrate(gettid(), b) != 0) fail(51, w, b, 0, 0);
      check_own(w, model, hmodel);
    }
  }
  while (tokens < TOKENS) { /* the rest of its turns with the token */
    long tok;
    if (receive(1 + 2 * (int)w, &tok, sizeof tok) != sizeof tok) fail(41, w, 1, 0, 0);
    if (counter != tok) fail(42, w, 1, counter, tok);
    counter = counter + 1;
    if (send_block(2 + 2 * (int)w, &tok, sizeof tok) != 0) fail(43, w, 1, 0, 0);
    ++tokens;
  }
  check_own(w, model, hmodel);
  exit(0);
}

/* What worker w's writes leave in its slots: its sequence replayed (the same draws). */
static void replay(long w, long *model, long *hmodel) {
  for (int i = 0; i < SLOTS; ++i) model[i] = 0;
  for (int i = 0; i < HSLOTS; ++i) hmodel[i] = 0;
  unsigned long s = seed * 7919 + (unsigned long)w;
  for (long r = 1; r <= rounds; ++r) {
    unsigned long a = next(&s) % 100;
    long v = (w + 1) << 20 | r;
    if (a < 35) model[next(&s) % SLOTS] = v;
    else if (a < 60) hmodel[next(&s) % HSLOTS] = v;
    else if (a < 75) next(&s), next(&s);
    else if (a < 85) {
    } else if (a < 95 || !moves) next(&s), next(&s);
    else next(&s);
  }
}

int main(int argc, char **argv) {
  if (argc > 1) seed = strtoul(argv[1], NULL, 10);
  if (argc > 2) rounds = atoi(argv[2]);
  if (argc > 3) moves = atoi(argv[3]);
  CHECK(seed && rounds > 0, "usage: random_moves_keep_writes SEED ROUNDS [MOVES]");
  heap = calloc(HSLOTS * WORKERS, sizeof *heap);
  CHECK(heap != NULL, "calloc");
  for (long w = 0; w < WORKERS; ++w) CHECK(create((int)w, 4, HERE, worker, (void *)w), "create worker %ld", w);
  /* the token: to each worker in turn (a worker takes it when it wants it) */
  long given = 0;
  for (int t = 0; t < TOKENS; ++t)
    for (int w = 0; w < WORKERS; ++w) {
      if (send_block(1 + 2 * w, &given, sizeof given) != 0) CHECK(0, "token to worker %d", w);
      long back;
      CHECK(receive(2 + 2 * w, &back, sizeof back) == sizeof back && back == given, "token back from %d", w);
      ++given;
      CHECK(counter == given, "after %ld increments the counter is %ld", given, counter);
    }
  int rc = wait();
  CHECK(rc == 0, "a worker failed with code %d", rc);
  long model[SLOTS], hmodel[HSLOTS];
  for (long w = 0; w < WORKERS; ++w) {
    replay(w, model, hmodel);
    for (int i = 0; i < SLOTS; ++i) CHECK(slot[i][w] == model[i], "worker %ld slot %d: %ld, not %ld", w, i, slot[i][w], model[i]);
    for (int i = 0; i < HSLOTS; ++i)
      CHECK(heap[i * WORKERS + w] == hmodel[i], "worker %ld heap slot %d: %ld, not %ld", w, i, heap[i * WORKERS + w], hmodel[i]);
  }
  CHECK(counter == WORKERS * TOKENS, "counter %ld", counter);
  printf("random_moves_keep_writes: seed %lu: %d workers x %d rounds, every value as the model says\n",
         seed, WORKERS, rounds);
  free((void *)heap);
  tos_pass("random_moves_keep_writes");
  return 0;
}
