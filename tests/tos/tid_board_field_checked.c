/* A TID's board field is six bits (tos.toml [tid]): a receiver that compares only its low four
 * takes the TID of board 1 for one of board 17. On a machine of 32 boards this program, at home
 * on board17, sends board18 a create for its own process whose parent TID names board 1 (17's
 * low bits) with this process's number and slot: board18 must refuse it ("parent TID"). Before
 * the fix the kernel masked the board field with 15 and took the create. */
#include <testbed/tos_net.h>
#include "tos_check.h"

static void stray(void *arg) {
  (void)arg;
  printf("a thread made by a create whose parent TID names another board\n");
  exit(77);
}

int main(void) {
  uint32_t me = (uint32_t)tos_info(TOS_INFO_BOARD), tid = (uint32_t)gettid(), target = me + 1;
  CHECK(me == 17, "runs on board17 (is on %lu)", (unsigned long)me);
  uint32_t pid = tid >> TOS_TID_PROCESS_SHIFT & TOS_TID_PROCESS_MASK;
  uint32_t low_board = me & 15; /* 1: the same low four bits as 17 */
  uint32_t forged = low_board << TOS_TID_BOARD_SHIFT | (tid & ~((uint32_t)TOS_TID_BOARD_MASK << TOS_TID_BOARD_SHIFT));
  const uint32_t ops[10] = {me, pid, 1, 50, (uint32_t)stray, 0, 0, 2, forged, 99};
  CHECK(net_inject(target, NET_CREATE, ops, 10) == 0, "inject");
  for (unsigned long t0 = time_us(); time_us() - t0 < 300000;) yield(); /* time for board18 to take it */
  tos_pass("tid_board_field_checked");
  return 0;
}
