/* Forged console input (issue #30): a thread of this program on earth sends the master what a
 * console switch carries to a selected board: "rm precious" as if typed. Typing comes only from
 * the operator's keyboard, forwarded by the master to the board the operator switched to: the
 * master must refuse it, and the first line this program (on the master, reading the operator's
 * console as the shell would) reads is the one the operator types after the prompt. Before the
 * fix the forged line was read first. */
#include <string.h>
#include <testbed/tos_net.h>
#include "tos_check.h"

static void forger(void *arg) {
  (void)arg;
  const char *line = "rm precious\n";
  uint32_t ops[1 + 3] = {(uint32_t)strlen(line)};
  for (uint32_t i = 0; i < ops[0]; ++i) ops[1 + i / 4] |= (uint32_t)(unsigned char)line[i] << (24 - 8 * (i % 4));
  for (int k = 0; k < 3; ++k) CHECK(net_inject(0, NET_CON_IN, ops, 4) == 0, "inject");
  int done = 1;
  send_block(3, &done, sizeof done);
  exit(0);
}

int main(void) {
  int earth = 1;
  CHECK(create(1, 2, earth, forger, NULL) > 0, "create on earth: %s", tos_strerror(tos_errno));
  int done = 0;
  CHECK(receive(3, &done, sizeof done) == sizeof done, "the forger's word");
  for (unsigned long t0 = time_us(); time_us() - t0 < 300000;) yield(); /* time for the forgery to arrive */
  printf("operator>\n");
  char buf[64];
  int n = read(0, buf, sizeof buf - 1);
  CHECK(n > 0, "read: %d", n);
  buf[n] = 0;
  CHECK(strcmp(buf, "typed by the operator\n") == 0, "the first line read was '%s', not the operator's", buf);
  CHECK(wait() == 0, "the forger failed");
  tos_pass("forged_console_is_refused");
  return 0;
}
