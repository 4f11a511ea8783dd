/* The TOS program of the gdb test reverse_across_boards (tests/gdb): main, on earth, makes a
 * partner thread on air (another board of its process); the partner computes a word and stores it
 * twice in `sent` -- a page of its own, which the page protocol brings to air for the stores --
 * and sends the second value over a channel; main computes a while (the partner waits in its
 * send meanwhile) and then receives it into `got`. The test stops main at the receive line; air's
 * gdb then watches `sent[0]` in the partner's thread and reverse-continues: the whole machine goes
 * back to the partner's second store, then to its first, on air. */
#include <stdio.h>
#include <tos/tos.h>

static volatile int sent[256] __attribute__((aligned(1024)));
static int got;

static void partner(void *arg) {
  (void)arg;
  int v = 0;
  for (int i = 1; i <= 10; ++i) v = v * 3 + i;
  sent[0] = v;                                    /* line: first */
  sent[0] = v + 1;                                /* line: second */
  send_block(1, (const void *)sent, sizeof(int)); /* line: send */
}

int main(void) {
  int home = gettid() >> 10, away = home == 2 ? 3 : 2;
  if (!create(1, 2, away, partner, 0)) printf("gdb_cross_board: create failed: %d\n", tos_errno);
  compute_ms(100);
  receive(1, &got, sizeof got);                   /* line: receive */
  printf("gdb_cross_board: got %d\n", got);
  int rc = wait();
  printf("gdb_cross_board: PASS\n");
  return rc;
}
