/* A receiver that moves while a sender's focus waits on its board takes the focus along
 * (rchan.c, pack_chan). Its arrival must not mark the process as one that routes psends
 * (route.c) unless the focus is on a channel the receiver never received on: marked, every later
 * move of the process's threads from that board looked at all 128 channels while packing (in
 * the 1994 profile 12.7 of a move's 14.3 ms: section 3's migrate showed it on fire and water).
 * The receiver R tours the slaves, earth's main sending to it, in four rounds of four moves:
 * round 1 makes the process's part on every board, round 2 moves R with no focus waiting (the
 * baseline), round 3 with main's focus waiting on R's board when R moves (it goes along), round 4
 * again with none. R times each migrate() from its call on one board to its return on the next;
 * round 4's moves are the same pairs of boards as round 2's, so they must cost the same. */
#include "tos_check.h"

#define DATA 1  /* main -> R */
#define READY 2 /* R -> main: R is on its board, about to move */
#define ROUNDS 4
#define MOVES 4                /* air -> fire -> water -> space -> air */
#define FOCUS_WAIT_US 40000    /* R spins while main's focus reaches its board */
#define AFTER_MOVE_US 40000    /* main waits so that R has left before it sends */
#define FOCUS_ROUND 3

static unsigned long took[ROUNDS + 1][MOVES];

static void receiver(void *arg) {
  (void)arg;
  int me = gettid(), board = (int)tos_info(TOS_INFO_BOARD), x = 0;
  char buf[16];
  for (int r = 1; r <= ROUNDS; ++r)
    for (int k = 0; k < MOVES; ++k) {
      if (send_block(READY, &x, sizeof x) != 0) exit(11);
      if (r == FOCUS_ROUND) tos_check_spin_us(FOCUS_WAIT_US); /* main's focus arrives and waits */
      board = board % (TOS_BOARD_NAME_COUNT - 2) + 2;          /* the next of air .. space */
      unsigned long t0 = time_us();
      int rc = migrate(me, board);
      took[r][k] = time_us() - t0;
      if (rc != 0) exit(12);
      if (receive(DATA, buf, sizeof buf) != (int)sizeof buf) exit(13);
    }
  exit(0);
}

int main(void) {
  CHECK(tos_info(TOS_INFO_BOARDS) == TOS_BOARD_NAME_COUNT && HERE == 1, "the six-board Testbed, home earth, is assumed");
  int tid = create(1, 8, 2, receiver, NULL);
  CHECK(tid > 0, "create the receiver on air: %s", tos_strerror(tos_errno));
  char buf[16] = "next";
  int x;
  for (int r = 1; r <= ROUNDS; ++r)
    for (int k = 0; k < MOVES; ++k) {
      CHECK(receive(READY, &x, sizeof x) == (int)sizeof x, "round %d move %d: ready", r, k);
      if (r != FOCUS_ROUND) tos_check_spin_us(AFTER_MOVE_US); /* R moves before the focus goes */
      CHECK(send_block(DATA, buf, sizeof buf) == 0, "round %d move %d: send", r, k);
    }
  int rc = wait();
  CHECK(rc == 0, "the receiver failed with code %d (11 ready, 12 migrate, 13 receive)", rc);
  unsigned long before = 0, after = 0; /* took[] is the receiver's: shared pages, now home */
  for (int k = 0; k < MOVES; ++k) {
    before += took[2][k];
    after += took[4][k];
    printf("move %d: %lu us before a focus went along, %lu us after\n", k, took[2][k], took[4][k]);
  }
  CHECK(before > 0 && after * 4 <= before * 5, "moves cost %lu us after a focus went along, %lu us before", after, before);
  tos_pass("focus_carried_packs_alike");
  return 0;
}
