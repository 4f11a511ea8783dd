/* local (seed 000 Appendix A.1): two threads on one board; the first sends messages of
 * 1 .. 5000 bytes (step 50) to the second over a channel, ten of each size, computing about
 * 10 ms between messages and 50 ms between sizes. With the comms event class on (`dgl +comms`
 * first), the trace shows each message's TRAP7 / TRAP70 / TRAP72 (Figure 5), from which
 * section 3.3.1's local latency is measured (build/bin/tos-bench).
 *   local [max_msg [step [reps]]]    defaults 5000 50 10 */
#include <tos/tos.h>

#include "compute.h"

#define MAX_MSG 5000
static int max_msg = MAX_MSG, step = MAX_MSG / 100, reps = 10;

static void thread2(void *arg) {
  (void)arg;
  char buffer[MAX_MSG];
  int n, messages = 0;
  while ((n = receive(1, buffer, MAX_MSG)) > 0) ++messages;
  exit(n < 0 ? 1 : 0);
}

int main(int argc, char **argv) {
  char buffer[MAX_MSG];
  if (argc > 1) max_msg = atoi(argv[1]);
  if (argc > 2) step = atoi(argv[2]);
  if (argc > 3) reps = atoi(argv[3]);
  if (max_msg < 1 || max_msg > MAX_MSG || step < 1 || reps < 1) {
    printf("usage: local [max_msg 1..%d [step [reps]]]\n", MAX_MSG);
    return 2;
  }
  for (int i = 0; i < max_msg; ++i) buffer[i] = (char)i;
  if (!create(2, 8, HERE, thread2, NULL)) {
    printf("local: create: %s\n", tos_strerror(tos_errno));
    return 1;
  }
  yield();            /* the receiver runs to its receive and blocks there */
  compute_calibrate(); /* then the CPU is this thread's alone */
  int sent = 0;
  for (int len = 1; len <= max_msg; len += step) {
    compute(50);
    for (int rep = 0; rep < reps; ++rep) {
      compute(10);
      send_block(1, buffer, len);
      ++sent;
    }
  }
  send_block(1, buffer, 0);
  int rc = wait();
  printf("local: %d messages of 1..%d bytes sent, receiver %s\n", sent, max_msg, rc ? "failed" : "ok");
  return rc;
}
