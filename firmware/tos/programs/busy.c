/* busy: background load for seed 000 section 3.3.5 (the effects of a busy environment).
 *   busy [threads [ms [msg_bytes[/gap_ms] [board...]]]]     defaults 2 10000 0 (this board)
 * `threads` compute-bound threads run on each board named (default: this one) for `ms`
 * milliseconds, competing for its CPU. With msg_bytes > 0 each of them also sends a message of
 * that size to a partner thread on the next slave after its board, after every gap_ms
 * (default 20) of computing, competing for Centrenet and for the other board's CPU as well. */
#include <tos/tos.h>

#define MAX_THREADS 16
#define MAX_MSG 5000
static long ms = 10000;
static int msg_bytes;
static unsigned long gap_us = 20000;

static void compute_until(unsigned long t0, unsigned long us) {
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
    compute_until(time_us(), gap_us);
    if (msg_bytes > 0) send_block(1 + k, buf, msg_bytes);
  }
  if (msg_bytes > 0) send_block(1 + k, buf, 0);
  exit(0);
}

int main(int argc, char **argv) {
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
    printf("usage: busy [threads (at most %d in all) [ms [msg_bytes 0..%d [board...]]]]\n", MAX_THREADS, MAX_MSG);
    return 2;
  }
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
