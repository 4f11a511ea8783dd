/* The monitor is the logger's (issue #57, finding 4): mon_read drains the events every board
 * wrote and mon_filter silences a board's classes, so only a privileged program (the boot
 * script's: the logger, the shells, the balancer) may call them. Before the fix the check was
 * "running on the master": a child of a boot-started program made a thread on the master and
 * drained the MMI or set every SMI's filter to pass nothing. Here that child's thread on the
 * master is refused EPERM for each of the three calls, and the filter is unchanged, while the
 * parent's own thread on the master may read it. */
#include <string.h>
#include <testbed/memory_map.h>
#include "tos_check.h"

#define NAME "monitor_is_privileged"
#define MASTER 0

static volatile long ctl_before = -1, ctl_after = -1;

static void intruder(void *unused) {
  (void)unused;
  uint32_t buf[8];
  CHECK(tos_info(TOS_INFO_BOARD) == MASTER, "not on the master");
  CHECK(mon_read(buf, 8) < 0 && tos_errno == TOS_EPERM, "mon_read: %s", tos_strerror(tos_errno));
  CHECK(mon_status(TOS_MON_LEVEL) < 0 && tos_errno == TOS_EPERM, "mon_status: %s", tos_strerror(tos_errno));
  CHECK(mon_filter(1, TB_MON_FLT_CTL_OFF, 0) < 0 && tos_errno == TOS_EPERM, "mon_filter (write): %s",
        tos_strerror(tos_errno));
  CHECK(mon_filter(1, TB_MON_FLT_CTL_OFF, -1) < 0 && tos_errno == TOS_EPERM, "mon_filter (read): %s",
        tos_strerror(tos_errno));
  exit(0);
}

static void reader(void *out) {
  *(volatile long *)out = mon_filter(1, TB_MON_FLT_CTL_OFF, -1);
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    CHECK(create(1, 4, MASTER, intruder, NULL), "a thread on the master: %s", tos_strerror(tos_errno));
    CHECK(wait() == 0, "the intruder's calls were not refused");
    return 0;
  }
  CHECK(create(1, 4, MASTER, reader, (void *)&ctl_before) && wait() == 0, "the parent reads the filter");
  CHECK(ctl_before >= 0, "the privileged parent may read SMI 1's filter: %ld", ctl_before);
  int c = spawn(NAME, NAME " child");
  CHECK(c >= 0, "spawn: %s", tos_strerror(tos_errno));
  CHECK(pwait(c) == 0, "the child failed");
  CHECK(create(2, 4, MASTER, reader, (void *)&ctl_after) && wait() == 0, "the parent reads the filter again");
  CHECK(ctl_after == ctl_before, "SMI 1's filter changed: %ld -> %ld", ctl_before, ctl_after);
  tos_pass(NAME);
  return 0;
}
