/* What the console's four files share and no other kernel file uses (the rest of the kernel
 * sees the console through defs.h). The console is cut by concern: console_uart.c drives
 * SERIAL0 (the output ring and the interrupts), console_line.c is the line discipline (the
 * input ring, cooked and raw reads, echo, the read and write calls' queues), console_jobs.c
 * acts on Ctrl-C and Ctrl-Z, console_remote.c switches the operator's console between boards.
 * The helpers below run in the interrupt or on every character, so they are inline here rather
 * than calls (and each function compiles to the instructions it had when the console was one
 * file). */
#ifndef TOS_KERNEL_CONSOLE_H
#define TOS_KERNEL_CONSOLE_H
#include "defs.h"

/* ---- console_uart.c: the output ring the transmit interrupt drains, SERIAL0's control bits ---- */
#define RING 1024
extern volatile char con_ring[RING];
extern volatile uint32_t con_head, con_tail; /* producer: head; transmit interrupt: tail */
extern uint16_t con_ctrl_bits; /* SERIAL0 CTRL: RX_IRQ while the input ring has room, TX_IRQ while output waits */

static inline void set_ctrl(uint16_t set, uint16_t clear) {
  con_ctrl_bits = (uint16_t)((con_ctrl_bits | set) & ~clear);
  REG16(TB_SERIAL0_CTRL) = con_ctrl_bits;
}
static inline uint32_t room(void) { return RING - 1 - ((con_head - con_tail) & (RING - 1)); }
/* kputc, inline for console_remote.c, which prints a selected board's output a character at a
 * time. */
static inline void kputc_inline(char c) {
  while (!console_put(&c, 1)) {
    uint16_t sr = splhigh();
    console_intr(); /* ring full: drain by polling */
    splx(sr);
  }
}

/* ---- console_jobs.c: Ctrl-C and Ctrl-Z, counted in the interrupt (console_uart.c) ---- */
extern volatile uint32_t con_intr_typed, con_susp_typed;
void job_control(void); /* the main loop's console pass, when one was typed */
int console_job_running(void); /* a foreground job of the console's shell is alive */

/* ---- console_line.c: the input ring the receive interrupt fills ---- */
#define IN_RING 256
extern volatile char con_in_ring[IN_RING];
extern volatile uint32_t con_in_head, con_in_tail; /* interrupt: head; readers: tail */
static inline uint32_t in_room(void) { return IN_RING - 1 - ((con_in_head - con_in_tail) & (IN_RING - 1)); }
void line_give_empty_line(void); /* Ctrl-C with no foreground job: the shell prompts again */
void line_prompt_again(void);    /* the operator switched here: a waiting shell prompts again */

/* ---- console_remote.c: console switching ---- */
#define CONSOLE_LOCAL (-1)
extern int con_target;   /* master: where typed characters go */
extern int con_selected; /* this board's console is the operator's */
#define FWD_RING 256
extern char con_fwd[FWD_RING]; /* master: typed, for the target; other boards: printed, for the master */
extern volatile uint32_t con_fwd_head, con_fwd_tail;
extern uint32_t con_consumed; /* selected board: input taken since the last credit */
extern uint32_t console_dropped; /* printed characters the master could not be sent */

static inline uint32_t fwd_room(void) { return FWD_RING - 1 - ((con_fwd_head - con_fwd_tail) & (FWD_RING - 1)); }
static inline void fwd_put(char c) {
  con_fwd[con_fwd_head] = c;
  con_fwd_head = (con_fwd_head + 1) & (FWD_RING - 1);
  kernel_work = 1; /* for the send phase (loop_wanted) */
}

/* Take t out of a queue of blocked threads (its process was killed). */
static inline void unqueue(struct tcb **first, struct tcb **last, struct tcb *t) {
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
#endif
