/* migrate (seed 000 Appendix A.3): two threads communicate intermittently over a channel; the
 * first stays on its board, the second migrates to another board after every message it
 * receives. Its 5000-byte buffer is on its stack, so after each move the next receive touches
 * stack pages left on the board before: they follow it by remote page copying (Figure 8). With
 * the comms class on, the trace shows each migration's packing, flight and unpacking (Figure 7)
 * and each page copy's phases; build/bin/tos-bench measures them.
 *   migrate [loops [compute_ms]]    defaults: 20 100 */
#include <stdio.h>
#include <stdlib.h>
#include <tos/tos.h>

#include "compute.h"

#define MAX_MSG 5000
static char out[MAX_MSG];
static int loops = 20;

static void thread2(void *arg) {
  (void)arg;
  char buffer[MAX_MSG];
  int me = gettid(), moved = 0, board = (int)tos_info(TOS_INFO_BOARD);
  for (int i = 0; i < loops; ++i) {
    if (receive(1, buffer, MAX_MSG) != MAX_MSG || buffer[i % MAX_MSG] != (char)(i + 1)) exit(3);
    board = board % (TOS_BOARD_NAME_COUNT - 1) + 1; /* the next slave: never the board it is on */
    if (migrate(me, board) == 0) ++moved;
  }
  exit(moved == loops ? 0 : 4);
}

int main(int argc, char **argv) {
  if (argc > 1) loops = atoi(argv[1]);
  long ms = argc > 2 ? atol(argv[2]) : 100;
  if (loops < 1 || ms < 0) {
    printf("usage: migrate [loops [compute_ms]]\n");
    return 2;
  }
  if (!create(2, 8, HERE, thread2, NULL)) {
    printf("migrate: create: %s\n", tos_strerror(tos_errno));
    return 1;
  }
  yield();            /* the receiver runs to its receive and blocks there */
  compute_calibrate(); /* then the CPU is this thread's alone */
  for (int i = 0; i < loops; ++i) {
    for (int k = 0; k < MAX_MSG; ++k) out[k] = (char)(i + 1);
    send_block(1, out, MAX_MSG);
    compute((unsigned long)ms);
  }
  int rc = wait();
  printf("migrate: %d messages, the receiver migrated after each: %s\n", loops, rc ? "failed" : "ok");
  return rc;
}
