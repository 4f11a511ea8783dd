/* busy: background load for seed 000 section 3.3.5 (the effects of a busy environment).
 *   busy [threads [ms [msg_bytes [board]]]]     defaults 2 10000 0
 * `threads` compute-bound threads run on this board for `ms` milliseconds, competing for its
 * CPU. With msg_bytes > 0 each of them also sends a message of that size to a partner thread on
 * `board` (default: the next slave) after every 20 ms of computing, competing for Centrenet and
 * for the other board's CPU as well. */
#include <tos/tos.h>

#define MAX_THREADS 8
#define MAX_MSG 5000
static long ms = 10000;
static int msg_bytes;

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
    compute_until(time_us(), 20000ul);
    if (msg_bytes > 0) send_block(1 + k, buf, msg_bytes);
  }
  if (msg_bytes > 0) send_block(1 + k, buf, 0);
  exit(0);
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  if (argc > 2) ms = atol(argv[2]);
  if (argc > 3) msg_bytes = atoi(argv[3]);
  long me = tos_info(TOS_INFO_BOARD);
  int board = argc > 4 ? atoi(argv[4]) : (int)(me % 5 + 1);
  if (threads < 1 || threads > MAX_THREADS || ms < 1 || msg_bytes < 0 || msg_bytes > MAX_MSG || board == me) {
    printf("usage: busy [threads 1..%d [ms [msg_bytes 0..%d [board]]]]\n", MAX_THREADS, MAX_MSG);
    return 2;
  }
  for (int k = 0; k < threads; ++k) {
    if (msg_bytes > 0 && !create(20 + k, 8, board, sink, (void *)(long)k)) {
      printf("busy: create on board %d: %s\n", board, tos_strerror(tos_errno));
      return 1;
    }
    if (!create(2 + k, 8, HERE, loader, (void *)(long)k)) {
      printf("busy: create: %s\n", tos_strerror(tos_errno));
      return 1;
    }
  }
  int rc = wait();
  printf("busy: %d threads for %ld ms%s: %s\n", threads, ms, msg_bytes ? " with messages" : "", rc ? "failed" : "ok");
  return rc;
}
