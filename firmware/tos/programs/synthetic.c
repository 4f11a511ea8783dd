/* synthetic (seed 000 section 4.3.1 and Appendix A.6): the load balancer's synthetic programs.
 *   synthetic compute N [ms [here|random]]       N compute-bound threads (A.6's thread3), each
 *                                                computing for ms of its own processor time
 *   synthetic comm N [messages [here|random]]    N communication-bound pairs (thread1 sends,
 *                                                thread2 receives on the pair's channel)
 *   synthetic mixed N [rounds [here|random]]     N mixed pairs (thread4 / thread5: about 10 ms
 *                                                of computing, then a message, each round)
 *   ... random SEED                              the boards dealt by the program from SEED
 * defaults: compute 20 3000, comm 20 500, mixed 20 100, here. The report's threads loop
 * forever and its runs stop after a minute; Table 9 compares times for a fixed amount of work,
 * so ours do a fixed amount and the program prints how long it took:
 *   "synthetic: N compute-bound threads (here) done in T ms"
 * Placement (Table 9's columns): `here` starts every thread on this board (sequential; a
 * balancer may spread them), `random` on boards TOS chooses at random. TOS's deal is one sequence,
 * the same every run; `random SEED` deals the threads as TOS does (equal numbers to each slave,
 * remote.c random_board) from a sequence of the program's own, so that a table can show random
 * placement over several deals, not one. Messages are MSG bytes
 * (the report's MAX_MSG is not given; 1000 bytes is the middle of section 3's range), and a run
 * of pairs says so after its time: "synthetic: N pairs, M messages of MSG bytes each". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/rand.h>
#include <tos/tos.h>

#include "compute.h"

#define MSG 1000

static long amount;

/* A.6's compute(approx_10_ms): 10 ms of this thread's own computing on the machine it runs on
 * (compute.h: a loop calibrated once at the start, alone on the CPU; the clock runs on while
 * others have the CPU, so the loop does not read it). */
static void compute_10ms(void) { compute(10); }

static void computing(void *arg) { /* thread3 */
  (void)arg;
  for (long done = 0; done < amount; done += 10) compute_10ms();
  exit(0);
}

/* A pair's ends: arg is the pair's channel, plus 64 for a mixed pair (thread4 / thread5). */
static void sender(void *arg) { /* thread1; thread4 computes first */
  static const char buf[MSG];
  int mixed = (int)arg >= 64, chan = (int)arg & 63;
  for (long i = 0; i < amount; ++i) {
    if (mixed) compute_10ms();
    if (send_block(chan, buf, MSG) < 0) exit(1);
  }
  exit(0);
}

static void receiver(void *arg) { /* thread2; thread5 computes first */
  char buf[MSG];
  int mixed = (int)arg >= 64, chan = (int)arg & 63;
  for (long i = 0; i < amount; ++i) {
    if (mixed) compute_10ms();
    if (receive(chan, buf, MSG) != MSG) exit(1);
  }
  exit(0);
}

/* The next slave of a deal from `seed`: one not yet given in this round, drawn at random (the
 * kernel's random_board, with the program's own state). */
static unsigned long deal_state, dealt;
static int deal(void) {
  int slaves = (int)tos_info(TOS_INFO_BOARDS) - 1, left = 0;
  for (int b = 1; b <= slaves; ++b) left += !(dealt >> b & 1);
  if (!left) {
    dealt = 0;
    left = slaves;
  }
  deal_state = TOS_RAND_NEXT(deal_state);
  int k = (int)((deal_state >> 16) % (unsigned long)left), b = 1;
  for (;; ++b)
    if (!(dealt >> b & 1) && k-- == 0) break;
  dealt |= 1ul << b;
  return b;
}

static int seeded;

static int start(int id, int pages, int where, void (*entry)(void *), int arg) {
  if (seeded) where = deal();
  if (create(id, pages, where, entry, (void *)arg)) return 1;
  printf("synthetic: create: %s\n", tos_strerror(tos_errno));
  return 0;
}

int main(int argc, char **argv) {
  const char *kind = argc > 1 ? argv[1] : "compute";
  int bound = !strcmp(kind, "compute"), comm = !strcmp(kind, "comm"), mixed = !strcmp(kind, "mixed");
  int n = argc > 2 ? atoi(argv[2]) : 20;
  amount = argc > 3 ? atol(argv[3]) : bound ? 3000 : comm ? 500 : 100;
  const char *place = argc > 4 ? argv[4] : "here";
  int random = !strcmp(place, "random");
  if (!(bound || comm || mixed) || n < 1 || n > (bound ? 60 : 30) || amount < (bound ? 10 : 1) ||
      (!random && strcmp(place, "here")) || argc > (random ? 6 : 5) || (argc > 5 && atol(argv[5]) < 1) ||
      tos_info(TOS_INFO_BOARDS) < 2 || tos_info(TOS_INFO_BOARDS) > 32) {
    printf("usage: synthetic compute|comm|mixed [threads 1..60 | pairs 1..30 [ms >= 10 | messages >= 1 "
           "[here|random [seed >= 1]]]] (on 2..32 boards)\n");
    return 2;
  }
  seeded = argc > 5;
  deal_state = seeded ? (unsigned long)atol(argv[5]) : 0;
  int where = random ? -1 : HERE, ok = 1;
  compute_calibrate(); /* before any thread shares the CPU; the threads read it (remote ones by paging) */
  unsigned long t0 = time_us();
  for (int i = 0; i < n && ok; ++i) {
    if (bound)
      ok = start(i, 2, where, computing, 0);
    else /* each pair on its own channel; a receiver's buffer lives on its stack */
      ok = start(2 * i, 1, where, sender, i | (mixed ? 64 : 0)) &&
           start(2 * i + 1, 2, where, receiver, i | (mixed ? 64 : 0));
  }
  if (!ok) return 1;
  int rc = wait();
  printf("synthetic: %d %s (%s) done in %lu ms\n", n,
         bound ? "compute-bound threads" : comm ? "communication-bound pairs" : "mixed pairs", place,
         (time_us() - t0) / 1000);
  /* the analysis takes the size from here (Table 6's message alone at this size); printed after
   * the run, so that its output disturbs neither the calibration nor the timed part */
  if (!bound) printf("synthetic: %d pairs, %ld messages of %d bytes each\n", n, amount, MSG);
  return rc;
}
