/* Routing tables kept by the master follow a task's moves (seed 001, section 3.4, Figure 2;
 * kernel/route.c). One job of the PVM-style layer: a receiver task R on air and two senders, S on
 * fire and the main task M here (earth), each sending MESSAGES numbered messages to R, which takes
 * them in turn and moves itself twice while they keep sending (to water after a third of them,
 * to space after two thirds): every message must arrive, in order, intact. Meanwhile M forges two
 * routing messages (an update to fire from earth, not the master; a placement to the master for
 * a job homed on air, from earth), and a task on the master forges three updates to fire that only
 * their contents betray (a board out of range, a thread slot out of range, a job with no part on
 * fire). At the end a probe task on every other board of the job reads
 * its board's table: R on space, S on fire, on every board; fire refused the forged update; the
 * routed messages that found R gone were forwarded and counted (at least one: R moves at once
 * after one of S's messages, and S sends its next a few ms later, STALE_WAIT_US).
 * Then R ends (on space) and M makes a new task T on water, which TOS gives R's freed slot, so
 * R's tid; S, on fire, whose board last routed that tid to space, sends it MESSAGES / 3 messages
 * at once and takes T's echo of each: the stale entry (or the old channel's peer) must not swallow
 * them (a task made in a slot freed by a finished task on another board once never got its
 * reply through); fire's table must end with T on water.
 *   pvm_routes_follow_moves MESSAGES */
#include <stdlib.h>
#include <testbed/tos_net.h>
#include <tos/pvm.h>
#include "tos_check.h"

enum { T_DATA = 1, T_GO = 2, T_DONE = 3, T_REPORT = 4, T_ECHO = 5, T_END = 9, BOARD_R = 2, BOARD_S = 3, MOVE1 = 4, MOVE2 = 5 };
/* S's pause after the message R moves after: S's send returns once its msg is packed, before
 * R has it (report 3.3.2), so without the pause S's next focus reached R's board before R left
 * and went along with it; any pause from 1 to 8 ms gives the same forwards. */
#define STALE_WAIT_US 3000
static long messages;
static int m_tid, r_tid, s_tid;

static void pack_msg(long k, int from) {
  char b[48];
  int n = (int)(k % 40) + 1, v[2] = {(int)k, from};
  for (int i = 0; i < n; ++i) b[i] = (char)(k * 5 + i * 3 + from);
  if (pvm_initsend() || pvm_pkint(v, 2, 1) || pvm_pkint(&n, 1, 1) || pvm_pkbyte(b, n, 1)) exit(10);
}

/* 0 if the message just received is number k from `from`, intact */
static int msg_ok(long k, int from) {
  char b[48];
  int v[2] = {0, 0}, n = 0;
  if (pvm_upkint(v, 2, 1) || pvm_upkint(&n, 1, 1) || n < 1 || n > 40 || pvm_upkbyte(b, n, 1)) return 1;
  if (v[0] != k || v[1] != from || n != (int)(k % 40) + 1) return 2;
  for (int i = 0; i < n; ++i)
    if (b[i] != (char)(k * 5 + i * 3 + from)) return 3;
  return 0;
}

/* the tids are globals written by M as it spawns: read once M says go */
static void go(void) {
  if (pvm_recv(m_tid, T_GO) < 0) exit(18);
}

static void receiver(void *arg) {
  (void)arg;
  go();
  for (long k = 1; k <= messages; ++k) {
    int r;
    if (pvm_recv(s_tid, T_DATA) < 0 || (r = msg_ok(k, 1)) != 0) {
      printf("pvm_routes_follow_moves: FAIL R: message %ld from S wrong (%d) on board %ld\n", k, r, tos_info(TOS_INFO_BOARD));
      exit(11);
    }
    if (k == messages / 3 || k == 2 * messages / 3) { /* at once: S is already sending the next */
      int dest = k == messages / 3 ? MOVE1 : MOVE2;
      if ((r = migrate(r_tid, dest)) != 0) {
        printf("pvm_routes_follow_moves: FAIL R: migrate to %d: %s\n", dest, tos_strerror(r));
        exit(12);
      }
    }
    if (pvm_recv(m_tid, T_DATA) < 0 || (r = msg_ok(k, 2)) != 0) {
      printf("pvm_routes_follow_moves: FAIL R: message %ld from M wrong (%d) on board %ld\n", k, r, tos_info(TOS_INFO_BOARD));
      exit(13);
    }
  }
  long b = tos_info(TOS_INFO_BOARD);
  if (pvm_initsend() || pvm_pklong(&b, 1, 1) || pvm_send(m_tid, T_DONE) || pvm_recv(m_tid, T_END) < 0) exit(14);
}

/* the task made in R's freed slot: echoes what S sends it */
static void newtask(void *arg) {
  (void)arg;
  for (long k = 1; k <= messages / 3; ++k) {
    int r;
    if (pvm_recv(s_tid, T_DATA) < 0 || (r = msg_ok(k, 3)) != 0) {
      printf("pvm_routes_follow_moves: FAIL T: message %ld from S wrong (%d)\n", k, r);
      exit(19);
    }
    int v = (int)k;
    if (pvm_initsend() || pvm_pkint(&v, 1, 1) || pvm_send(s_tid, T_ECHO)) exit(20);
  }
}

static void sender(void *arg) {
  (void)arg;
  go();
  for (long k = 1; k <= messages; ++k) {
    pack_msg(k, 1);
    if (pvm_send(r_tid, T_DATA)) exit(15);
    if (k == messages / 3 || k == 2 * messages / 3) { /* R moves once it has this one: S's next focus follows it */
      unsigned long t0 = time_us();
      while (time_us() - t0 < STALE_WAIT_US) yield();
    }
  }
  go(); /* T is made in R's slot: the same tid */
  long v[3] = {0, -1, 0};
  for (long k = 1; k <= messages / 3; ++k) {
    int e = 0;
    pack_msg(k, 3);
    if (pvm_send(r_tid, T_DATA) || pvm_recv(r_tid, T_ECHO) < 0 || pvm_upkint(&e, 1, 1) || e != k) exit(21);
    ++v[0];
  }
  unsigned long t0 = time_us();
  while ((v[1] = route_info(TOS_ROUTE_BOARD, r_tid)) != MOVE1 && time_us() - t0 < 3000000) yield();
  v[2] = route_info(TOS_ROUTE_STALE, 0);
  if (pvm_initsend() || pvm_pklong(v, 3, 1) || pvm_send(m_tid, T_REPORT) || pvm_recv(m_tid, T_END) < 0) exit(16);
}

/* on the master: updates from the right sender with wrong contents */
static void forger(void *arg) {
  (void)arg;
  uint32_t job = (uint32_t)(m_tid >> 6 & 15), home = (uint32_t)(m_tid >> 10);
  uint32_t bad_board[6] = {home, job, 0, (uint32_t)(r_tid & 63), 99, 0x7FF0};
  uint32_t bad_slot[6] = {home, job, 0, 64, MOVE2, 0x7FF1};
  uint32_t no_job[6] = {home, 15, 12345, 1, MOVE2, 0x7FF2};
  if (net_inject(BOARD_S, NET_ROUTE, bad_board, 6) || net_inject(BOARD_S, NET_ROUTE, bad_slot, 6) ||
      net_inject(BOARD_S, NET_ROUTE, no_job, 6))
    exit(22);
  int done = 1;
  if (pvm_initsend() || pvm_pkint(&done, 1, 1) || pvm_send(m_tid, T_REPORT)) exit(23);
}

/* A board's table as its kernel has it: R's and S's entries once they are right (or after 3 s),
 * and the board's counts */
static void probe(void *arg) {
  (void)arg;
  unsigned long t0 = time_us();
  long v[6];
  do {
    v[1] = route_info(TOS_ROUTE_BOARD, r_tid);
    v[2] = route_info(TOS_ROUTE_BOARD, s_tid);
    if (v[1] == MOVE2 && v[2] == BOARD_S) break;
    yield();
  } while (time_us() - t0 < 3000000);
  v[0] = tos_info(TOS_INFO_BOARD);
  v[3] = route_info(TOS_ROUTE_UPDATES, 0);
  v[4] = route_info(TOS_ROUTE_REFUSED, 0);
  v[5] = route_info(TOS_ROUTE_STALE, 0);
  if (pvm_initsend() || pvm_pklong(v, 6, 1) || pvm_send(m_tid, T_REPORT)) exit(17);
}

int main(int argc, char **argv) {
  CHECK(argc == 2, "usage: pvm_routes_follow_moves MESSAGES");
  messages = atol(argv[1]);
  CHECK(messages >= 6, "at least 6 messages");
  m_tid = pvm_init();
  CHECK(m_tid >= 0, "pvm_init");
  long home = tos_info(TOS_INFO_BOARD);
  CHECK(home == 1, "run on earth (board 1), not %ld", home);
  r_tid = pvm_spawn(receiver, NULL, BOARD_R, 8);
  s_tid = pvm_spawn(sender, NULL, BOARD_S, 8);
  CHECK(r_tid > 0 && s_tid > 0, "spawn R %d S %d", r_tid, s_tid);
  pvm_initsend();
  CHECK(pvm_send(r_tid, T_GO) == 0 && pvm_send(s_tid, T_GO) == 0, "go");
  for (long k = 1; k <= messages; ++k) {
    pack_msg(k, 2);
    CHECK(pvm_send(r_tid, T_DATA) == 0, "M: send %ld", k);
  }
  long rb = -1;
  CHECK(pvm_recv(r_tid, T_DONE) > 0 && pvm_upklong(&rb, 1, 1) == 0, "R's report");
  CHECK(rb == MOVE2, "R ended on board %ld, not %d", rb, MOVE2);
  CHECK(tos_board_of(r_tid) == MOVE2, "ps: R on board %d", tos_board_of(r_tid));

  /* forged: an update of R's entry to fire from earth (only the master may send one), and a
   * placement to the master for a job homed on air (only a job's home may send one) */
  uint32_t upd[6] = {(uint32_t)home, (uint32_t)(m_tid >> 6 & 15), 0, (uint32_t)(r_tid & 63), BOARD_R, 0x7FFF};
  CHECK(net_inject(BOARD_S, NET_ROUTE, upd, 6) == 0, "inject NET_ROUTE");
  uint32_t plc[8] = {BOARD_R, 0, 1, 0, BOARD_R, 1, 1u << BOARD_S, 0};
  CHECK(net_inject(0, NET_ROUTE_MOVED, plc, 8) == 0, "inject NET_ROUTE_MOVED");
  int fg = pvm_spawn(forger, NULL, 0, 4), fdone = 0;
  CHECK(fg > 0, "spawn the forger on the master: %d", fg);
  CHECK(pvm_recv(fg, T_REPORT) > 0 && pvm_upkint(&fdone, 1, 1) == 0 && fdone == 1, "the forger's report");

  CHECK(route_info(TOS_ROUTE_BOARD, r_tid) == MOVE2 && route_info(TOS_ROUTE_BOARD, s_tid) == BOARD_S,
        "the home's table: R on %d, S on %d", route_info(TOS_ROUTE_BOARD, r_tid), route_info(TOS_ROUTE_BOARD, s_tid));
  long stale = route_info(TOS_ROUTE_STALE, 0);
  static const int boards[4] = {BOARD_R, BOARD_S, MOVE1, MOVE2};
  int probes[4];
  for (int i = 0; i < 4; ++i) {
    probes[i] = pvm_spawn(probe, NULL, boards[i], 4);
    CHECK(probes[i] > 0, "spawn a probe on %d: %d", boards[i], probes[i]);
  }
  int bad = 0;
  for (int i = 0; i < 4; ++i) {
    long v[6];
    CHECK(pvm_recv(probes[i], T_REPORT) > 0 && pvm_upklong(v, 6, 1) == 0, "probe %d's report", i);
    printf("pvm_routes_follow_moves: board %ld: R on %ld, S on %ld; %ld updates applied, %ld refused, %ld forwarded stale\n",
           v[0], v[1], v[2], v[3], v[4], v[5]);
    if (v[0] != boards[i] || v[1] != MOVE2 || v[2] != BOARD_S) ++bad;
    if (boards[i] == BOARD_S && v[4] != 4) ++bad; /* earth's forgery and the master task's three */
    stale += v[5];
  }
  CHECK(!bad, "%d boards' tables or counts wrong", bad);
  CHECK(stale >= 1, "no routed message found R gone and was forwarded (%ld)", stale);

  /* R ends on space; a new task in its slot on water; S talks to it at once */
  pvm_initsend();
  CHECK(pvm_send(r_tid, T_END) == 0, "end R");
  unsigned long t0 = time_us();
  while (tos_board_of(r_tid) >= 0 && time_us() - t0 < 3000000) yield();
  CHECK(tos_board_of(r_tid) < 0, "R has not ended");
  int t_tid = pvm_spawn(newtask, NULL, MOVE1, 8);
  CHECK(t_tid == r_tid, "T %x is not in R's freed slot (R %x)", t_tid, r_tid);
  pvm_initsend();
  CHECK(pvm_send(s_tid, T_GO) == 0, "go S");
  long v[3];
  CHECK(pvm_recv(s_tid, T_REPORT) > 0 && pvm_upklong(v, 3, 1) == 0, "S's report");
  printf("pvm_routes_follow_moves: a new task in R's slot on board %d: %ld echoes to S on fire; fire routes it to %ld, "
         "%ld forwarded stale there\n", MOVE1, v[0], v[1], v[2]);
  CHECK(v[0] == messages / 3 && v[1] == MOVE1, "S: %ld echoes, fire's entry %ld", v[0], v[1]);
  pvm_initsend();
  CHECK(pvm_send(s_tid, T_END) == 0, "end S");
  int code = wait();
  CHECK(code == 0, "a task ended with %d", code);
  unsigned long ref = 0;
  for (int r = 0; r < PVM_R_N; ++r) ref += pvm_refused(r);
  CHECK(ref == 0, "%lu messages refused by the layer", ref);
  printf("pvm_routes_follow_moves: %ld messages from each sender in order, R moved %d -> %d -> %d, %ld forwarded stale\n",
         messages, BOARD_R, MOVE1, MOVE2, stale);
  tos_pass("pvm_routes_follow_moves");
  return 0;
}
