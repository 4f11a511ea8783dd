/* The TOS program of the gdb test tos_threads (tests/gdb): main and four workers, five threads
 * of one process. gdb stops in all_started() once every worker exists and lists them with
 * `info threads`. Then main lets the workers go and they all end. */
#include <stdio.h>
#include <tos/tos.h>

static volatile int started;

static void worker(void *arg) {
  char b[4];
  started = started + 1;
  receive((int)arg, b, sizeof b);
}

void __attribute__((noinline)) all_started(void) { __asm__ volatile(""); }

int main(void) {
  for (int i = 1; i <= 4; ++i)
    if (!create(i, 2, gettid() >> 10, worker, (void *)i)) printf("gdb_five_threads: create %d failed: %d\n", i, tos_errno);
  printf("gdb_five_threads: created\n");
  while (started < 4) yield();
  all_started();
  for (int i = 1; i <= 4; ++i) send_block(i, "go", 3);
  int rc = wait();
  printf("gdb_five_threads: PASS\n");
  return rc;
}
