/* Board test image: exercises every device of a processor board from the CPU's side and
 * reports on the console; exit 1 (PASS) only when every check holds.
 *  - BOARDID and SIMCTL CHECKSUM
 *  - a bus error from the absent Centrenet window (probe)
 *  - timer-driven preemption between two tasks (level-6 autovector), the RTC, STOP
 *  - MMU: user-mode code whose accesses fault (unmapped page, read-only page) and whose
 *    handler maps the page before the instruction is rerun (68010 format $8 frame)
 *  - the host file service on SERIAL1 (when the link is connected)
 */
#include <testbed_board.h>

void bus_error_entry(void);
void timer_entry(void);
void trap0_entry(void);
int probe(volatile void *a);
void enter_user(void (*fn)(void), unsigned long usp);
void stop_until_interrupt(void);

static unsigned long vectors[256] __attribute__((aligned(4)));
static int failures;

static void check(int ok, const char *what) {
  tb_puts(ok ? "  ok   " : "  FAIL ");
  tb_puts(what);
  tb_putc('\n');
  if (!ok) ++failures;
}

/* ---- timer and preemption ---- */
static volatile unsigned long ticks, switches, count_a, count_b, max_latency, reload;
static volatile int preempt;
static unsigned long task_sp[2];
static int current;
static unsigned long task_b_stack[256];

unsigned long timer_tick(unsigned long sp) {
  /* Microseconds since the expiry: the periodic timer has been counting the next interval. */
  unsigned long left = TB_REG32(TB_TIMER_COUNT);
  if (TB_REG16(TB_TIMER_CTRL) & TB_TIMER_CTRL_PERIODIC && reload - left > max_latency)
    max_latency = reload - left;
  TB_REG16(TB_TIMER_STATUS) = TB_TIMER_STATUS_EXPIRED;
  ++ticks;
  if (!preempt) return sp;
  task_sp[current] = sp;
  current ^= 1;
  ++switches;
  return task_sp[current];
}

static void task_b(void) {
  for (;;) ++count_b;
}

static void test_timer(void) {
  tb_puts("timer:\n");
  /* Task B's first context: 15 saved registers under a 68010 format-0 frame (SR.w PC.l FV.w). */
  unsigned char *sp = (unsigned char *)&task_b_stack[256];
  sp -= 2;
  *(unsigned short *)sp = TB_AUTOVECTOR(TB_IRQ_TIMER) * 4; /* format 0, vector offset */
  sp -= 4;
  *(unsigned long *)sp = (unsigned long)task_b;            /* PC */
  sp -= 2;
  *(unsigned short *)sp = 0x2000;                          /* SR: supervisor, IPL mask 0 */
  for (int i = 0; i < 15; ++i) {
    sp -= 4;
    *(unsigned long *)sp = 0;
  }
  task_sp[1] = (unsigned long)sp;
  current = 0;

  unsigned long t0 = tb_rtc_usec();
  reload = 1000;
  TB_REG32(TB_TIMER_RELOAD) = reload; /* 1 ms at 1 MHz */
  TB_REG16(TB_INTC_ENABLE) = TB_INTC_ENABLE_TIMER;
  preempt = 1;
  TB_REG16(TB_TIMER_CTRL) = TB_TIMER_CTRL_ENABLE | TB_TIMER_CTRL_PERIODIC | TB_TIMER_CTRL_IRQ;
  tb_set_sr(0x2000);
  while (ticks < 20) ++count_a; /* task A; task B only runs when the timer preempts A */
  tb_set_sr(0x2700);
  preempt = 0;
  unsigned long t1 = tb_rtc_usec();
  check(count_a > 0 && count_b > 0, "two tasks both ran under timer preemption");
  check(switches >= 19, "a task switch at every tick");
  tb_puts("  interrupt latency up to ");
  tb_putdec(max_latency);
  tb_puts(" us (expiry to the handler's COUNT read)\n");
  check(max_latency < 40, "the timer interrupt is taken within a few instructions of its expiry");
  check(t1 - t0 >= 19000 && t1 - t0 < 25000, "20 ticks of 1 ms took 19..25 ms of RTC time");
  check(TB_REG32(TB_TIMER_EXPIRIES) >= 20, "EXPIRIES counts the expiries");

  /* STOP until a one-shot 50 ms timer fires. */
  TB_REG16(TB_TIMER_CTRL) = 0;
  TB_REG16(TB_TIMER_STATUS) = TB_TIMER_STATUS_EXPIRED; /* an expiry may be pending since */
  unsigned long before = ticks;
  TB_REG32(TB_TIMER_RELOAD) = 50000;
  t0 = tb_rtc_usec();
  TB_REG16(TB_TIMER_CTRL) = TB_TIMER_CTRL_ENABLE | TB_TIMER_CTRL_IRQ;
  stop_until_interrupt();
  t1 = tb_rtc_usec();
  tb_puts("  slept ");
  tb_putdec(t1 - t0);
  tb_puts(" us in STOP\n");
  check(ticks == before + 1, "STOP woke on the timer interrupt");
  check(t1 - t0 >= 50000 && t1 - t0 < 51000, "STOP slept 50 ms of simulated time");
  TB_REG16(TB_INTC_ENABLE) = 0;
}

/* ---- MMU ---- */
#define PAGES 4096u /* 4 MB of user space */
static unsigned long page_table[PAGES] __attribute__((aligned(4)));
static volatile unsigned long faults;
static volatile unsigned short last_status;
static volatile unsigned short user_result;
static unsigned long user_stack[256];
#define HOLE 0x100000ul     /* user page left unmapped: the handler maps it to FRAME */
#define FRAME 0x200000ul
#define RO_PAGE 0x102000ul  /* user page mapped read-only: the handler makes it writable */

int page_fault(void) {
  unsigned long addr = TB_REG32(TB_MMU_FAULT_ADDR);
  unsigned short st = TB_REG16(TB_MMU_FAULT_STATUS);
  unsigned long vpn = addr >> TB_PAGE_SHIFT;
  ++faults;
  last_status = st;
  if (TB_FIELD_GET(st, TB_MMU_FAULT_STATUS_REASON) == TB_MMU_FAULT_STATUS_REASON_UNMAPPED && vpn == HOLE >> TB_PAGE_SHIFT)
    page_table[vpn] = FRAME | TB_MMU_PTE_VALID | TB_MMU_PTE_WRITABLE | TB_MMU_PTE_USER;
  else if (TB_FIELD_GET(st, TB_MMU_FAULT_STATUS_REASON) == TB_MMU_FAULT_STATUS_REASON_READ_ONLY && vpn == RO_PAGE >> TB_PAGE_SHIFT)
    page_table[vpn] |= TB_MMU_PTE_WRITABLE;
  else
    return 0x300 | TB_FIELD_GET(st, TB_MMU_FAULT_STATUS_REASON);
  TB_REG32(TB_MMU_FLUSH) = addr;
  TB_REG16(TB_MMU_FAULT_STATUS) = 0;
  return 0;
}

static void user_code(void) {
  volatile unsigned short *hole = (volatile unsigned short *)(HOLE + 0x10);
  volatile unsigned short *ro = (volatile unsigned short *)RO_PAGE;
  *hole = 0x1234;         /* unmapped: fault, mapped by the handler, rerun */
  user_result = *hole + *ro;
  *ro = 0x5678;           /* read-only: fault, made writable, rerun */
  __asm__ volatile("trap #0");
}

static void test_mmu(void) {
  tb_puts("mmu:\n");
  for (unsigned long i = 0; i < PAGES; ++i)
    page_table[i] = (i << TB_PAGE_SHIFT) | TB_MMU_PTE_VALID | TB_MMU_PTE_WRITABLE | TB_MMU_PTE_USER;
  page_table[HOLE >> TB_PAGE_SHIFT] = 0;
  page_table[RO_PAGE >> TB_PAGE_SHIFT] &= ~TB_MMU_PTE_WRITABLE;
  *(volatile unsigned short *)RO_PAGE = 0x0100;
  TB_REG32(TB_MMU_PTBASE(5)) = (unsigned long)page_table;
  TB_REG16(TB_MMU_PTLEN(5)) = PAGES;
  TB_REG16(TB_MMU_ASID) = 5;
  TB_REG16(TB_MMU_CTRL) = TB_MMU_CTRL_ENABLE;
  unsigned long faults_before = TB_REG32(TB_MMU_FAULTS);
  enter_user(user_code, (unsigned long)&user_stack[256]);
  TB_REG16(TB_MMU_CTRL) = 0;
  check(faults == 2, "two user faults reached the bus-error handler");
  check(TB_REG32(TB_MMU_FAULTS) - faults_before == 2, "MMU FAULTS counted them");
  check(TB_FIELD_GET(last_status, TB_MMU_FAULT_STATUS_REASON) == TB_MMU_FAULT_STATUS_REASON_READ_ONLY &&
            (last_status & TB_MMU_FAULT_STATUS_WRITE) &&
            TB_FIELD_GET(last_status, TB_MMU_FAULT_STATUS_ASID) == 5 &&
            TB_FIELD_GET(last_status, TB_MMU_FAULT_STATUS_FC) == 1,
        "FAULT_STATUS: read-only write, user data, space 5");
  check(*(volatile unsigned short *)(FRAME + 0x10) == 0x1234, "the rerun write landed in the new frame");
  check(user_result == 0x1334, "user code read back through the fixed mappings");
  check(*(volatile unsigned short *)RO_PAGE == 0x5678, "the write to the read-only page was rerun");
}

/* ---- host file service on SERIAL1 ---- */
static int link_getc(unsigned long deadline_usec, int *c) {
  while (!(tb_serial_status(TB_SERIAL1_BASE) & TB_SERIAL1_STATUS_RX_READY))
    if (tb_rtc_usec() > deadline_usec) return 0;
  *c = tb_serial_rx(TB_SERIAL1_BASE);
  return 1;
}

static unsigned char sum;
static void link_put(unsigned char c) {
  sum += c;
  tb_serial_putc(TB_SERIAL1_BASE, (char)c);
}

/* One request; returns the reply status (or -1 when the host does not answer in 1 s). */
static int file_request(char op, const char *name, const char *data, unsigned long len, char *buf,
                        unsigned long cap, unsigned long *got) {
  unsigned long n = 0;
  while (name[n]) ++n;
  tb_serial_putc(TB_SERIAL1_BASE, (char)TB_FS_REQUEST_SYNC);
  sum = 0;
  link_put((unsigned char)op);
  link_put((unsigned char)n);
  for (unsigned long i = 0; i < n; ++i) link_put((unsigned char)name[i]);
  for (int i = 24; i >= 0; i -= 8) link_put((unsigned char)(len >> i));
  for (unsigned long i = 0; i < len; ++i) link_put((unsigned char)data[i]);
  tb_serial_putc(TB_SERIAL1_BASE, (char)sum);
  unsigned long deadline = tb_rtc_usec() + 1000000;
  int c, status;
  do {
    if (!link_getc(deadline, &c)) return -1;
  } while (c != TB_FS_REPLY_SYNC);
  if (!link_getc(deadline, &status)) return -1;
  unsigned char s = (unsigned char)status;
  unsigned long rlen = 0;
  for (int i = 0; i < 4; ++i) {
    if (!link_getc(deadline, &c)) return -1;
    rlen = rlen << 8 | (unsigned long)c;
    s += (unsigned char)c;
  }
  for (unsigned long i = 0; i < rlen; ++i) {
    if (!link_getc(deadline + (i << 10), &c)) return -1;
    if (i < cap) buf[i] = (char)c;
    s += (unsigned char)c;
  }
  if (!link_getc(deadline + (rlen << 10), &c) || (unsigned char)c != s) return -2;
  if (got) *got = rlen;
  return status;
}

static void test_file_service(void) {
  tb_puts("file service:\n");
  char buf[64];
  unsigned long n = 0;
  int st = file_request('G', "board-test-input.txt", 0, 0, buf, sizeof buf, &n);
  if (st == -1) {
    tb_puts("  (no host on the link: skipped)\n");
    return;
  }
  static const char expect[] = "uploaded from the host\n";
  int same = n == sizeof expect - 1;
  for (unsigned long i = 0; same && i < n; ++i) same = buf[i] == expect[i];
  check(st == 0 && same, "fetched board-test-input.txt from the host folder");
  static const char result[] = "board-test result: PASS\n";
  st = file_request('P', "board-test-output.txt", result, sizeof result - 1, buf, sizeof buf, 0);
  check(st == 0, "stored board-test-output.txt in the host folder");
  st = file_request('G', "../escape", 0, 0, buf, sizeof buf, 0);
  check(st == 2, "a path in a name is refused");
  tb_puts("  file service ok\n");
}

int main(void) {
  for (int i = 0; i < 256; ++i) vectors[i] = ((unsigned long *)0)[i];
  vectors[2] = (unsigned long)bus_error_entry;
  vectors[TB_AUTOVECTOR(TB_IRQ_TIMER)] = (unsigned long)timer_entry;
  vectors[32] = (unsigned long)trap0_entry;
  tb_set_vbr(vectors);

  tb_puts("board-test: board ");
  tb_putdec(TB_REG16(TB_BOARDID_ID));
  tb_puts(TB_REG16(TB_BOARDID_ROLE) ? " (master)" : " (slave)");
  tb_puts(", RAM ");
  tb_putdec(TB_REG32(TB_BOARDID_RAMSIZE) >> 10);
  tb_puts(" KB, timer ");
  tb_putdec(TB_REG32(TB_TIMER_TICK_HZ));
  tb_puts(" Hz\n");
  check(TB_REG32(TB_BOARDID_RAMSIZE) >= 0x300000, "at least 3 MB of RAM (the MMU test uses 0x200000)");
  check(probe((volatile void *)TB_NET_BASE) == 0, "absent Centrenet window: bus error");
  check(probe((volatile void *)TB_BOARDID_ID) == 1, "BOARDID answers");
  test_timer();
  test_mmu();
  test_file_service();
  TB_REG32(TB_SIMCTL_CHECKSUM) = 0x7E57B0A2ul;
  tb_puts(failures ? "board-test: FAIL\n" : "board-test: PASS\n");
  return failures;
}
