/* Task ids of the PVM-style layer stay valid when tasks move (seed 001, section 3.4): three jobs
 * (pvm_job: a master task and a worker exchanging numbered, checksummed messages through
 * lib/pvm.c) run while they move. Job 0 and job 1 are moved whole with pmigrate, direct and
 * indirect, mid-exchange, to fire and water; job 2's worker, on air, is moved by thread
 * migration to fire and then water while the master on this board keeps sending to its tid.
 * Every job must end with 0: every message arrived, in order, intact, none refused.
 *   pvm_tids_survive_moves MESSAGES */
#include <stdlib.h>
#include "tos_check.h"

int main(int argc, char **argv) {
  CHECK(argc == 2, "usage: pvm_tids_survive_moves MESSAGES");
  long messages = atol(argv[1]);
  int pid[3];
  static const char *const how[2] = {"direct", "indirect"};
  for (int j = 0; j < 3; ++j) {
    char args[64];
    snprintf(args, sizeof args, "pvm_job %ld %d %d %d", messages, j + 1, j == 2 ? 2 : -1, j == 2);
    pid[j] = spawn("pvm_job", args);
    CHECK(pid[j] >= 0, "spawn: %s", tos_strerror(pid[j]));
  }
  for (int j = 0; j < 2; ++j) {
    static struct tos_pinfo info;
    unsigned long t0 = time_us();
    while ((pinfo(pid[j], &info) != 0 || info.nthreads < 2) && time_us() - t0 < 2000000) yield();
    t0 = time_us();
    while (time_us() - t0 < 30000u + 20000u * (unsigned)j) yield(); /* mid-exchange */
    int dest = 3 + j, r, retries = 0;
    while ((r = pmigrate(pid[j], dest, j ? TOS_PMIG_INDIRECT : TOS_PMIG_DIRECT)) == -TOS_EAGAIN && retries < 20) ++retries;
    CHECK(r == 0, "pmigrate job %d to %d (%s): %s", j, dest, how[j], tos_strerror(r));
    CHECK(pinfo(pid[j], &info) == 0 && info.nthreads >= 2, "job %d: pinfo", j);
    for (int k = 0; k < info.nthreads; ++k)
      CHECK(info.thread[k].board == dest, "job %d: task %x on board %d after its move to %d", j, info.thread[k].tid,
            info.thread[k].board, dest);
    printf("pvm_tids_survive_moves: job %d moved whole to board %d (%s), %d retries\n", j, dest, how[j], retries);
  }
  for (int j = 0; j < 3; ++j) {
    int code = pwait(pid[j]);
    CHECK(code == 0, "job %d (process %d) ended with %d", j, pid[j], code);
  }
  tos_pass("pvm_tids_survive_moves");
  return 0;
}
