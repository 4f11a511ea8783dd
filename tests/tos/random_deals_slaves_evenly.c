/* create(..., processor < 0, ...) deals the slaves evenly (issue #32): the report's random
 * allocation "assigns equal numbers of threads to each processor" (seed 000 section 4.3.4),
 * which Table 9's compute-bound row relies on. Drawn independently, 20 threads once put 8 on
 * earth and 2 on space. Twenty children created at random must land four on each slave and
 * none on the master; the four rounds of five must not all be dealt in one order (a rotation
 * is not random); three more go to three different slaves. */
#include "tos_check.h"

#define ROUNDS 4
#define MORE 3

static void child(void *arg) {
  int board = (int)tos_info(TOS_INFO_BOARD);
  if (send_block(1 + (int)(long)arg, &board, sizeof board) < 0) exit(1);
  exit(0);
}

int main(void) {
  int slaves = (int)tos_info(TOS_INFO_BOARDS) - 1, n = ROUNDS * slaves + MORE;
  CHECK(slaves == 5, "run this on the six-board Testbed, not %d slaves", slaves);
  int where[ROUNDS * 5 + MORE], count[6] = {0};
  for (int i = 0; i < n; ++i) CHECK(create(i + 2, 2, -1, child, (void *)(long)i), "create %d: %s", i, tos_strerror(tos_errno));
  for (int i = 0; i < n; ++i) {
    CHECK(receive(1 + i, &where[i], sizeof where[i]) == sizeof where[i], "child %d did not report", i);
    CHECK(where[i] >= 1 && where[i] <= slaves, "child %d is on board %d, not a slave", i, where[i]);
  }
  for (int i = 0; i < ROUNDS * slaves; ++i) ++count[where[i]];
  for (int b = 1; b <= slaves; ++b) CHECK(count[b] == ROUNDS, "slave %d got %d of %d threads", b, count[b], ROUNDS * slaves);
  int orders = 0;
  for (int r = 1; r < ROUNDS; ++r)
    for (int k = 0; k < slaves; ++k)
      if (where[r * slaves + k] != where[k]) {
        ++orders;
        break;
      }
  CHECK(orders > 0, "every round dealt the slaves in one order");
  for (int i = ROUNDS * slaves; i < n; ++i)
    for (int j = ROUNDS * slaves; j < i; ++j) CHECK(where[i] != where[j], "children %d and %d both on slave %d", j, i, where[i]);
  CHECK(wait() == 0, "a child failed");
  tos_pass("random_deals_slaves_evenly");
  return 0;
}
