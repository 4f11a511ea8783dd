/* Console switching (seed 000 section 2.1: "the console may be switched (in software) to
 * communicate with any of the six shells"): the console's half between boards, apart from the
 * port (console_uart.c) and the line discipline (console_line.c) because it is a protocol with
 * its own rules of who may send what, like rchan.c's and rfile.c's.
 *
 * The operator's terminal is the master's SERIAL0. The master sends what is typed to the
 * selected board (NET_CON_IN), within the credit that board grants (NET_CON_CREDIT: room in its
 * input ring), and prints what the selected board prints (NET_CON_OUT); every board also keeps
 * printing on its own port. */
#include "console.h"

int con_target = CONSOLE_LOCAL;
int con_selected;
char con_fwd[FWD_RING];
volatile uint32_t con_fwd_head, con_fwd_tail;
static uint32_t credit;  /* master: characters the target can still take */
uint32_t con_consumed;
uint32_t console_dropped;

int console_send_pending(void) { return con_fwd_head != con_fwd_tail; }

static void pack(uint32_t *ops, const char *src, uint32_t n) {
  ops[0] = n;
  net_pack_chars(ops + 1, src, n);
}

static uint32_t unpack(const uint32_t *ops, uint32_t nops, char *dst) {
  uint32_t n = ops[0];
  if (n > 4 * (nops - 1)) n = 4 * (nops - 1);
  for (uint32_t i = 0; i < n; ++i) dst[i] = net_unpacked_char(ops + 1, i);
  return n;
}

#define CHARS_PER_MSG (4 * (NET_MAX_OPS - 1))

/* Send phase: typed characters to the selected board (master), printed ones to the master
 * (a selected board), and input credit back to the master. */
void console_send_phase(void) {
  char chunk[CHARS_PER_MSG];
  uint32_t ops[NET_MAX_OPS];
  for (;;) {
    uint32_t avail = (con_fwd_head - con_fwd_tail) & (FWD_RING - 1), n = avail;
    if (!n) break;
    int to_target = board_master && con_target != CONSOLE_LOCAL;
    if (to_target && n > credit) n = credit;
    if (n > CHARS_PER_MSG) n = CHARS_PER_MSG;
    if (!n || !net_queue_room()) break;
    for (uint32_t i = 0; i < n; ++i) chunk[i] = con_fwd[(con_fwd_tail + i) & (FWD_RING - 1)];
    pack(ops, chunk, n);
    net_queue(to_target ? (uint32_t)con_target : 0, to_target ? NET_CON_IN : NET_CON_OUT, ops,
              1 + (n + 3) / 4, 0, 0, NULL, NULL);
    con_fwd_tail = (con_fwd_tail + n) & (FWD_RING - 1);
    if (to_target) credit -= n;
    if (to_target && fwd_room()) set_ctrl(TB_SERIAL0_CTRL_RX_IRQ, 0);
  }
  if (con_selected && con_consumed >= 16 && net_queue_room()) {
    uint32_t c = con_consumed;
    net_queue(0, NET_CON_CREDIT, &c, 1, 0, 0, NULL, NULL);
    con_consumed = 0;
  }
}

static void select_board(int target) {
  if (target == (int)net_me() || target < 0) target = CONSOLE_LOCAL;
  if (target == con_target) return;
  uint32_t off = 0, on = 1;
  /* (never dropped on a full network queue: a lost switch leaves a board printing to, or the
   * master waiting for, a console nobody reads) */
  if (con_target != CONSOLE_LOCAL) net_send_wait((uint32_t)con_target, NET_CON_SELECT, &off, 1);
  con_fwd_head = con_fwd_tail = 0; /* anything typed for the old target stays unsent */
  con_target = target;
  credit = 0;
  if (target != CONSOLE_LOCAL) net_send_wait((uint32_t)target, NET_CON_SELECT, &on, 1);
  kprintf("[console: %s]\n", target == CONSOLE_LOCAL ? board_name : board_name_of((uint32_t)target));
  if (target == CONSOLE_LOCAL) line_prompt_again();
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
  con_selected = ops[0] != 0;
  if (con_selected) {
    uint32_t c = in_room(); /* the credit the master starts from: lost, it would never type here */
    net_send_wait(0, NET_CON_CREDIT, &c, 1);
    con_consumed = 0;
    kprintf("[console: %s]\n", board_name);
    line_prompt_again();
  }
}

static void on_request(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if ((int)from != con_target) {
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
  if (!con_selected) { /* typing comes from the operator's keyboard only (the master's: net.c's table) */
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
  if ((int)from != con_target) return; /* a board that is no longer selected */
  for (uint32_t i = 0; i < n; ++i) {
    if (c[i] == '\r') continue; /* kputc adds it back before '\n' */
    kputc_inline(c[i]);
  }
}

static void on_credit(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if (ops[0] > 4 * IN_RING) { /* far more than the selected board's input ring can have taken */
    net_bad(from, NET_CON_CREDIT, "credit", ops[0]);
    return;
  }
  if ((int)from == con_target) credit += ops[0]; /* else: a board no longer selected (not forged) */
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
  if (!board_master || (int)b != con_target) return;
  con_fwd_head = con_fwd_tail = 0;
  con_target = CONSOLE_LOCAL;
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
