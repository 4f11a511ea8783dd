/* Load balancing's slave side (seed 000 section 4.2, Figure 40): a thread on air sends earth
 * reconfiguration requests, and earth chooses which of its threads moves. On earth: A (ready,
 * but with a child blocked on a channel: a parent never migrates), B (ready, never
 * communicated), D (ready, its last communication went over the earth-air link). A link
 * overload earth-air must move D to air; a compute overload then must move B (the first ready
 * thread without children: A is passed over) to fire; a third finds no candidate now (0): it
 * waits on earth for a thread that fits (section 4.2.2) and, none coming within its time, is
 * dropped (the board's done line counts it). */
#include "tos_check.h"

static void spin(unsigned long ms) { compute_ms(ms); }

static void child(void *arg) {
  (void)arg;
  long v;
  receive(9, &v, sizeof v);
  exit(0);
}
static void parent(void *arg) {
  (void)arg;
  if (!create(10, 2, HERE, child, NULL)) exit(20);
  spin(3000);
  exit(wait());
}
static void plain(void *arg) {
  (void)arg;
  spin(3000);
  exit(0);
}
static void talker(void *arg) {
  (void)arg;
  long v = 7;
  if (send_block(5, &v, sizeof v) != 0) exit(21);
  spin(3000);
  exit(0);
}
static void listener(void *arg) {
  (void)arg;
  long v;
  int ok = receive(5, &v, sizeof v) == sizeof v && v == 7;
  send_block(6, &v, sizeof v); /* tell main the talker has talked */
  exit(ok ? 0 : 22);
}
static void requester(void *arg) {
  int earth = (int)arg;
  long r[3];
  r[0] = reconfigure(earth, TOS_RECONF_LINK, 2);
  r[1] = reconfigure(earth, TOS_RECONF_COMPUTE, 3);
  r[2] = reconfigure(earth, TOS_RECONF_COMPUTE, 3);
  send_block(7, r, sizeof r);
  exit(0);
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me == 1, "run this on earth");
  /* D talks to air first, while earth is quiet (the listener says when), then the others start */
  int l = create(3, 2, 2, listener, NULL), d = create(4, 2, HERE, talker, NULL);
  CHECK(l && d, "create: %s", tos_strerror(tos_errno));
  long told;
  CHECK(receive(6, &told, sizeof told) == sizeof told, "the listener's word");
  int a = create(1, 2, HERE, parent, NULL), b = create(2, 2, HERE, plain, NULL);
  CHECK(a && b, "create: %s", tos_strerror(tos_errno));
  spin(100); /* everyone computes */
  CHECK(create(5, 2, 2, requester, (void *)me), "create the requester on air: %s", tos_strerror(tos_errno));
  long r[3];
  CHECK(receive(7, r, sizeof r) == sizeof r, "the requester's answers");
  CHECK(r[0] == d, "link overload earth-air moved %lx, not the talker %x", r[0], d);
  CHECK(r[1] == b, "compute overload moved %lx, not %x (the parent %x must never move)", r[1], b, a);
  CHECK(r[2] == 0, "a third request found %lx, not 0 (only parents are left ready)", r[2]);
  CHECK(tos_board_of(d) == 2 && tos_board_of(b) == 3, "ps: talker on %d, plain on %d", tos_board_of(d), tos_board_of(b));
  CHECK(tos_board_of(a) == 1, "the parent left earth");
  spin(TOS_RECONF_WAIT_TICKS * TOS_SLICE_US / 1000 + 200); /* the waiting request expires */
  long v = 1;
  CHECK(send_block(9, &v, sizeof v) == 0, "release the child");
  CHECK(wait() == 0, "a thread failed");
  tos_pass("candidates_follow_figure_40");
  return 0;
}
