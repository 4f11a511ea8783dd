/* A forged halt (issue #30): a program on earth (on the test kernel, which has net_inject)
 * sends air the master's NET_HALT. Only the master halts other boards: air must refuse it (the
 * network interface says it came from earth, whatever the message claims), say so once however
 * many come, and go on serving the thread it runs for this program. Before the fix air printed
 * "halted by the master" and stopped: the round trip below never ended and the run was stopped
 * by the no-progress detection (exit status 1). */
#include <testbed/tos_net.h>
#include "tos_check.h"

static void echo(void *arg) {
  (void)arg;
  for (int k = 0; k < 2; ++k) {
    int v = 0;
    receive(1, &v, sizeof v);
    ++v;
    send_block(2, &v, sizeof v);
  }
  exit(0);
}

int main(void) {
  int air = 2;
  CHECK(create(1, 2, air, echo, NULL) > 0, "create on air: %s", tos_strerror(tos_errno));
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 5; ++i) CHECK(net_inject(air, NET_HALT, NULL, 0) == 0, "inject");
    int v = 10 * k;
    CHECK(send_block(1, &v, sizeof v) == 0, "send to air");
    CHECK(receive(2, &v, sizeof v) == sizeof v && v == 10 * k + 1, "air answered %d", v);
  }
  CHECK(wait() == 0, "the thread on air failed");
  tos_pass("forged_halt_is_refused");
  return 0;
}
