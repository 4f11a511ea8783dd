/* The operator's console port, SERIAL0, interrupt driven: the device half of the console, apart
 * from what is done with the characters (console_line.c), so that the interrupt handlers and
 * the kernel's own printing can be read alone.
 *
 * Output goes into a ring that the transmit interrupt drains one character at a time, so a
 * thread printing at 9600 baud does not hold the CPU; console_line.c's writers wait for room in
 * it. The kernel's own messages (kputc, kprintf) that find the ring full wait for it by polling
 * (they are rare: boot, faults).
 *
 * Input: the receive interrupt hands each character to the line discipline (console_input) or,
 * on the master while the operator's console is switched to another board, to the forward ring
 * (console_remote.c); when there is no room the interrupt is switched off and the character
 * stays in the port, so the line's flow control holds the sender and nothing is lost. */
#include "console.h"

volatile char con_ring[RING];
volatile uint32_t con_head, con_tail;
uint16_t con_ctrl_bits;

void console_init(void) {
  con_head = con_tail = con_in_head = con_in_tail = 0;
  con_ctrl_bits = 0;
  set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
}

#define CTRL_C 0x03
#define CTRL_Z 0x1A

/* A character for the console's input (console_line.c's ring), from the port or from the
 * operator's terminal on the master (switched console). Ctrl-C and Ctrl-Z never enter it in
 * cooked mode (a terminal driver's ISIG): they are counted here, in the interrupt, and acted on
 * by the main loop (console_jobs.c). 0 if there is no room. */
int console_input(char c) {
  if (!console_raw && (c == CTRL_C || c == CTRL_Z)) {
    if (c == CTRL_C) ++con_intr_typed;
    else ++con_susp_typed;
    kernel_work = 1;
    return 1;
  }
  if (!in_room()) return 0;
  con_in_ring[con_in_head] = c;
  con_in_head = (con_in_head + 1) & (IN_RING - 1);
  return 1;
}

static void rx_intr(void) {
  if (!(REG16(TB_SERIAL0_STATUS) & TB_SERIAL0_STATUS_RX_READY)) return;
  const int target = con_target; /* (only the main loop switches it) */
  do {
    int has_room = target == CONSOLE_LOCAL ? in_room() != 0 : fwd_room() != 0;
    if (!has_room) { /* leave it in the port: flow control holds the line */
      set_ctrl(0, TB_SERIAL0_CTRL_RX_IRQ);
      return;
    }
    char c = (char)REG16(TB_SERIAL0_DATA);
    if (target != CONSOLE_LOCAL) fwd_put(c); /* typed for the selected board */
    else console_input(c);
    kernel_work = 1;
  } while (REG16(TB_SERIAL0_STATUS) & TB_SERIAL0_STATUS_RX_READY);
}

/* Transmit: one character per interrupt, off when the ring is empty. Receive: rx_intr. */
void console_intr(void) {
  rx_intr();
  while (con_head != con_tail && (REG16(TB_SERIAL0_STATUS) & TB_SERIAL0_STATUS_TX_READY)) {
    REG16(TB_SERIAL0_DATA) = (uint8_t)con_ring[con_tail];
    con_tail = (con_tail + 1) & (RING - 1);
  }
  if (con_head == con_tail) set_ctrl(0, TB_SERIAL0_CTRL_TX_IRQ);
}

int console_put(const char *s, int n) {
  int k = 0;
  uint16_t sr = splhigh();
  while (k < n && room()) {
    char c = s[k];
    if (c == '\n') {
      if (room() < 2) break;
      con_ring[con_head] = '\r';
      con_head = (con_head + 1) & (RING - 1);
    }
    con_ring[con_head] = c;
    con_head = (con_head + 1) & (RING - 1);
    if (con_selected) { /* the operator sees it too */
      if (c == '\n' && fwd_room()) fwd_put('\r');
      if (fwd_room()) fwd_put(c); else ++console_dropped;
    }
    ++k;
  }
  if (con_head != con_tail) set_ctrl(TB_SERIAL0_CTRL_TX_IRQ, 0);
  splx(sr);
  return k;
}

/* Wait until everything queued has left the port (before the board halts). */
void console_flush(void) {
  while (con_head != con_tail) {
    uint16_t sr = splhigh();
    console_intr();
    splx(sr);
  }
  while (!(REG16(TB_SERIAL0_STATUS) & TB_SERIAL0_STATUS_TX_READY)) {
  }
}

void kputc(char c) { kputc_inline(c); }

static void kput(void *ctx, char c) {
  (void)ctx;
  kputc(c);
}

void kprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tos_vformat(kput, NULL, fmt, ap);
  va_end(ap);
}
