/* Privileges (firmware/tos/README.md "Privileges", issue #30): a program the boot script did not
 * start (here a child of one) may not halt its board or the machine, kill a process that is not
 * its own descendant, migrate another process's thread or ask for a reconfiguration: each is
 * EPERM. It may still kill its own child and migrate its own threads. Before the fix the
 * child's halt stopped earth with every program on it (no PASS line). */
#include <string.h>
#include "tos_check.h"

#define NAME "unprivileged_cannot_halt"

static int child(int parent_pid, int parent_tid) {
  CHECK(__tos_syscall(SYS_HALT, 0, 0, 0, 0, 0, 0) == -TOS_EPERM, "halt of this board was not refused");
  CHECK(__tos_syscall(SYS_HALT, 1, 0, 0, 0, 0, 0) == -TOS_EPERM, "halt of the machine was not refused");
  CHECK(kill(parent_pid) < 0 && tos_errno == TOS_EPERM, "kill of the parent: %s", tos_strerror(tos_errno));
  CHECK(migrate(parent_tid, 2) < 0 && tos_errno == TOS_EPERM, "migrate of the parent's thread: %s",
        tos_strerror(tos_errno));
  CHECK(reconfigure(2, TOS_RECONF_COMPUTE, 3) < 0 && tos_errno == TOS_EPERM, "reconfigure: %s", tos_strerror(tos_errno));
  int g = spawn(NAME, NAME " sleeper");
  CHECK(g >= 0, "spawn: %s", tos_strerror(tos_errno));
  CHECK(kill(g) == 0, "kill of its own child: %s", tos_strerror(tos_errno));
  int board = (int)tos_info(TOS_INFO_BOARD);
  CHECK(migrate(gettid(), 3) == 0, "migrate of its own thread: %s", tos_strerror(tos_errno));
  CHECK(tos_info(TOS_INFO_BOARD) == 3, "not on fire after its migration");
  CHECK(migrate(gettid(), board) == 0, "migrate back: %s", tos_strerror(tos_errno));
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "sleeper") == 0) {
    for (;;) yield();
  }
  if (argc > 3 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]), atoi(argv[3]));
  int tid = gettid();
  char args[64];
  snprintf(args, sizeof args, NAME " child %d %d", tid >> 6 & 15, tid);
  int c = spawn(NAME, args);
  CHECK(c >= 0, "spawn: %s", tos_strerror(tos_errno));
  int code = pwait(c);
  CHECK(code == 0, "the child ended with %d", code);
  tos_pass(NAME);
  return 0;
}
