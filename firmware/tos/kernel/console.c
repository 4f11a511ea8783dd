/* The operator's console on SERIAL0, interrupt driven.
 *
 * Output goes into a ring that the transmit interrupt drains one character at a time, so a
 * thread printing at 9600 baud does not hold the CPU. A user write that finds the ring full
 * blocks its thread (T_CONSOLE); the main loop's receive phase moves more of its buffer into
 * the ring as room appears and completes the call when all is taken. Kernel messages that find
 * the ring full wait for it by polling (they are rare: boot, faults).
 *
 * Input: the receive interrupt moves characters into an input ring; when it is full the
 * interrupt is switched off and the character stays in the port, so the line's flow control
 * holds the sender and nothing is lost. Cooked mode (the default, `stty cooked`) echoes,
 * erases with backspace/DEL, and delivers whole lines; raw mode delivers characters as they
 * come, without echo. Readers queue (T_CONSOLE_IN), oldest first. Input may also come from
 * another board (console switching: console_input()). */
#include "defs.h"

#define RING 1024
static volatile char ring[RING];
static volatile uint32_t head, tail; /* producer: head; transmit interrupt: tail */
static struct tcb *writers_head, *writers_tail; /* blocked writers, oldest first */

#define IN_RING 256
static volatile char in_ring[IN_RING];
static volatile uint32_t in_head, in_tail;      /* interrupt: head; readers: tail */
static char line[IN_RING];                      /* cooked mode: the line being edited */
static uint32_t line_len, line_ready;           /* line_ready: a complete line of that length */
static struct tcb *readers_head, *readers_tail; /* blocked readers, oldest first */
int console_raw;

/* Console switching (seed 000 section 2.1: "the console may be switched (in software) to
 * communicate with any of the six shells"). The operator's terminal is the master's SERIAL0.
 * The master sends what is typed to the selected board (NET_CON_IN), within the credit that
 * board grants (NET_CON_CREDIT: room in its input ring), and prints what the selected board
 * prints (NET_CON_OUT); every board also keeps printing on its own port. */
#define CONSOLE_LOCAL (-1)
static int console_target = CONSOLE_LOCAL; /* master: where typed characters go */
static int selected;                       /* this board's console is the operator's */
#define FWD_RING 256
static char fwd[FWD_RING];                 /* master: typed, for the target; other boards: printed, for the master */
static volatile uint32_t fwd_head, fwd_tail;
static uint32_t credit;                    /* master: characters the target can still take */
static uint32_t consumed;                  /* selected board: input taken since the last credit */
uint32_t console_dropped;                  /* printed characters the master could not be sent */

static uint32_t fwd_room(void) { return FWD_RING - 1 - ((fwd_head - fwd_tail) & (FWD_RING - 1)); }
static void fwd_put(char c) {
  fwd[fwd_head] = c;
  fwd_head = (fwd_head + 1) & (FWD_RING - 1);
  kernel_work = 1; /* for the send phase (loop_wanted) */
}
static void console_forward_input(char c) { fwd_put(c); }
int console_send_pending(void) { return fwd_head != fwd_tail; }

#define SERIAL_DATA TB_SERIAL0_DATA
#define SERIAL_STATUS TB_SERIAL0_STATUS
#define SERIAL_CTRL TB_SERIAL0_CTRL

static uint16_t ctrl_bits; /* SERIAL0 CTRL: RX_IRQ while the input ring has room, TX_IRQ while output waits */

static void set_ctrl(uint16_t set, uint16_t clear) {
  ctrl_bits = (uint16_t)((ctrl_bits | set) & ~clear);
  REG16(SERIAL_CTRL) = ctrl_bits;
}

void console_init(void) {
  head = tail = in_head = in_tail = 0;
  ctrl_bits = 0;
  set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
}

static void console_input_service(void);
static uint32_t in_room(void) { return IN_RING - 1 - ((in_head - in_tail) & (IN_RING - 1)); }

/* Job control (cooked mode, as a terminal driver's ISIG): Ctrl-C and Ctrl-Z never enter the
 * input; they are counted here, in the interrupt, and acted on by the main loop (job_control). */
#define CTRL_C 0x03
#define CTRL_Z 0x1A
static volatile uint32_t intr_typed, susp_typed;

/* A character for the console's input, from the port or from the operator's terminal on the
 * master (switched console). 0 if there is no room. */
int console_input(char c) {
  if (!console_raw && (c == CTRL_C || c == CTRL_Z)) {
    if (c == CTRL_C) ++intr_typed;
    else ++susp_typed;
    kernel_work = 1;
    return 1;
  }
  if (!in_room()) return 0;
  in_ring[in_head] = c;
  in_head = (in_head + 1) & (IN_RING - 1);
  return 1;
}

static void rx_intr(void) {
  while (REG16(SERIAL_STATUS) & TB_SERIAL0_STATUS_RX_READY) {
    int room = console_target == CONSOLE_LOCAL ? in_room() != 0 : fwd_room() != 0;
    if (!room) { /* leave it in the port: flow control holds the line */
      set_ctrl(0, TB_SERIAL0_CTRL_RX_IRQ);
      return;
    }
    char c = (char)REG16(SERIAL_DATA);
    if (console_target != CONSOLE_LOCAL) console_forward_input(c);
    else console_input(c);
    kernel_work = 1;
  }
}

static uint32_t room(void) { return RING - 1 - ((head - tail) & (RING - 1)); }

/* Transmit: one character per interrupt, off when the ring is empty. Receive: rx_intr. */
void console_intr(void) {
  rx_intr();
  while (head != tail && (REG16(SERIAL_STATUS) & TB_SERIAL0_STATUS_TX_READY)) {
    REG16(SERIAL_DATA) = (uint8_t)ring[tail];
    tail = (tail + 1) & (RING - 1);
  }
  if (head == tail) set_ctrl(0, TB_SERIAL0_CTRL_TX_IRQ);
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
    if (selected) { /* the operator sees it too */
      if (c == '\n' && fwd_room()) fwd_put('\r');
      if (fwd_room()) fwd_put(c); else ++console_dropped;
    }
    ++k;
  }
  if (head != tail) set_ctrl(TB_SERIAL0_CTRL_TX_IRQ, 0);
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
    if (!vm_copyin(t->proc, chunk, t->op_buf, n)) { /* the page went while the thread waited */
      t->op_total = (uint32_t)-TOS_EFAULT;
      t->op_len = 0;
      return 1;
    }
    console_put(chunk, (int)n);
    t->op_buf += n;
    t->op_len -= n;
  }
  return 1;
}

/* The write system call: returns the byte count, or blocks the thread (T_CONSOLE). */
int32_t console_write(struct tcb *t, uint32_t buf, uint32_t len) {
  USER_BUFFER(t, buf, len, 0);
  t->op_buf = buf;
  t->op_len = len;
  t->op_total = len;
  if (!writers_head && feed(t)) return (int32_t)t->op_total; /* all taken: the thread goes on */
  t->state = T_CONSOLE;
  t->next = NULL;
  if (writers_tail) writers_tail->next = t; else writers_head = t;
  writers_tail = t;
  return 0;
}

void console_service(void) {
  console_input_service();
  while (writers_head && feed(writers_head)) {
    struct tcb *t = writers_head;
    writers_head = t->next;
    if (!writers_head) writers_tail = NULL;
    finish(t, (int32_t)t->op_total);
  }
}

/* Take t out of a queue of blocked threads (its process was killed). */
static void unqueue(struct tcb **first, struct tcb **last, struct tcb *t) {
  struct tcb **pp = first, *prev = NULL;
  while (*pp) {
    if (*pp == t) {
      *pp = t->next;
      if (*last == t) *last = prev;
      return;
    }
    prev = *pp;
    pp = &(*pp)->next;
  }
}

void console_forget(struct tcb *t) { unqueue(&writers_head, &writers_tail, t); }

/* SYSCALL(write) and SYSCALL(read) are file.c's: descriptors 0, 1, 2 lead here (console_write, console_read). */

/* ---- input ---- */
static void echo(const char *s, int n) { console_put(s, n); }

/* Move characters from the input ring into the line (cooked) or leave them (raw). */
static void cook(void) {
  while (!line_ready && in_tail != in_head) {
    char c = in_ring[in_tail];
    in_tail = (in_tail + 1) & (IN_RING - 1);
    ++consumed;
    if (c == '\b' || c == 0x7F) {
      if (line_len) {
        --line_len;
        echo("\b \b", 3);
      }
    } else if (c == '\r' || c == '\n') {
      line[line_len++] = '\n';
      line_ready = 1;
      echo("\n", 1);
    } else if (c == 0x04) { /* Ctrl-D: the line as it is; at the start of a line, end of file */
      line_ready = 1;
    } else if (line_len < IN_RING - 2) {
      line[line_len++] = c;
      echo(&c, 1);
    } else {
      /* The line is longer than the buffer: what there is goes to the reader without its
       * newline (it may read on, or refuse the line: the shell does) and this character starts
       * the next piece. Nothing is dropped. */
      in_tail = (in_tail - 1) & (IN_RING - 1);
      --consumed;
      line_ready = 1;
    }
  }
  if (in_room()) set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
}

/* Give the head reader what there is; 1 if its call completed. */
static int deliver(struct tcb *t) {
  uint32_t n = 0;
  char buf[IN_RING];
  if (console_raw) {
    while (n < t->op_len && in_tail != in_head) {
      buf[n++] = in_ring[in_tail];
      in_tail = (in_tail + 1) & (IN_RING - 1);
      ++consumed;
    }
    if (in_room()) set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
  } else {
    cook();
    if (!line_ready) return 0;
    if (line_len == 0) { /* end of file: read returns 0 */
      line_ready = 0;
      t->op_total = 0;
      return 1;
    }
    n = line_len < t->op_len ? line_len : t->op_len;
    memcpy(buf, line, n);
    line_len -= n; /* a reader asking for less gets the rest next time */
    for (uint32_t i = 0; i < line_len; ++i) line[i] = line[i + n];
    if (!line_len) line_ready = 0;
  }
  if (!n) return 0;
  t->op_total = vm_copyout(t->proc, t->op_buf, buf, n) ? n : (uint32_t)-TOS_EFAULT; /* its page may be gone */
  return 1;
}

/* read(0, ...): a line (cooked) or what has arrived (raw); blocks until there is some. */
int32_t console_read(struct tcb *t, uint32_t buf, uint32_t len) {
  USER_BUFFER(t, buf, len, 1);
  if (len == 0) return 0;
  if (len > IN_RING) len = IN_RING;
  t->op_buf = buf;
  t->op_len = len;
  if (!readers_head && deliver(t)) return (int32_t)t->op_total;
  t->state = T_CONSOLE_IN;
  t->next = NULL;
  if (readers_tail) readers_tail->next = t; else readers_head = t;
  readers_tail = t;
  return 0;
}

/* The console's foreground job: the processes of this board in the foreground started by a
 * foreground program of the boot script (its shell) and, in turn, by them (the shell's
 * foreground command and what that started). The boot script's own programs (parent -1) are not
 * jobs, nor is anything a background program started. */
static int foreground_job(const struct proc *p) {
  for (int depth = 0; depth < TOS_MAX_PROCESSES; ++depth) {
    if (!proc_alive(p) || p->guest || p->state != P_FOREGROUND || p->parent < 0) return 0;
    const struct proc *par = &procs[p->parent];
    if (!proc_alive(par) || par->serial != p->parent_serial || par->state != P_FOREGROUND) return 0;
    if (par->parent < 0) return 1; /* started by the boot script's foreground program: the shell */
    p = par;
  }
  return 0;
}

/* Ctrl-C ends the foreground job (exit code TOS_EXIT_INTERRUPTED); with none, the line being
 * typed is dropped and an empty one given, so the shell prompts again. Ctrl-Z suspends the
 * foreground job (the scheduler passes it over) and its waiters return -ESTOPPED: the shell
 * prompts, and fg or bg lets the job run again. */
static void job_control(void) {
  uint16_t sr = splhigh();
  uint32_t nintr = intr_typed, nsusp = susp_typed;
  intr_typed = susp_typed = 0;
  splx(sr);
  consumed += nintr + nsusp; /* the master counted them against this board's input credit */
  for (; nintr; --nintr) {
    int any = 0;
    uint8_t job[TOS_MAX_PROCESSES]; /* the whole job first: a parent's end would hide its children */
    echo("^C\n", 3);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) job[i] = (uint8_t)foreground_job(&procs[i]);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i)
      if (job[i]) {
        proc_kill(&procs[i], TOS_EXIT_INTERRUPTED);
        any = 1;
      }
    if (!any && !line_ready && !console_raw) {
      line[0] = '\n';
      line_len = 1;
      line_ready = 1;
    }
  }
  for (; nsusp; --nsusp) {
    uint8_t job[TOS_MAX_PROCESSES];
    echo("^Z\n", 3);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) job[i] = (uint8_t)foreground_job(&procs[i]);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
      struct proc *p = &procs[i];
      if (!job[i]) continue;
      p->state = P_SUSPENDED;
      for (int k = 0; k < 4; ++k) {
        struct tcb *w = p->pwaiter[k];
        if (w && w->state == T_PWAIT) finish(w, -TOS_ESTOPPED);
        p->pwaiter[k] = NULL;
      }
    }
  }
}

static void console_input_service(void) {
  if (intr_typed || susp_typed) job_control();
  if (!readers_head && !console_raw) cook(); /* echo as the operator types */
  kernel_work = 0;
  for (;;) { /* the oldest reader whose process is not suspended (Ctrl-Z) gets the input */
    struct tcb *t = readers_head;
    while (t && t->proc->state == P_SUSPENDED) t = t->next;
    if (!t || !deliver(t)) break;
    unqueue(&readers_head, &readers_tail, t);
    finish(t, (int32_t)t->op_total);
  }
}

void console_forget_reader(struct tcb *t) { unqueue(&readers_head, &readers_tail, t); }

/* Descriptor 0 only; the file calls take the others. */
SYSCALL(stty) {
  if (a1 == 0 || a1 == 1) console_raw = (int)a1;
  return console_raw;
}

/* ---- switching ---- */
static void pack(uint32_t *ops, const char *src, uint32_t n) {
  ops[0] = n;
  for (uint32_t i = 0; i < n; i += 4) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < 4; ++k) w = (w << 8) | (uint8_t)(i + k < n ? src[i + k] : 0);
    ops[1 + i / 4] = w;
  }
}

static uint32_t unpack(const uint32_t *ops, uint32_t nops, char *dst) {
  uint32_t n = ops[0];
  if (n > 4 * (nops - 1)) n = 4 * (nops - 1);
  for (uint32_t i = 0; i < n; ++i) dst[i] = (char)(ops[1 + i / 4] >> (24 - 8 * (i % 4)));
  return n;
}

#define CHARS_PER_MSG (4 * (NET_MAX_OPS - 1))

/* Send phase: typed characters to the selected board (master), printed ones to the master
 * (a selected board), and input credit back to the master. */
void console_send_phase(void) {
  char chunk[CHARS_PER_MSG];
  uint32_t ops[NET_MAX_OPS];
  for (;;) {
    uint32_t avail = (fwd_head - fwd_tail) & (FWD_RING - 1), n = avail;
    if (!n) break;
    int to_target = board_master && console_target != CONSOLE_LOCAL;
    if (to_target && n > credit) n = credit;
    if (n > CHARS_PER_MSG) n = CHARS_PER_MSG;
    if (!n || !net_queue_room()) break;
    for (uint32_t i = 0; i < n; ++i) chunk[i] = fwd[(fwd_tail + i) & (FWD_RING - 1)];
    pack(ops, chunk, n);
    net_queue(to_target ? (uint32_t)console_target : 0, to_target ? NET_CON_IN : NET_CON_OUT, ops,
              1 + (n + 3) / 4, 0, 0, NULL, NULL);
    fwd_tail = (fwd_tail + n) & (FWD_RING - 1);
    if (to_target) credit -= n;
    if (to_target && fwd_room()) set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
  }
  if (selected && consumed >= 16 && net_queue_room()) {
    uint32_t c = consumed;
    net_queue(0, NET_CON_CREDIT, &c, 1, 0, 0, NULL, NULL);
    consumed = 0;
  }
}

static void select_board(int target) {
  if (target == (int)net_me() || target < 0) target = CONSOLE_LOCAL;
  if (target == console_target) return;
  uint32_t off = 0, on = 1;
  /* (never dropped on a full network queue: a lost switch leaves a board printing to, or the
   * master waiting for, a console nobody reads) */
  if (console_target != CONSOLE_LOCAL) net_send_wait((uint32_t)console_target, NET_CON_SELECT, &off, 1);
  fwd_head = fwd_tail = 0; /* anything typed for the old target stays unsent */
  console_target = target;
  credit = 0;
  if (target != CONSOLE_LOCAL) net_send_wait((uint32_t)target, NET_CON_SELECT, &on, 1);
  kprintf("[console: %s]\n", target == CONSOLE_LOCAL ? board_name : board_name_of((uint32_t)target));
}

/* Who may ask what (the sender is the network interface's source board): only the master
 * selects a board's console and types into it (the operator's keys); only the board the operator
 * switched to prints on the master's console, grants it credit or asks it to switch elsewhere
 * (the `console` command of the shell the operator is typing to). Anything else is forged. */
static void on_select(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if (ops[0] > 1) {
    net_bad(from, NET_CON_SELECT, "selection", ops[0]);
    return;
  }
  selected = ops[0] != 0;
  if (selected) {
    uint32_t c = in_room(); /* the credit the master starts from: lost, it would never type here */
    net_send_wait(0, NET_CON_CREDIT, &c, 1);
    consumed = 0;
    kprintf("[console: %s]\n", board_name);
  }
}

static void on_request(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if ((int)from != console_target) {
    net_bad(from, NET_CON_REQUEST, "a console switch asked by a board the operator is not using, sender", from);
    return;
  }
  if (ops[0] >= nboards) {
    net_bad(from, NET_CON_REQUEST, "board", ops[0]);
    return;
  }
  select_board((int)ops[0]);
}

static void on_in(uint32_t from, const uint32_t *ops, uint32_t nops) {
  if (!selected) { /* typing comes from the operator's keyboard only (the master's: net.c's table) */
    net_bad(from, NET_CON_IN, "console input for a console the operator has not selected, sender", from);
    return;
  }
  char c[CHARS_PER_MSG];
  uint32_t n = unpack(ops, nops, c);
  for (uint32_t i = 0; i < n; ++i)
    if (!console_input(c[i])) ++console_dropped; /* cannot happen within the credit */
}

static void on_out(uint32_t from, const uint32_t *ops, uint32_t nops) {
  char c[CHARS_PER_MSG];
  uint32_t n = unpack(ops, nops, c);
  if ((int)from != console_target) return; /* a board that is no longer selected */
  for (uint32_t i = 0; i < n; ++i) {
    if (c[i] == '\r') continue; /* kputc adds it back before '\n' */
    kputc(c[i]);
  }
}

static void on_credit(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if (ops[0] > 4 * IN_RING) { /* far more than the selected board's input ring can have taken */
    net_bad(from, NET_CON_CREDIT, "credit", ops[0]);
    return;
  }
  if ((int)from == console_target) credit += ops[0]; /* else: a board no longer selected (not forged) */
}

void console_net_init(void) {
  net_register(NET_CON_SELECT, on_select, 1);
  net_register(NET_CON_REQUEST, on_request, 1);
  net_register(NET_CON_IN, on_in, 1);
  net_register(NET_CON_OUT, on_out, 1);
  net_register(NET_CON_CREDIT, on_credit, 1);
}

/* The controller refused to send the select to `b`: no such board on the network. The operator
 * is not left typing into nothing: the console comes back to the master. */
void console_no_board(uint32_t b) {
  if (!board_master || (int)b != console_target) return;
  fwd_head = fwd_tail = 0;
  console_target = CONSOLE_LOCAL;
  credit = 0;
  kprintf("[console: there is no board %u on the network; back on %s]\n", b, board_name);
}

SYSCALL(console) {
  /* a processor number the network can address (node * slots_per_node + slot, node below the broadcast node) */
  if (a1 >= (uint32_t)TOS_MAX_SLOTS_PER_NODE * TB_NET_HEADER_DEST_NODE_BROADCAST) return -TOS_EINVAL;
  if (board_master) {
    select_board((int)a1);
    return 0;
  }
  return net_queue(0, NET_CON_REQUEST, &a1, 1, 0, 0, NULL, NULL) ? 0 : -TOS_EINVAL;
}
