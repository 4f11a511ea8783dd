/* A receiver's rtr that comes back to its board with the sender it was meant for is no longer
 * out: should that sender leave again before it sends, its focus from the next board is
 * answered (rchan.c, rchan_unpack). The schedule, on the six-board Testbed (home earth):
 *   1. the sender S on fire sends message 1 on channel 1; fire does not know yet where the
 *      receiver R is, so its focus goes to every board as an advert: R on water takes it, the
 *      master (no part of the process yet) keeps it until a part is made there;
 *   2. R moves to the master, which then holds that first advert as a waiting sender's focus,
 *      and receives again: its rtr goes to fire, where S, busy, keeps it;
 *   3. S moves to the master carrying that rtr (our own come back: both are on the master now),
 *      then on to space before it sends;
 *   4. S sends message 2 from space: its focus goes to the master, where R waits.
 * Before the fix the master still counted R's rtr as out and only kept S's focus: both waited
 * for ever (tos_migration_stress_seed1 hung so under some timings). */
#include "tos_check.h"

#define CHAN 1
#define FIRE 3
#define WATER 4
#define MASTER 0
#define SPACE 5

static volatile long spins; /* (keeps the spin loops from being optimised away) */
static int sender_tid, receiver_tid;

static void message(char *buf, int n) {
  for (int i = 0; i < 64; ++i) buf[i] = (char)(n * 17 + i);
}

static void sender(void *arg) {
  (void)arg;
  char buf[64];
  message(buf, 1);
  if (send_block(CHAN, buf, sizeof buf) != 0) exit(11);
  tos_check_spin_us(1500000); /* main moves it meanwhile: to the master, then to space */
  message(buf, 2);
  if (send_block(CHAN, buf, sizeof buf) != 0) exit(12);
  exit(0);
}

static void receiver(void *arg) {
  (void)arg;
  char buf[64], want[64];
  for (int n = 1; n <= 2; ++n) {
    if (receive(CHAN, buf, sizeof buf) != (int)sizeof buf) exit(20 + n);
    message(want, n);
    for (int i = 0; i < 64; ++i)
      if (buf[i] != want[i]) exit(30 + n);
    if (n == 1) tos_check_spin_us(500000); /* main moves it to the master meanwhile */
  }
  exit(0);
}

/* Move thread tid to board b (it is ready between its system calls) and wait until the home
 * knows it is there. */
static void move(int tid, int b) {
  int r;
  while ((r = migrate(tid, b)) == -TOS_ENOTREADY || r == -TOS_EAGAIN) yield();
  CHECK(r == 0, "migrate %x to board %d: %s", tid, b, tos_strerror(-r));
  while (tos_board_of(tid) != b) yield();
}

static void after(unsigned long t0, unsigned long us) {
  while (time_us() - t0 < us) yield();
}

int main(void) {
  CHECK(tos_info(TOS_INFO_BOARDS) == TOS_BOARD_NAME_COUNT && HERE == 1, "the six-board Testbed, home earth, is assumed");
  receiver_tid = create(2, 4, WATER, receiver, NULL);
  CHECK(receiver_tid > 0, "create the receiver: %s", tos_strerror(tos_errno));
  unsigned long t0 = time_us();
  sender_tid = create(1, 4, FIRE, sender, NULL);
  CHECK(sender_tid > 0, "create the sender: %s", tos_strerror(tos_errno));
  after(t0, 200000); /* message 1 has arrived: R spins on water, S on fire */
  move(receiver_tid, MASTER);
  after(t0, 1000000); /* R waits in receive on the master, its rtr kept on fire */
  move(sender_tid, MASTER);
  move(sender_tid, SPACE);
  int rc = wait();
  CHECK(rc == 0, "a thread failed with code %d (1x sender, 2x/3x receiver: message short / wrong)", rc);
  tos_pass("sender_moved_on_is_answered");
  return 0;
}
