/* Kernel messages are trusted only from kernels (issue #30): the kernel users run, tos.elf, has
 * no net_inject (a raw kernel message, a test kernel's call): its number answers ENOSYS like
 * any unknown call, so a program cannot halt another board "by the master". On a kernel that
 * still has it, the halt below leaves and air stops: this program then fails its check, and
 * the round trip to air that follows would never end. */
#include <testbed/tos_net.h>
#include "tos_check.h"

static void echo(void *arg) {
  (void)arg;
  int v = 0;
  receive(1, &v, sizeof v);
  ++v;
  send_block(2, &v, sizeof v);
  exit(0);
}

int main(void) {
  int air = 2;
  CHECK(create(1, 2, air, echo, NULL) > 0, "create on air: %s", tos_strerror(tos_errno));
  int r = net_inject(air, NET_HALT, NULL, 0);
  CHECK(r == -TOS_ENOSYS, "net_inject answered %d, not ENOSYS: tos.elf lets a program speak for its kernel", r);
  int v = 41;
  CHECK(send_block(1, &v, sizeof v) == 0, "send to air");
  CHECK(receive(2, &v, sizeof v) == sizeof v && v == 42, "air answered %d", v);
  CHECK(wait() == 0, "the thread on air failed");
  tos_pass("net_inject_is_test_only");
  return 0;
}
