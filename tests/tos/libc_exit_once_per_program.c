/* C's exit (atexit's functions, the streams flushed) belongs to the thread that ran main: after
 * main's thread has ended by _Exit (no atexit functions, no flush: what a program whose memory may
 * be damaged does, e.g. sysfuzz's workers), and its children too, the kernel gives its TID to the
 * next thread made in its slot, and that thread's exit must end only itself - not run atexit's functions and flush
 * the streams for a program that chose not to. (After main's exit newlib has already removed the
 * functions it ran, so only _Exit shows the difference.) */
#include "tos_check.h"

static volatile int ran, main_gone, reused;
static int main_tid;

static void at_end(void) { ++ran; }

static void second(void *arg) {
  (void)arg;
  if (gettid() == main_tid) reused = 1;
  exit(0); /* with main's TID: must not run at_end */
}

/* Outlives main's child: makes threads until one has main's old TID, then reports. */
static void relay(void *arg) {
  (void)arg;
  for (int i = 0; i < 200 && !reused; ++i) {
    yield();
    if (create(2, 1, (int)tos_info(TOS_INFO_BOARD), second, NULL) > 0) wait();
  }
  CHECK(reused, "no thread was given main's TID after it ended");
  CHECK(ran == 0, "atexit's function ran %d times after main's _Exit", ran);
  printf("libc_exit_once_per_program: atexit ran %d times with main's TID reused\n", ran);
  tos_pass("libc_exit_once_per_program");
  exit(0);
}

/* Main's child: while it lives, main's TID is not given again (its parent's, issue #57); its
 * own child, the relay, is what is left of the program once it has ended. */
static void survivor(void *arg) {
  (void)arg;
  while (!main_gone) yield();
  CHECK(create(3, 1, (int)tos_info(TOS_INFO_BOARD), relay, NULL) > 0, "create: %s", tos_strerror(tos_errno));
  exit(0);
}

int main(void) {
  main_tid = gettid();
  CHECK(atexit(at_end) == 0, "atexit");
  CHECK(create(1, 1, (int)tos_info(TOS_INFO_BOARD), survivor, NULL) > 0, "create: %s", tos_strerror(tos_errno));
  main_gone = 1;
  _Exit(0);
}
