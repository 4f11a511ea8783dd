/* Board support for Testbed firmware: register access, bit definitions and small polled
 * drivers for the board's devices. Addresses come from the generated <testbed/memory_map.h>;
 * hw/board/README.md describes the devices. C only (freestanding, m68k-linux-gnu-gcc -m68010). */
#ifndef TESTBED_BOARD_H
#define TESTBED_BOARD_H
#include <testbed/memory_map.h>

#define TB_REG8(a) (*(volatile unsigned char *)(a))
#define TB_REG16(a) (*(volatile unsigned short *)(a))
/* A 32-bit register: the 68010 moves it as two word cycles, high word first (the device
 * latches the low word on reading the high one). */
#define TB_REG32(a) (*(volatile unsigned long *)(a))

/* Serial ports (STATUS / CTRL bits). */
#define TB_SERIAL_RX_READY 0x1
#define TB_SERIAL_TX_READY 0x2
#define TB_SERIAL_TX_LOST 0x8
#define TB_SERIAL_CTRL_RX_IRQ 0x1
#define TB_SERIAL_CTRL_TX_IRQ 0x2
/* Port base: TB_SERIAL0_BASE (console) or TB_SERIAL1_BASE (LAN link / file service). */
#define TB_SERIAL_DATA(base) TB_REG16((base) + TB_SERIAL0_DATA_OFF)
#define TB_SERIAL_STATUS(base) TB_REG16((base) + TB_SERIAL0_STATUS_OFF)

/* Timer: TB_TIMER_CTRL_ENABLE/PERIODIC/IRQ, TB_TIMER_STATUS_EXPIRED (generated). */

/* Interrupt controller source bits (PENDING / ENABLE). */
#define TB_INTC_TIMER 0x01
#define TB_INTC_NET 0x02
#define TB_INTC_SERIAL0 0x04
#define TB_INTC_SERIAL1 0x08
#define TB_INTC_MON 0x10
#define TB_AUTOVECTOR(level) (24 + (level))

/* MMU. */
#define TB_MMU_PTBASE(n) (TB_MMU_PTBASE0 + 4 * (n))
#define TB_MMU_PTLEN(n) (TB_MMU_PTLEN0 + 2 * (n))
#define TB_PTE_VALID 0x1ul
#define TB_PTE_WRITABLE 0x2ul
#define TB_PTE_USER 0x4ul
#define TB_PTE_FRAME 0x00FFFC00ul
#define TB_MMU_FAULT_VALID 0x8000
#define TB_MMU_FAULT_WRITE 0x0008
#define TB_MMU_FAULT_FC(s) ((s) & 7)
#define TB_MMU_FAULT_REASON(s) (((s) >> 4) & 7)
#define TB_MMU_FAULT_ASID(s) (((s) >> 8) & 15)
#define TB_MMU_UNMAPPED 1
#define TB_MMU_READ_ONLY 2
#define TB_MMU_NOT_USER 3

/* Host file service on SERIAL1 (protocol in hw/board/README.md). */
#define TB_FS_REQUEST_SYNC 0xA5
#define TB_FS_REPLY_SYNC 0x5A

static inline void tb_serial_putc(unsigned long base, char c) {
  while (!(TB_SERIAL_STATUS(base) & TB_SERIAL_TX_READY)) {
  }
  TB_SERIAL_DATA(base) = (unsigned char)c;
}
static inline int tb_serial_getc(unsigned long base) {
  while (!(TB_SERIAL_STATUS(base) & TB_SERIAL_RX_READY)) {
  }
  return TB_SERIAL_DATA(base) & 0xFF;
}
static inline void tb_putc(char c) {
  if (c == '\n') tb_serial_putc(TB_SERIAL0_BASE, '\r');
  tb_serial_putc(TB_SERIAL0_BASE, c);
}
static inline void tb_puts(const char *s) {
  while (*s) tb_putc(*s++);
}
/* Decimal without division (libgcc's __udivsi3 for m68k-linux-gnu uses the 68020's BSR.L). */
static inline void tb_putdec(unsigned long v) {
  static const unsigned long pow10[] = {1000000000ul, 100000000ul, 10000000ul, 1000000ul, 100000ul,
                                        10000ul, 1000ul, 100ul, 10ul, 1ul};
  int started = 0;
  for (int i = 0; i < 10; ++i) {
    char d = '0';
    while (v >= pow10[i]) {
      v -= pow10[i];
      ++d;
    }
    if (d != '0' || started || i == 9) {
      tb_putc(d);
      started = 1;
    }
  }
}
static inline void tb_puthex(unsigned long v) {
  int i;
  tb_puts("0x");
  for (i = 28; i >= 0; i -= 4) tb_putc("0123456789ABCDEF"[(v >> i) & 15]);
}
static inline void tb_exit(unsigned long code) {
  TB_REG32(TB_SIMCTL_EXIT) = code;
  for (;;) {
  }
}
static inline void tb_set_vbr(void *table) { __asm__ volatile("movec %0,%%vbr" : : "r"(table)); }
static inline void tb_set_sr(unsigned short sr) { __asm__ volatile("move.w %0,%%sr" : : "d"(sr) : "memory"); }
/* Microseconds of the real-time clock (wraps after ~71 minutes). */
static inline unsigned long tb_rtc_usec(void) {
  unsigned long s = TB_REG32(TB_TIMER_RTC_SEC);
  return s * 1000000ul + TB_REG32(TB_TIMER_RTC_USEC);
}

#endif
