/* sbrk from a thread on a guest board grows the process's one heap, at the home: a thread
 * created on air asks for 5 pages past the break, writes a pattern in them, then moves to fire
 * and checks it there; main, at home on earth, checks it too and finds its own break past the
 * block. (Until this test a guest part had a break of its own, starting at 0: its sbrk mapped the
 * bottom of the address space, page 0 included, on that board alone.) */
#include "tos_check.h"

#define BYTES (5 * 1024)
static volatile char *block;
static volatile long before;

static void grower(void *arg) {
  (void)arg;
  CHECK(HERE == 2, "the grower starts on air, not %d", HERE);
  before = (long)sbrk(0);
  char *b = sbrk(BYTES);
  CHECK(b != (char *)-1 && (long)b == before, "sbrk on air: %p, the break was 0x%lx", (void *)b, before);
  CHECK((unsigned long)b >= 0x1000, "the heap at 0x%lx, below the image", (unsigned long)b);
  for (int i = 0; i < BYTES; ++i) b[i] = (char)(i * 7 + 3);
  block = b;
  CHECK(migrate(gettid(), 3) == 0 && HERE == 3, "the grower reaches fire");
  for (int i = 0; i < BYTES; ++i) CHECK(b[i] == (char)(i * 7 + 3), "fire reads byte %d of the block as %d", i, b[i]);
  CHECK((char *)sbrk(0) == b + BYTES, "fire sees the break at %p, not %p", sbrk(0), (void *)(b + BYTES));
  exit(0);
}

int main(void) {
  long start = (long)sbrk(0);
  CHECK(create(2, 4, 2, grower, NULL), "create on air: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the grower failed (air's or fire's console says why)");
  CHECK(before == start, "air saw the break at 0x%lx, the home at 0x%lx", before, start);
  CHECK((char *)sbrk(0) == (char *)block + BYTES, "the home's break is %p, not past the block at %p", sbrk(0),
        (void *)block);
  for (int i = 0; i < BYTES; ++i) CHECK(block[i] == (char)(i * 7 + 3), "earth reads byte %d as %d", i, block[i]);
  printf("guest sbrk: %d bytes at 0x%lx grown from air, read on fire and at home\n", BYTES, (unsigned long)block);
  tos_pass("guest_sbrk_grows_home_heap");
  return 0;
}
