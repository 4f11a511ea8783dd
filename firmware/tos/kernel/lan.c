/* The master's LAN link (SERIAL1): the host file service (seed 000 section 2.1: "a second
 * serial link to the local area network and hence access to a filestore").
 *
 * The protocol is the host's (hw/board/README.md, hw/board/file_service.h): a request
 *     A5  op  name_len  name  len[4]  data[len]  checksum      op 'G' fetch, 'P' store
 * and its reply
 *     5A  status  len[4]  data[len]  checksum
 * where the checksum is the 8-bit sum of the bytes after the sync byte. Every reply's
 * checksum and status are checked; 5 s without a byte either way ends the call with
 * -ETIMEDOUT instead of hanging.
 *
 * Like the console, the port is interrupt driven: the interrupt moves bytes between the port
 * and two rings, and the main loop (lan_service, receive phase) moves them between the rings
 * and the caller's buffer and follows the protocol. lan_get / lan_put block only the calling
 * thread (T_LAN); callers queue for the link, one transfer at a time. A caller that is killed
 * mid-transfer leaves it to run out: the rest of a 'P' goes as zeros with a wrong checksum, so
 * the host stores nothing, and the reply is read and dropped; the link stays in step. A request
 * that times out before it is all out runs out the same way. */
#include "defs.h"
#include <testbed_board.h> /* TB_FS_REQUEST_SYNC, TB_FS_REPLY_SYNC (file_service_protocol.h) */

#define RING 512                      /* bytes, a power of two */
#define LAN_TIMEOUT_US 5000000u       /* no byte for this long: -ETIMEDOUT */
#define LAN_NAME_MAX 64               /* the host's limit on names */
#define LAN_HOST_MAX (16u << 20)      /* the host's largest file */
enum { ST_OK, ST_NO_FILE, ST_BAD_NAME, ST_BAD_CHECKSUM, ST_IO, ST_TOO_LARGE, ST_BAD_OP, ST_RESERVED }; /* reply status */

/* ---- the port: rings filled and drained by the interrupt ---- */
static volatile uint8_t txr[RING], rxr[RING];
static volatile uint32_t tx_head, tx_tail, rx_head, rx_tail; /* free-running counters */
static volatile uint16_t ctrl;                               /* SERIAL1 CTRL as last written */
static volatile uint32_t moved;                              /* bytes the interrupt moved */

void lan_intr(void) {
  uint16_t st = REG16(TB_SERIAL1_STATUS);
  while ((st & TB_SERIAL1_STATUS_RX_READY) && rx_head - rx_tail < RING) {
    rxr[rx_head & (RING - 1)] = (uint8_t)REG16(TB_SERIAL1_DATA);
    ++rx_head;
    ++moved;
    st = REG16(TB_SERIAL1_STATUS);
  }
  if (st & TB_SERIAL1_STATUS_RX_READY) ctrl &= (uint16_t)~TB_SERIAL1_CTRL_RX_IRQ; /* ring full: flow control holds the host */
  while (tx_head != tx_tail && (st & TB_SERIAL1_STATUS_TX_READY)) {
    REG16(TB_SERIAL1_DATA) = txr[tx_tail & (RING - 1)];
    ++tx_tail;
    ++moved;
    st = REG16(TB_SERIAL1_STATUS);
  }
  if (tx_head == tx_tail) ctrl &= (uint16_t)~TB_SERIAL1_CTRL_TX_IRQ;
  REG16(TB_SERIAL1_CTRL) = ctrl;
  kernel_work = 1;
}

static void set_ctrl(uint16_t on) {
  uint16_t sr = splhigh();
  ctrl |= on;
  REG16(TB_SERIAL1_CTRL) = ctrl;
  splx(sr);
}

static void flush_rings(void) {
  uint16_t sr = splhigh();
  rx_tail = rx_head;
  tx_head = tx_tail;
  ctrl = TB_SERIAL1_CTRL_RX_IRQ;
  REG16(TB_SERIAL1_CTRL) = ctrl;
  splx(sr);
}

/* ---- the transfer in progress ---- */
enum phase { X_IDLE, X_HEAD, X_DATA, X_SUM, X_SYNC, X_STATUS, X_LEN, X_RDATA, X_RSUM };
static struct {
  uint8_t phase;
  uint8_t op;              /* 'G' or 'P' */
  uint8_t flags;           /* TOS_LAN_* */
  uint8_t sum;             /* request checksum so far */
  struct tcb *t;           /* the caller; NULL once it has gone */
  uint32_t buf, len, pos;  /* the caller's buffer, its length (P) or room (G), bytes moved */
  uint8_t head[1 + 1 + 1 + LAN_NAME_MAX + 4];
  uint32_t head_len, head_pos;
  uint8_t chunk[64];       /* user bytes on their way to the ring (P) or the caller (G) */
  uint32_t chunk_len, chunk_pos;
  uint8_t status, rsum;    /* the reply */
  uint32_t rlen, rlen_bytes, rpos;
  uint32_t last_us, last_moved; /* the time of the last byte */
  char name[LAN_NAME_MAX + 1];
} x;
static struct tcb *queue_head, *queue_tail; /* callers waiting for the link, the next first */

void lan_init(void) {
  if (!board_master) return;
  (void)REG16(TB_SERIAL1_DATA); /* a stale character */
  flush_rings();
}

static int valid_name(const char *n) {
  if (!n[0] || n[0] == '.') return 0;
  for (const char *c = n; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
          *c == '_' || *c == '-'))
      return 0;
  return 1;
}

/* Copy the caller's file name (user address `va`, LAN_NAME_MAX characters at most): 0, or -error. */
static int32_t copy_name(struct tcb *t, uint32_t va, char *name) {
  if (!vm_copyinstr(t->proc, name, va, LAN_NAME_MAX + 1))
    return vm_mapped(t->proc, va, 0) ? -TOS_EINVAL : -TOS_EFAULT; /* too long, or not mapped */
  return valid_name(name) ? 0 : -TOS_EINVAL;
}

static void start_next(void);

/* The transfer is over: the caller (if still there) gets `result`, the next caller starts. */
static void complete(int32_t result) {
  if (x.t) finish(x.t, result);
  x.t = NULL;
  x.phase = X_IDLE;
  start_next();
}

static void fail_io(const char *why) {
  kprintf("tos: %s: lan: %c %s: %s\n", board_name, x.op, x.name, why);
  complete(-TOS_EIO);
}

static void start_next(void) {
  while (queue_head && x.phase == X_IDLE) {
    struct tcb *t = queue_head;
    queue_head = t->next;
    if (!queue_head) queue_tail = NULL;
    t->next = NULL;
    x.t = t;
    x.op = (uint8_t)t->op_chan;
    x.flags = (uint8_t)(t->op_chan >> 8);
    x.buf = t->op_buf;
    x.len = t->op_len;
    x.pos = 0;
    int32_t rc = copy_name(t, t->op_total, x.name); /* checked at the call; read again now */
    if (rc < 0) {
      x.t = NULL;
      finish(t, rc);
      continue;
    }
    uint32_t n = strlen(x.name), len = x.op == 'P' ? x.len : 0, k = 0;
    x.head[k++] = TB_FS_REQUEST_SYNC;
    x.head[k++] = x.op;
    x.head[k++] = (uint8_t)n;
    memcpy(&x.head[k], x.name, n);
    k += n;
    for (int i = 3; i >= 0; --i) x.head[k++] = (uint8_t)(len >> (8 * i));
    x.head_len = k;
    x.head_pos = 0;
    x.sum = 0;
    x.chunk_len = x.chunk_pos = 0;
    x.last_us = uptime_us();
    x.last_moved = moved;
    flush_rings(); /* whatever came before this request is stale */
    x.phase = X_HEAD;
  }
}

/* Request bytes into the transmit ring while there is room; 1 if any went. */
static int pump_tx(void) {
  int any = 0;
  while (x.phase >= X_HEAD && x.phase <= X_SUM && tx_head - tx_tail < RING) {
    uint8_t b;
    if (x.phase == X_HEAD) {
      b = x.head[x.head_pos++];
      if (x.head_pos > 1) x.sum = (uint8_t)(x.sum + b);
      if (x.head_pos == x.head_len) x.phase = x.op == 'P' && x.len ? X_DATA : X_SUM;
    } else if (x.phase == X_DATA) {
      if ((x.flags & TOS_LAN_STALL) && x.t) break; /* the test of the time-out: the data waits */
      if (x.chunk_pos == x.chunk_len) {
        uint32_t n = x.len - x.pos < sizeof x.chunk ? x.len - x.pos : sizeof x.chunk;
        if (x.t && !vm_copyin(x.t->proc, x.chunk, x.buf + x.pos, n)) { /* its page went while it waited */
          finish(x.t, -TOS_EFAULT);
          x.t = NULL; /* the rest goes as a caller that has gone: a spoilt checksum, the host stores nothing */
        }
        if (!x.t) memset(x.chunk, 0, n);
        x.chunk_len = n;
        x.chunk_pos = 0;
      }
      b = x.chunk[x.chunk_pos++];
      x.sum = (uint8_t)(x.sum + b);
      if (++x.pos == x.len) x.phase = X_SUM;
    } else { /* a caller that has gone, or the test flag, spoils the checksum: the host stores nothing */
      b = (uint8_t)(x.sum + ((x.flags & TOS_LAN_BAD_CHECKSUM) || !x.t ? 1 : 0));
      x.phase = X_SYNC;
    }
    txr[tx_head & (RING - 1)] = b;
    ++tx_head;
    any = 1;
  }
  if (any) set_ctrl(TB_SERIAL1_CTRL_TX_IRQ);
  return any;
}

/* Received file bytes on to the caller. */
static void flush_chunk(void) {
  if (x.chunk_len && x.t && !vm_copyout(x.t->proc, x.buf + x.pos, x.chunk, x.chunk_len)) {
    finish(x.t, -TOS_EFAULT); /* its page went while it waited: the rest is read and dropped */
    x.t = NULL;
  }
  x.pos += x.chunk_len;
  x.chunk_len = 0;
}

static void reply_done(void) {
  switch (x.status) {
    case ST_OK:
      if (x.op == 'P') complete(0);
      else complete(x.rlen > x.len ? -TOS_EFBIG : (int32_t)x.rlen);
      return;
    case ST_NO_FILE: complete(-TOS_ENOENT); return;
    case ST_BAD_NAME: complete(-TOS_EINVAL); return;
    case ST_RESERVED: complete(-TOS_EPERM); return; /* a name of the host's own results */
    case ST_TOO_LARGE: complete(-TOS_EFBIG); return;
    case ST_BAD_CHECKSUM:
      if (!x.t || (x.flags & TOS_LAN_BAD_CHECKSUM)) complete(-TOS_EIO); /* as meant */
      else fail_io("the host received a corrupt request (bad checksum)");
      return;
    case ST_IO: fail_io("the host could not read or write the file"); return;
    default: fail_io("the host refused the request (unknown operation)"); return;
  }
}

/* Reply bytes out of the receive ring; 1 if any came. */
static int pump_rx(void) {
  int any = 0;
  while (rx_tail != rx_head) {
    uint8_t b = rxr[rx_tail & (RING - 1)];
    ++rx_tail;
    any = 1;
    switch (x.phase) {
      case X_SYNC:
        if (b == TB_FS_REPLY_SYNC) {
          x.phase = X_STATUS;
          x.rsum = 0;
        }
        break; /* anything before the sync byte is skipped */
      case X_STATUS:
        x.status = b;
        x.rsum = b;
        x.rlen = x.rlen_bytes = 0;
        x.phase = X_LEN;
        break;
      case X_LEN:
        x.rsum = (uint8_t)(x.rsum + b);
        x.rlen = x.rlen << 8 | b;
        if (++x.rlen_bytes < 4) break;
        if (x.rlen > LAN_HOST_MAX || (x.status != ST_OK && x.rlen)) {
          fail_io("corrupt reply (impossible length)");
          return 1;
        }
        x.rpos = 0;
        x.chunk_len = 0;
        x.phase = x.rlen ? X_RDATA : X_RSUM;
        break;
      case X_RDATA:
        x.rsum = (uint8_t)(x.rsum + b);
        if (x.op == 'G' && x.rpos < x.len) {
          x.chunk[x.chunk_len++] = b;
          if (x.chunk_len == sizeof x.chunk) flush_chunk();
        }
        if (++x.rpos == x.rlen) {
          flush_chunk();
          x.phase = X_RSUM;
        }
        break;
      case X_RSUM:
        if (b != x.rsum) fail_io("corrupt reply (bad checksum)");
        else reply_done();
        return 1; /* the next transfer starts on a clean ring */
      default:
        break; /* not waiting for a reply: a stray byte */
    }
  }
  if (!(ctrl & TB_SERIAL1_CTRL_RX_IRQ)) set_ctrl(TB_SERIAL1_CTRL_RX_IRQ);
  return any;
}

/* Main loop (receive phase): move the transfer on, or time it out. */
void lan_service(void) {
  if (!board_master) return;
  if (x.phase == X_IDLE) {
    rx_tail = rx_head; /* nobody is listening */
    if (!(ctrl & TB_SERIAL1_CTRL_RX_IRQ)) set_ctrl(TB_SERIAL1_CTRL_RX_IRQ);
    start_next();
    if (x.phase == X_IDLE) return;
  }
  int progress = pump_rx();
  progress |= pump_tx();
  if (moved != x.last_moved) {
    x.last_moved = moved;
    progress = 1;
  }
  uint32_t now = uptime_us();
  if (progress) {
    x.last_us = now;
  } else if (x.phase != X_IDLE && now - x.last_us >= LAN_TIMEOUT_US) {
    kprintf("tos: %s: lan: %c %s: no answer from the host for 5 s\n", board_name, x.op, x.name);
    if (x.t && x.phase <= X_SUM) { /* the request is not all out: it runs out spoiled, as for a */
      finish(x.t, -TOS_ETIMEDOUT);  /* caller that has gone, so that a living host stays in step */
      x.t = NULL;
      x.last_us = now;
      return;
    }
    flush_rings();
    complete(-TOS_ETIMEDOUT);
  }
}

/* A thread blocked on the link is being removed (its process was killed). */
void lan_forget(struct tcb *t) {
  if (x.t == t) {
    x.t = NULL; /* the transfer runs out without it */
    return;
  }
  struct tcb **pp = &queue_head, *prev = NULL;
  while (*pp) {
    if (*pp == t) {
      *pp = t->next;
      if (queue_tail == t) queue_tail = prev;
      return;
    }
    prev = *pp;
    pp = &(*pp)->next;
  }
}

/* lan_get / lan_put: check the arguments, queue the caller, block it. */
static int32_t request(struct tcb *t, uint8_t op, uint32_t name, uint32_t buf, uint32_t len, uint32_t flags) {
  if (!board_master) return -TOS_ENODEV;
  char checked[LAN_NAME_MAX + 1];
  int32_t rc = copy_name(t, name, checked);
  if (rc < 0) return rc;
  if ((int32_t)len < 0 || (flags & ~(uint32_t)(TOS_LAN_BAD_CHECKSUM | TOS_LAN_STALL))) return -TOS_EINVAL;
  if (op == 'P' && len > LAN_HOST_MAX) return -TOS_EFBIG;
  USER_BUFFER(t, buf, len, op == 'G');
  t->op_buf = buf;
  t->op_len = len;
  t->op_total = name;
  t->op_chan = (int32_t)(op | flags << 8);
  t->state = T_LAN;
  t->next = NULL;
  if (queue_tail) queue_tail->next = t; else queue_head = t;
  queue_tail = t;
  start_next();
  pump_tx();
  return 0;
}

SYSCALL(lan_get) { return request(t, 'G', a1, a2, a3, 0); }
SYSCALL(lan_put) { return request(t, 'P', a1, a2, a3, a4); }
