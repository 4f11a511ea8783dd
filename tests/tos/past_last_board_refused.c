/* Board numbers past the machine's last board are refused wherever a message names one (issue
 * 33): with the board count a boot-time setting, not the six names, the senders' checks must use
 * the machine's count. On a 16-board machine, earth talks to a thread on board 15 (the last)
 * and forges to it a focus from board 16 (one past the machine) and one whose home is board 16;
 * board 15 must refuse and count both (the ctest entry reads its console), the real messages still
 * arrive, and earth's kernel will not send to board 16 at all. */
#include <testbed/tos_net.h>
#include "tos_check.h"

static unsigned char buf[2000];

static void receiver(void *arg) {
  (void)arg;
  for (int k = 0; k < 3; ++k) {
    int n = receive(1, buf, sizeof buf);
    unsigned long sum = 0;
    for (int i = 0; i < n; ++i) sum += buf[i] ^ (unsigned char)i;
    send_block(2, &sum, sizeof sum);
  }
  exit(0);
}

int main(void) {
  int boards = (int)tos_info(TOS_INFO_BOARDS), last = boards - 1, me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(boards > 6 && me != last, "run this on a machine of more than six boards, not on its last");
  int tid = create(1, 4, last, receiver, NULL);
  CHECK(tid, "create on board %d: %s", last, tos_strerror(tos_errno));
  uint32_t hb = (uint32_t)me, hp = (uint32_t)(tid >> 6 & 15);
  const uint32_t past_origin[7] = {hb, hp, 1, 1, (uint32_t)tid, 10, (uint32_t)boards};
  const uint32_t past_home[7] = {(uint32_t)boards, hp, 1, 1, (uint32_t)tid, 10, (uint32_t)me};
  for (int k = 0; k < 3; ++k) {
    if (k == 1) CHECK(net_inject(last, NET_FOCUS, past_origin, 7) == 0, "inject");
    if (k == 2) CHECK(net_inject(last, NET_FOCUS, past_home, 7) == 0, "inject");
    unsigned long want = 0;
    for (int i = 0; i < (int)sizeof buf; ++i) {
      buf[i] = (unsigned char)(k * 29 + i * 13);
      want += buf[i] ^ (unsigned char)i;
    }
    CHECK(send_block(1, buf, sizeof buf) == 0, "send %d", k);
    unsigned long sum = 0;
    CHECK(receive(2, &sum, sizeof sum) == sizeof sum && sum == want, "message %d arrived damaged", k);
  }
  CHECK(net_inject(boards, NET_FOCUS, past_origin, 7) == -TOS_EINVAL, "board %d is past the machine", boards);
  CHECK(wait() == 0, "the receiver failed");
  tos_pass("past_last_board_refused");
  return 0;
}
