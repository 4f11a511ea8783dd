/* Thread migration (seed 000 section 2.2.2): a thread moves itself through every slave and
 * back, checking after each move that its stack (pages left behind, copied over when touched)
 * and its own heap data are intact; the home moves a ready worker to another board and on from
 * there (a request that goes to the thread's board); ps's view (pinfo) says where threads are;
 * and a blocked thread, a thread that does not exist and a board that does not exist are
 * refused with ENOTREADY, ESRCH and EINVAL. Every board's TCBs and frames come back. */
#include <string.h>
#include "tos_check.h"

#define STACK_BYTES 6000 /* six pages of the thread's stack, all left behind at each move */

static unsigned pattern(int i, int salt) { return (unsigned)(i * 2654435761u) ^ (unsigned)salt; }

static void traveller(void *arg) {
  (void)arg;
  unsigned data[STACK_BYTES / 4];
  int me = gettid();
  for (int i = 0; i < STACK_BYTES / 4; ++i) data[i] = pattern(i, me);
  int start = (int)tos_info(TOS_INFO_BOARD), moves = 0;
  for (int round = 0; round < 2; ++round)
    for (int b = 1; b < TOS_BOARD_NAME_COUNT; ++b) {
      int to = (start + b + round) % TOS_BOARD_NAME_COUNT;
      if (migrate(me, to) != 0) exit(10 + b);
      if (tos_info(TOS_INFO_BOARD) != to) exit(20 + b);
      for (int i = 0; i < STACK_BYTES / 4; ++i)
        if (data[i] != pattern(i, me)) exit(30 + b);
      data[moves] ^= 1u; /* written on this board: must travel on */
      data[moves] ^= 1u;
      ++moves;
    }
  exit(moves == 2 * (TOS_BOARD_NAME_COUNT - 1) ? 0 : 5);
}

static volatile int spin_done;
static void worker(void *arg) { /* stays ready: computes, then reports where it ended up */
  int ch = (int)arg;
  unsigned long sum = 0;
  unsigned char local[3000];
  for (int i = 0; i < (int)sizeof local; ++i) local[i] = (unsigned char)(i * 7);
  unsigned long t0 = time_us();
  while (time_us() - t0 < 300000ul)
    for (int i = 0; i < (int)sizeof local; i += 97) sum += local[i];
  for (int i = 0; i < (int)sizeof local; ++i)
    if (local[i] != (unsigned char)(i * 7)) exit(7);
  long where = tos_info(TOS_INFO_BOARD);
  send_block(ch, &where, sizeof where);
  exit(0);
}

static void blocked(void *arg) { /* waits on a channel until main sends */
  int ch = (int)arg;
  long v;
  receive(ch, &v, sizeof v);
  exit(v == 42 ? 0 : 8);
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD);
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES), tcbs0 = tos_info(TOS_INFO_FREE_TCBS);

  /* refusals */
  int b = create(3, 4, me % 5 + 1, blocked, (void *)3);
  CHECK(b != 0, "create the blocked thread: %s", tos_strerror(tos_errno));
  unsigned long t0 = time_us();
  while (time_us() - t0 < 50000ul) yield(); /* let it block in receive */
  CHECK(migrate(b, me) == -TOS_ENOTREADY, "a blocked thread on another board: %s", tos_strerror(tos_errno));
  CHECK(migrate(0x3FF, 1) == -TOS_ESRCH, "a thread that does not exist: %s", tos_strerror(tos_errno));
  CHECK(migrate(gettid(), 99) == -TOS_EINVAL, "a board that does not exist: %s", tos_strerror(tos_errno));
  long v = 42;
  CHECK(send_block(3, &v, sizeof v) == 0, "release the blocked thread");

  /* a thread moves itself everywhere */
  int t = create(1, 8, HERE, traveller, NULL);
  CHECK(t != 0, "create traveller: %s", tos_strerror(tos_errno));

  /* the home moves a ready worker away, then on from where it is */
  int w = create(2, 4, HERE, worker, (void *)5);
  CHECK(w != 0, "create worker: %s", tos_strerror(tos_errno));
  int to1 = me % 5 + 1, to2 = (me + 1) % 5 + 1;
  CHECK(migrate(w, to1) == 0, "worker to board %d: %s", to1, tos_strerror(tos_errno));
  CHECK(tos_board_of(w) == to1, "ps shows the worker on board %d, not %d", tos_board_of(w), to1);
  CHECK(migrate(w, to2) == 0, "worker on from board %d to %d: %s", to1, to2, tos_strerror(tos_errno));
  long where = -1;
  CHECK(receive(5, &where, sizeof where) == sizeof where, "the worker's report");
  CHECK(where == to2, "the worker finished on board %ld, not %d", where, to2);

  int rc = wait();
  CHECK(rc == 0, "a child failed with %d (10+: migrate refused, 20+: wrong board, 30+: stack data lost)", rc);
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames leaked on the home: %ld of %ld", tos_info(TOS_INFO_FREE_FRAMES),
        frames0);
  CHECK(tos_info(TOS_INFO_FREE_TCBS) == tcbs0, "TCBs leaked on the home");
  tos_pass("migration_keeps_data");
  return 0;
}
