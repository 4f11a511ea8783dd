/* A yield's choice made in entry.S (events off, nothing for the loop) is the C scheduler's
 * (issue 32): three threads of this process yield to each other in a strict rotation, whether
 * the assembly path chooses (every event class off) or the C path does (a class on: the fast
 * path steps aside). A second process yields all the while, so every choice crosses processes
 * (the turn, the ASID) and comes back: two switches a turn either way (a few more where a slice
 * ended between a thread's turn and its yield). Then, the second process gone, the same rotation
 * within one process (one switch a turn): three threads (the head's successor becomes the head)
 * and two (the head is the only other ready thread: entry.S's shortest case). */
#include <string.h>
#include "tos_check.h"

#define K 200
#define NT 3
static volatile int go, order[NT * K + 8], n, nt = NT;

static void yielder(void *arg) {
  int me = (int)(long)arg;
  while (go == 0) yield();
  for (int i = 0; i < K; ++i) {
    order[n++] = me;
    yield();
  }
  exit(0);
}

/* One round: nt threads (main is 0) take turns K times; the order and the switches it took. */
static unsigned long round_(int threads) {
  go = 0;
  n = 0;
  nt = threads;
  for (int i = 1; i < nt; ++i) CHECK(create(i, 2, HERE, yielder, (void *)(long)i), "create: %s", tos_strerror(tos_errno));
  for (int i = 0; i < 4; ++i) yield(); /* the others reach their loops */
  unsigned long s0 = (unsigned long)tos_info(TOS_INFO_SWITCHES), t0 = time_us();
  go = 1;
  for (int i = 0; i < K; ++i) {
    order[n++] = 0;
    yield();
  }
  CHECK(wait() == 0, "a thread failed");
  unsigned long s = (unsigned long)tos_info(TOS_INFO_SWITCHES) - s0, ms = (time_us() - t0) / 1000;
  /* Each turn goes to the next thread, except where a slice ended between a thread's turn and
   * its yield: it went to the tail then and spends its next run on that yield (one turn
   * displaced, two breaks at most), or inside its n++ (a turn overwritten). Slices end every
   * 20 ms. */
  int ticks = (int)(ms / 20 + 1), breaks = 0;
  CHECK(n <= nt * K && n >= nt * K - ticks, "%d turns recorded of %d in %lu ms", n, nt * K, ms);
  for (int i = 1; i < n; ++i) breaks += order[i] != (order[i - 1] + 1) % nt;
  CHECK(breaks <= 2 * ticks, "round robin broken %d times in %lu ms of %d turns", breaks, ms, nt * K);
  printf("yields: %lu ms, %d breaks\n", ms, breaks);
  return s;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "other") == 0) { /* the second process: yields for a while */
    for (int i = 0; i < 4 * NT * K; ++i) yield();
    return 0;
  }
  int other = spawn("yields_choose_as_c_does", "yields_choose_as_c_does other");
  CHECK(other > 0, "spawn: %d", other);
  dgl_set(0, 0xFFFF);
  unsigned long fast = round_(NT);
  dgl_set(DGL_PROFILE, 0); /* a class on: every yield takes the C path */
  unsigned long slow = round_(NT);
  dgl_set(0, DGL_PROFILE);
  CHECK(fast >= 2ul * NT * K - 2 && fast <= 2ul * NT * K + 64, "%lu switches with the assembly's choice for %d turns", fast,
        NT * K);
  CHECK(slow >= 2ul * NT * K - 2 && slow <= 2ul * NT * K + 64, "%lu switches with C's choice for %d turns", slow, NT * K);
  CHECK(pwait(other) == 0, "the other process failed");
  printf("yields: a round of %d turns took %lu switches (assembly), %lu (C)\n", NT * K, fast, slow);
  dgl_set(0, 0xFFFF); /* one process now: a switch a turn */
  unsigned long one3 = round_(3), one2 = round_(2);
  dgl_set(DGL_PROFILE, 0);
  unsigned long one3c = round_(3);
  dgl_set(0, DGL_PROFILE);
  CHECK(one3 >= 3ul * K - 2 && one3 <= 3ul * K + 32, "%lu switches with the assembly's choice for %d turns of 3 threads", one3, 3 * K);
  CHECK(one2 >= 2ul * K - 2 && one2 <= 2ul * K + 32, "%lu switches with the assembly's choice for %d turns of 2 threads", one2, 2 * K);
  CHECK(one3c >= 3ul * K - 2 && one3c <= 3ul * K + 32, "%lu switches with C's choice for %d turns of 3 threads", one3c, 3 * K);
  printf("yields: one process: %lu switches for %d turns of 3 threads (assembly), %lu (C); %lu for %d turns of 2\n", one3,
         3 * K, one3c, one2, 2 * K);
  tos_pass("yields_choose_as_c_does");
  return 0;
}
