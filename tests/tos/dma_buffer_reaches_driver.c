/* DMA buffers (issue #62; firmware/tos/README.md "User devices and DMA buffers"): a driver gets a
 * buffer from the kernel (dev_dma_alloc: an address here and a bus address), gives the bus
 * address to the example DMA device (examples/dma_device: dmafill), and reads what the device
 * wrote; the buffer's frames come back when it is freed and when its process ends without
 * freeing it, by exit or by a fault. The refusals: a process owning no device (EPERM), a bad
 * size (EINVAL), a bad bus pointer (EFAULT), past the quota (ENOSPC, counted), a bad address to
 * free (EINVAL), a migration of a thread whose process holds a buffer (EBUSY).
 *
 * Run without arguments it is the launcher, which never touches the device: it counts the free
 * frames, runs the driver ("driver"), a driver that dies holding a buffer ("fault") and one it
 * kills holding one ("hold"), and checks after each that every frame is free again. The driver starts "probe", which is refused
 * a buffer while the driver owns the device. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tos/tos.h>

#include "dmafill_regs.h" /* generated from examples/dma_device/dmafill.toml */

#define PROG "dma_buffer_reaches_driver"
static int fails;
static unsigned long base;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf(PROG ": FAILED: %s (tos_errno %d)\n", what, tos_errno);
    ++fails;
  }
}

static uint32_t rd(unsigned off, int op) {
  uint32_t v = 0;
  expect(dev(op, base + off, (unsigned long)&v) == 0, "a register read");
  return v;
}
static void wr(unsigned off, int op, uint32_t v) { expect(dev(op, base + off, v) == 0, "a register write"); }

static uint8_t pattern(uint32_t seed, uint32_t i) { return (uint8_t)((seed + i) ^ (i >> 8)); }

/* The device fills len bytes at bus address bus with seed's pattern; its interrupt ends the wait. */
static void fill(uint32_t bus, uint32_t len, uint32_t seed) {
  long irqs0 = dev(TOS_DEV_IRQS, 0, 0);
  dev(TOS_DEV_ARM, 0, 0);
  wr(DMAFILL_CTRL_OFF, TOS_DEV_WRITE16, DMAFILL_CTRL_IRQ);
  wr(DMAFILL_ADDR_OFF, TOS_DEV_WRITE32, bus);
  wr(DMAFILL_LEN_OFF, TOS_DEV_WRITE32, len);
  wr(DMAFILL_SEED_OFF, TOS_DEV_WRITE32, seed);
  wr(DMAFILL_GO_OFF, TOS_DEV_WRITE16, 1);
  for (int spins = 0; dev(TOS_DEV_IRQS, 0, 0) == irqs0 && spins < 100000; ++spins) yield();
  uint32_t status = rd(DMAFILL_STATUS_OFF, TOS_DEV_READ16);
  expect((status & DMAFILL_STATUS_DONE) && !(status & DMAFILL_STATUS_ERROR), "the device's transfer ended well");
  expect(rd(DMAFILL_DONE_BYTES_OFF, TOS_DEV_READ32) == len, "the device wrote every byte");
  wr(DMAFILL_STATUS_OFF, TOS_DEV_WRITE16, DMAFILL_STATUS_DONE); /* the line drops */
  dev(TOS_DEV_ARM, 0, 0);
}

static int probe(void) {
  uint32_t bus = 0;
  void *b = dev_dma_alloc(1024, &bus);
  return !b && tos_errno == TOS_EPERM ? 0 : 1;
}

/* die: 0 returns, 1 faults, 2 waits to be killed -- the last two holding a buffer */
static int driver(int die) {
  if (dev(TOS_DEV_COUNT, 0, 0) < 1) {
    printf(PROG ": no user device on this board\n");
    return 1;
  }
  base = (unsigned long)dev(TOS_DEV_ADDR, 0, 0);
  uint32_t bus = 0;
  expect(!dev_dma_alloc(1024, &bus) && tos_errno == TOS_EPERM, "a buffer before owning the device is refused EPERM");
  rd(DMAFILL_STATUS_OFF, TOS_DEV_READ16); /* the first access: the device is ours */
  if (die) {
    uint8_t *b = dev_dma_alloc(4096, &bus);
    expect(b != NULL, "a 4 KB buffer");
    if (b) fill(bus, 4096, 7);
    printf(PROG ": driver %s holding a 4 KB buffer\n", die == 1 ? "dies" : "waits to be killed");
    if (die == 1) *(volatile uint32_t *)0 = 1; /* a bus error: the process is removed */
    for (;;) yield();
  }
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  expect(!dev_dma_alloc(0, &bus) && tos_errno == TOS_EINVAL, "0 bytes is EINVAL");
  expect(!dev_dma_alloc(TOS_MAX_DMA_BYTES_PER_PROCESS + 1, &bus) && tos_errno == TOS_EINVAL,
         "more than the quota in one buffer is EINVAL");
  expect(!dev_dma_alloc(1024, NULL) && tos_errno == TOS_EFAULT, "a NULL bus pointer is EFAULT");
  expect(!dev_dma_alloc(1024, (uint32_t *)(void *)driver) && tos_errno == TOS_EFAULT,
         "a bus pointer into read-only code is EFAULT");
  expect(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "the refusals took no frame");

  const uint32_t len = 3000; /* three frames, the last one partly */
  uint8_t *b = dev_dma_alloc(len, &bus);
  expect(b != NULL, "a 3000-byte buffer");
  if (!b) return 1;
  long frames1 = tos_info(TOS_INFO_FREE_FRAMES);
  int zero = 1;
  for (uint32_t i = 0; i < 3 * 1024; ++i) zero &= b[i] == 0;
  expect(zero, "the buffer starts zeroed");
  fill(bus, len, 0x5A);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < len; ++i) bad += b[i] != pattern(0x5A, i);
  for (uint32_t i = len; i < 3 * 1024; ++i) bad += b[i] != 0;
  printf(PROG ": buffer at 0x%lx, bus address 0x%lx, %ld frames; the device wrote %lu bytes, %lu wrong\n",
         (unsigned long)b, (unsigned long)bus, frames0 - frames1, (unsigned long)len, (unsigned long)bad);
  expect(frames0 - frames1 == 3 && bad == 0, "the device's bytes are in the buffer");

  int m = migrate(gettid(), tos_info(TOS_INFO_BOARD) == 0 ? 1 : 0); /* line: filled (the gdb test dma_buffer) */
  expect(m < 0 && tos_errno == TOS_EBUSY, "a thread holding a DMA buffer does not migrate (EBUSY)");
  long refused = dev(TOS_DEV_DMA_REFUSED, 0, 0);
  expect(!dev_dma_alloc(TOS_MAX_DMA_BYTES_PER_PROCESS - 2 * 1024, &bus) && tos_errno == TOS_ENOSPC,
         "past the quota is ENOSPC");
  expect(dev(TOS_DEV_DMA_REFUSED, 0, 0) == refused + 1, "the refusal is counted");
  expect(dev_dma_free(b + 1024) < 0 && tos_errno == TOS_EINVAL, "freeing inside a buffer is EINVAL");

  int child = spawn(PROG, PROG " probe");
  expect(child >= 0 && pwait(child) == 0, "a process owning no device is refused a buffer (EPERM)");

  expect(dev_dma_free(b) == 0, "the buffer is freed");
  expect(dev_dma_free(b) < 0 && tos_errno == TOS_EINVAL, "freeing it again is EINVAL");
  expect(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "its frames are free again");
  expect(migrate(gettid(), tos_info(TOS_INFO_BOARD)) == 0, "(a migration to its own board is a no-op)");

  /* the whole quota at once, then left for the kernel to free when the driver ends */
  b = dev_dma_alloc(TOS_MAX_DMA_BYTES_PER_PROCESS, &bus);
  expect(b != NULL, "a buffer of the whole quota");
  if (b) {
    fill(bus, TOS_MAX_DMA_BYTES_PER_PROCESS, 0xC3);
    bad = 0;
    for (uint32_t i = 0; i < TOS_MAX_DMA_BYTES_PER_PROCESS; ++i) bad += b[i] != pattern(0xC3, i);
    expect(bad == 0, "the device's bytes are in the quota-sized buffer");
  }
  printf(PROG ": driver ends holding a %d-byte buffer, %s\n", TOS_MAX_DMA_BYTES_PER_PROCESS,
         fails ? "with failures" : "every check passed");
  return fails ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "probe") == 0) return probe();
  if (argc > 1 && strcmp(argv[1], "driver") == 0) return driver(0);
  if (argc > 1 && strcmp(argv[1], "fault") == 0) return driver(1);
  if (argc > 1 && strcmp(argv[1], "hold") == 0) return driver(2);
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  int pid = spawn(PROG, PROG " driver");
  int code = pid >= 0 ? pwait(pid) : -1;
  long after_exit = tos_info(TOS_INFO_FREE_FRAMES);
  pid = spawn(PROG, PROG " fault");
  int fault_code = pid >= 0 ? pwait(pid) : 0;
  long after_fault = tos_info(TOS_INFO_FREE_FRAMES);
  pid = spawn(PROG, PROG " hold");
  for (int i = 0; i < 3000; ++i) yield(); /* time to take its buffer (its line says so before the kill's) */
  int killed = pid >= 0 && kill(pid) == 0;
  int kill_code = pid >= 0 ? pwait(pid) : 0;
  long after_kill = tos_info(TOS_INFO_FREE_FRAMES);
  printf(PROG ": frames free %ld; after the driver's exit %ld (code %d), after its fault %ld (code %d), after its kill "
         "%ld (code %d)\n", frames0, after_exit, code, after_fault, fault_code, after_kill, kill_code);
  int ok = code == 0 && fault_code != 0 && killed && after_exit == frames0 && after_fault == frames0 &&
           after_kill == frames0;
  printf(PROG ": %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
