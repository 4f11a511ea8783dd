/* occam channels: messages arrive in order, lengths 0 .. 100,000 bytes arrive whole, both
 * sides stay blocked until the copy is done, and a receive shorter than the message takes its
 * first bytes and says how many. */
#include "tos_check.h"

#define BIG 100000
static unsigned char out[BIG], in[BIG];
static const int lengths[] = {0, 1, 1023, 1024, 1025, 5000, 100000};
#define NLEN (int)(sizeof lengths / sizeof lengths[0])
static volatile int sender_done, receiver_done;

static unsigned char pattern(int len, int i) { return (unsigned char)(len * 7 + i * 13 + (i >> 8)); }

static void sender(void *arg) {
  (void)arg;
  for (int k = 0; k < NLEN; ++k) {
    int len = lengths[k];
    for (int i = 0; i < len; ++i) out[i] = pattern(len, i);
    CHECK(send_block(1, out, len) == 0, "send %d", len);
  }
  /* sender first: it must stay blocked until the receiver has taken the message */
  sender_done = 0;
  CHECK(send_block(2, out, 8) == 0, "send on 2");
  sender_done = 1;
  /* receiver first: now this side makes the receiver wait */
  for (int i = 0; i < 5; ++i) {
    yield();
    CHECK(!receiver_done, "receiver returned before anything was sent");
  }
  CHECK(send_block(3, out, 5000) == 0, "send on 3");
  exit(0);
}

int main(void) {
  CHECK(create(2, 4, HERE, sender, NULL) != 0, "create %d", tos_errno);
  for (int k = 0; k < NLEN; ++k) {
    int len = lengths[k];
    memset(in, 0xEE, sizeof in);
    int n = receive(1, in, BIG);
    CHECK(n == len, "received %d bytes, sent %d", n, len);
    for (int i = 0; i < len; ++i) CHECK(in[i] == pattern(len, i), "length %d byte %d", len, i);
    CHECK(len == BIG || in[len] == 0xEE, "wrote past the message (length %d)", len);
    printf("channels: %d bytes ok\n", len);
  }
  for (int i = 0; i < 5; ++i) {
    yield();
    CHECK(!sender_done, "sender returned before the receiver took the message");
  }
  CHECK(receive(2, in, 8) == 8, "receive on 2");
  yield();
  CHECK(sender_done, "sender still blocked after the receive");
  memset(in, 0, 16);
  int n = receive(3, in, 10); /* shorter than the 5000 bytes sent */
  receiver_done = 1;
  CHECK(n == 10, "short receive returned %d", n);
  for (int i = 0; i < 10; ++i) CHECK(in[i] == out[i], "short receive byte %d", i);
  CHECK(in[10] == 0, "short receive wrote past its length");
  CHECK(wait() == 0, "sender failed");
  CHECK(send_block(128, out, 1) == -TOS_EINVAL, "channel 128 accepted");
  CHECK(receive(-1, in, 1) == -TOS_EINVAL, "channel -1 accepted");
  CHECK(send_block(5, (void *)0x00FFFFF0, 64) == -TOS_EFAULT, "unmapped buffer accepted");
  tos_pass("channels_follow_occam");
  return 0;
}
