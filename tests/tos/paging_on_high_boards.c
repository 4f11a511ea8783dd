/* Remote paging for a process at home on a board above 15 (a TID's board field is six bits,
 * tos.toml [tid]): on a machine of 32 boards this program, at home on board17, makes a thread on
 * board18 that writes a global and reads one main wrote. Each access is a page request to
 * board17 in the thread's name; a home that compared only the low four bits of the TID's board
 * field took its own thread for a stranger's, refused the request ("thread not of the
 * process"), and the thread waited for its page for ever. */
#include "tos_check.h"

static volatile long from_main = 0x5EED, from_thread;

static void away(void *arg) {
  (void)arg;
  from_thread = from_main + 1; /* a read fault, then a write fault, both served by board17 */
  exit(0);
}

int main(void) {
  long me = tos_info(TOS_INFO_BOARD);
  CHECK(me == 17, "runs on board17 (is on %ld)", me);
  CHECK(create(2, 4, (int)me + 1, away, NULL) != 0, "create on board18: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the thread on board18 ended cleanly");
  CHECK(from_thread == 0x5EED + 1, "the thread's write came home: %lx", from_thread);
  tos_pass("paging_on_high_boards");
  return 0;
}
