/* The LAN link and the MMI belong to the master: on a slave lan_get, lan_put, mon_read and
 * mon_status refuse with -ENODEV (and touch no device). */
#include "tos_check.h"

int main(void) {
  char buf[16];
  uint32_t words[4];
  CHECK(tos_info(TOS_INFO_MASTER) == 0, "runs on a slave");
  int n = lan_get("anything.txt", buf, sizeof buf);
  CHECK(n == -TOS_ENODEV, "lan_get on a slave: %d (%s)", n, tos_strerror(n));
  printf("lan_and_mmi_are_the_masters: lan_get on board %ld: %s\n", tos_info(TOS_INFO_BOARD), tos_strerror(n));
  CHECK(lan_put("anything.txt", buf, sizeof buf) == -TOS_ENODEV, "lan_put on a slave");
  CHECK(mon_read(words, 4) == -TOS_ENODEV, "mon_read on a slave");
  CHECK(mon_status(TOS_MON_LEVEL) == -TOS_ENODEV, "mon_status on a slave");
  tos_pass("lan_and_mmi_are_the_masters");
  return 0;
}
