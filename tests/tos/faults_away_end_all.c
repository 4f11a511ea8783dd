/* A fault away from home ends the whole process (issue #57, finding 5; firmware/tos/README.md:
 * a faulting thread's process is removed with all its threads). A child process has a thread on
 * fire that computes for ever and a thread on air that writes to address 0; its main thread
 * waits for both at home. Before the fix only air's part ended: the home was never told, main
 * waited for ever and fire's thread ran on. Here the parent's pwait returns the fault's code
 * (bus error: -(0x100 + 2)), and every board ends with all its frames and TCBs free. */
#include <string.h>
#include "tos_check.h"

#define NAME "faults_away_end_all"
#define AIR 2
#define FIRE 3

static void spinner(void *unused) {
  (void)unused;
  for (;;) yield();
}

static void faulter(void *unused) {
  (void)unused;
  tos_check_spin_us(20000); /* the spinner is on fire first */
  *(volatile long *)0 = 1;
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    CHECK(create(1, 2, FIRE, spinner, NULL), "a thread on fire: %s", tos_strerror(tos_errno));
    CHECK(create(2, 2, AIR, faulter, NULL), "a thread on air: %s", tos_strerror(tos_errno));
    wait();
    CHECK(0, "the child's main thread outlived its process's fault");
  }
  int c = spawn(NAME, NAME " child");
  CHECK(c >= 0, "spawn: %s", tos_strerror(tos_errno));
  int code = pwait(c);
  CHECK(code == -(0x100 + 2), "the child ended with %d, not the bus error's code %d", code, -(0x100 + 2));
  tos_pass(NAME);
  return 0;
}
