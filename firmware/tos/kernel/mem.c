/* Physical page frames (1 KB, the MMU's page): every frame from the end of the filestore to
 * the top of RAM, on a free list threaded through the frames themselves. The kernel's own
 * memory (vectors, code, data, page tables, stack) lies below the filestore. */
#include "defs.h"

static uint32_t free_list, nfree, ntotal;

void mem_init(uint32_t lo, uint32_t hi) {
  lo = (lo + TOS_PAGE_SIZE - 1) & ~(uint32_t)(TOS_PAGE_SIZE - 1);
  hi &= ~(uint32_t)(TOS_PAGE_SIZE - 1);
  free_list = 0;
  nfree = ntotal = 0;
  for (uint32_t pa = hi; pa > lo;) { /* lowest frames first out */
    pa -= TOS_PAGE_SIZE;
    REG32(pa) = free_list;
    free_list = pa;
    ++nfree;
  }
  ntotal = nfree;
}

uint32_t frame_alloc(void) {
  uint32_t pa = free_list;
  if (!pa) return 0;
  free_list = REG32(pa);
  --nfree;
  uint32_t *w = (uint32_t *)pa;
  for (int i = 0; i < TOS_PAGE_SIZE / 4; ++i) w[i] = 0;
  return pa;
}

void frame_free(uint32_t pa) {
  REG32(pa) = free_list;
  free_list = pa;
  ++nfree;
}

uint32_t frames_free(void) { return nfree; }
uint32_t frames_total(void) { return ntotal; }
