/* A thread's writes survive its moves (issue 39; seed 000 section 2.1.4: the page protocol
 * "has to know when to flush out-of-date copies of pages"). The shortest case: main moves to
 * air, writes a global, comes home and reads it: 42, not the 0 the home's copy held. Then the
 * protocol's other paths: a read copy on fire of the page air owns (air keeps it read-only), a
 * write on fire that invalidates the home's and air's copies, a heap word written on water and
 * read at home, a page written in turn on every board (ownership moving round), and a child
 * on another board reading its parent's stack (a read copy) while the parent waits, then the
 * parent writing it again (its copy made writable, the child's flushed). */
#include <stdlib.h>
#include "tos_check.h"

static volatile int g;
static volatile int seen[TOS_BOARD_NAME_COUNT];
static volatile int *heap;

static void to(int board) {
  CHECK(migrate(gettid(), board) == 0, "migrate to %d", board);
  CHECK(tos_info(TOS_INFO_BOARD) == board, "on board %d after the move", board);
}

static volatile int child_saw;
static void child(void *arg) { /* reads its parent's stack array */
  volatile int *a = arg;
  int sum = 0;
  for (int i = 0; i < 300; ++i) sum += a[i];
  child_saw = sum;
  exit(0);
}

int main(void) {
  int home = (int)tos_info(TOS_INFO_BOARD);
  to(2);
  g = 42;
  to(home);
  printf("g = %d\n", g);
  CHECK(g == 42, "the write on air came home: g is %d", g);

  to(2); /* air owns the page again */
  g = 7;
  to(3); /* a read copy on fire */
  CHECK(g == 7, "fire reads air's value: %d", g);
  g = 8; /* fire takes the page: air's and everyone's copies go */
  to(2);
  CHECK(g == 8, "air's out-of-date copy was flushed: %d", g);
  to(home);
  CHECK(g == 8, "home sees fire's write: %d", g);

  heap = malloc(4096);
  CHECK(heap != NULL, "malloc");
  for (int i = 0; i < 1024; ++i) heap[i] = i;
  to(4);
  for (int i = 0; i < 1024; i += 5) heap[i] = -i;
  to(home);
  for (int i = 0; i < 1024; ++i) CHECK(heap[i] == (i % 5 ? i : -i), "heap word %d is %d", i, heap[i]);

  for (int round = 0; round < 2; ++round) /* ownership round every board */
    for (int b = 0; b < TOS_BOARD_NAME_COUNT; ++b) {
      to(b);
      for (int k = 0; k < TOS_BOARD_NAME_COUNT; ++k)
        CHECK(seen[k] == (k < b ? round + 1 : round), "round %d on %d: seen[%d] = %d", round, b, k, seen[k]);
      seen[b] = round + 1;
    }
  to(home);

  int arr[300], want = 0;
  for (int i = 0; i < 300; ++i) want += arr[i] = i * 3 + 1;
  CHECK(create(1, 2, 5, child, arr) != 0, "create the child on space");
  CHECK(wait() == 0, "the child");
  CHECK(child_saw == want, "the child read its parent's stack: %d, not %d", child_saw, want);
  for (int i = 0; i < 300; ++i) arr[i] = -1; /* the page is the parent's to write again */
  want = 0;
  for (int i = 0; i < 300; ++i) want += arr[i];
  CHECK(want == -300, "the parent's own stack after the child's read: %d", want);
  CHECK(create(2, 2, 5, child, arr) != 0, "create the second child on space");
  CHECK(wait() == 0, "the second child");
  CHECK(child_saw == -300, "the second child read the new values, not a stale copy: %d", child_saw);
  free((void *)heap);
  tos_pass("migrated_writes_come_home");
  return 0;
}
