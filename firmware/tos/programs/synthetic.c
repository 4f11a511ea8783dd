/* synthetic (seed 000 section 4.3, the compute-bound part): N compute-bound threads, each
 * computing for ms milliseconds of processor time in steps of about 10 ms; prints the elapsed
 * time. Placement (Table 9's columns): `here` starts them all on this board (sequential; a
 * balancer may spread them), `random` on boards TOS chooses at random.
 *   synthetic [threads [ms [here|random]]]    defaults 20 5000 here */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

static long work_ms = 5000;

static void worker(void *arg) {
  (void)arg;
  for (long done = 0; done < work_ms; done += 10) {
    /* 10 ms of this thread's own computing: the clock runs on while others have the CPU, so
     * count iterations calibrated once, not wall time */
    for (volatile long i = 0; i < 1400; ++i) { /* about 10 ms on the 10 MHz 68010 (7 us an iteration) */
    }
  }
  exit(0);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  if (argc > 2) work_ms = atol(argv[2]);
  const char *place = argc > 3 ? argv[3] : "here";
  int random = !strcmp(place, "random");
  if (n < 1 || n > 60 || work_ms < 10 || (!random && strcmp(place, "here"))) {
    printf("usage: synthetic [threads 1..60 [ms >= 10 [here|random]]]\n");
    return 2;
  }
  unsigned long t0 = time_us();
  for (int i = 0; i < n; ++i)
    if (!create(i, 2, random ? -1 : HERE, worker, NULL)) {
      printf("synthetic: create: %s\n", tos_strerror(tos_errno));
      return 1;
    }
  int rc = wait();
  printf("synthetic: %d compute-bound threads (%s) done in %lu ms\n", n, place, (time_us() - t0) / 1000);
  return rc;
}
