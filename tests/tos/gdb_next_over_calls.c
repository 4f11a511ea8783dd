/* The TOS program of the gdb test next_over_calls (tests/gdb): main makes a partner thread on
 * its own board, goes to another board and back (migrate), and then, one line each, prints (a
 * write system call), sends on a channel the partner receives from (main blocks until it does:
 * the kernel runs the partner) and receives what the partner sends back (main blocks again).
 * Each of the three lines reads a variable main wrote on the other board, each in a page of its
 * own: the line's own instructions take a bus error and the page protocol brings the page home,
 * so a single step of gdb's `next` enters the kernel there too. gdb stops at the printf line and
 * `next`s over each; the test finds the lines by the markers in their comments. Then the test
 * steps (stepi) over the trap of one more receive, which waits while the partner computes.
 * The test next_over_migrate stops at the first migrate line instead and follows main through
 * both moves: `next` over the move away, the line that runs there (its writes make the three
 * pages that board's), and a `stepi` over the trap of the move home. */
#include <stdio.h>
#include <tos/tos.h>

/* One page (1 KB) each. */
static volatile int moved[3][256] __attribute__((aligned(1024)));

static void partner(void *arg) {
  char b[4];
  (void)arg;
  receive(1, b, sizeof b);
  send_block(2, "ok", 3);
  receive(3, b, sizeof b);
  compute_ms(100); /* user code, five slices: it runs while main waits in the receive below */
  send_block(2, "ok", 3);
}

int main(void) {
  char reply[4] = "";
  int home = gettid() >> 10, away = home == 2 ? 3 : 2;
  if (!create(1, 2, home, partner, 0)) printf("gdb_next_over_calls: create failed: %d\n", tos_errno);
  if (migrate(gettid(), away) < 0) printf("gdb_next_over_calls: migrate failed: %d\n", tos_errno); /* line: migrate */
  for (int i = 0; i < 3; ++i) moved[i][0] = i + 1; /* line: away */
  if (migrate(gettid(), home) < 0) printf("gdb_next_over_calls: migrate back failed: %d\n", tos_errno); /* line: back */
  printf("gdb_next_over_calls: back, %d\n", moved[0][0]); /* line: printf */
  send_block(1, "go", moved[1][0] + 1);                    /* line: send */
  receive(2, reply, moved[2][0] + 1);                      /* line: receive */
  printf("gdb_next_over_calls: %s\n", reply);              /* line: after */
  send_block(3, "go", 3);
  receive(2, reply, sizeof reply);                         /* line: stepi */
  int rc = wait();
  printf("gdb_next_over_calls: PASS\n");
  return rc;
}
