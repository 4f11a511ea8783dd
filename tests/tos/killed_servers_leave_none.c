/* A thread's wait entries end with the thread (issue #57, finding 2). A child process's server
 * thread blocks in rgn_serve, and the parent kills the child; this 300 times, more than the
 * board's wait table has entries (one per TCB). Before the fix each killed server left its entry
 * behind: the next process in the slot (the same TCB and TID) could be handed a job at the dead
 * one's buffer, and once the table was full every region wait on the board failed with ENOTCB
 * until reboot. Here a server started after the kills must block (and end when serving stops),
 * and the board's TCBs must all be free again. */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define NAME "killed_servers_leave_none"
#define KILLS 300

/* The state of process pid's thread in slot `slot`, or -1 when it has none. */
static int thread_state(int pid, int slot) {
  static struct tos_pinfo info;
  if (pinfo(pid, &info) < 0) return -1;
  for (int i = 0; i < info.nthreads; ++i)
    if (info.thread[i].slot == slot) return info.thread[i].state;
  return -1;
}

static volatile long served = 1;
static void server(void *unused) {
  (void)unused;
  struct tos_rgn_job j;
  served = __tos_syscall(SYS_RGN_SERVE, (long)&j, 0, 0, 0, 0, 0); /* 0 once serving stops */
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    cm_serve(); /* blocks in rgn_serve until killed */
    return 0;
  }
  long tcbs = tos_info(TOS_INFO_FREE_TCBS);
  for (int i = 0; i < KILLS; ++i) {
    int c = spawn(NAME, NAME " child");
    CHECK(c >= 0, "spawn %d: %s", i, tos_strerror(tos_errno));
    int st;
    while ((st = thread_state(c, 0)) != T_REGION) {
      CHECK(st >= 0, "kill %d: the child's server ended without waiting in rgn_serve (the board's wait table full?)", i);
      yield();
    }
    CHECK(kill(c) == 0, "kill %d: %s", i, tos_strerror(tos_errno));
    pwait(c);
  }
  CHECK(create(1, 4, HERE, server, NULL), "a server: %s", tos_strerror(tos_errno));
  int me = gettid() >> 6 & 15;
  for (int i = 0; i < 1000 && thread_state(me, 1) != T_REGION && served == 1; ++i) yield();
  CHECK(served == 1 && thread_state(me, 1) == T_REGION, "the server did not block in rgn_serve: %ld (%s)", served,
        served < 0 ? tos_strerror((int)-served) : "");
  cm_serve_stop();
  CHECK(wait() == 0 && served == 0, "the server's rgn_serve returned %ld", served);
  CHECK(tos_info(TOS_INFO_FREE_TCBS) == tcbs, "%ld TCBs lost", tcbs - tos_info(TOS_INFO_FREE_TCBS));
  printf(NAME ": %d servers killed while waiting\n", KILLS);
  tos_pass(NAME);
  return 0;
}
