/* A TOS job over every slave of a machine larger than the Testbed's six (issue 33; run on 16 and
 * 40 boards, sim/configs/boards-*.toml): from earth, a thread is created remotely on every other
 * slave, the machine's size asked of the kernel (TOS_INFO_BOARDS), not assumed. The threads form a
 * ring in board order over remote channels, so the message crosses every Centrenet node boundary
 * (15 -> 16, 31 -> 32); it goes round ROUNDS times, 1 KB of data each time, and every thread
 * checks every byte, that it runs on the board it was created for, and rewrites the data for the
 * next hop. Earth checks the hop count and the sum of the boards the message passed. */
#include "tos_check.h"

#define LEN (1024 - 16) /* a message is one page */
#define ROUNDS 2

struct ring_msg {
  long round, hops, board_sum, bad;
  unsigned char data[LEN];
};

/* one message buffer per thread, a page each: the pages settle on their threads' boards */
static struct ring_msg bufs[TOS_MAX_BOARDS] __attribute__((aligned(1024)));
static int board_of[TOS_MAX_BOARDS];

static unsigned char pattern(long hops, int i) { return (unsigned char)(i * 7 + hops * 13); }

static void fill(struct ring_msg *m) {
  for (int i = 0; i < LEN; ++i) m->data[i] = pattern(m->hops, i);
}

static void member(void *arg) {
  int k = (int)arg; /* receives on channel k + 1, sends on k + 2 */
  struct ring_msg *m = &bufs[k];
  for (int r = 0; r < ROUNDS; ++r) {
    int n = receive(k + 1, m, sizeof *m);
    if (n != (int)sizeof *m) m->bad |= 1;
    for (int i = 0; i < LEN; ++i)
      if (m->data[i] != pattern(m->hops, i)) m->bad |= 2;
    if (tos_info(TOS_INFO_BOARD) != board_of[k]) m->bad |= 4;
    m->hops++;
    m->board_sum += tos_info(TOS_INFO_BOARD);
    fill(m);
    if (send_block(k + 2, m, sizeof *m) != 0) exit(1);
  }
  exit(0);
}

int main(void) {
  long me = tos_info(TOS_INFO_BOARD), boards = tos_info(TOS_INFO_BOARDS);
  CHECK(boards >= 2 && boards <= TOS_MAX_BOARDS, "the kernel says the machine has %ld boards", boards);
  int n = 0;
  long sum = 0;
  for (int b = 1; b < boards; ++b)
    if (b != me) {
      board_of[n] = b;
      sum += b;
      CHECK(create(n + 1, 4, b, member, (void *)n) != 0, "create on board %d: %s", b, tos_strerror(tos_errno));
      ++n;
    }
  struct ring_msg *m = &bufs[TOS_MAX_BOARDS - 1];
  for (int r = 0; r < ROUNDS; ++r) {
    m->round = r;
    if (r == 0) m->hops = m->board_sum = m->bad = 0;
    fill(m);
    CHECK(send_block(1, m, sizeof *m) == 0, "send into the ring, round %d", r);
    CHECK(receive(n + 1, m, sizeof *m) == (int)sizeof *m, "the message back from the ring, round %d", r);
    CHECK(m->bad == 0, "a member found a fault (bits %ld: 1 length, 2 data, 4 wrong board), round %d", m->bad, r);
    CHECK(m->hops == (long)n * (r + 1), "%ld hops after round %d, not %ld", m->hops, r, (long)n * (r + 1));
    CHECK(m->board_sum == sum * (r + 1), "boards passed sum to %ld after round %d, not %ld", m->board_sum, r,
          sum * (r + 1));
    for (int i = 0; i < LEN; ++i) CHECK(m->data[i] == pattern(m->hops, i), "byte %d after round %d", i, r);
  }
  CHECK(wait() == 0, "a member of the ring failed");
  printf("ring: %d threads on boards 1..%ld (a machine of %ld), %d rounds of %d bytes\n", n, boards - 1, boards,
         ROUNDS, LEN);
  tos_pass("many_boards_run_one_job");
  return 0;
}
