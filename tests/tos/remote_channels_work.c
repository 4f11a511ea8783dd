/* Across boards: from earth, a thread is created on each other slave and on a board chosen at
 * random; each receives messages of 0, 1, 1024, 5000 and 100,000 bytes over a remote channel
 * (focus / advert, rtr, msg in pieces), checks every byte, and answers with the length and a
 * checksum over another channel; wait() collects them all. The receiving threads' code and
 * buffers reach their boards by remote page copying. */
#include "tos_check.h"

#define BIG 100000
static unsigned char buf[BIG];
static const int lengths[] = {0, 1, 1024, 5000, BIG};
#define NLEN 5

static unsigned char pattern(int len, int i) { return (unsigned char)(len * 3 + i * 7 + (i >> 9)); }

static void receiver(void *arg) {
  int ch = (int)arg;
  for (int k = 0; k < NLEN; ++k) {
    int n = receive(ch, buf, BIG);
    unsigned long sum = 0;
    int ok = n == lengths[k];
    for (int i = 0; i < n; ++i) {
      sum += buf[i];
      if (buf[i] != pattern(n, i)) ok = 0;
    }
    long reply[3] = {n, (long)sum, ok};
    send_block(ch + 1, reply, sizeof reply);
  }
  exit((int)tos_info(TOS_INFO_BOARD));
}

static void talk(int board, int ch) {
  int tid = create(ch, 4, board, receiver, (void *)ch);
  CHECK(tid != 0, "create on board %d: %s", board, tos_strerror(tos_errno));
  for (int k = 0; k < NLEN; ++k) {
    int len = lengths[k];
    unsigned long sum = 0;
    for (int i = 0; i < len; ++i) {
      buf[i] = pattern(len, i);
      sum += buf[i];
    }
    CHECK(send_block(ch, buf, len) == 0, "send %d bytes to board %d", len, board);
    long reply[3];
    CHECK(receive(ch + 1, reply, sizeof reply) == sizeof reply, "reply from board %d", board);
    CHECK(reply[0] == len && reply[1] == (long)sum && reply[2], "board %d got %ld bytes (sum %ld, ok %ld) of %d",
          board, reply[0], reply[1], reply[2], len);
  }
  printf("remote: thread %x on board %d received 0..100000 bytes intact\n", tid, board);
}

int main(void) {
  long me = tos_info(TOS_INFO_BOARD), frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  int ch = 2;
  for (int b = 1; b < TOS_BOARD_NAME_COUNT; ++b)
    if (b != me) {
      talk(b, ch);
      ch += 2;
    }
  talk(-1, ch); /* a board chosen by TOS */
  int rc = wait();
  CHECK(rc != 0, "the children's exit codes (their boards) did not come back");
  /* (pages of buf the receivers wrote now live on their boards: the home may have more free) */
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) >= frames0, "frames leaked on the home board");
  tos_pass("remote_channels_work");
  return 0;
}
