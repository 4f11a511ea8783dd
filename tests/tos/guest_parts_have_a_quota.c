/* One board's programs may not fill another board (issue #57, finding 3). Earth's program
 * spawns 15 children (earth's table full) and each creates a thread on air that stays for two
 * seconds. Air keeps at most guest_parts_per_home parts of earth's processes: the children past
 * the quota get ENOPROC from create, and air's own program, one second in, can still spawn
 * processes there. Before the quota earth's 15 parts and air's program filled air's 16 slots
 * and air's spawns failed with ENOPROC. */
#include <string.h>
#include "tos_check.h"

#define NAME "guest_parts_have_a_quota"
#define AIR 2
#define CHILDREN 15

static void stay(void *unused) {
  (void)unused;
  tos_check_spin_us(2000000);
  exit(0);
}

static int child(void) {
  if (!create(1, 2, AIR, stay, NULL)) return tos_errno == TOS_ENOPROC ? 1 : 2;
  return wait() == 0 ? 0 : 3;
}

static int air(void) { /* air's own program: its board has room for it */
  tos_check_spin_us(1000000);
  for (int i = 0; i < 3; ++i) {
    int c = spawn(NAME, NAME " noop");
    CHECK(c >= 0, "air's spawn %d: %s", i, tos_strerror(tos_errno));
    CHECK(pwait(c) == 0, "air's child %d", i);
  }
  tos_pass(NAME " air");
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "noop") == 0) return 0;
  if (argc > 1 && strcmp(argv[1], "child") == 0) return child();
  if (argc > 1 && strcmp(argv[1], "air") == 0) return air();
  int pid[CHILDREN], ok = 0, refused = 0;
  for (int i = 0; i < CHILDREN; ++i) {
    pid[i] = spawn(NAME, NAME " child");
    CHECK(pid[i] >= 0, "spawn %d: %s", i, tos_strerror(tos_errno));
  }
  for (int i = 0; i < CHILDREN; ++i) {
    int code = pwait(pid[i]);
    CHECK(code == 0 || code == 1, "child %d ended with %d", i, code);
    if (code == 0) ++ok;
    else ++refused;
  }
  CHECK(ok == TOS_MAX_GUEST_PARTS_PER_HOME, "%d of earth's processes placed a thread on air, the quota is %d", ok,
        TOS_MAX_GUEST_PARTS_PER_HOME);
  printf(NAME ": %d placed on air, %d refused\n", ok, refused);
  tos_pass(NAME " earth");
  return 0;
}
