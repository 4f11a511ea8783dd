/* busy: background load for seed 000 section 3.3.5 (the effects of a busy environment).
 *   busy [-c] [threads [ms [msg_bytes[/gap_ms] [board...]]]]     defaults 2 10000 0 (this board)
 * `threads` compute-bound threads run on each board named (default: this one) for `ms`
 * milliseconds, competing for its CPU. With msg_bytes > 0 each of them also sends a message of
 * that size to a partner thread on the next slave after its board, after every gap_ms
 * (default 20) of computing, competing for Centrenet and for the other board's CPU as well.
 *
 * Computing is compute.h's loop, calibrated once here before any thread starts: a thread makes
 * no system call while it computes (it reads the clock once a gap, to end the run), so a
 * message that arrives for its board waits for the slice to end, as the report's compute-bound
 * threads made it wait (3.3.5: "MPCs which arrive during the schedule phase may be held up for
 * an additional time-slice"). -c computes by reading the clock instead, a system call every 100
 * rounds, each a way into the main loop for a waiting message: the A/B run that shows what
 * the slice costs a remote communication. */
#include <tos/tos.h>

#include "compute.h"

#define MAX_THREADS 16
#define MAX_MSG 5000
static long ms = 10000;
static int msg_bytes;
static unsigned long gap_us = 20000;

static int clock_reads; /* -c */
/* Without messages a thread only reads the clock to end the run: every 100 ms of its
 * computing, five slices, so that the reads never stand in for the slice's end. */
#define ALONE_GAP_US 100000ul

static void compute_gap(void) {
  unsigned long us = msg_bytes > 0 || clock_reads ? gap_us : ALONE_GAP_US;
  if (!clock_reads) {
    compute_spin(us / 1000ul * compute_loops_per_ms + us % 1000ul * compute_loops_per_ms / 1000ul);
    return;
  }
  unsigned long t0 = time_us();
  while (time_us() - t0 < us) {
    for (volatile int i = 0; i < 100; ++i) {
    }
  }
}

static void sink(void *arg) {
  int k = (int)(long)arg;
  char buf[MAX_MSG];
  while (receive(1 + k, buf, MAX_MSG) > 0) {
  }
  exit(0);
}

static void loader(void *arg) {
  int k = (int)(long)arg;
  char buf[MAX_MSG];
  memset(buf, 0x5A, sizeof buf);
  unsigned long t0 = time_us(), end = (unsigned long)ms * 1000ul;
  while (time_us() - t0 < end) {
    compute_gap();
    if (msg_bytes > 0) send_block(1 + k, buf, msg_bytes);
  }
  if (msg_bytes > 0) send_block(1 + k, buf, 0);
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "-c")) {
    clock_reads = 1;
    --argc;
    ++argv;
  }
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  if (argc > 2) ms = atol(argv[2]);
  if (argc > 3) {
    char *end;
    msg_bytes = (int)strtol(argv[3], &end, 10);
    if (*end == '/') gap_us = (unsigned long)strtol(end + 1, NULL, 10) * 1000ul;
  }
  int boards[5], nb = 0;
  for (int i = 4; i < argc && nb < 5; ++i) boards[nb++] = atoi(argv[i]);
  if (!nb) boards[nb++] = HERE;
  if (threads < 1 || threads * nb > MAX_THREADS || ms < 1 || msg_bytes < 0 || msg_bytes > MAX_MSG) {
    printf("usage: busy [-c] [threads (at most %d in all) [ms [msg_bytes 0..%d [board...]]]]\n", MAX_THREADS, MAX_MSG);
    return 2;
  }
  if (!clock_reads) compute_calibrate(); /* alone: before the threads share the CPU */
  int k = 0;
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < threads; ++i, ++k) {
      int sink_board = boards[b] % 5 + 1;
      if (msg_bytes > 0 && !create(40 + k, 8, sink_board, sink, (void *)(long)k)) {
        printf("busy: create on board %d: %s\n", sink_board, tos_strerror(tos_errno));
        return 1;
      }
      if (!create(2 + k, 8, boards[b], loader, (void *)(long)k)) {
        printf("busy: create on board %d: %s\n", boards[b], tos_strerror(tos_errno));
        return 1;
      }
    }
  int rc = wait();
  printf("busy: %d threads on %d board(s) for %ld ms%s: %s\n", threads, nb, ms, msg_bytes ? " with messages" : "",
         rc ? "failed" : "ok");
  return rc;
}
