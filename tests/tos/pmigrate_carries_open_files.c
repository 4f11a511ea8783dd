/* A process's open files go with it when it is moved whole (seed 001, DynamicPVM's checkpoint;
 * kernel/pmigrate.c, file.c): pmig_file_task, with a file open for reading and writing at an
 * offset and a log open for appending under two descriptors, is moved DIRECT to air and back
 * home INDIRECT (through the master's checkpoint file), another INDIRECT to board 3 and back
 * DIRECT; each must find its offsets kept and its bytes intact there and back here (it checks,
 * and ends with 0). While a task is away its files are not here; back, they are. A file another
 * process has open stays: the move is refused (EBUSY) and the process goes on here, then moves
 * once that file is closed. */
#include "tos_check.h"

static int moved(int pid, int dest, int mode) {
  int r;
  for (int k = 0; (r = pmigrate(pid, dest, mode)) == -TOS_EAGAIN && k < 20; ++k) {
  }
  return r;
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me == 1, "run this on earth");
  const int dest[2] = {2, 3};
  static struct tos_stat st;
  for (int mode = TOS_PMIG_DIRECT; mode <= TOS_PMIG_INDIRECT; ++mode) {
    char args[32], data_name[24], log_name[24];
    snprintf(args, sizeof args, "pmig_file_task %d back", mode + 1);
    snprintf(data_name, sizeof data_name, "data.%d", mode + 1);
    snprintf(log_name, sizeof log_name, "log.%d", mode + 1);
    int pid = spawn("pmig_file_task", args);
    CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
    unsigned long t0 = time_us();
    while ((stat(log_name, &st) != 0 || st.size != 7) && time_us() - t0 < 5000000) yield();
    CHECK(stat(log_name, &st) == 0 && st.size == 7, "the task did not open its files");
    CHECK(moved(pid, me, mode) == -TOS_EBUSY, "a process at home brought home");
    if (mode == TOS_PMIG_DIRECT) { /* shared with this process: not the task's to take */
      int fd = open(data_name, TOS_O_READ);
      CHECK(fd >= 0, "open %s: %s", data_name, tos_strerror(fd));
      int r = moved(pid, dest[mode], mode);
      CHECK(r == -TOS_EBUSY, "a file another process has open moved: %s", tos_strerror(r));
      static struct tos_pinfo info;
      CHECK(pinfo(pid, &info) == 0 && info.nthreads == 1 && info.thread[0].board == me, "the refused process left");
      CHECK(stat(data_name, &st) == 0 && st.size == 3000, "the refused move changed %s", data_name);
      close(fd);
    }
    int r = moved(pid, dest[mode], mode);
    CHECK(r == 0, "pmigrate %d to %d (%s): %s", pid, dest[mode], mode ? "indirect" : "direct", tos_strerror(r));
    CHECK(stat(data_name, &st) == -TOS_ENOENT && stat(log_name, &st) == -TOS_ENOENT,
          "the files of a process moved to board %d are still here", dest[mode]);
    printf("pmigrate_carries_open_files: files moved %s to board %d\n", mode ? "indirect" : "direct", dest[mode]);
    unsigned long t1 = time_us();
    while (time_us() - t1 < 1000000) yield(); /* (it checks its files there) */
    int back = mode == TOS_PMIG_DIRECT ? TOS_PMIG_INDIRECT : TOS_PMIG_DIRECT; /* home the other way */
    r = moved(pid, me, back);
    CHECK(r == 0, "pmigrate %d back home (%s): %s", pid, back ? "indirect" : "direct", tos_strerror(r));
    CHECK(stat(data_name, &st) == 0 && st.size == 3434, "%s is not back home whole", data_name);
    CHECK(pwait(pid) == 0, "the task moved %s and back failed", mode ? "indirect" : "direct");
    CHECK(stat(data_name, &st) == 0 && st.busy == 0, "%s is not home, closed, after the task ended", data_name);
    printf("pmigrate_carries_open_files: files back home %s\n", back ? "indirect" : "direct");
  }
  tos_pass("pmigrate_carries_open_files");
  return 0;
}
