/* Limits: the 17th process, the 65th thread and the 129th channel are refused with an error,
 * and the board stays usable afterwards (nothing leaked). Run as "limits_are_enforced"; it
 * starts copies of itself as "limits_are_enforced child", which block until killed. */
#include "tos_check.h"

static char buf[4];

static void blocker(void *arg) {
  receive((int)arg, buf, 1); /* one channel per thread: only a send or the end releases it */
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    receive(0, buf, 1); /* nobody sends: blocks until killed */
    return 0;
  }
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES), tcbs0 = tos_info(TOS_INFO_FREE_TCBS);
  /* processes: this one + 15 children = 16; the 17th fails */
  int pids[TOS_MAX_PROCESSES];
  int n = 0;
  for (;;) {
    int pid = spawn("limits_are_enforced", "limits_are_enforced child");
    if (pid < 0) {
      CHECK(pid == -TOS_ENOPROC, "spawn failed with %d", pid);
      break;
    }
    pids[n++] = pid;
    CHECK(n < TOS_MAX_PROCESSES, "more than 16 processes");
  }
  CHECK(n == TOS_MAX_PROCESSES - 1, "only %d processes besides this one", n);
  printf("limits: process %d refused: %s\n", n + 2, tos_strerror(TOS_ENOPROC));
  for (int i = 0; i < n; ++i) {
    CHECK(kill(pids[i]) == 0, "kill %d", pids[i]);
    CHECK(pwait(pids[i]) < 0, "killed process %d ended normally", pids[i]);
  }
  CHECK(tos_info(TOS_INFO_PROCS) == 1, "%ld processes after the kills", tos_info(TOS_INFO_PROCS));

  /* threads: main + 63 children = 64; the 65th fails */
  int made = 0;
  for (int i = 1; i < TOS_MAX_THREADS; ++i) {
    CHECK(create(i, 1, HERE, blocker, (void *)i) != 0, "thread %d: %s", i + 1, tos_strerror(tos_errno));
    ++made;
  }
  tos_errno = 0;
  CHECK(create(99, 1, HERE, blocker, (void *)99) == 0, "a 65th thread was created");
  CHECK(tos_errno == TOS_ENOTHREAD, "65th thread: error %d", tos_errno);
  printf("limits: thread %d refused: %s\n", made + 2, tos_strerror(tos_errno));
  for (int i = 1; i <= made; ++i) CHECK(send_block(i, buf, 1) == 0, "release %d", i);
  CHECK(wait() == 0, "children failed");

  /* channels: 0..127 work, 128 is refused */
  CHECK(send_block(TOS_MAX_CHANNELS, buf, 1) == -TOS_EINVAL, "channel 128 accepted");
  CHECK(receive(TOS_MAX_CHANNELS, buf, 1) == -TOS_EINVAL, "channel 128 accepted for receive");
  printf("limits: channel %d refused: %s\n", TOS_MAX_CHANNELS + 1, tos_strerror(TOS_EINVAL));
  CHECK(create(1, 1, HERE, blocker, (void *)(TOS_MAX_CHANNELS - 1)) != 0, "create after the limits");
  CHECK(send_block(TOS_MAX_CHANNELS - 1, buf, 1) == 0, "channel 127");
  CHECK(wait() == 0, "child on channel 127");

  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames %ld, were %ld", tos_info(TOS_INFO_FREE_FRAMES), frames0);
  CHECK(tos_info(TOS_INFO_FREE_TCBS) == tcbs0, "TCBs %ld, were %ld", tos_info(TOS_INFO_FREE_TCBS), tcbs0);
  tos_pass("limits_are_enforced");
  return 0;
}
