/* remote (seed 000 Appendix A.2): as local, but the second thread runs on another board, so
 * every message goes over Centrenet with the focus / rtr / msg protocol (Figure 6). With the
 * comms class on (`dgl +comms` on both boards), the trace shows each message's phases, from
 * which section 3.3.2's remote latency is measured (build/bin/tos-bench).
 *   remote [board [max_msg [step [reps]]]]    defaults: the next board, 5000 100 1 */
#include <stdio.h>
#include <stdlib.h>
#include <tos/tos.h>

#include "compute.h"

#define MAX_MSG 5000

/* Each thread's buffer is on its own stack, as in Appendix A.2: the receiver's stack pages
 * follow it to its board and stay there. Two adjacent static arrays (as this program had)
 * share a page, which then went back and forth between the boards twice a message under the
 * page protocol (the sender reads it, the receiver writes it): about 13 ms a message, 6 of them
 * inside the rtr's flight, that the report's program did not have. */
static void thread2(void *arg) {
  (void)arg;
  char in[MAX_MSG];
  int n;
  while ((n = receive(1, in, MAX_MSG)) > 0) {
  }
  exit(n < 0 ? 1 : 0);
}

int main(int argc, char **argv) {
  char out[MAX_MSG];
  long me = tos_info(TOS_INFO_BOARD);
  int board = argc > 1 ? atoi(argv[1]) : (int)(me % (TOS_BOARD_NAME_COUNT - 1) + 1);
  int max_msg = argc > 2 ? atoi(argv[2]) : MAX_MSG, step = argc > 3 ? atoi(argv[3]) : MAX_MSG / 50;
  int reps = argc > 4 ? atoi(argv[4]) : 1;
  if (max_msg < 1 || max_msg > MAX_MSG || step < 1 || reps < 1 || board == me) {
    printf("usage: remote [board (not this one) [max_msg 1..%d [step [reps]]]]\n", MAX_MSG);
    return 2;
  }
  if (!create(2, 8, board, thread2, NULL)) {
    printf("remote: create on board %d: %s\n", board, tos_strerror(tos_errno));
    return 1;
  }
  compute_calibrate(); /* then the CPU is this thread's alone */
  int sent = 0;
  for (int len = 1; len <= max_msg; len += step) {
    compute(50);
    for (int rep = 0; rep < reps; ++rep) {
      compute(10);
      send_block(1, out, len);
      ++sent;
    }
  }
  send_block(1, out, 0);
  int rc = wait();
  printf("remote: %d messages of 1..%d bytes to board %d, receiver %s\n", sent, max_msg, board, rc ? "failed" : "ok");
  return rc;
}
