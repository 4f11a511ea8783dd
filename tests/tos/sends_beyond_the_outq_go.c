/* More remote sends at once than the kernel's remote-send table holds (rchan.c, TOS_OUTQ; this
 * test boots tos-outq2.elf, whose table has 2 entries): each one still goes. Twelve senders on
 * fire send 8 KB each, on a channel of their own, to receivers waiting on four other boards;
 * their rtrs come back while every entry of fire's table is busy with the msgs before them.
 * Before the fix such an rtr was kept and nothing started its msg when an entry came free
 * (on_rtr), or the sender's rtr was dropped and its focus sent again, which the receiver, its
 * rtr already out, kept unanswered (rchan_request): both sides waited for ever. */
#include "tos_check.h"

#define PAIRS 12
#define LEN 8192
#define FIRE 3
#define STACK_PAGES (LEN / 1024 + 4)
static const int receiver_board[4] = {2, 4, 5, 1}; /* air, water, space, earth */

static char fill(int pair, int i) { return (char)(pair * 31 + i * 7 + (i >> 8)); }

/* arg: the pair's number in the low 4 bits, above them the time (ms since boot, on every
 * board's clock) at which all senders send: each yields until then, so the sends follow one
 * another within a few milliseconds, not a 20 ms slice apart as spinning would. */
static void sender(void *arg) {
  int pair = (int)((unsigned long)arg & 15);
  unsigned long go_ms = (unsigned long)arg >> 4;
  char buf[LEN];
  for (int i = 0; i < LEN; ++i) buf[i] = fill(pair, i);
  while (time_us() / 1000 < go_ms) yield(); /* every receiver waits by now */
  if (send_block(1 + pair, buf, LEN) != 0) exit(10);
  exit(0);
}

static void receiver(void *arg) {
  int pair = (int)(long)arg;
  char buf[LEN];
  if (receive(1 + pair, buf, LEN) != LEN) exit(20);
  for (int i = 0; i < LEN; ++i)
    if (buf[i] != fill(pair, i)) exit(30);
  exit(0);
}

int main(void) {
  CHECK(tos_info(TOS_INFO_BOARDS) == TOS_BOARD_NAME_COUNT && HERE == 1, "the six-board Testbed, home earth, is assumed");
  unsigned long go_ms = time_us() / 1000 + 2000; /* after every create below and every buffer filled */
  for (int k = 0; k < PAIRS; ++k) {
    int r = create(2 + 2 * k, STACK_PAGES, receiver_board[k % 4], receiver, (void *)(long)k);
    CHECK(r > 0, "create receiver %d: %s", k, tos_strerror(tos_errno));
    int s = create(3 + 2 * k, STACK_PAGES, FIRE, sender, (void *)(go_ms << 4 | (unsigned long)k));
    CHECK(s > 0, "create sender %d: %s", k, tos_strerror(tos_errno));
  }
  int rc = wait();
  CHECK(rc == 0, "a thread failed with code %d (10: send; 20: short receive; 30: wrong bytes)", rc);
  tos_pass("sends_beyond_the_outq_go");
  return 0;
}
