/* dmadrive: a TOS driver for the example DMA fill engine (../dmafill.toml, through its generated
 * C header dmafill_regs.h). It owns the device (its first register access), asks the kernel for
 * a DMA buffer -- an address here and the bus address the device is given, as Linux's
 * dma_alloc_coherent -- has the device fill it, waits for its interrupt and checks every byte
 * the device wrote, then frees the buffer. The frames are the process's: had it not freed them,
 * its end would have (firmware/tos/README.md "User devices and DMA buffers"). */
#include <stdint.h>
#include <stdio.h>
#include <tos/tos.h>

#include "dmafill_regs.h"

static unsigned long base;

static uint32_t rd(unsigned off, int op) {
  uint32_t v = 0;
  if (dev(op, base + off, (unsigned long)&v) < 0)
    printf("dmadrive: read of 0x%lx failed (error %d)\n", base + off, tos_errno);
  return v;
}

int main(void) {
  if (dev(TOS_DEV_COUNT, 0, 0) < 1) {
    printf("dmadrive: no user device on this board\n");
    return 1;
  }
  base = (unsigned long)dev(TOS_DEV_ADDR, 0, 0);
  rd(DMAFILL_STATUS_OFF, TOS_DEV_READ16); /* the first access: the device is ours */
  const uint32_t len = 2000, seed = 0x42;
  uint32_t bus = 0;
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  uint8_t *buf = dev_dma_alloc(len, &bus);
  if (!buf) {
    printf("dmadrive: no DMA buffer: %s\n", tos_strerror(tos_errno));
    return 1;
  }
  long irqs0 = dev(TOS_DEV_IRQS, 0, 0);
  dev(TOS_DEV_ARM, 0, 0);
  dev(TOS_DEV_WRITE16, base + DMAFILL_CTRL_OFF, DMAFILL_CTRL_IRQ);
  dev(TOS_DEV_WRITE32, base + DMAFILL_ADDR_OFF, bus);
  dev(TOS_DEV_WRITE32, base + DMAFILL_LEN_OFF, len);
  dev(TOS_DEV_WRITE32, base + DMAFILL_SEED_OFF, seed);
  dev(TOS_DEV_WRITE16, base + DMAFILL_GO_OFF, 1);
  for (int spins = 0; dev(TOS_DEV_IRQS, 0, 0) == irqs0 && spins < 100000; ++spins) yield();
  uint32_t status = rd(DMAFILL_STATUS_OFF, TOS_DEV_READ16), done = rd(DMAFILL_DONE_BYTES_OFF, TOS_DEV_READ32);
  dev(TOS_DEV_WRITE16, base + DMAFILL_STATUS_OFF, DMAFILL_STATUS_DONE); /* the line drops */
  dev(TOS_DEV_ARM, 0, 0);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < len; ++i) wrong += buf[i] != (uint8_t)((seed + i) ^ (i >> 8));
  long frames1 = tos_info(TOS_INFO_FREE_FRAMES);
  int freed = dev_dma_free(buf) == 0 && tos_info(TOS_INFO_FREE_FRAMES) == frames0;
  printf("dmadrive: buffer at 0x%lx, bus address 0x%lx (%ld frames); status 0x%lx, %lu bytes written, %lu wrong; %s\n",
         (unsigned long)buf, (unsigned long)bus, frames0 - frames1, (unsigned long)status, (unsigned long)done,
         (unsigned long)wrong, freed ? "freed" : "NOT FREED");
  int ok = (status & DMAFILL_STATUS_DONE) && !(status & DMAFILL_STATUS_ERROR) && done == len && wrong == 0 && freed;
  printf("dmadrive: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
