/* User devices (README "Building on the models"): the devices a machine file maps in the DEV
 * region ([[boards.devices]]), reached by programs through the `dev` system call. Every address
 * is checked against the board's DEV directory, so a program reaches only those windows, never
 * the kernel's own devices; an access the device refuses is -EIO (dev_io.S), not a kernel fault.
 * The devices share one interrupt line (INTC DEV, level-sensitive): at an interrupt the kernel
 * counts it and disables the line, since the device holds it until the program clears the
 * device's status; the program then re-arms it (TOS_DEV_ARM). A device's registers are its
 * owner's: the first process to reach them owns the device until it ends, and every other
 * process is refused EBUSY meanwhile (privilege.c; tos.toml marks the call "owner"). */
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

SYSCALL(dev) {
  uint32_t n = REG16(TB_DEV_COUNT);
  switch (a1) {
    case TOS_DEV_COUNT: return (int32_t)n;
    case TOS_DEV_ADDR: return a2 < n && a2 < TB_DEV_ADDR_COUNT ? (int32_t)REG32(TB_DEV_ADDR(a2)) : -TOS_EINVAL;
    case TOS_DEV_BYTES: return a2 < n && a2 < TB_DEV_ADDR_COUNT ? (int32_t)REG32(TB_DEV_BYTES(a2)) : -TOS_EINVAL;
    case TOS_DEV_IRQS: return (int32_t)dev_irqs;
    case TOS_DEV_ARM: REG16(TB_INTC_ENABLE) |= TB_INTC_ENABLE_DEV; return 0;
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
