/* Seed 001's Figure 4 on TOS: the time to move a process whole against its size, for a direct
 * and an indirect checkpoint (kernel/pmigrate.c). The task is this program again
 * (`pmigbench task KB`): fixed code, a data array of KB kilobytes written once, then a loop that
 * keeps it ready (DynamicPVM's task was a compute loop too). The driver spawns one per point,
 * lets it start, times pmigrate from the call to its return (the process running on the
 * destination), then ends it.
 *   pmigbench run FROM_KB TO_KB STEP_KB REPS DEST [both|direct|indirect|none]
 *     -> "pmigbench: KB MODE US" lines, "pmigbench: done". One mode runs that checkpoint alone;
 *     none does everything but the migration (spawn, the array written, the wait, the kill): the
 *     control run a cycle profile of the migration is taken against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

static int task(long kb) {
  volatile unsigned char *d = kb ? malloc((size_t)kb * 1024) : NULL;
  if (kb && !d) {
    printf("pmigbench: task: no memory for %ld KB\n", kb);
    return 1;
  }
  for (long i = 0; i < kb * 1024; ++i) d[i] = (unsigned char)i;
  for (unsigned long n = 0;; ++n)
    if (kb) d[n % (unsigned long)(kb * 1024)] += 1;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "task") == 0) return task(atol(argv[2]));
  const char *only = argc == 8 ? argv[7] : "both";
  int first = TOS_PMIG_DIRECT, last = TOS_PMIG_INDIRECT, none = !strcmp(only, "none");
  if (!strcmp(only, "direct")) last = TOS_PMIG_DIRECT;
  else if (!strcmp(only, "indirect")) first = TOS_PMIG_INDIRECT;
  else if (none) last = TOS_PMIG_DIRECT;
  if ((argc != 7 && argc != 8) || strcmp(argv[1], "run") != 0 ||
      (strcmp(only, "both") && strcmp(only, "direct") && strcmp(only, "indirect") && !none)) {
    printf("usage: pmigbench run FROM_KB TO_KB STEP_KB REPS DEST [both|direct|indirect|none] | pmigbench task KB\n");
    return 1;
  }
  long from = atol(argv[2]), to = atol(argv[3]), step = atol(argv[4]), reps = atol(argv[5]);
  int dest = atoi(argv[6]);
  if (step <= 0 || reps <= 0 || from < 0 || to < from) {
    printf("pmigbench: bad range\n");
    return 1;
  }
  for (long kb = from; kb <= to; kb += step)
    for (int mode = first; mode <= last; ++mode)
      for (long r = 0; r < reps; ++r) {
        char args[48];
        snprintf(args, sizeof args, "pmigbench task %ld", kb);
        int pid = spawn("pmigbench", args);
        if (pid < 0) {
          printf("pmigbench: FAIL spawn: %s\n", tos_strerror(pid));
          return 1;
        }
        unsigned long t0 = time_us();
        while (time_us() - t0 < 20000 + (unsigned long)kb * 5000) yield(); /* its array written (about 3 ms a KB) */
        t0 = time_us();
        int e = none ? 0 : pmigrate(pid, dest, mode);
        unsigned long us = time_us() - t0;
        if (e < 0) {
          printf("pmigbench: FAIL pmigrate %ld KB %s: %s\n", kb, mode ? "indirect" : "direct", tos_strerror(e));
          return 1;
        }
        printf("pmigbench: %ld %s %lu\n", kb, none ? "none" : mode ? "indirect" : "direct", us);
        kill(pid);
        pwait(pid);
      }
  printf("pmigbench: done\n");
  return 0;
}
