/* Migration under load (seed 000 section 2.2.2: any thread may migrate any number of times,
 * several at once; no message lost or duplicated). 20 producer/consumer pairs (40 threads,
 * started across all six boards) use 60 channels: a producer sends numbered, checksummed
 * messages of random length (its buffer on its stack) alternately on two data channels and
 * waits for an acknowledgement on a third; its consumer checks every message's number (each
 * channel in order, none lost or twice) and checksum. Meanwhile a driver migrates random
 * threads to random boards, through the home (a request travels to the thread's board): the
 * ready ones move, blocked ones are refused (ENOTREADY), finished ones are gone (ESRCH).
 * The threads also write globals wherever they are (issue 39): a producer records the number
 * of the message it is about to send, which its consumer must find there when the message has
 * come, and each thread counts its messages in a global word of its own, which main checks at
 * the end: each pair's page changes owner between its two threads' boards several times per
 * message. (The threads copy the settings they read into locals: a page every thread reads
 * while others write it would be copied and flushed all the time, correct but slow.)
 *   migration_stress SEED MIGRATIONS MESSAGES
 * The ctest entry also checks that every board ends with all its frames and TCBs free. */
#include <stdlib.h>
#include "tos_check.h"

#define PAIRS 20
#define MAXLEN 1500
static int messages = 30;
static unsigned long seed = 1;
static int tids[2 * PAIRS];
static volatile struct { /* a page per pair: its two threads write it from wherever they are */
  long sent;           /* the producer: the message it is sending */
  long count[2];       /* messages sent (and acknowledged) / received so far */
  char pad[1024 - 3 * sizeof(long)];
} shared[PAIRS] __attribute__((aligned(1024)));

static unsigned long next(unsigned long *s) {
  *s = TOS_RAND_NEXT(*s);
  return (*s >> 16) & 0x7FFF;
}

static void spin(unsigned long us) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < us) {
  }
}

/* A thread that finds something wrong says what (on the console of the board it is on) and
 * ends with the code; the others then wait for ever, and the run's time limit ends it. */
static void fail(int code, long pair, long seq, long a, long b) {
  printf("migration_stress: FAIL code %d: pair %ld message %ld (%ld, %ld) on board %ld\n", code, pair, seq, a, b,
         tos_info(TOS_INFO_BOARD));
  exit(code);
}

struct head {
  long pair, seq, len;
  unsigned long sum;
};

static unsigned char byte(long pair, long seq, int i) { return (unsigned char)(pair * 31 + seq * 7 + i * 13 + (i >> 8)); }

static void producer(void *arg) {
  long pair = (long)arg;
  unsigned char buf[sizeof(struct head) + MAXLEN];
  unsigned long s = seed * 977 + (unsigned long)pair;
  const long n_messages = messages;
  for (long seq = 0; seq < n_messages; ++seq) {
    struct head *h = (struct head *)buf;
    h->pair = pair;
    h->seq = seq;
    h->len = (long)(next(&s) % MAXLEN);
    h->sum = 0;
    for (int i = 0; i < h->len; ++i) {
      buf[sizeof *h + i] = byte(pair, seq, i);
      h->sum += buf[sizeof *h + i] * (unsigned long)(i + 1);
    }
    spin(1000 + next(&s) % 4000);
    shared[pair].sent = seq;
    if (send_block(1 + 3 * (int)pair + (int)(seq & 1), buf, (int)(sizeof *h + h->len)) != 0) fail(11, pair, seq, 0, 0);
    long ack = -1;
    int n = receive(3 + 3 * (int)pair, &ack, sizeof ack);
    if (n != sizeof ack || ack != seq) fail(12, pair, seq, n, ack);
    if (shared[pair].count[0] != seq) fail(13, pair, seq, shared[pair].count[0], seq); /* a write of ours lost */
    shared[pair].count[0] = seq + 1;
  }
  exit(0);
}

static void consumer(void *arg) {
  long pair = (long)arg;
  unsigned char buf[sizeof(struct head) + MAXLEN];
  unsigned long s = seed * 1777 + (unsigned long)pair;
  const long n_messages = messages;
  for (long seq = 0; seq < n_messages; ++seq) {
    int n = receive(1 + 3 * (int)pair + (int)(seq & 1), buf, sizeof buf);
    struct head *h = (struct head *)buf;
    if (n < (int)sizeof *h || n != (int)sizeof *h + h->len) fail(21, pair, seq, n, h->len);
    if (h->pair != pair || h->seq != seq) fail(22, pair, seq, h->pair, h->seq); /* lost, twice, out of order */
    unsigned long sum = 0;
    for (int i = 0; i < h->len; ++i) {
      if (buf[sizeof *h + i] != byte(pair, seq, i)) fail(23, pair, seq, i, buf[sizeof *h + i]);
      sum += buf[sizeof *h + i] * (unsigned long)(i + 1);
    }
    if (sum != h->sum) fail(24, pair, seq, (long)sum, (long)h->sum);
    if (shared[pair].sent != seq) fail(26, pair, seq, shared[pair].sent, seq); /* the producer's write, seen here */
    if (shared[pair].count[1] != seq) fail(27, pair, seq, shared[pair].count[1], seq);
    shared[pair].count[1] = seq + 1;
    spin(500 + next(&s) % 2000);
    if (send_block(3 + 3 * (int)pair, &seq, sizeof seq) != 0) fail(25, pair, seq, 0, 0);
  }
  exit(0);
}

static int want, moved, refused, again, gone;
static volatile int started; /* the driver stays on the home board, so it shares main's memory */
static void driver(void *arg) {
  (void)arg;
  while (!started) yield();
  unsigned long s = seed * 31337;
  int alive = 2 * PAIRS;
  static char done[2 * PAIRS];
  while (moved < want && alive > 0) {
    int k = (int)(next(&s) % (2 * PAIRS));
    if (done[k]) continue;
    int r = migrate(tids[k], (int)(next(&s) % TOS_BOARD_NAME_COUNT));
    if (r == 0) ++moved;
    else if (r == -TOS_ENOTREADY) ++refused;
    else if (r == -TOS_EAGAIN) ++again;
    else if (r == -TOS_ESRCH) {
      done[k] = 1;
      --alive;
      ++gone;
    } else exit(30 - r);
    if (r != 0) spin(200); /* let the others run */
  }
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1) seed = strtoul(argv[1], NULL, 10);
  want = argc > 2 ? atoi(argv[2]) : 1000;
  if (argc > 3) messages = atoi(argv[3]);
  CHECK(seed && want >= 0 && messages > 0, "usage: migration_stress SEED MIGRATIONS MESSAGES");
  /* the driver first: its thread slot (TID) can never be one a finished worker gave back */
  CHECK(create(99, 4, HERE, driver, NULL), "create the driver: %s", tos_strerror(tos_errno));
  for (int p = 0; p < PAIRS; ++p) {
    tids[2 * p] = create(2 * p, 4, (2 * p) % TOS_BOARD_NAME_COUNT, producer, (void *)p);
    tids[2 * p + 1] = create(2 * p + 1, 4, (2 * p + 3) % TOS_BOARD_NAME_COUNT, consumer, (void *)p);
    CHECK(tids[2 * p] && tids[2 * p + 1], "create pair %d: %s", p, tos_strerror(tos_errno));
  }
  started = 1;
  int rc = wait();
  CHECK(rc == 0, "a thread failed with code %d (1x producer, 2x consumer: 22 lost or out of order, 3x driver)", rc);
  for (int p = 0; p < PAIRS; ++p)
    CHECK(shared[p].count[0] == messages && shared[p].count[1] == messages,
          "pair %d counted %ld sent, %ld received in its globals, not %d", p, shared[p].count[0], shared[p].count[1],
          messages);
  printf("migration_stress: seed %lu: %d migrations, %d refused (not ready), %d retried, %d threads gone; "
         "%d pairs x %d messages arrived once each, in order and intact, every global written as counted\n",
         seed, moved, refused, again, gone, PAIRS, messages);
  CHECK(moved >= want || gone == 2 * PAIRS, "only %d migrations", moved);
  tos_pass("migration_stress");
  return 0;
}
