/* The operator's console on SERIAL0, interrupt driven.
 *
 * Output goes into a ring that the transmit interrupt drains one character at a time, so a
 * thread printing at 9600 baud does not hold the CPU. A user write that finds the ring full
 * blocks its thread (T_CONSOLE); the main loop's receive phase moves more of its buffer into
 * the ring as room appears and completes the call when all is taken. Kernel messages that find
 * the ring full wait for it by polling (they are rare: boot, faults). */
#include "defs.h"

#define RING 1024
static volatile char ring[RING];
static volatile uint32_t head, tail; /* producer: head; transmit interrupt: tail */
static struct tcb *writers_head, *writers_tail; /* blocked writers, oldest first */

#define SERIAL_DATA TB_SERIAL0_DATA
#define SERIAL_STATUS TB_SERIAL0_STATUS
#define SERIAL_CTRL TB_SERIAL0_CTRL

void console_init(void) {
  head = tail = 0;
  REG16(SERIAL_CTRL) = 0;
}

static uint32_t room(void) { return RING - 1 - ((head - tail) & (RING - 1)); }

/* Transmit interrupt: one character per interrupt, off when the ring is empty. */
void console_intr(void) {
  while (head != tail && (REG16(SERIAL_STATUS) & TB_SERIAL0_STATUS_TX_READY)) {
    REG16(SERIAL_DATA) = (uint8_t)ring[tail];
    tail = (tail + 1) & (RING - 1);
  }
  if (head == tail) REG16(SERIAL_CTRL) = 0;
}

int console_put(const char *s, int n) {
  int k = 0;
  uint16_t sr = splhigh();
  while (k < n && room()) {
    char c = s[k];
    if (c == '\n') {
      if (room() < 2) break;
      ring[head] = '\r';
      head = (head + 1) & (RING - 1);
    }
    ring[head] = c;
    head = (head + 1) & (RING - 1);
    ++k;
  }
  if (head != tail) REG16(SERIAL_CTRL) = TB_SERIAL0_CTRL_TX_IRQ;
  splx(sr);
  return k;
}

/* Wait until everything queued has left the port (before the board halts). */
void console_flush(void) {
  while (head != tail) {
    uint16_t sr = splhigh();
    console_intr();
    splx(sr);
  }
  while (!(REG16(SERIAL_STATUS) & TB_SERIAL0_STATUS_TX_READY)) {
  }
}

void kputc(char c) {
  while (!console_put(&c, 1)) {
    uint16_t sr = splhigh();
    console_intr(); /* ring full: drain by polling */
    splx(sr);
  }
}

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

/* Copy what fits of the thread's pending output (op_buf, op_len) into the ring. */
static int feed(struct tcb *t) {
  char chunk[64];
  while (t->op_len) {
    uint32_t n = t->op_len < sizeof chunk ? t->op_len : sizeof chunk;
    if (room() < 2 * n) return 0; /* room for "\r\n" expansion */
    vm_copyin(t->proc, chunk, t->op_buf, n);
    console_put(chunk, (int)n);
    t->op_buf += n;
    t->op_len -= n;
  }
  return 1;
}

/* The write system call: returns the byte count, or blocks the thread (T_CONSOLE). */
int32_t console_write(struct tcb *t, uint32_t buf, uint32_t len) {
  if (!vm_check(t->proc, buf, len, 0)) return -TOS_EFAULT;
  t->op_buf = buf;
  t->op_len = len;
  t->op_total = len;
  if (!writers_head && feed(t)) return (int32_t)len; /* all taken: the thread goes on */
  t->state = T_CONSOLE;
  t->next = NULL;
  if (writers_tail) writers_tail->next = t; else writers_head = t;
  writers_tail = t;
  return 0;
}

void console_service(void) {
  while (writers_head && feed(writers_head)) {
    struct tcb *t = writers_head;
    writers_head = t->next;
    if (!writers_head) writers_tail = NULL;
    finish(t, (int32_t)t->op_total);
  }
}

/* A thread removed while blocked on the console (its process was killed). */
void console_forget(struct tcb *t) {
  struct tcb **pp = &writers_head, *prev = NULL;
  while (*pp) {
    if (*pp == t) {
      *pp = t->next;
      if (writers_tail == t) writers_tail = prev;
      return;
    }
    prev = *pp;
    pp = &(*pp)->next;
  }
}

/* SYSCALL(write) and SYSCALL(read) are file.c's: descriptors 0, 1, 2 lead here (console_write, console_read). */
