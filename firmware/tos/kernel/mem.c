/* Physical page frames (1 KB, the MMU's page): every frame from the end of the filestore to
 * the top of RAM, on a free list threaded through the frames themselves. The kernel's own
 * memory (vectors, code, data, page tables, stack) lies below the filestore.
 *
 * A bitmap says which frames of the pool are free, so that a frame given back that is not the
 * pool's (a filestore block, a kernel address) or is free already halts the board with a message
 * instead of corrupting the free list: the free count can never pass the total. */
#include "defs.h"

static uint32_t free_list, nfree, ntotal, pool_lo, pool_hi;
static uint8_t free_map[(TB_RAM_MAX_BYTES >> TOS_PAGE_SHIFT) / 8];

#define BIT(pa) (((pa) - pool_lo) >> TOS_PAGE_SHIFT)
static int is_free(uint32_t pa) { return free_map[BIT(pa) / 8] >> (BIT(pa) % 8) & 1; }
static void mark(uint32_t pa, int f) {
  if (f) free_map[BIT(pa) / 8] |= (uint8_t)(1u << (BIT(pa) % 8));
  else free_map[BIT(pa) / 8] &= (uint8_t)~(1u << (BIT(pa) % 8));
}

void mem_init(uint32_t lo, uint32_t hi) {
  lo = (lo + TOS_PAGE_SIZE - 1) & ~(uint32_t)(TOS_PAGE_SIZE - 1);
  hi &= ~(uint32_t)(TOS_PAGE_SIZE - 1);
  if (hi > TB_RAM_MAX_BYTES) hi = TB_RAM_MAX_BYTES;
  pool_lo = lo;
  pool_hi = hi > lo ? hi : lo;
  free_list = 0;
  nfree = ntotal = 0;
  memset(free_map, 0, sizeof free_map);
  for (uint32_t pa = pool_hi; pa > lo;) { /* lowest frames first out */
    pa -= TOS_PAGE_SIZE;
    REG32(pa) = free_list;
    free_list = pa;
    mark(pa, 1);
    ++nfree;
  }
  ntotal = nfree;
}

int frame_owned(uint32_t pa) {
  return pa >= pool_lo && pa < pool_hi && !(pa & (TOS_PAGE_SIZE - 1));
}

uint32_t frame_alloc(void) {
  uint32_t pa = free_list;
  if (!pa) return 0;
  free_list = REG32(pa);
  --nfree;
  mark(pa, 0);
  uint32_t *w = (uint32_t *)pa;
  for (int i = 0; i < TOS_PAGE_SIZE / 4; ++i) w[i] = 0;
  return pa;
}

/* n physically contiguous frames, zeroed, for a DMA buffer (kernel/dev.c): the first's address,
 * 0 if no run that long is free. Taken from the top of the pool, away from the low frames the
 * free list hands out first; the list is walked once to unlink them (a rare call: a driver's). */
RARE uint32_t frames_alloc_run(uint32_t n) {
  uint32_t lo = pool_hi, run = 0;
  while (run < n && lo > pool_lo) {
    lo -= TOS_PAGE_SIZE;
    run = is_free(lo) ? run + 1 : 0;
  }
  if (run < n) return 0;
  for (uint32_t *link = &free_list; *link;)
    if (*link - lo < n * TOS_PAGE_SIZE) {
      mark(*link, 0);
      --nfree;
      *link = REG32(*link);
    } else {
      link = (uint32_t *)*link;
    }
  memset((void *)lo, 0, n * TOS_PAGE_SIZE);
  return lo;
}

/* A frame freed while a message in the network queue still has its data there (a user page
 * piece of a remote msg, an rput, a page copy: its process freed the page, or ended, before the
 * piece left) is held until the message has gone: no other process's data can leave in it. */
#define HELD_MAX NET_TXQ /* the network queue's length: one frame per message at most */
static uint32_t held[HELD_MAX], nheld;

static int is_held(uint32_t pa) {
  for (uint32_t i = 0; i < nheld; ++i)
    if (held[i] == pa) return 1;
  return 0;
}

uint32_t frames_held(void) { return nheld; }

static void put_free(uint32_t pa) {
  REG32(pa) = free_list;
  free_list = pa;
  mark(pa, 1);
  ++nfree;
}

void frames_release_held(void) {
  for (uint32_t i = 0; i < nheld;)
    if (!net_frame_queued(held[i])) {
      put_free(held[i]);
      held[i] = held[--nheld];
    } else {
      ++i;
    }
}

void frame_free(uint32_t pa) {
  if (!frame_owned(pa) || is_free(pa) || is_held(pa)) {
    kprintf("\ntos: %s: KERNEL BUG: frame 0x%x given back %s (pool 0x%x..0x%x, %u of %u free): halted\n",
            board_name, pa, frame_owned(pa) ? "twice" : "that is not a page frame", pool_lo, pool_hi, nfree,
            ntotal);
    console_flush();
    halt_board(0x2FF);
  }
  if (net_frame_queued(pa)) {
    if (nheld == HELD_MAX) { /* more than the queue's messages: freeing it would send another's data */
      kprintf("\ntos: %s: KERNEL BUG: frame 0x%x freed under a queued message with %u frames held already: halted\n",
              board_name, pa, nheld);
      console_flush();
      halt_board(0x2FF);
    }
    held[nheld++] = pa;
    return;
  }
  put_free(pa);
}

uint32_t frames_free(void) { return nfree; }
uint32_t frames_total(void) { return ntotal; }
