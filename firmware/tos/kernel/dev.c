/* User devices (README "Building on the models"): the devices a machine file maps in the DEV
 * region ([[boards.devices]]), reached by programs through the `dev` system call. Every address
 * is checked against the board's DEV directory, so a program reaches only those windows, never
 * the kernel's own devices; an access the device refuses is -EIO (dev_io.S), not a kernel fault.
 * The devices share one interrupt line (INTC DEV, level-sensitive): at an interrupt the kernel
 * counts it and disables the line, since the device holds it until the program clears the
 * device's status; the program then re-arms it (TOS_DEV_ARM). A device's registers are its
 * owner's: the first process to reach them owns the device until it ends, and every other
 * process is refused EBUSY meanwhile (privilege.c; tos.toml marks the call "owner").
 *
 * DMA buffers (issue #62; Linux's dma_alloc_coherent / dma_free_coherent): a device's owner
 * asks for one (DMA_ALLOC) and gets it mapped in its address space and its bus address -- the
 * board physical address the device's DMA port takes -- to give the device. Its frames are
 * contiguous (a device is given one address and a length), pinned (no page protocol, no
 * migration: they live in the region window, which neither touches, and the process's threads
 * stay on this board while it holds one) and the process's, counted against its quota
 * (dma_bytes_per_process); they come back when it frees them or ends, however it ends. The
 * kernel cannot stop a device: a driver stops its device's DMA before freeing or ending, as on
 * Linux (an owner can point its device at any RAM anyway: hence owners). */
#include "defs.h"

int32_t dev_io(uint32_t width_write, uint32_t addr, uint32_t *value);

static uint32_t dev_irqs; /* DEV interrupts taken since boot */

void dev_intr(void) {
  REG16(TB_INTC_ENABLE) &= (uint16_t)~TB_INTC_ENABLE_DEV;
  ++dev_irqs;
}

/* The device whose window holds addr .. addr+width-1, or -1. */
static int dev_window(uint32_t addr, uint32_t width) {
  uint32_t n = REG16(TB_DEV_COUNT);
  if (n > TB_DEV_ADDR_COUNT) n = TB_DEV_ADDR_COUNT;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t base = REG32(TB_DEV_ADDR(i)), size = REG32(TB_DEV_BYTES(i));
    if (addr >= base && addr - base < size && size - (addr - base) >= width) return (int)i;
  }
  return -1;
}

/* A DMA buffer is its page table entries and nothing else (no table: the kernel's memory and
 * its boot stay as they were): pool frames mapped in the region window with the entry's SOFT
 * byte, which the MMU ignores, saying so -- DMA_FIRST | pages on its first page, DMA_FIRST alone
 * on the others. The process's end frees them with the rest of its pool frames
 * (release_memory); p->dma_pages counts them for the quota and for migrate. */
#define DMA_FIRST 0x80u
#define SOFT(e) (((e) & TB_MMU_PTE_SOFT) >> TB_MMU_PTE_SOFT_SHIFT)
_Static_assert(TOS_MAX_DMA_BYTES_PER_PROCESS / TOS_PAGE_SIZE < DMA_FIRST, "a buffer's pages fit beside DMA_FIRST");
/* DMA_ALLOCs refused for want of room (ENOSPC, ENOMEM) since boot: dev DMA_REFUSED. In .data:
 * one more .bss word would lengthen every boot, which clears .bss word by word. */
static uint32_t dma_refused __attribute__((section(".data")));

/* The highest n unmapped pages of p's region window (regions take it from the bottom up), or 0. */
RARE static uint32_t dma_window(const struct proc *p, uint32_t n) {
  const uint32_t lo = TOS_REGION_WINDOW >> TOS_PAGE_SHIFT;
  for (uint32_t top = REGION_WINDOW_HI; top >= lo + n;) {
    uint32_t k = 0;
    while (k < n && !p->ptable[top - 1 - k]) ++k;
    if (k == n) return top - n;
    top -= k + 1; /* past the mapped page */
  }
  return 0;
}

RARE static int32_t dma_free(struct proc *p, uint32_t va) {
  uint32_t v = va >> TOS_PAGE_SHIFT;
  if ((va & (TOS_PAGE_SIZE - 1)) || !REGION_WINDOW_PAGE(v) || SOFT(p->ptable[v]) <= DMA_FIRST)
    return -TOS_EINVAL; /* not the first page of one of its DMA buffers */
  uint32_t n = SOFT(p->ptable[v]) & ~DMA_FIRST;
  for (uint32_t i = 0; i < n; ++i) frame_free(vm_unmap(p, v + i));
  p->dma_pages = (uint8_t)(p->dma_pages - n);
  return 0;
}

RARE static int32_t dma_alloc(struct proc *p, uint32_t bytes, uint32_t bus_out) {
  if (!privilege_holds_a_device(p)) return -TOS_EPERM;
  if (bytes - 1 >= TOS_MAX_DMA_BYTES_PER_PROCESS) return -TOS_EINVAL; /* (0 wraps) */
  uint32_t n = (bytes + TOS_PAGE_SIZE - 1) >> TOS_PAGE_SHIFT, v = 0, pa = 0;
  int32_t err = 0;
  if (p->dma_pages + n > TOS_MAX_DMA_BYTES_PER_PROCESS / TOS_PAGE_SIZE) err = -TOS_ENOSPC; /* (as a region quota) */
  else if (!(v = dma_window(p, n)) || !(pa = frames_alloc_run(n))) err = -TOS_ENOMEM;
  if (err) {
    ++dma_refused;
    return err;
  }
  for (uint32_t i = 0; i < n; ++i) {
    vm_map(p, v + i, pa + i * TOS_PAGE_SIZE, 1);
    p->ptable[v + i] |= (i ? DMA_FIRST : DMA_FIRST | n) << TB_MMU_PTE_SOFT_SHIFT;
  }
  p->dma_pages = (uint8_t)(p->dma_pages + n);
  if (!vm_copyout(p, bus_out, &pa, 4)) { /* a bad `value`: the buffer goes again */
    dma_free(p, v << TOS_PAGE_SHIFT);
    return -TOS_EFAULT;
  }
  return (int32_t)(v << TOS_PAGE_SHIFT);
}

SYSCALL(dev) {
  uint32_t n = REG16(TB_DEV_COUNT);
  switch (a1) {
    case TOS_DEV_COUNT: return (int32_t)n;
    case TOS_DEV_ADDR: return a2 < n && a2 < TB_DEV_ADDR_COUNT ? (int32_t)REG32(TB_DEV_ADDR(a2)) : -TOS_EINVAL;
    case TOS_DEV_BYTES: return a2 < n && a2 < TB_DEV_ADDR_COUNT ? (int32_t)REG32(TB_DEV_BYTES(a2)) : -TOS_EINVAL;
    case TOS_DEV_IRQS: return (int32_t)dev_irqs;
    case TOS_DEV_ARM: REG16(TB_INTC_ENABLE) |= TB_INTC_ENABLE_DEV; return 0;
    case TOS_DEV_DMA_ALLOC: return dma_alloc(t->proc, a2, a3);
    case TOS_DEV_DMA_FREE: return dma_free(t->proc, a2);
    case TOS_DEV_DMA_REFUSED: return (int32_t)dma_refused;
    case TOS_DEV_READ16: case TOS_DEV_READ32: case TOS_DEV_WRITE16: case TOS_DEV_WRITE32: break;
    default: return -TOS_EINVAL;
  }
  uint32_t width = a1 == TOS_DEV_READ16 || a1 == TOS_DEV_WRITE16 ? 2 : 4;
  int write = a1 == TOS_DEV_WRITE16 || a1 == TOS_DEV_WRITE32;
  int d = (a2 & 1) ? -1 : dev_window(a2, width);
  if (d < 0) return -TOS_EINVAL;
  if (!privilege_owns_device(t->proc, (uint32_t)d)) return -TOS_EBUSY; /* another process's device */
  uint32_t v = a3;
  if (dev_io(width + (uint32_t)write, a2, &v) < 0) return -TOS_EIO;
  if (!write && !vm_copyout(t->proc, a3, &v, 4)) return -TOS_EFAULT;
  return 0;
}
