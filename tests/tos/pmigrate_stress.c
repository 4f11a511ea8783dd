/* Whole-process migration keeps every message and every byte (seed 001, issue 35). TASKS
 * processes (pmig_task: two threads exchanging checksummed messages, a data array of random
 * size) run at once on this board; the driver moves each, at a random moment, whole to a random
 * other slave, DIRECT or INDIRECT at random, retrying while its threads are inside a call
 * (EAGAIN: the checkpoint waits for the critical sections to end). Every task must end with
 * exit code 0 (each has checked each message's number and checksum, and every word of its
 * data after the move) and say it ended on its new board (the ctest entry counts them).
 *   pmigrate_stress SEED TASKS MESSAGES MAXKB */
#include <stdlib.h>
#include "tos_check.h"

static unsigned long s = 1;
static unsigned long next(void) {
  s = TOS_RAND_NEXT(s);
  return (s >> 16) & 0x7FFF;
}

int main(int argc, char **argv) {
  CHECK(argc == 5, "usage: pmigrate_stress SEED TASKS MESSAGES MAXKB");
  s = strtoul(argv[1], NULL, 10);
  int tasks = atoi(argv[2]), me = (int)tos_info(TOS_INFO_BOARD);
  long messages = atol(argv[3]), maxkb = atol(argv[4]);
  CHECK(tasks > 0 && tasks <= 8 && me != 0, "1..8 tasks, on a slave");
  int pid[8], moves[2] = {0, 0}, retries = 0;
  for (int i = 0; i < tasks; ++i) {
    char args[64];
    snprintf(args, sizeof args, "pmig_task %ld %ld %lu", (long)(next() % (unsigned long)(maxkb + 1)), messages,
             s % 1000 + (unsigned long)i);
    pid[i] = spawn("pmig_task", args);
    CHECK(pid[i] >= 0, "spawn: %s", tos_strerror(pid[i]));
  }
  for (int i = 0; i < tasks; ++i) {
    static struct tos_pinfo info;
    unsigned long t0 = time_us(), wait = next() % 40000;
    while ((pinfo(pid[i], &info) != 0 || info.nthreads < 2) && time_us() - t0 < 2000000) yield(); /* both threads */
    t0 = time_us();
    while (time_us() - t0 < wait) yield();
    int dest;
    do dest = 1 + (int)(next() % 5);
    while (dest == me);
    int mode = (int)(((unsigned long)i ^ s) & 1), r; /* both modes, in an order the seed picks */
    for (int k = 0; (r = pmigrate(pid[i], dest, mode)) == -TOS_EAGAIN && k < 20; ++k) ++retries;
    CHECK(r == 0, "pmigrate %d to %d (%s): %s", pid[i], dest, mode ? "indirect" : "direct", tos_strerror(r));
    CHECK(pinfo(pid[i], &info) == 0 && info.nthreads == 2, "task %d: pinfo", i);
    for (int k = 0; k < info.nthreads; ++k)
      CHECK(info.thread[k].board == dest, "task %d: thread %x is on board %d after its move to %d", i,
            info.thread[k].tid, info.thread[k].board, dest);
    printf("pmigrate_stress: task %d moved to board %d (%s)\n", i, dest, mode ? "indirect" : "direct");
    ++moves[mode];
  }
  for (int i = 0; i < tasks; ++i) {
    int code = pwait(pid[i]);
    CHECK(code == 0, "task %d (process %d) ended with %d", i, pid[i], code);
  }
  printf("pmigrate_stress: %d moves direct, %d indirect, %d retries\n", moves[0], moves[1], retries);
  tos_pass("pmigrate_stress");
  return 0;
}
