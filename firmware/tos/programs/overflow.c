/* overflow (seed 000 Appendix A.5, section 3.3.7): threads emit user events (send_event(0), the
 * overflow event class) at a set rate until a time limit, or until the monitor loses an event
 * because its buffers are full ("send event fails: monitoring bus full"), whichever comes first.
 * The seed's listing takes a compute time between events; we take the rate of send_event calls
 * and turn it into that compute time with a loop calibrated at start (the calls themselves take
 * time, so the rate reached is a little lower; the analysis counts what was written).
 * A lost event is seen as the seed's send_event() failure was: the board's SMI counts what it
 * could not store (TOS_INFO_EVENTS_LOST), read after each event.
 *
 * With slaves > 1 one generator runs on each of that many slaves (this board first; run on the
 * master, earth first), each at
 * `rate`: the machine's total rate is slaves * rate. Each prints one line; main prints
 *   overflow: <slaves> slaves x <rate>/s for <ms> ms: sent <n>, lost <k>, <ok|LOST>
 * The event class must be on (dgl +overflow on every generating board).
 * With `comms` last, each step is a local message instead of a user event: the generator sends
 * 4 bytes to a partner thread on its board, so the kernel writes what a real program makes
 * (comms: TRAP7, TRAP70, TRAP72; rq: the ready queue's [TID] words as the two threads switch),
 * the mix the SMI's event filter selects from (issue #37); each generator switches those two
 * classes on for its run and off after it.
 *   overflow RATE [MS [SLAVES [comms]]]  RATE events (or messages) per second per slave (0: as
 *                                   fast as it can); defaults 30000 ms (the seed's 30 seconds),
 *                                   1 slave */
#include <tos/tos.h>

#define MAX_SLAVES 5

#define PING_CHAN 20 /* + k: generator k's messages to its partner (1 + k: its result to main) */

struct job {
  long rate, ms, comms;
  long sent, lost, elapsed_ms, board;
};
static struct job jobs[MAX_SLAVES];

static unsigned long loops_per_ms = 1;

static void spin(unsigned long loops) {
  for (volatile unsigned long i = 0; i < loops; ++i) {
  }
}

/* comms mode: takes the generator's messages until it sends -1 */
static void partner(void *arg) {
  int k = (int)(long)arg;
  long v = 0;
  while (receive(PING_CHAN + k, &v, sizeof v) == (int)sizeof v && v >= 0) {
  }
  exit(0);
}

static void generator(void *arg) {
  int k = (int)(long)arg;
  struct job j = jobs[k]; /* this board's copy of the page has rate and ms */
  long lost0 = tos_info(TOS_INFO_EVENTS_LOST);
  /* pace with a calibrated loop, not the clock: reading the clock is a system call, and
   * system calls emit events of their own */
  unsigned long gap = j.rate > 0 ? loops_per_ms * 1000ul / (unsigned long)j.rate : 0;
  unsigned long t0 = time_us(), limit = (unsigned long)j.ms * 1000ul;
  j.sent = 0;
  j.lost = 0;
  /* comms: the classes on from here, so the trace holds the exchange, not the burst of
   * placing the threads (remote creation, code pages fetched) that comes before it */
  if (j.comms) dgl_set(DGL_COMMS | DGL_RQ, 0);
  while (time_us() - t0 < limit) {
    if (j.comms) send_block(PING_CHAN + k, &j.sent, sizeof j.sent);
    else send_event(0);
    ++j.sent;
    long lost = tos_info(TOS_INFO_EVENTS_LOST) - lost0;
    if (lost > 0) { /* main says so: generators on five boards printing at once share stdout's lock */
      j.lost = lost;
      break;
    }
    spin(gap);
  }
  if (j.comms > 0) {
    long end = -1;
    send_block(PING_CHAN + k, &end, sizeof end);
    dgl_set(0, DGL_COMMS | DGL_RQ);
  }
  j.elapsed_ms = (long)((time_us() - t0) / 1000ul);
  j.board = tos_info(TOS_INFO_BOARD);
  send_block(1 + k, &j, sizeof j);
  exit(0);
}

int main(int argc, char **argv) {
  long rate = argc > 1 ? atol(argv[1]) : -1, ms = argc > 2 ? atol(argv[2]) : 30000;
  int slaves = argc > 3 ? atoi(argv[3]) : 1;
  int comms = argc > 4 && strcmp(argv[4], "comms") == 0;
  long me = tos_info(TOS_INFO_BOARD);
  if (rate < 0 || ms < 1 || slaves < 1 || slaves > MAX_SLAVES || me < 0 || (argc > 4 && !comms) || argc > 5) {
    printf("usage: overflow RATE [MS [SLAVES 1..%d [comms]]]\n", MAX_SLAVES);
    return 2;
  }
  unsigned long c0 = time_us();
  spin(20000);
  unsigned long cus = time_us() - c0;
  loops_per_ms = cus ? 20000ul * 1000ul / cus : 20000ul;
  for (int k = 0; k < slaves; ++k) {
    jobs[k].rate = rate;
    jobs[k].ms = ms;
    jobs[k].comms = comms;
  }
  for (int k = 0; k < slaves; ++k) {
    /* from the master (which has no SMI): the slaves from earth on, so a script on the master
     * can change the SMIs' filters between runs (issue #37) */
    int board = (int)((me ? me - 1 + k : k) % MAX_SLAVES) + 1;
    if (!create(k + 2, 4, board, generator, (void *)(long)k)) {
      printf("overflow: create on board %d: %s\n", board, tos_strerror(tos_errno));
      return 1;
    }
    /* the partner on the generator's board, created here: a thread away from the process's
     * home cannot create (thread slots are the home's to give) */
    if (comms && !create(100 + k, 2, board, partner, (void *)(long)k)) {
      printf("overflow: create the partner on board %d: %s\n", board, tos_strerror(tos_errno));
      return 1;
    }
  }
  long sent = 0, lost = 0, elapsed = 0;
  for (int k = 0; k < slaves; ++k) {
    struct job j;
    if (receive(1 + k, &j, sizeof j) != (int)sizeof j) return 1;
    if (j.lost)
      printf("overflow: board %ld: send event fails: monitoring bus full after %ld events\n", j.board, j.sent);
    sent += j.sent;
    lost += j.lost;
    if (j.elapsed_ms > elapsed) elapsed = j.elapsed_ms;
  }
  wait();
  printf("overflow: %d slaves x %ld/s for %ld ms: sent %ld, lost %ld, %s%s\n", slaves, rate, elapsed, sent, lost,
         lost ? "LOST" : "ok", comms ? " (messages)" : "");
  return 0;
}
