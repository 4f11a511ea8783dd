/* Address spaces: one per process, MMU address space (ASID) = process number. A page table is
 * TOS_USER_PAGES entries in kernel memory (PTBASEn / PTLENn); an entry is the frame address
 * with USER, WRITABLE and VALID. The kernel runs physical (supervisor accesses are never
 * translated), so it reaches user memory by walking the same tables in software. */
#include "defs.h"

static uint32_t ptables[TOS_MAX_PROCESSES][TOS_USER_PAGES];
/* A bit a page that may have a nonzero entry (set by vm_map, the only way an empty entry gets
 * one; cleared by vm_clear): the walks over a whole space (an exit, a twin, a new process) visit
 * the few pages a process uses, not all TOS_USER_PAGES entries one by one. */
#define MAP_WORDS ((TOS_USER_PAGES + 31) / 32)
static uint32_t maybe[TOS_MAX_PROCESSES][MAP_WORDS];

#define PTE_FRAME TB_MMU_PTE_FRAME

void vm_init(void) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
    procs[i].ptable = ptables[i];
    REG32(TB_MMU_PTBASE0 + i * TB_MMU_PTBASE_STRIDE) = (uint32_t)ptables[i];
    REG16(TB_MMU_PTLEN0 + i * TB_MMU_PTLEN_STRIDE) = TOS_USER_PAGES;
  }
  REG16(TB_MMU_CTRL) = TB_MMU_CTRL_ENABLE;
}

void vm_clear(struct proc *p) {
  for (uint32_t v = vm_next(p, 0); v < TOS_USER_PAGES; v = vm_next(p, v + 1)) p->ptable[v] = 0;
  memset(maybe[p->pid], 0, sizeof maybe[0]);
  REG32(TB_MMU_FLUSH) = TB_MMU_FLUSH_ALL;
}

uint32_t vm_next(struct proc *p, uint32_t v) {
  const uint32_t *m = maybe[p->pid];
  for (uint32_t w = v / 32; w < MAP_WORDS; ++w) {
    uint32_t bits = m[w] >> (v % 32);
    if (bits) {
      while (!(bits & 0xFF)) bits >>= 8, v += 8;
      while (!(bits & 1)) bits >>= 1, ++v;
      return v < TOS_USER_PAGES ? v : TOS_USER_PAGES;
    }
    v = (w + 1) * 32;
  }
  return TOS_USER_PAGES;
}

/* The address space the MMU translates now: kept here so that a switch between threads of one
 * process touches no device register, and one between processes writes ASID and nothing else
 * (the page tables stay where vm_init put them: nothing is rebuilt at a switch). */
uint16_t vm_asid KERNEL_HOT = 0xFFFF; /* none yet: the first activation writes it (vm_activate, defs.h) */

int vm_map(struct proc *p, uint32_t vpage, uint32_t pa, int writable) {
  if (vpage >= TOS_USER_PAGES) return 0;
  p->ptable[vpage] = (pa & PTE_FRAME) | TB_MMU_PTE_USER | TB_MMU_PTE_VALID | (writable ? TB_MMU_PTE_WRITABLE : 0);
  maybe[p->pid][vpage / 32] |= 1u << (vpage % 32);
  REG32(TB_MMU_FLUSH) = vpage << TOS_PAGE_SHIFT;
  return 1;
}

/* The MMU caches valid entries only (hw/board/mmu.cpp), so an entry that was not valid needs no
 * flush: a process's teardown walks every page of its space, and a flush (a device write) per
 * empty page was most of an exit's cost (a cycle profile of seed 002's twins). */
uint32_t vm_unmap(struct proc *p, uint32_t vpage) {
  uint32_t e = p->ptable[vpage];
  if (!(e & TB_MMU_PTE_VALID)) {
    p->ptable[vpage] = 0;
    return 0;
  }
  p->ptable[vpage] = 0;
  REG32(TB_MMU_FLUSH) = vpage << TOS_PAGE_SHIFT;
  return e & PTE_FRAME;
}

/* The one way from a user address to a physical one: 1 and *pa when the page is mapped for the
 * user (and writable if asked) now, 0 otherwise. Every kernel access to user memory goes through
 * it at the moment of the access: a page checked when a call began may be gone by the time a
 * partner arrives or a transfer completes (sbrk(-n), another thread's exit, the process killed). */
int vm_user_pa(struct proc *p, uint32_t va, int write, uint32_t *pa) {
  uint32_t vpage = va >> TOS_PAGE_SHIFT;
  if (vpage >= TOS_USER_PAGES) return 0;
  uint32_t e = p->ptable[vpage];
  if (!(e & TB_MMU_PTE_VALID) || !(e & TB_MMU_PTE_USER) || (write && !(e & TB_MMU_PTE_WRITABLE))) return 0;
  *pa = (e & PTE_FRAME) | (va & (TOS_PAGE_SIZE - 1));
  return 1;
}

/* The same for a blocked send reading its buffer: a page the page protocol took from under it
 * keeps its frame (valid, no longer the user's: pages.c keep()) until the send is done, and the
 * send still reads that frame. A page that is gone (sbrk(-n), an exit) is gone for it too. */
int vm_send_pa(struct proc *p, uint32_t va, uint32_t *pa) {
  uint32_t vpage = va >> TOS_PAGE_SHIFT;
  if (vpage >= TOS_USER_PAGES) return 0;
  uint32_t e = p->ptable[vpage];
  if (!(e & TB_MMU_PTE_VALID)) return 0;
  *pa = (e & PTE_FRAME) | (va & (TOS_PAGE_SIZE - 1));
  return 1;
}

int vm_mapped(struct proc *p, uint32_t va, int write) {
  uint32_t pa;
  return vm_user_pa(p, va, write, &pa);
}

/* Is every byte of [va, va+len) mapped for the user (and writable if asked)? An early answer
 * for EFAULT; the copies below check again as they go. */
int vm_check(struct proc *p, uint32_t va, uint32_t len, int write) {
  if (len == 0) return 1;
  if (va + len < va || va + len > TOS_USER_TOP) return 0;
  for (uint32_t pg = va >> TOS_PAGE_SHIFT; pg <= (va + len - 1) >> TOS_PAGE_SHIFT; ++pg)
    if (!vm_mapped(p, pg << TOS_PAGE_SHIFT, write) || !(p->ptable[pg] & TB_MMU_PTE_USER)) return 0; /* (pages.c) */
  return 1;
}

/* Copy between two user spaces, a page piece at a time, each piece translated as it is copied:
 * 0 when a page of either side is gone (the copy stops there; what went before stays). */
int vm_copy(struct proc *dp, uint32_t dva, struct proc *sp, uint32_t sva, uint32_t n) {
  while (n) {
    uint32_t dn = TOS_PAGE_SIZE - (dva & (TOS_PAGE_SIZE - 1));
    uint32_t sn = TOS_PAGE_SIZE - (sva & (TOS_PAGE_SIZE - 1));
    uint32_t k = n < dn ? n : dn, dpa, spa;
    if (sn < k) k = sn;
    if (!vm_user_pa(dp, dva, 1, &dpa) || !vm_send_pa(sp, sva, &spa)) return 0; /* (sp: a sender) */
    memcpy((void *)dpa, (const void *)spa, k);
    dva += k;
    sva += k;
    n -= k;
  }
  return 1;
}

int vm_copyin(struct proc *p, void *dst, uint32_t va, uint32_t n) {
  if (n && (va + n < va || va + n > TOS_USER_TOP)) return 0;
  uint8_t *d = dst;
  while (n) {
    uint32_t k = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1)), pa;
    if (k > n) k = n;
    if (!vm_user_pa(p, va, 0, &pa)) return 0;
    memcpy(d, (const void *)pa, k);
    d += k;
    va += k;
    n -= k;
  }
  return 1;
}

int vm_copyout(struct proc *p, uint32_t va, const void *src, uint32_t n) {
  if (!vm_check(p, va, n, 1)) return 0; /* all or nothing: a result is never half written */
  const uint8_t *s = src;
  while (n) {
    uint32_t k = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1)), pa;
    if (k > n) k = n;
    if (!vm_user_pa(p, va, 1, &pa)) return 0;
    memcpy((void *)pa, s, k);
    s += k;
    va += k;
    n -= k;
  }
  return 1;
}

/* A NUL-terminated string of at most max-1 characters; 0 if unmapped or too long. */
int vm_copyinstr(struct proc *p, char *dst, uint32_t va, uint32_t max) {
  for (uint32_t i = 0; i < max; ++i) {
    uint32_t pa;
    if (!vm_user_pa(p, va + i, 0, &pa)) return 0;
    dst[i] = *(const char *)pa;
    if (!dst[i]) return 1;
  }
  return 0;
}

/* Where a user may start a thread: an even address of its read-only code (the image's
 * filestore pages), mapped here now, with the first instruction words (the 68010 fetches two
 * during the RTE that enters it) on such pages too. Anything else would fault in that RTE. */
int vm_entry_ok(struct proc *p, uint32_t entry) {
  if ((entry & 1) || entry < TOS_USER_BASE || entry + 4 > TOS_USER_IMAGE_TOP) return 0;
  for (uint32_t a = entry; a <= entry + 2; a += 2) {
    uint32_t v = a >> TOS_PAGE_SHIFT;
    uint32_t e = p->ptable[v];
    if (!(e & TB_MMU_PTE_VALID) || !(e & TB_MMU_PTE_USER) || (e & TB_MMU_PTE_WRITABLE)) return 0;
  }
  return 1;
}
