/* process_twin duplicates the calling process (seed 002, kernel/rex.c): at the twin point the
 * twin's data, heap and stack (and a value the compiler keeps in a register across the call)
 * equal the parent's; after it, each changes only its own copy: the parent's changes made while
 * the twin runs are not seen by the twin, and the twin's are not seen by the parent. A process
 * with a second thread is refused. */
#include <string.h>
#include "tos_check.h"

#define N 3000 /* more than a page */
static unsigned char data[N];

static unsigned char pattern(int i) { return (unsigned char)(i * 7 + 3); }

static void second(void *arg) {
  (void)arg;
  CHECK(process_twin() < 0 && tos_errno == TOS_EINVAL, "a process with two threads was twinned");
  exit(0);
}

int main(void) {
  unsigned char stack[N];
  unsigned char *heap = malloc(N);
  CHECK(heap, "malloc");
  for (int i = 0; i < N; ++i) data[i] = stack[i] = heap[i] = pattern(i);
  long kept = 12345 + (long)time_us() % 7; /* lives across the call */
  long expect = kept;
  int me = gettid();
  int r = process_twin();
  CHECK(r >= 0, "process_twin: %s", tos_strerror(tos_errno));
  CHECK(kept == expect, "a register value changed across the call: %ld, expected %ld (%s)", kept, expect,
        r ? "parent" : "twin");
  if (r == 0) { /* the twin: equal at the twin point, whatever the parent does now */
    CHECK(gettid() != me, "the twin runs as the parent's thread");
    for (int i = 0; i < N; ++i)
      CHECK(data[i] == pattern(i) && stack[i] == pattern(i) && heap[i] == pattern(i),
            "twin: byte %d differs at the twin point: %d %d %d, expected %d", i, data[i], stack[i], heap[i], pattern(i));
    for (int i = 0; i < N; ++i) data[i] = stack[i] = heap[i] = (unsigned char)~pattern(i);
    for (int k = 0; k < 20; ++k) yield();
    for (int i = 0; i < N; ++i)
      CHECK(data[i] == (unsigned char)~pattern(i) && heap[i] == (unsigned char)~pattern(i),
            "twin: byte %d changed by the parent: %d", i, data[i]);
    printf("twin: equal at the twin point, diverged after\n");
    exit(0);
  }
  CHECK(gettid() == me, "the parent's thread changed");
  for (int i = 0; i < N; ++i) data[i] = stack[i] = heap[i] = (unsigned char)(pattern(i) + 1);
  for (int k = 0; k < 20; ++k) yield();
  CHECK(pwait(r) == 0, "the twin failed");
  for (int i = 0; i < N; ++i)
    CHECK(data[i] == (unsigned char)(pattern(i) + 1) && stack[i] == data[i] && heap[i] == data[i],
          "parent: byte %d changed by the twin: %d %d %d", i, data[i], stack[i], heap[i]);
  CHECK(create(1, 2, HERE, second, NULL), "create");
  CHECK(wait() == 0, "the two-thread refusal failed");
  free(heap);
  tos_pass("twin_duplicates_state");
  return 0;
}
