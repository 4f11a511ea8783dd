/* crcdrive: a TOS program driving the example CRC unit through the generated C header
 * (crc_regs.h, from ../crc.toml) and TOS's dev call: it finds the device in the board's DEV
 * directory, feeds it a message, waits for its interrupt, and checks the result against the
 * CRC computed here. It also shows the kernel's checks: an address outside every device window
 * is refused (EINVAL), an access the device refuses (a write to RESULT) is EIO, not a crash, and
 * the device is its owner's: a second process (this program again, as "crcdrive probe") is
 * refused EBUSY while the first holds it, since a device that can write memory by DMA would
 * otherwise let any program write the kernel (firmware/tos/README.md "Privileges"). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tos/tos.h>

#include "crc_regs.h"

static uint32_t crc32_sw(const uint32_t *w, int n) {
  uint32_t c = 0xFFFFFFFFu;
  for (int i = 0; i < n; ++i)
    for (int b = 3; b >= 0; --b) {
      c ^= (w[i] >> (8 * b)) & 0xFFu;
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
  return c ^ 0xFFFFFFFFu;
}

static uint32_t rd(unsigned long a, int op) {
  uint32_t v = 0;
  if (dev(op, a, (unsigned long)&v) < 0) printf("crcdrive: read of 0x%lx failed (error %d)\n", a, tos_errno);
  return v;
}

/* The second process: the device's status register, which its owner (our parent) reads freely. */
static int probe(void) {
  unsigned long base = (unsigned long)dev(TOS_DEV_ADDR, 0, 0);
  uint32_t v = 0;
  long r = dev(TOS_DEV_READ16, base + CRC_STATUS_OFF, (unsigned long)&v);
  return r < 0 && tos_errno == TOS_EBUSY ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "probe") == 0) return probe();
  long n = dev(TOS_DEV_COUNT, 0, 0);
  if (n < 1) { printf("crcdrive: no user device on this board\n"); return 1; }
  unsigned long base = (unsigned long)dev(TOS_DEV_ADDR, 0, 0);
  printf("crcdrive: %ld device(s); device 0 at 0x%lx, %ld bytes\n", n, base, dev(TOS_DEV_BYTES, 0, 0));

  uint32_t msg[16];
  for (int i = 0; i < 16; ++i) msg[i] = 0x01020304u * (uint32_t)(i + 1) ^ 0xA5A5A5A5u;
  long irqs0 = dev(TOS_DEV_IRQS, 0, 0);
  dev(TOS_DEV_ARM, 0, 0);
  dev(TOS_DEV_WRITE16, base + CRC_CTRL_OFF, CRC_CTRL_IRQ);
  dev(TOS_DEV_WRITE16, base + CRC_LEN_OFF, 16);
  unsigned long t0 = time_us();
  for (int i = 0; i < 16; ++i) dev(TOS_DEV_WRITE32, base + CRC_DATA_OFF, msg[i]);
  int spins = 0;
  while (dev(TOS_DEV_IRQS, 0, 0) == irqs0 && spins < 100000) { yield(); ++spins; }
  unsigned long t1 = time_us();
  long irqs = dev(TOS_DEV_IRQS, 0, 0) - irqs0;
  uint32_t status = rd(base + CRC_STATUS_OFF, TOS_DEV_READ16), got = rd(base + CRC_RESULT_OFF, TOS_DEV_READ32);
  uint32_t want = crc32_sw(msg, 16);
  dev(TOS_DEV_WRITE16, base + CRC_STATUS_OFF, CRC_STATUS_DONE); /* clear DONE: the line drops */
  dev(TOS_DEV_ARM, 0, 0);
  uint32_t after = rd(base + CRC_STATUS_OFF, TOS_DEV_READ16);
  printf("crcdrive: words %lu, status 0x%lx, interrupts %ld (after %lu us), result 0x%08lx, expected 0x%08lx\n",
         (unsigned long)rd(base + CRC_WORDS_OFF, TOS_DEV_READ16), (unsigned long)status, irqs, t1 - t0,
         (unsigned long)got, (unsigned long)want);

  long outside = dev(TOS_DEV_READ16, 0xFF0000 /* the MMU: no device window */, 0);
  int outside_err = outside < 0 ? tos_errno : 0;
  long refused = dev(TOS_DEV_WRITE32, base + CRC_RESULT_OFF, 1); /* read-only: a bus error */
  int refused_err = refused < 0 ? tos_errno : 0;
  printf("crcdrive: outside a window: error %d (EINVAL %d); a refused access: error %d (EIO %d)\n", outside_err,
         TOS_EINVAL, refused_err, TOS_EIO);
  int child = spawn("crcdrive", "crcdrive probe");
  int refused_other = child >= 0 && pwait(child) == 0;
  printf("crcdrive: a second process %s\n", refused_other ? "is refused the device (EBUSY)" : "reaches the device");
  int ok = got == want && irqs == 1 && (status & CRC_STATUS_DONE) && !(after & CRC_STATUS_DONE) &&
           outside_err == TOS_EINVAL && refused_err == TOS_EIO && refused_other;
  printf("crcdrive: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
