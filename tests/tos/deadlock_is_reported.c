/* A program that can never end: its two threads each wait to receive from the other before
 * sending (a circular wait). Every board then idles forever on its timer: the simulator's
 * no-progress detection (run.no_progress_ms) must stop the run and say so, exit status 1
 * (tests/tos_kernel.cmake). */
#include "tos_check.h"

static void partner(void *arg) {
  (void)arg;
  char c;
  receive(1, &c, 1); /* waits for main, which waits for us */
  send_block(2, &c, 1);
  exit(0);
}

int main(void) {
  char c = 'x';
  CHECK(create(2, 4, HERE, partner, NULL), "create: %s", tos_strerror(tos_errno));
  printf("deadlock_is_reported: both threads now wait for each other\n");
  receive(2, &c, 1);
  send_block(1, &c, 1);
  printf("deadlock_is_reported: FAIL: the circular wait ended\n");
  return 1;
}
