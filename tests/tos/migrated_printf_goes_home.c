/* A process's console is its home's (issue 62 item 4): what its threads print reaches the console
 * the program was started from, wherever they run. A thread created on air prints a long line
 * (several messages home) and a thread that migrates itself to fire prints after the move; both
 * lines must come out on earth's console, whole and in order (the test reads earth's console;
 * before, each line went to the console of the board the thread ran on). */
#include "tos_check.h"

static void on_air(void *arg) {
  (void)arg;
  printf("printed on air: the quick brown fox jumps over the lazy dog, 0123456789, then the end\n");
  exit(0);
}

static void mover(void *arg) {
  (void)arg;
  int fire = 3;
  CHECK(migrate(gettid(), fire) == 0, "migrate to fire: %s", tos_strerror(tos_errno));
  CHECK(tos_info(TOS_INFO_BOARD) == fire, "on fire after the move");
  printf("printed on fire after a migration\n");
  exit(0);
}

int main(void) {
  int air = 2;
  CHECK(create(1, 2, air, on_air, NULL) > 0, "create on air: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the thread on air");
  CHECK(create(2, 2, HERE, mover, NULL) > 0, "create here: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the thread that moved to fire");
  printf("printed at home\n");
  tos_pass("migrated_printf_goes_home");
  return 0;
}
