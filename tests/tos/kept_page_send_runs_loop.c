/* A send whose data page another board takes away while the send is blocked (the sender's
 * `out` and the remote receiver's `in` share one page, so each message moves the page twice:
 * the receiver's write takes it, the sender's next send reads it back) keeps its frame for the
 * send (pages.c keep()); the sender's board must go on running its main loop meanwhile. The
 * main loop's look for such kept frames once read every process's whole page table, 30 ms a
 * loop pass, and every message then took about 100 ms. Here each message's round (send, the
 * receiver's reply) must stay under 40 ms: its steps are two page moves of 1 KB over an idle
 * 10 MB/s bus (0.1 ms each) and a few loop passes of each board, about 1 ms each. */
#include "tos_check.h"

#define HALF (TOS_PAGE_SIZE / 2)
static struct {
  char in[HALF], out[HALF];
} __attribute__((aligned(TOS_PAGE_SIZE))) page;
#define ROUNDS 12

static void receiver(void *arg) {
  (void)arg;
  for (int k = 0; k < ROUNDS; ++k) {
    int n = receive(1, page.in, HALF);
    if (n != 100 || page.in[n - 1] != (char)k) exit(2);
    send_block(2, &n, sizeof n);
  }
  exit(0);
}

static unsigned long now_us(void) {
  unsigned long us;
  long s = tos_clock(&us);
  return (unsigned long)s * 1000000ul + us;
}

int main(void) {
  int air = (int)(tos_info(TOS_INFO_BOARD) % (TOS_BOARD_NAME_COUNT - 1) + 1);
  CHECK(create(2, 4, air, receiver, NULL) != 0, "create on board %d: %s", air, tos_strerror(tos_errno));
  unsigned long worst = 0, total = 0;
  for (int k = 0; k < ROUNDS; ++k) {
    page.out[99] = (char)k;
    unsigned long t0 = now_us();
    send_block(1, page.out, 100);
    int n = 0;
    CHECK(receive(2, &n, sizeof n) == sizeof n && n == 100, "reply %d to message %d", n, k);
    unsigned long d = now_us() - t0;
    if (k > 0 && d > worst) worst = d; /* the first: the receiver's code and stack come too */
    if (k > 0) total += d;
  }
  CHECK(wait() == 0, "the receiver failed");
  printf("kept_page_send_runs_loop: rounds %d, mean %lu us, worst %lu us\n", ROUNDS - 1,
         total / (ROUNDS - 1), worst);
  CHECK(worst < 40000, "a round took %lu us: a board with a kept page stalls its main loop", worst);
  tos_pass("kept_page_send_runs_loop");
  return 0;
}
