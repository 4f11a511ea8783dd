/* Board support for Testbed firmware: register access and small polled drivers for the board's
 * devices. Addresses and bit fields come from the generated <testbed/memory_map.h>;
 * hw/board/README.md describes the devices. C only (freestanding, m68k-linux-gnu-gcc -m68010). */
#ifndef TESTBED_BOARD_H
#define TESTBED_BOARD_H
#include <testbed/file_service_protocol.h> /* TB_FS_REQUEST_SYNC, TB_FS_REPLY_SYNC */
#include <testbed/memory_map.h>

#define TB_REG8(a) (*(volatile unsigned char *)(a))
#define TB_REG16(a) (*(volatile unsigned short *)(a))
/* A 32-bit register: the 68010 moves it as two word cycles, high word first (the device
 * latches the low word on reading the high one). */
#define TB_REG32(a) (*(volatile unsigned long *)(a))

/* Register addresses, bit fields (mask TB_<R>_<REG>_<F>, TB_<R>_<REG>_<F>_SHIFT) and field
 * values all come from the generated <testbed/memory_map.h> (docs/memory_map.md). */
/* The value of field F (a generated mask name) in register value v, and x placed in field F. */
#define TB_FIELD_GET(v, F) (((v) & (F)) >> F##_SHIFT)
#define TB_FIELD_PUT(F, x) (((x) << F##_SHIFT) & (F))
/* Exception vector of an autovectored interrupt at IPL `level`. */
#define TB_AUTOVECTOR(level) (24 + (level))

/* Host file service on SERIAL1 (protocol in hw/board/README.md): its sync bytes come from the
 * generated <testbed/file_service_protocol.h>. */

/* Serial ports: base TB_SERIAL0_BASE (console) or TB_SERIAL1_BASE (LAN link, file service);
 * both ports have one register file (TB_SERIAL0_* and TB_SERIAL1_* offsets and bits agree). */
static inline unsigned short tb_serial_status(unsigned long base) {
  return TB_REG16(base + TB_SERIAL0_STATUS_OFF);
}
static inline int tb_serial_rx(unsigned long base) {
  return TB_REG16(base + TB_SERIAL0_DATA_OFF) & TB_SERIAL0_DATA_CHAR;
}
static inline void tb_serial_tx(unsigned long base, unsigned char c) {
  TB_REG16(base + TB_SERIAL0_DATA_OFF) = c;
}
static inline void tb_serial_putc(unsigned long base, char c) {
  while (!(tb_serial_status(base) & TB_SERIAL0_STATUS_TX_READY)) {
  }
  tb_serial_tx(base, (unsigned char)c);
}
static inline int tb_serial_getc(unsigned long base) {
  while (!(tb_serial_status(base) & TB_SERIAL0_STATUS_RX_READY)) {
  }
  return tb_serial_rx(base);
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
