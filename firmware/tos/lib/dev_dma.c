/* DMA buffers for a user device's driver (kernel/dev.c, firmware/tos/README.md "User devices and
 * DMA buffers"): the dev call's DMA_ALLOC and DMA_FREE as Linux's dma_alloc_coherent and
 * dma_free_coherent read. A file of its own, so that only the programs that use them link them. */
#include <tos/tos.h>

void *dev_dma_alloc(unsigned long bytes, uint32_t *bus) {
  long r = dev(TOS_DEV_DMA_ALLOC, bytes, (unsigned long)bus);
  return r < 0 ? NULL : (void *)r;
}

int dev_dma_free(void *buf) { return (int)dev(TOS_DEV_DMA_FREE, (unsigned long)buf, 0); }
