/* The Centrenet network interface (hw/centrenet/README.md; Alewife's CMMU, seed 003):
 * messages out through a descriptor and LAUNCH, messages in through an input queue with a
 * window onto its head and a storeback DMA.
 *
 * TOS's messages (the MPCs of section 3 and the kernel's own) carry a header tag that says what
 * they are and how many operand words follow (NET_TAG), then the operands, then data. The send
 * phase of the main loop passes queued messages to the controller (net_send_phase); the receive
 * phase hands each arrived message to the handler registered for its type (net_receive_phase).
 *
 * The two DMA modes differ only here: in 1994 mode the DMA reaches only the controller's
 * buffer memory, so outgoing data is copied into the buffer first and incoming data stored back
 * into it and copied out; with dma-anywhere the DMA works straight from and to RAM. Callers
 * always pass physical RAM addresses. */
#include "defs.h"

#define DESC_WORDS ((TB_NET_LAUNCH - TB_NET_OUT_DESC) / 4)
#define BUFFER_BYTES (TB_NET_BASE + TB_NET_SIZE - TB_NET_BUFFER)
#define OUT_AREA TB_NET_BUFFER                       /* 1994 mode: gathers from here */
#define IN_AREA (TB_NET_BUFFER + BUFFER_BYTES / 2)   /* and stores back here */
/* 1994 mode: the rest of the out half holds pieces packed ahead of their send phase (a remote
 * send's msg, packed in its rtr service: rchan.c), each where the gather reads it. */
#define PIECE_AREA (OUT_AREA + TOS_MAX_NET_PIECE_BYTES)
#define PIECES ((BUFFER_BYTES / 2 - TOS_MAX_NET_PIECE_BYTES) / TOS_PAGE_SIZE)
enum { PIECE_FREE, PIECE_USED, PIECE_DRAINING /* launched: free once the gather is over */ };
static uint8_t piece_state[PIECES];

static int anywhere;
static uint32_t my_node, my_slot;

struct txmsg {
  uint16_t dest;  /* processor number */
  uint16_t tag;
  uint8_t nops;
  uint32_t ops[NET_MAX_OPS];
  uint32_t data, len; /* physical address and length of the data, or len 0 */
  void (*done)(void *ctx);
  void *ctx;
};
/* Messages waiting for the controller (defs.h: NET_TXQ, and why so many). */
static struct txmsg txq[NET_TXQ];
static uint32_t tx_head, tx_tail;
static net_handler handlers[NET_TYPES];
static uint8_t needs[NET_TYPES]; /* operands a message of the type must have */
uint32_t net_sent, net_received, net_unknown, net_dropped;
/* REM-COMM (seed 000 section 4.1): messages sent to each slave since the last link sample.
 * A machine's boards are processors 0..nboards-1; LINK_COUNT's word has room for 16 board
 * numbers, so only boards 1..15 are sampled (net_link_sample). */
static uint16_t link_sent[TOS_MAX_BOARDS];

void net_init(void) {
  uint32_t a = REG32(TB_NET_MYADDR);
  my_node = (a & TB_NET_MYADDR_NODE) >> TB_NET_MYADDR_NODE_SHIFT;
  my_slot = (a & TB_NET_MYADDR_SLOT) >> TB_NET_MYADDR_SLOT_SHIFT;
  anywhere = REG32(TB_NET_MODE) == TB_NET_MODE_ANYWHERE;
  REG32(TB_NET_CTRL) = TB_NET_CTRL_RXIE;
}

uint32_t net_me(void) { return my_node * TOS_MAX_SLOTS_PER_NODE + my_slot; }
void net_register(uint32_t type, net_handler h, uint32_t nops) {
  handlers[type] = h;
  needs[type] = (uint8_t)nops;
}

/* A message refused: it cannot be what it says (corrupted, or sent by a confused kernel), or
 * its real sender (the network interface's source board, never a field of the payload) may not
 * ask it, or an operand is out of range. Counted per message type; said on the console once per
 * kind (type and reason), so that a flood of forgeries cannot flood the console; the totals are
 * in the board's end-of-run line and info(TOS_INFO_NET_REFUSED). The rest of the traffic goes on.
 * Returns 0, for `return net_bad(...)` in a handler's checks. */
uint32_t net_malformed, net_refused_total;
static uint16_t refused[NET_TYPES + 1]; /* the last: types past NET_TYPES */
#define KINDS_SAID 48
static struct {
  uint8_t type;
  const char *why;
} said[KINDS_SAID];
static uint32_t nsaid;
int net_bad(uint32_t from, uint32_t type, const char *why, uint32_t v) {
  ++net_malformed;
  ++net_refused_total;
  uint32_t k = type < NET_TYPES ? type : NET_TYPES;
  if (refused[k] != 0xFFFF) ++refused[k];
  for (uint32_t i = 0; i < nsaid; ++i)
    if (said[i].type == k && said[i].why == why) return 0; /* said already: counted only */
  if (nsaid < KINDS_SAID) {
    said[nsaid].type = (uint8_t)k;
    said[nsaid].why = why;
    ++nsaid;
  }
  kprintf("tos: %s: refused message type %u from %s: %s (%u): dropped (%u so far; more of this kind are only "
          "counted)\n", board_name, type, board_name_of(from), why, v, net_refused_total);
  return 0;
}

/* The end of a run: how many of each type were refused (nothing when none was). */
void net_refused_report(void) {
  if (!net_refused_total) return;
  kprintf("tos: %s: kernel messages refused: %u (by type:", board_name, net_refused_total);
  for (uint32_t k = 0; k <= NET_TYPES; ++k)
    if (refused[k]) kprintf(" %u:%u", k, refused[k]);
  kprintf(")\n");
}

/* Queue a message for the send phase; 0 when the queue is full (the caller retries later).
 * `data` must stay put until done(ctx) is called (or until the message has left, if no done). */
int net_queue(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops, uint32_t data, uint32_t len,
              void (*done)(void *), void *ctx) {
  if (((tx_head + 1) % NET_TXQ) == tx_tail || nops > NET_MAX_OPS || len > TOS_MAX_NET_PIECE_BYTES) return 0;
  struct txmsg *m = &txq[tx_head];
  m->dest = (uint16_t)dest;
  m->tag = (uint16_t)NET_TAG(type, nops);
  m->nops = (uint8_t)nops;
  for (uint32_t i = 0; i < nops; ++i) m->ops[i] = ops[i];
  m->data = data;
  m->len = len;
  m->done = done;
  m->ctx = ctx;
  tx_head = (tx_head + 1) % NET_TXQ;
  kernel_work = 1; /* for the send phase: a trapping thread does not go straight on (loop_wanted) */
  return 1;
}

/* Is frame pa the data of a message still waiting in the queue? (A user page piece is translated
 * when queued and read when launched: mem.c keeps such a frame until it has left.) */
int net_frame_queued(uint32_t pa) {
  for (uint32_t i = tx_tail; i != tx_head; i = (i + 1) % NET_TXQ)
    if (txq[i].len && (txq[i].data & ~(uint32_t)(TOS_PAGE_SIZE - 1)) == pa) return 1;
  return 0;
}

uint32_t net_queue_room(void) { return NET_TXQ - 1 - (tx_head + NET_TXQ - tx_tail) % NET_TXQ; }
uint32_t net_queue_capacity(void) { return NET_TXQ - 1; }
int net_tx_pending(void) { return tx_head != tx_tail; }

/* 1994 mode: data the DMA is to send must be copied into the controller's buffer first. */
int net_packs(void) { return !anywhere; }

/* A piece buffer of TOS_PAGE_SIZE bytes in the controller's buffer, for data packed now and
 * sent later; 0 if none is free, or with dma-anywhere, where the DMA reads the sender's own
 * pages and nothing is packed. */
uint32_t net_piece_alloc(void) {
  if (anywhere) return 0;
  int gathered = !(REG32(TB_NET_STATUS) & TB_NET_STATUS_LAUNCH_BUSY); /* every launch so far read */
  uint32_t found = PIECES;
  for (uint32_t i = 0; i < PIECES; ++i) {
    if (piece_state[i] == PIECE_DRAINING && gathered) piece_state[i] = PIECE_FREE;
    if (piece_state[i] == PIECE_FREE && found == PIECES) found = i;
  }
  if (found == PIECES) return 0;
  piece_state[found] = PIECE_USED;
  return PIECE_AREA + found * TOS_PAGE_SIZE;
}

/* A message's done(ctx) for a piece buffer: its message has been launched. */
void net_piece_sent(void *piece) { piece_state[((uint32_t)piece - PIECE_AREA) / TOS_PAGE_SIZE] = PIECE_DRAINING; }

static int is_piece(uint32_t a) { return a >= PIECE_AREA && a < PIECE_AREA + PIECES * TOS_PAGE_SIZE; }

static int launch(const struct txmsg *m) {
  while (REG32(TB_NET_STATUS) & TB_NET_STATUS_LAUNCH_BUSY) {
  } /* the previous gather may still read the buffer (1994) or the descriptor */
  uint32_t node = m->dest / TOS_MAX_SLOTS_PER_NODE, slot = m->dest % TOS_MAX_SLOTS_PER_NODE;
  volatile uint32_t *d = (volatile uint32_t *)TB_NET_OUT_DESC;
  d[0] = (node << TB_NET_HEADER_DEST_NODE_SHIFT) | (slot << TB_NET_HEADER_DEST_SLOT_SHIFT) | m->tag;
  for (uint32_t i = 0; i < m->nops; ++i) d[1 + i] = m->ops[i];
  uint32_t pairs = 0;
  if (m->len) {
    uint32_t src = m->data;
    if (!anywhere && !is_piece(src)) {
      memcpy((void *)OUT_AREA, (const void *)m->data, m->len);
      src = OUT_AREA;
    }
    d[1 + m->nops] = src;
    d[2 + m->nops] = m->len;
    pairs = 1;
  }
  REG32(TB_NET_LAUNCH) = (m->nops << TB_NET_LAUNCH_OPERANDS_SHIFT) | (pairs << TB_NET_LAUNCH_PAIRS_SHIFT);
  uint32_t err = REG32(TB_NET_ERROR) & TB_NET_ERROR_CODE;
  if (err == TB_NET_ERROR_CODE_OK) return 1;
  REG32(TB_NET_ERROR) = 0;
  if (err == TB_NET_ERROR_CODE_OUT_FULL) return 0;
  if (err == TB_NET_ERROR_CODE_BAD_DEST && NET_TYPE(m->tag) == NET_CON_SELECT) { /* `console 7` */
    console_no_board(m->dest);
    return 1;
  }
  kprintf("tos: %s: network: message type %u to %u refused by the controller (error %u): dropped\n", board_name,
          NET_TYPE(m->tag), m->dest, err);
  ++net_dropped;
  return 1;
}

/* Send phase: hand queued messages to the controller while it takes them. */
void net_send_phase(void) {
  while (tx_tail != tx_head) {
    struct txmsg *m = &txq[tx_tail];
    if (!launch(m)) return; /* output queue full: later */
    ++net_sent;
    if (m->dest < nboards && link_sent[m->dest] < EV_LINK_COUNT_MASK) ++link_sent[m->dest];
    tx_tail = (tx_tail + 1) % NET_TXQ;
    if (m->len && anywhere && (m->done || frames_held())) /* the gather must have read RAM before */
      while (REG32(TB_NET_STATUS) & TB_NET_STATUS_LAUNCH_BUSY) { /* the owner reuses it */
      }
    if (m->done) m->done(m->ctx);
    if (m->len) frames_release_held();
  }
}

/* From the main loop's send phase (it runs at least once a slice: the timer runs free), not
 * from the timer interrupt: every link sample period, with class links on, one LINK_COUNT per other
 * slave (zeros too: the master sees every sample, and the cost is fixed, four events a
 * second on the Testbed), then the counts start again. Sampled, not event driven: the report
 * found this the one metric cheap enough to collect all the time. */
void net_link_sample(void) {
  static uint32_t last;
  static int on;
  if (!(dgl & DGL_LINKS)) {
    on = 0;
    return;
  }
  uint32_t now_us = uptime_us();
  if (!on) { /* counts from before the class was switched on are not this sample's */
    on = 1;
    last = now_us;
    memset(link_sent, 0, sizeof link_sent);
    return;
  }
  if (now_us - last < TOS_LINK_SAMPLE_US) return;
  last += TOS_LINK_SAMPLE_US;
  if (now_us - last >= TOS_LINK_SAMPLE_US) last = now_us; /* a long stall: no burst of catch-up samples */
  for (uint32_t b = 1; b < nboards && b < 16; ++b) {
    if (b == net_me()) continue;
    EVENT2(DGL_LINKS, EV_LINK_COUNT, (uint16_t)((b << EV_LINK_BOARD_SHIFT) | link_sent[b]));
    link_sent[b] = 0;
  }
}

/* ---- receiving: valid inside a handler, for the message it serves ---- */
static uint32_t rx_nops, rx_len;

uint32_t net_data_len(void) { return rx_len; }

/* Store `len` bytes of the controller's head message (of `nops` operands), from byte `off` of
 * its data, at physical `pa`. */
static void storeback(uint32_t nops, uint32_t off, uint32_t pa, uint32_t len) {
  if (!len) return;
  REG32(TB_NET_SB_ADDR) = anywhere ? pa : IN_AREA;
  REG32(TB_NET_SB_OFFSET) = 4 + 4 * nops + off;
  REG32(TB_NET_SB_LEN) = len;
  REG32(TB_NET_RXCMD) = TB_NET_RXCMD_STOREBACK;
  while (REG32(TB_NET_STATUS) & TB_NET_STATUS_STOREBACK_BUSY) {
  }
  if (!anywhere) memcpy((void *)pa, (const void *)IN_AREA, len);
}

/* ---- network overflow ----
 * A board that waits for room in its network queue (net_queue_wait) while the controller takes
 * nothing is held up by a board whose input queue is full. If that board is waiting the same way
 * for this one (both inside a handler of the receive phase, each queueing replies to the other),
 * neither ever drains its input and both stop for good: seed003's btree did, on 32 boards with a
 * queue of 32. So a waiting board moves the messages that have arrived out of its controller into
 * memory, and the receive phase serves them first, in the order they came. Alewife does the same
 * (seed 003, 4.1.1: a processor whose send queue stays full "too long" takes packets out of the
 * network until it is unclogged); TOS takes one each time its send phase moves nothing, with no
 * timeout to choose. A held message is a chain of frames: the first holds this header and the
 * list of the frames after it, which hold its data. What it says is checked when it is served,
 * as any message's. */
struct held_msg {
  uint32_t next;           /* the next held message's first frame; 0: none */
  uint32_t from, tag, len; /* as the controller gave them */
  uint32_t ops[NET_MAX_OPS];
  uint32_t ndata;
  uint32_t data[];         /* the frames of its data, TOS_PAGE_SIZE bytes each */
};
#define HELD_DATA_MAX ((TOS_PAGE_SIZE - sizeof(struct held_msg)) / 4)
static uint32_t held_first, held_last; /* messages held, oldest first */
static uint32_t held_now, held_frames;
static uint32_t rx_held;         /* the message being served is held: its first frame (else the controller's head) */
static int serving_head, head_moved; /* a handler serves the controller's head; it has been moved into memory */
static int stall_said;
uint32_t net_held, net_held_data, net_held_most, net_held_frames_most, net_hold_stalls;

static uint32_t head_from(void) {
  uint32_t src = REG32(TB_NET_IN_SRC);
  return ((src & TB_NET_IN_SRC_NODE) >> TB_NET_IN_SRC_NODE_SHIFT) * TOS_MAX_SLOTS_PER_NODE +
         ((src & TB_NET_IN_SRC_SLOT) >> TB_NET_IN_SRC_SLOT_SHIFT);
}

static void free_held(uint32_t pa) {
  const struct held_msg *h = (const struct held_msg *)pa;
  held_frames -= 1 + h->ndata;
  for (uint32_t k = 0; k < h->ndata; ++k) frame_free(h->data[k]);
  frame_free(pa);
}

/* The controller's head message copied into frames, then popped: its first frame, or 0 when
 * it cannot be held (the board keeps a quarter of its frames for its processes). */
static uint32_t hold_head(void) {
  uint32_t len = REG32(TB_NET_IN_LEN);
  volatile uint32_t *w = (volatile uint32_t *)TB_NET_IN_WIN;
  uint32_t tag = w[0] & TB_NET_HEADER_TAG, nops = NET_NOPS(tag);
  uint32_t bytes = len >= 4 + 4 * nops ? len - 4 - 4 * nops : 0;
  uint32_t ndata = (bytes + TOS_PAGE_SIZE - 1) / TOS_PAGE_SIZE;
  if (ndata > HELD_DATA_MAX || frames_free() < 1 + ndata + frames_total() / 4) return 0;
  uint32_t pa = frame_alloc();
  struct held_msg *h = (struct held_msg *)pa;
  h->from = head_from();
  h->tag = tag;
  h->len = len;
  for (uint32_t i = 0; i < nops && i < NET_MAX_OPS; ++i) h->ops[i] = w[1 + i];
  for (uint32_t k = 0; k < ndata; ++k) {
    h->data[k] = frame_alloc();
    ++h->ndata;
    uint32_t n = bytes - k * TOS_PAGE_SIZE;
    storeback(nops, k * TOS_PAGE_SIZE, h->data[k], n < TOS_PAGE_SIZE ? n : TOS_PAGE_SIZE);
  }
  REG32(TB_NET_RXCMD) = TB_NET_RXCMD_POP;
  held_frames += 1 + ndata;
  if (held_frames > net_held_frames_most) net_held_frames_most = held_frames;
  ++net_held;
  if (ndata) ++net_held_data;
  return pa;
}

/* One arrived message out of the controller into memory, for a board that waits for the network;
 * 0 when none could be taken. */
static int take_one(void) {
  if (!(REG32(TB_NET_STATUS) & TB_NET_STATUS_INPUT_PENDING)) return 0;
  uint32_t pa = hold_head();
  if (!pa) {
    ++net_hold_stalls;
    if (!stall_said) {
      stall_said = 1;
      kprintf("tos: %s: network: %u messages held in memory and no frame to hold the next one: waiting for the "
              "network\n", board_name, held_now);
    }
    return 0;
  }
  stall_said = 0;
  if (serving_head && !head_moved) { /* the message a handler is serving: its data from memory from now on */
    head_moved = 1;
    rx_held = pa;
  } else {
    if (held_last) ((struct held_msg *)held_last)->next = pa;
    else held_first = pa;
    held_last = pa;
    if (++held_now > net_held_most) net_held_most = held_now;
  }
  kernel_work = 1; /* the receive phase serves what is held */
  return 1;
}

/* Queue a message, waiting for room: the send phase runs until there is, and while the
 * controller takes nothing, arrived messages are held in memory (above). */
void net_queue_wait(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops, uint32_t data, uint32_t len,
                    void (*done)(void *), void *ctx) {
  while (!net_queue(dest, type, ops, nops, data, len, done, ctx)) {
    uint32_t before = tx_tail;
    net_send_phase();
    if (tx_tail == before) take_one();
  }
}
void net_send_wait(uint32_t dest, uint32_t type, const uint32_t *ops, uint32_t nops) {
  net_queue_wait(dest, type, ops, nops, 0, 0, NULL, NULL);
}

int net_input_pending(void) { return held_first || (REG32(TB_NET_STATUS) & TB_NET_STATUS_INPUT_PENDING); }

/* The end of a run: how much was held (nothing when nothing was). */
void net_held_report(void) {
  if (!net_held) return;
  kprintf("tos: %s: network overflow: %u messages held in memory while the network was blocked, %u of them with "
          "data (at most %u waiting, %u frames); %u times no frame to hold one\n", board_name, net_held, net_held_data,
          net_held_most, net_held_frames_most, net_hold_stalls);
}

/* Store `len` bytes of the served message's data, from byte `off` of the data, at physical `pa`. */
void net_take(uint32_t off, uint32_t pa, uint32_t len) {
  if (!rx_held) {
    storeback(rx_nops, off, pa, len);
    return;
  }
  const struct held_msg *h = (const struct held_msg *)rx_held;
  if (off >= rx_len) return;
  if (len > rx_len - off) len = rx_len - off;
  while (len) {
    uint32_t in = off % TOS_PAGE_SIZE, n = TOS_PAGE_SIZE - in;
    if (n > len) n = len;
    memcpy((void *)pa, (const void *)(h->data[off / TOS_PAGE_SIZE] + in), n);
    pa += n;
    off += n;
    len -= n;
  }
}

/* The kernel messages' privilege table (issue #57; the system calls' is tos.toml's
 * "privilege"): who may send a kind of message and to whom, decided here from the sender the
 * network interface names (never a field of the payload) before any handler runs. A handler
 * checks only what needs its own state: that a TID is of a thread on the sender, a region step
 * comes from the board holding the copy. ANY: any other board's kernel. */
enum { ANY, FROM_MASTER, TO_MASTER, FROM_HOME, TO_HOME };
static const uint8_t sender_rule[NET_TYPES] = {
    /* the operator's console and the shutdown are the master's */
    /* (the global scheduler may serve on any board: rex.c checks its messages against its
     * search, its questions and its domain) */
    [NET_CON_SELECT] = FROM_MASTER, [NET_CON_IN] = FROM_MASTER, [NET_HALT] = FROM_MASTER,
    [NET_CON_REQUEST] = TO_MASTER, [NET_CON_OUT] = TO_MASTER, [NET_CON_CREDIT] = TO_MASTER,
    [NET_DONE] = TO_MASTER,
    /* a process's home speaks for it (op 0: its home board): its threads, its end, its
     * barriers, its pages, its image... */
    [NET_CREATE] = FROM_HOME, [NET_KILL] = FROM_HOME, [NET_BAR_RELEASE] = FROM_HOME,
    [NET_BAR_REFUSED] = FROM_HOME, [NET_PMIG_PULL] = FROM_HOME, [NET_PAGE_INVAL] = FROM_HOME,
    [NET_PAGE_FWD] = FROM_HOME, [NET_PAGE_GRANT] = FROM_HOME, [NET_PAGE_DROP] = FROM_HOME,
    /* ... and is the one asked */
    [NET_SBRK] = TO_HOME, [NET_BAR_ARRIVE] = TO_HOME, [NET_PAGE_REQ] = TO_HOME, [NET_PAGE_ACK] = TO_HOME,
    [NET_PAGE_DONE] = TO_HOME, [NET_GUEST_OUT] = TO_HOME,
};
static const char *const rule_broken[] = {
    [FROM_MASTER] = "not from the master, sender",
    [TO_MASTER] = "sent to a board that is not the master, sender",
    [FROM_HOME] = "not from the home of the process it names, home",
    [TO_HOME] = "for a process not homed here, home",
};

/* Does a message of `type` from `from` with first operand op0 keep its rule? */
static int sender_may(uint32_t type, uint32_t from, uint32_t op0) {
  switch (sender_rule[type]) {
    case FROM_MASTER: return from == NET_MASTER;
    case TO_MASTER: return board_master;
    case FROM_HOME: return from == op0;
    case TO_HOME: return op0 == net_me();
    default: return 1;
  }
}

/* A message to its handler, if it is one this board's kernel may take. */
static void serve(uint32_t from, uint32_t tag, uint32_t len, const uint32_t *ops) {
  rx_nops = NET_NOPS(tag);
  rx_len = len >= 4 + 4 * rx_nops ? len - 4 - 4 * rx_nops : 0;
  ++net_received;
  uint32_t type = NET_TYPE(tag);
  net_handler h = type < NET_TYPES ? handlers[type] : NULL;
  if (!h) {
    ++net_unknown;
    net_bad(from, type, "unknown type, operands", rx_nops);
  } else if (rx_nops < needs[type] || rx_nops > NET_MAX_OPS || len < 4 + 4 * rx_nops) {
    net_bad(from, type, "too few operands", rx_nops);
  } else if (from >= nboards || from == net_me()) {
    /* kernels talk only to other boards' kernels: a message from this board is forged */
    net_bad(from, type, from == net_me() ? "sent by this board itself, to" : "from a processor that is no board",
            from);
  } else if (!sender_may(type, from, rx_nops ? ops[0] : 0)) {
    uint32_t rule = sender_rule[type];
    net_bad(from, type, rule_broken[rule], rule == FROM_MASTER || rule == TO_MASTER ? from : ops[0]);
  } else {
    h(from, ops, rx_nops);
  }
}

/* Receive phase: every message held in memory, then every message in the controller's input
 * queue, to its handler, in the order they came. */
void net_receive_phase(void) {
  for (;;) {
    if (held_first) {
      struct held_msg *h = (struct held_msg *)held_first;
      rx_held = held_first;
      held_first = h->next;
      if (!held_first) held_last = 0;
      --held_now;
      serve(h->from, h->tag, h->len, h->ops);
      free_held(rx_held);
      rx_held = 0;
      continue;
    }
    if (!(REG32(TB_NET_STATUS) & TB_NET_STATUS_INPUT_PENDING)) break;
    uint32_t len = REG32(TB_NET_IN_LEN);
    volatile uint32_t *w = (volatile uint32_t *)TB_NET_IN_WIN;
    uint32_t tag = w[0] & TB_NET_HEADER_TAG, ops[NET_MAX_OPS];
    for (uint32_t i = 0; i < NET_NOPS(tag) && i < NET_MAX_OPS; ++i) ops[i] = w[1 + i];
    serving_head = 1;
    head_moved = 0;
    serve(head_from(), tag, len, ops);
    serving_head = 0;
    if (head_moved) { /* taken out of the controller (and popped) while its handler waited */
      free_held(rx_held);
      rx_held = 0;
    } else {
      REG32(TB_NET_RXCMD) = TB_NET_RXCMD_POP;
    }
  }
  REG16(TB_INTC_ENABLE) |= TB_INTC_ENABLE_NET; /* intr() masked it: the queue is empty now */
}

#ifdef TOS_TEST_CALLS
/* net_inject(processor, type, ops, nops): a raw message, for tests of the receivers' checks.
 * The test kernel's only (trap.c): a program of tos.elf cannot speak for its kernel. */
static uint32_t inject_data[TOS_PAGE_SIZE / 4]; /* a forged message's data, kept until it has left */
static uint8_t inject_busy;
static void inject_sent(void *ctx) {
  (void)ctx;
  inject_busy = 0;
}
SYSCALL(net_inject) {
  uint32_t ops[NET_MAX_OPS];
  if (a1 >= nboards || a2 >= NET_TYPES || a4 > NET_MAX_OPS) return -TOS_EINVAL;
  if (a4 && !vm_copyin(t->proc, ops, a3, a4 * 4)) return -TOS_EFAULT;
  if (!a5) return net_queue(a1, a2, ops, a4, 0, 0, NULL, NULL) ? 0 : -TOS_EAGAIN;
  if (inject_busy) return -TOS_EAGAIN;
  USER_BUFFER(t, a5, sizeof inject_data, 0);
  if (!vm_copyin(t->proc, inject_data, a5, sizeof inject_data)) return -TOS_EFAULT;
  if (!net_queue(a1, a2, ops, a4, (uint32_t)inject_data, sizeof inject_data, inject_sent, NULL)) return -TOS_EAGAIN;
  inject_busy = 1;
  return 0;
}
#endif
