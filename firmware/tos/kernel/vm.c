/* Address spaces: one per process, MMU address space (ASID) = process number. A page table is
 * TOS_USER_PAGES entries in kernel memory (PTBASEn / PTLENn); an entry is the frame address
 * with USER, WRITABLE and VALID. The kernel runs physical (supervisor accesses are never
 * translated), so it reaches user memory by walking the same tables in software. */
#include "defs.h"

static uint32_t ptables[TOS_MAX_PROCESSES][TOS_USER_PAGES];

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
  for (int i = 0; i < TOS_USER_PAGES; ++i) p->ptable[i] = 0;
  REG32(TB_MMU_FLUSH) = TB_MMU_FLUSH_ALL;
}

void vm_activate(struct proc *p) {
  if (REG16(TB_MMU_ASID) != p->pid) REG16(TB_MMU_ASID) = p->pid;
}

int vm_map(struct proc *p, uint32_t vpage, uint32_t pa, int writable) {
  if (vpage >= TOS_USER_PAGES) return 0;
  p->ptable[vpage] = (pa & PTE_FRAME) | TB_MMU_PTE_USER | TB_MMU_PTE_VALID | (writable ? TB_MMU_PTE_WRITABLE : 0);
  REG32(TB_MMU_FLUSH) = vpage << TOS_PAGE_SHIFT;
  return 1;
}

uint32_t vm_unmap(struct proc *p, uint32_t vpage) {
  uint32_t e = p->ptable[vpage];
  p->ptable[vpage] = 0;
  REG32(TB_MMU_FLUSH) = vpage << TOS_PAGE_SHIFT;
  return (e & TB_MMU_PTE_VALID) ? (e & PTE_FRAME) : 0;
}

uint32_t vm_phys(struct proc *p, uint32_t va, int write) {
  uint32_t vpage = va >> TOS_PAGE_SHIFT;
  if (vpage >= TOS_USER_PAGES) return 0;
  uint32_t e = p->ptable[vpage];
  if (!(e & TB_MMU_PTE_VALID) || (write && !(e & TB_MMU_PTE_WRITABLE))) return 0;
  return (e & PTE_FRAME) | (va & (TOS_PAGE_SIZE - 1));
}

/* Is every byte of [va, va+len) mapped for the user (and writable if asked)? */
int vm_check(struct proc *p, uint32_t va, uint32_t len, int write) {
  if (len == 0) return 1;
  if (va + len < va || va + len > TOS_USER_TOP) return 0;
  for (uint32_t pg = va >> TOS_PAGE_SHIFT; pg <= (va + len - 1) >> TOS_PAGE_SHIFT; ++pg)
    if (!vm_phys(p, pg << TOS_PAGE_SHIFT, write) || !(p->ptable[pg] & TB_MMU_PTE_USER)) return 0; /* (pages.c) */
  return 1;
}

/* Copy between two user spaces (both checked by the caller), a page piece at a time. */
void vm_copy(struct proc *dp, uint32_t dva, struct proc *sp, uint32_t sva, uint32_t n) {
  while (n) {
    uint32_t dn = TOS_PAGE_SIZE - (dva & (TOS_PAGE_SIZE - 1));
    uint32_t sn = TOS_PAGE_SIZE - (sva & (TOS_PAGE_SIZE - 1));
    uint32_t k = n < dn ? n : dn;
    if (sn < k) k = sn;
    memcpy((void *)vm_phys(dp, dva, 1), (const void *)vm_phys(sp, sva, 0), k);
    dva += k;
    sva += k;
    n -= k;
  }
}

int vm_copyin(struct proc *p, void *dst, uint32_t va, uint32_t n) {
  if (!vm_check(p, va, n, 0)) return 0;
  uint8_t *d = dst;
  while (n) {
    uint32_t k = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1));
    if (k > n) k = n;
    memcpy(d, (const void *)vm_phys(p, va, 0), k);
    d += k;
    va += k;
    n -= k;
  }
  return 1;
}

int vm_copyout(struct proc *p, uint32_t va, const void *src, uint32_t n) {
  if (!vm_check(p, va, n, 1)) return 0;
  const uint8_t *s = src;
  while (n) {
    uint32_t k = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1));
    if (k > n) k = n;
    memcpy((void *)vm_phys(p, va, 1), s, k);
    s += k;
    va += k;
    n -= k;
  }
  return 1;
}

/* A NUL-terminated string of at most max-1 characters; 0 if unmapped or too long. */
int vm_copyinstr(struct proc *p, char *dst, uint32_t va, uint32_t max) {
  for (uint32_t i = 0; i < max; ++i) {
    uint32_t pa = vm_phys(p, va + i, 0);
    if (!pa) return 0;
    dst[i] = *(const char *)pa;
    if (!dst[i]) return 1;
  }
  return 0;
}
