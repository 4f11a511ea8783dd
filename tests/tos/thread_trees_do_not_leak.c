/* create / wait / exit trees: four binary trees of 63 threads each (252 threads in all, at
 * most 64 alive at once), every parent waiting for its children; afterwards the kernel's free
 * frame and TCB counts are back where they started. */
#include "tos_check.h"

static volatile long nodes;

static void node(void *arg) {
  int depth = (int)arg;
  __asm__ volatile("addq.l #1,%0" : "+m"(nodes)); /* one instruction: pre-emption cannot split it */
  if (depth > 1) {
    CHECK(create(depth, 1, HERE, node, (void *)(depth - 1)) != 0, "create: %s", tos_strerror(tos_errno));
    CHECK(create(depth, 1, HERE, node, (void *)(depth - 1)) != 0, "create: %s", tos_strerror(tos_errno));
    CHECK(wait() == 0, "a child failed");
  }
  exit(0);
}

int main(void) {
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES), tcbs0 = tos_info(TOS_INFO_FREE_TCBS);
  for (int round = 0; round < 4; ++round) {
    CHECK(create(1, 1, HERE, node, (void *)6) != 0, "root: %s", tos_strerror(tos_errno));
    CHECK(wait() == 0, "tree %d failed", round);
  }
  printf("trees: %ld threads created and ended\n", nodes);
  CHECK(nodes == 4 * 63, "%ld nodes", nodes);
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames %ld, were %ld", tos_info(TOS_INFO_FREE_FRAMES), frames0);
  CHECK(tos_info(TOS_INFO_FREE_TCBS) == tcbs0, "TCBs %ld, were %ld", tos_info(TOS_INFO_FREE_TCBS), tcbs0);
  tos_pass("thread_trees_do_not_leak");
  return 0;
}
