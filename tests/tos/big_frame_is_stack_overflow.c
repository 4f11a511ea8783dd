/* A stack overrun is named as one however far it goes (issue #62 item 7): main's stack is
 * main_stack_pages (16 KB) of its 33 KB window, and a function whose locals are larger than the
 * window moves the stack pointer below the window at once; its first access lands there, in no
 * stack at all (for main, below every stack window). The kernel named only accesses inside the
 * window, or within a page below a stack pointer still in the stacks' area, and said "unmapped
 * page". Children of this program take the big frame ("... child N": N KB of locals, in main or
 * in a thread of 8 pages); each must be removed with "(stack overflow)". */
#include "tos_check.h"

static volatile long sink;

static long big_frame(int kb) {
  volatile char frame[48 * 1024];
  for (int i = 0; i < kb * 1024; i += 512) frame[i] = (char)i; /* lowest address first */
  return frame[0] + frame[kb * 1024 - 1];
}

static void in_thread(void *kb) {
  sink = big_frame((int)(long)kb);
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 3 && !strcmp(argv[1], "child")) {
    int kb = atoi(argv[2]);
    if (!strcmp(argv[3], "main")) sink = big_frame(kb);
    else if (create(1, 8, HERE, in_thread, (void *)(long)kb)) wait();
    return 0; /* the frame fit: not what the test asked for */
  }
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  static const char *const args[] = {"big_frame_is_stack_overflow child 40 main",
                                     "big_frame_is_stack_overflow child 48 thread"};
  for (int i = 0; i < 2; ++i) {
    int pid = spawn("big_frame_is_stack_overflow", args[i]);
    CHECK(pid >= 0, "spawn: %d", pid);
    int code = pwait(pid);
    CHECK(code == -(0x100 + 2), "%s ended with %d, not a bus error", args[i], code);
  }
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames: %ld free, %ld before", tos_info(TOS_INFO_FREE_FRAMES),
        frames0);
  tos_pass("big_frame_is_stack_overflow");
  return 0;
}
