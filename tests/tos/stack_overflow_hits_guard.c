/* Stacks (issue #30): below every thread's stack lies a page that is never mapped, 32-page
 * stacks included (a stack window is 33 pages). A thread that overflows its stack faults there
 * -- its process is removed, reported as a stack overflow -- instead of running on into the
 * window below: the top of another thread's stack (a 32-page stack used to fill its window, so
 * the page below was the neighbour's). A thread may still use all of its 32 pages.
 * Children of this program do the overflowing ("... overflow N": a thread with N pages). */
#include "tos_check.h"

static volatile int depth_reached;

/* Each level takes a little over 1 KB of stack and writes all of it. */
static int dig(int levels) {
  volatile unsigned short frame[512];
  for (int i = 0; i < 512; ++i) frame[i] = 0x4E71; /* NOP: were this ever returned into, no bus error */
  depth_reached = levels;
  return levels ? dig(levels - 1) + frame[levels % 512] : frame[0];
}

static void overflow(void *pages) {
  dig((int)pages + 4); /* past the bottom of its stack */
  exit(0);
}
static void use_all(void *pages) {
  dig((int)pages - 3); /* within it: a 32-page stack is usable whole */
  exit(0);
}

static int child(int pages) {
  /* the main thread (slot 0) waits; the child thread (slot 1) overflows towards slot 0's window */
  CHECK(create(1, pages, HERE, overflow, (void *)pages), "create: %s", tos_strerror(tos_errno));
  wait();
  return 0; /* the overflow went unnoticed */
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "overflow")) return child(atoi(argv[2]));
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  CHECK(create(1, 32, HERE, use_all, (void *)32) && wait() == 0, "a thread using 28 of its 32 stack pages");
  static const char *const args[] = {"stack_overflow_hits_guard overflow 32",
                                     "stack_overflow_hits_guard overflow 8"};
  for (int i = 0; i < 2; ++i) {
    int pid = spawn("stack_overflow_hits_guard", args[i]);
    CHECK(pid >= 0, "spawn: %d", pid);
    int code = pwait(pid);
    CHECK(code == -(0x100 + 2), "%s ended with %d, not a bus error on the guard page", args[i], code);
  }
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames: %ld free, %ld before", tos_info(TOS_INFO_FREE_FRAMES),
        frames0);
  tos_pass("stack_overflow_hits_guard");
  return 0;
}
