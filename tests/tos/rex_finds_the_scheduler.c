/* A REX manager finds the global scheduler by broadcast (seed 002 section 3.1), wherever it
 * serves: here a scheduler on air (not the master) places every process on fire.
 *   air   rex_finds_the_scheduler serve   the scheduler: answers three questions, then ends;
 *   earth rex_finds_the_scheduler         three questions answered by it (earth searches once:
 *                                         the later ones go straight to air); after it has
 *                                         ended, air's kernel says so and earth places here,
 *                                         forgets it, searches again, finds none and places
 *                                         here (counted); then forged answers (the test
 *                                         kernel's net_inject, from water) are refused: a
 *                                         search's answers when no search is out, a placement
 *                                         no thread asked for. */
#include <string.h>
#include <testbed/tos_net.h>
#include "tos_check.h"

enum { EARTH = 1, AIR = 2, FIRE = 3, WATER = 4 };

static void pause_ms(unsigned ms) {
  for (unsigned long t0 = time_us(); time_us() - t0 < ms * 1000ul;) yield();
}

static int serve(void) {
  uint32_t q[8];
  int answered = 0;
  CHECK(gs_serve(q, 0) >= 0, "gs_serve on air: %s", tos_strerror(tos_errno));
  for (unsigned long t0 = time_us(); answered < 3 && time_us() - t0 < 5000000ul; yield()) {
    int n = gs_serve(q, 8);
    CHECK(n >= 0, "gs_serve: %s", tos_strerror(tos_errno));
    for (int i = 0; i < n; ++i, ++answered)
      CHECK(gs_answer((int)(q[i] >> 16), (int)(q[i] & 0xFFFF), FIRE) == 0, "gs_answer: %s", tos_strerror(tos_errno));
  }
  printf("rex_finds_the_scheduler: air answered %d questions\n", answered);
  return answered == 3 ? 0 : 1;
}

static int asker_tid;
static void forger(void *arg) { /* on water: answers earth never asked water for */
  (void)arg;
  CHECK(net_inject(EARTH, NET_GS_HERE, NULL, 0) == 0, "inject here");
  CHECK(net_inject(EARTH, NET_GS_NONE, NULL, 0) == 0, "inject none");
  const uint32_t place[3] = {(uint32_t)asker_tid, WATER, 1};
  CHECK(net_inject(EARTH, NET_GS_PLACE, place, 3) == 0, "inject place");
  exit(0);
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "serve")) return serve();
  pause_ms(300); /* air's scheduler serves */
  for (int k = 0; k < 3; ++k) {
    int b = rex_place();
    CHECK(b == FIRE, "question %d: placed on %d, not on fire by air's scheduler", k, b);
  }
  pause_ms(300); /* air's scheduler has ended */
  int b = rex_place();
  CHECK(b == EARTH, "air serves no more: placed on %d, not here", b);
  b = rex_place();
  CHECK(b == EARTH, "no scheduler anywhere: placed on %d, not here", b);
  int refused0 = (int)tos_info(TOS_INFO_NET_REFUSED);
  asker_tid = gettid();
  CHECK(create(1, 2, WATER, forger, NULL) > 0, "create on water: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the forger failed");
  pause_ms(100);
  int refused = (int)tos_info(TOS_INFO_NET_REFUSED) - refused0;
  CHECK(refused == 3, "earth refused %d of 3 forged answers", refused);
  printf("rex_finds_the_scheduler: 3 placed by air's scheduler, then here twice; %d forgeries refused\n", refused);
  tos_pass("rex_finds_the_scheduler");
  return 0;
}
