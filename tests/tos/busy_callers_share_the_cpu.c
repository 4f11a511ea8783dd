/* Round robin holds for threads that make system calls all the time (compute_ms asks for the
 * clock in a loop): a call that returns at once lets the thread keep the rest of its slice,
 * but not a slice that ended during the call. Before that rule such threads could keep the
 * CPU from each other for seconds, depending on where the timer happened to fall. Three
 * threads compute for 1.5 s; main, computing 200 ms beside them, must be back well before. */
#include "tos_check.h"

static void spinner(void *arg) {
  (void)arg;
  compute_ms(1500);
  exit(0);
}

int main(void) {
  for (int i = 0; i < 3; ++i) CHECK(create(i, 2, HERE, spinner, NULL), "create: %s", tos_strerror(tos_errno));
  unsigned long t0 = time_us();
  compute_ms(200);
  unsigned long took = (time_us() - t0) / 1000;
  /* four threads in turn, 20 ms slices: main runs again within 80 ms of its 200 ms passing */
  CHECK(took < 400, "main's 200 ms of computing took %lu ms beside three others", took);
  CHECK(wait() == 0, "a thread failed");
  tos_pass("busy_callers_share_the_cpu");
  return 0;
}
