/* The console's line discipline: what descriptors 0, 1 and 2 of a process mean when they are
 * the console (file.c's read and write lead here), kept apart from the port (console_uart.c)
 * as xv6 keeps console.c apart from uart.c, so that the rules of a terminal are in one place.
 *
 * Writes: a user write that finds the output ring full blocks its thread (T_CONSOLE); the main
 * loop's receive phase moves more of its buffer into the ring as room appears and completes the
 * call when all is taken. Writers queue, oldest first, so their output is not interleaved.
 *
 * Reads: cooked mode (the default, `stty cooked`) echoes, erases with backspace/DEL, and
 * delivers whole lines; raw mode delivers characters as they come, without echo. Readers queue
 * (T_CONSOLE_IN), oldest first. Characters reach the input ring from the port or from another
 * board (console switching) by console_input (console_uart.c); Ctrl-C and Ctrl-Z never enter a
 * cooked line: they go to console_jobs.c. */
#include "console.h"

volatile char con_in_ring[IN_RING];
volatile uint32_t con_in_head, con_in_tail;
static char line[IN_RING];                      /* cooked mode: the line being edited */
static uint32_t line_len, line_ready;           /* line_ready: a complete line of that length */
static struct tcb *readers_head, *readers_tail; /* blocked readers, oldest first */
static struct tcb *writers_head, *writers_tail; /* blocked writers, oldest first */
int console_raw;


/* ---- output ---- */
/* Copy what fits of the thread's pending output (op_buf, op_len) into the ring, or, for a thread
 * away from its process's home, home (remote.c: the process's console is its home's). */
static int feed(struct tcb *t) {
  char chunk[64];
  while (t->op_len) {
    uint32_t n = t->op_len < sizeof chunk ? t->op_len : sizeof chunk;
    if (t->proc->guest) {
      uint32_t r = remote_console_room();
      if (!r) return 0;
      if (n > r) n = r;
    } else if (room() < 2 * n) {
      return 0; /* room for "\r\n" expansion */
    }
    if (!vm_copyin(t->proc, chunk, t->op_buf, n)) { /* the page went while the thread waited */
      t->op_total = (uint32_t)-TOS_EFAULT;
      t->op_len = 0;
      return 1;
    }
    if (t->proc->guest) remote_console_out(t, chunk, n);
    else console_put(chunk, (int)n);
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

static void console_input_service(void);

void console_service(void) {
  console_input_service();
  while (writers_head && feed(writers_head)) {
    struct tcb *t = writers_head;
    writers_head = t->next;
    if (!writers_head) writers_tail = NULL;
    finish(t, (int32_t)t->op_total);
  }
}

void console_forget(struct tcb *t) { unqueue(&writers_head, &writers_tail, t); }

/* ---- input ---- */
static void echo(const char *s, int n) { console_put(s, n); }

/* Move characters from the input ring into the line (cooked) or leave them (raw). */
static void cook(void) {
  while (!line_ready && con_in_tail != con_in_head) {
    char c = con_in_ring[con_in_tail];
    con_in_tail = (con_in_tail + 1) & (IN_RING - 1);
    ++con_consumed;
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
      con_in_tail = (con_in_tail - 1) & (IN_RING - 1);
      --con_consumed;
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
    while (n < t->op_len && con_in_tail != con_in_head) {
      buf[n++] = con_in_ring[con_in_tail];
      con_in_tail = (con_in_tail + 1) & (IN_RING - 1);
      ++con_consumed;
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

/* Ctrl-C with no foreground job (console_jobs.c): the line being typed is dropped and an empty
 * one given, so the shell prompts again. */
void line_give_empty_line(void) {
  if (!line_ready && !console_raw) {
    line[0] = '\n';
    line_len = 1;
    line_ready = 1;
  }
}

/* The operator has just come to this board's console (console switching): a shell waiting for a
 * line with nothing typed yet prompts again, as after a Ctrl-C with no job, so the operator sees
 * a prompt at once rather than after the next line. A foreground job reading the console (not
 * the shell) is given nothing. */
void line_prompt_again(void) {
  if (readers_head && !line_len && !console_job_running()) line_give_empty_line();
}

static void console_input_service(void) {
  if (con_intr_typed || con_susp_typed) job_control();
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
