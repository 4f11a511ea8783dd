/* The REX managers tell the global scheduler of every load change by message (seed 002 section
 * 3.3, Figure 5; kernel/rex.c's NET_GS_NOTE), from the board it happens on, and the scheduler's
 * board refuses notes it cannot have been sent.
 *   air   rex_notes_reach_scheduler serve   the scheduler: takes exactly a question from
 *         earth, the creation it placed on fire and its end on water (the worker migrated there
 *         first), a twin made on earth and its end there, and nothing else; its board refuses
 *         four forged notes; then it ends.
 *   earth rex_notes_reach_scheduler         twins, asks, creates the worker where placed (and
 *         a thread on fire it was not told to: no note), has forged notes sent from space (a
 *         board that never found the scheduler) and fire (an unknown kind, a TID out of range, a
 *         twin whose home is not fire).
 *   earth rex_notes_reach_scheduler after   (a process of its own: a process with threads on
 *         other boards cannot twin) after air has ended: a twin whose notes still go to air and
 *         are lost there; a question air answers unserved, so earth forgets it; a twin whose
 *         notes no search can deliver (unheard). The done lines (tests/tos_seed002.cmake) count
 *         each. */
#include <string.h>
#include <testbed/tos_net.h>
#include "tos_check.h"

enum { EARTH = 1, AIR = 2, FIRE = 3, WATER = 4, SPACE = 5, FORGED = 4 };

static void pause_ms(unsigned ms) {
  for (unsigned long t0 = time_us(); time_us() - t0 < ms * 1000ul;) yield();
}

static int home_of(int tid) { return tid >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK; }

/* air: every word the scheduler is given, checked as a whole at the end. */
static int serve(void) {
  uint32_t q[8];
  int n = 0, asks = 0, created = -1, created_exit = 0, twin = -1, twin_exit = 0;
  long refused0 = tos_info(TOS_INFO_NET_REFUSED), refused = 0;
  CHECK(gs_serve(q, 0) >= 0, "gs_serve on air: %s", tos_strerror(tos_errno));
  for (unsigned long t0 = time_us(); (n < 5 || refused < FORGED) && time_us() - t0 < 5000000ul; yield()) {
    int got = gs_serve(q, 8);
    CHECK(got >= 0, "gs_serve: %s", tos_strerror(tos_errno));
    for (int i = 0; i < got; ++i, ++n) {
      int kind = (int)(q[i] >> TOS_GS_KIND_SHIFT), board = (int)(q[i] >> TOS_GS_BOARD_SHIFT & 0xFF);
      int tid = (int)(q[i] & 0xFFFF);
      printf("rex_notes_reach_scheduler: word kind %d board %d TID 0x%x\n", kind, board, tid);
      if (kind == TOS_GS_ASK) {
        CHECK(board == EARTH && !asks++, "a question from %d", board);
        CHECK(gs_answer(board, tid, FIRE) == 0, "gs_answer: %s", tos_strerror(tos_errno));
      } else if (kind == TOS_GS_CREATED) {
        CHECK(board == FIRE && created < 0 && home_of(tid) == EARTH, "a creation noted by %d", board);
        created = tid;
      } else if (kind == TOS_GS_TWIN) {
        CHECK(board == EARTH && twin < 0 && home_of(tid) == EARTH, "a twin noted by %d", board);
        twin = tid;
      } else if (kind == TOS_GS_EXIT && tid == created) {
        CHECK(board == WATER && !created_exit++, "the worker's end noted by %d (it ended on water)", board);
      } else {
        CHECK(kind == TOS_GS_EXIT && tid == twin && board == EARTH && !twin_exit++, "an unexpected word 0x%x", q[i]);
      }
    }
    refused = tos_info(TOS_INFO_NET_REFUSED) - refused0;
  }
  CHECK(n == 5 && asks == 1 && created_exit == 1 && twin_exit == 1, "air was given %d of the 5 words", n);
  pause_ms(50); /* anything more would come now */
  CHECK(gs_serve(q, 8) == 0, "a word after the five");
  CHECK(refused == FORGED, "air refused %ld of %d forged notes", refused, FORGED);
  printf("rex_notes_reach_scheduler: air was given the question, 4 notes, and refused %ld forged\n", refused);
  return 0;
}

static void worker(void *arg) { /* placed on fire; ends on water */
  (void)arg;
  CHECK(migrate(gettid(), WATER) == 0, "the worker's move to water: %s", tos_strerror(tos_errno));
  exit(0);
}

static void plain(void *arg) { /* on fire, not where a scheduler placed it */
  (void)arg;
  exit(0);
}

static int victim;
static void forge_space(void *arg) { /* space never found the scheduler */
  (void)arg;
  const uint32_t exit_note[2] = {TOS_GS_EXIT, (uint32_t)victim};
  CHECK(net_inject(AIR, NET_GS_NOTE, exit_note, 2) == 0, "inject from space");
  exit(0);
}

static void forge_fire(void *arg) { /* fire did find it (the worker's creation) */
  (void)arg;
  const uint32_t kind[2] = {7, (uint32_t)victim}, range[2] = {TOS_GS_EXIT, 0x10000};
  const uint32_t twin[2] = {TOS_GS_TWIN, (uint32_t)victim}; /* earth's thread: its home is not fire */
  CHECK(net_inject(AIR, NET_GS_NOTE, kind, 2) == 0, "inject a kind");
  CHECK(net_inject(AIR, NET_GS_NOTE, range, 2) == 0, "inject a TID");
  CHECK(net_inject(AIR, NET_GS_NOTE, twin, 2) == 0, "inject a twin");
  exit(0);
}

static void twin_and_wait(const char *when) {
  int pid = process_twin();
  if (pid == 0) exit(0); /* the twin */
  CHECK(pid > 0, "twin %s: %s", when, tos_strerror(tos_errno));
  CHECK(pwait(pid) == 0, "the twin %s", when);
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "serve")) return serve();
  if (argc == 2 && !strcmp(argv[1], "after")) {
    pause_ms(600); /* air's scheduler has ended */
    twin_and_wait("noted to air, which no longer serves");
    CHECK(rex_place() == EARTH, "air serves no more: placed elsewhere");
    twin_and_wait("with no scheduler anywhere");
    tos_pass("rex_notes_reach_scheduler after");
    return 0;
  }
  pause_ms(300); /* air's scheduler serves */
  twin_and_wait("while air serves");
  CHECK(rex_place() == FIRE, "not placed on fire by air's scheduler");
  CHECK(create(1, 2, FIRE, worker, NULL) > 0, "the worker: %s", tos_strerror(tos_errno));
  CHECK(create(2, 2, FIRE, plain, NULL) > 0, "a plain thread: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the worker or the plain thread failed");
  victim = gettid();
  CHECK(create(3, 2, SPACE, forge_space, NULL) > 0, "forger on space: %s", tos_strerror(tos_errno));
  CHECK(create(4, 2, FIRE, forge_fire, NULL) > 0, "forger on fire: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "a forger failed");
  tos_pass("rex_notes_reach_scheduler");
  return 0;
}
