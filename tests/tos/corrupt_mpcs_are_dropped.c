/* Corrupted messages from the network (issue #15's bad input): while earth talks to a thread
 * on air over a remote channel, earth forges messages to air that cannot be what they claim:
 * a focus with too few operands, an rtr naming channel 5000, a focus from board 77, a msg for
 * a receiver that does not wait, a migrating thread of 3 bytes, and a message type no kernel
 * knows. Air must count each, say so on its console, drop it, and go on: every real message
 * still arrives intact (the ctest entry reads air's console for the reports). */
#include <testbed/tos_net.h>
#include "tos_check.h"

static unsigned char buf[3000];

static void receiver(void *arg) {
  (void)arg;
  for (int k = 0; k < 6; ++k) {
    int n = receive(1, buf, sizeof buf);
    unsigned long sum = 0;
    for (int i = 0; i < n; ++i) sum += buf[i] ^ (unsigned char)i;
    send_block(2, &sum, sizeof sum);
  }
  exit(0);
}

int main(void) {
  int air = 2, me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me != air, "run this on a board other than air");
  int tid = create(1, 4, air, receiver, NULL);
  CHECK(tid, "create on air: %s", tos_strerror(tos_errno));
  /* home (board, pid, serial) of this process: pid from the TID; serial 0 is nobody's */
  uint32_t hb = (uint32_t)me, hp = (uint32_t)(tid >> 6 & 15);
  const uint32_t short_focus[3] = {hb, hp, 1};
  const uint32_t far_channel[7] = {hb, hp, 1, 5000, (uint32_t)tid, 10, (uint32_t)me};
  const uint32_t far_origin[7] = {hb, hp, 1, 1, (uint32_t)tid, 10, 77};
  const uint32_t stray_msg[7] = {hb, hp, 1, 1, 0x3FF, 4, 0};
  const uint32_t tiny_thread[4] = {hb, hp, 1, 3};
  for (int k = 0; k < 6; ++k) {
    switch (k) { /* one forgery before each real message */
      case 0: CHECK(net_inject(air, NET_FOCUS, short_focus, 3) == 0, "inject"); break;
      case 1: CHECK(net_inject(air, NET_RTR, far_channel, 7) == 0, "inject"); break;
      case 2: CHECK(net_inject(air, NET_FOCUS, far_origin, 7) == 0, "inject"); break;
      case 3: CHECK(net_inject(air, NET_MSG, stray_msg, 7) == 0, "inject"); break;
      case 4: CHECK(net_inject(air, NET_THREAD, tiny_thread, 4) == 0, "inject"); break;
      case 5: CHECK(net_inject(air, 0, stray_msg, 2) == 0, "inject"); break; /* (type 0: no kind is it, tos.toml) */
    }
    unsigned long want = 0;
    for (int i = 0; i < (int)sizeof buf; ++i) {
      buf[i] = (unsigned char)(k * 37 + i * 11);
      want += buf[i] ^ (unsigned char)i;
    }
    CHECK(send_block(1, buf, sizeof buf) == 0, "send %d", k);
    unsigned long sum = 0;
    CHECK(receive(2, &sum, sizeof sum) == sizeof sum && sum == want, "message %d arrived damaged (%lu, %lu)", k, sum,
          want);
  }
  CHECK(net_inject(99, NET_FOCUS, short_focus, 3) == -TOS_EINVAL, "a board that does not exist");
  CHECK(wait() == 0, "the receiver failed");
  tos_pass("corrupt_mpcs_are_dropped");
  return 0;
}
