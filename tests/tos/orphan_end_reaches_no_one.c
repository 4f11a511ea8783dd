/* A TID is not given again while a thread still refers to it (issue #57: "a TID or TCB is never
 * reused while anything refers to the old one"). Thread A makes a child C and ends at once; C,
 * an orphan now, still names A's TID as its parent. The main thread then makes B, which before
 * the fix got A's slot and so A's TID; B makes a child D and waits for it. C ends first, with
 * code 7: its end went to "the thread with A's TID", B, whose wait returned 7 while D was still
 * running. Here A's slot is not given while C lives, B gets another TID, and B's wait returns
 * D's code 5 after D has ended. */
#include "tos_check.h"

#define NAME "orphan_end_reaches_no_one"

static volatile int d_done;
static volatile int b_code = -1, b_saw_d = -1;

static void orphan(void *unused) { /* C */
  (void)unused;
  tos_check_spin_us(100000);
  exit(7);
}

static void late(void *unused) { /* D */
  (void)unused;
  tos_check_spin_us(300000);
  d_done = 1;
  exit(5);
}

static void first(void *unused) { /* A */
  (void)unused;
  CHECK(create(3, 2, HERE, orphan, NULL) >= 0, "A's child: %s", tos_strerror(tos_errno));
  exit(0);
}

static void second(void *unused) { /* B */
  (void)unused;
  CHECK(create(4, 2, HERE, late, NULL) >= 0, "B's child: %s", tos_strerror(tos_errno));
  b_code = wait();
  b_saw_d = d_done;
  exit(0);
}

int main(void) {
  int a = create(1, 2, HERE, first, NULL);
  CHECK(a >= 0, "A: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "A ended badly");
  int b = create(2, 2, HERE, second, NULL);
  CHECK(b >= 0, "B: %s", tos_strerror(tos_errno));
  printf("%s: A was thread %x, B is %x (%s TID)\n", NAME, a, b, a == b ? "the same" : "another");
  wait();
  CHECK(b_code == 5 && b_saw_d == 1, "B's wait returned %d with its child D %s", b_code,
        b_saw_d == 1 ? "ended" : "still running");
  tos_pass(NAME);
  return 0;
}
