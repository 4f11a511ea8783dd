/* Hardware demonstration for the Testbed's default run (until TOS boots on it).
 *
 * One image for all six boards; BOARDID tells each what it is.
 *  - Slaves (earth..space) pass messages round a ring over Centrenet, as TOS's remote channel
 *    protocol would: each round a slave copies a payload into its controller's buffer (1994:
 *    the DMA reaches only that buffer), launches a descriptor whose DMA pair gathers it, then
 *    waits for the message from its ring predecessor, stores it back into its buffer, copies it
 *    out and checks it. Every step writes an event to the board's SMI with one store
 *    (send_event), as TOS's instrumentation did. Then it waits for its SMI to drain and tells
 *    the master it is done.
 *  - The master drains the MMI into RAM the whole time, and once all slaves are done and the
 *    monitor is quiet, sends the raw word stream over its LAN link to the host's file service as
 *    "monitor.raw", and prints a summary on its console.
 */
#include <testbed_board.h>
#include <testbed/events.h>

#ifndef DEMO_SLAVES
#define DEMO_SLAVES 5
#endif
#ifndef DEMO_ROUNDS
#define DEMO_ROUNDS 40
#endif
#define PAYLOAD_WORDS 16 /* 64 bytes of data per message */
#define TAG_RING 0x0001
#define TAG_DONE 0x0D0E

/* Word i of the output descriptor, of the input window, of the controller's buffer memory. */
static inline void net_out(unsigned i, unsigned long v) { TB_REG32(TB_NET_OUT_DESC + 4 * i) = v; }
static inline unsigned long net_in(unsigned i) { return TB_REG32(TB_NET_IN_WIN + 4 * i); }
static volatile unsigned long *const net_buf = (volatile unsigned long *)TB_NET_BUFFER;

static inline void send_event(unsigned short n) { TB_REG16(TB_MON_SMI_EVENT) = n; }

static unsigned short my_id(void) { return TB_REG16(TB_BOARDID_ID); }

/* Launch a message with one operand and, if words > 0, one DMA pair gathering `words` long
 * words from board address `addr`. Retries while the output queue is full. */
static void net_send(unsigned node, unsigned slot, unsigned tag, unsigned long operand,
                     unsigned long addr, unsigned words) {
  for (;;) {
    net_out(0, ((unsigned long)node << TB_NET_HEADER_DEST_NODE_SHIFT) |
                   ((unsigned long)slot << TB_NET_HEADER_DEST_SLOT_SHIFT) | tag);
    net_out(1, operand);
    if (words) {
      net_out(2, addr);
      net_out(3, (unsigned long)words * 4);
    }
    TB_REG32(TB_NET_LAUNCH) = (1ul << TB_NET_LAUNCH_OPERANDS_SHIFT) | ((words ? 1ul : 0ul) << TB_NET_LAUNCH_PAIRS_SHIFT);
    unsigned long err = TB_REG32(TB_NET_ERROR);
    if (err == TB_NET_ERROR_CODE_OK) return;
    if (err != TB_NET_ERROR_CODE_OUT_FULL) {
      tb_puts("net_send: launch error ");
      tb_putdec(err);
      tb_putc('\n');
      tb_exit(0x300 + err);
    }
    TB_REG32(TB_NET_ERROR) = 0; /* any write clears it */
  }
}

static int net_pending(void) { return (TB_REG32(TB_NET_STATUS) & TB_NET_STATUS_INPUT_PENDING) != 0; }

static unsigned long payload_word(unsigned from, unsigned round, unsigned i) {
  return ((unsigned long)from << 24) ^ ((unsigned long)round << 12) ^ (i * 0x9E37ul);
}

static unsigned long ram_payload[PAYLOAD_WORDS];
static unsigned long ram_received[PAYLOAD_WORDS];

static void slave(unsigned id) {
  unsigned next = id % DEMO_SLAVES + 1;
  unsigned prev = (id + DEMO_SLAVES - 2) % DEMO_SLAVES + 1;
  unsigned long out_off = 0, in_off = 0x1000; /* buffer areas for sending and receiving */
  /* 1994: DMA reaches only the controller's buffer, so messages are copied in and out (as TOS
   * did). dma-anywhere (the upgrade of the report's section 3.4): DMA straight from and to RAM. */
  int anywhere = TB_REG32(TB_NET_MODE) == TB_NET_MODE_ANYWHERE;
  unsigned long src_addr = anywhere ? (unsigned long)ram_payload : TB_NET_BUFFER + out_off;
  unsigned long dst_addr = anywhere ? (unsigned long)ram_received : TB_NET_BUFFER + in_off;
  unsigned round, i;
  tb_puts("slave ");
  tb_putdec(id);
  tb_puts(": ring to ");
  tb_putdec(next);
  tb_puts(anywhere ? ", DMA to and from RAM\n" : ", copying through the controller buffer\n");
  for (round = 0; round < DEMO_ROUNDS; ++round) {
    send_event(EV_SCHEDULE_BIT | (id << 8) | 1); /* thread 1 of this board is scheduled */
    for (i = 0; i < PAYLOAD_WORDS; ++i) ram_payload[i] = payload_word(id, round, i);
    send_event(EV_TRAP7);                /* the thread asks to communicate */
    if (!anywhere)
      for (i = 0; i < PAYLOAD_WORDS; ++i) net_buf[out_off / 4 + i] = ram_payload[i]; /* copy in */
    net_send(0, next, TAG_RING, round, src_addr, PAYLOAD_WORDS);
    send_event(EV_COMMS);                /* sender returned to the ready queue */
    while (!net_pending()) {
    }
    send_event(EV_RX_MPC);               /* servicing a message from Centrenet */
    unsigned long src = TB_REG32(TB_NET_IN_SRC);
    unsigned long got_round = net_in(1);
    TB_REG32(TB_NET_SB_ADDR) = dst_addr;
    TB_REG32(TB_NET_SB_OFFSET) = 8;      /* skip the header and the one operand */
    TB_REG32(TB_NET_SB_LEN) = PAYLOAD_WORDS * 4;
    TB_REG32(TB_NET_RXCMD) = TB_NET_RXCMD_STOREBACK_POP;
    while (TB_REG32(TB_NET_STATUS) & TB_NET_STATUS_STOREBACK_BUSY) {
    }
    if (!anywhere)
      for (i = 0; i < PAYLOAD_WORDS; ++i) ram_received[i] = net_buf[in_off / 4 + i]; /* copy out */
    for (i = 0; i < PAYLOAD_WORDS; ++i)
      if (ram_received[i] != payload_word(prev, round, i) || TB_FIELD_GET(src, TB_NET_IN_SRC_SLOT) != prev || got_round != round) {
        tb_puts("slave: corrupt message in round ");
        tb_putdec(round);
        tb_putc('\n');
        tb_exit(0x400 + round);
      }
    send_event(EV_COMMR);                /* receiver returned to the ready queue */
    send_event(EV_SCHEDULE_BIT | (id << 8) | 1);
  }
  /* Wait until the MMI has taken every event of this board, then report to the master. */
  while (TB_REG16(TB_MON_SMI_LEVEL) != 0) {
  }
  net_send(0, 0, TAG_DONE, TB_REG32(TB_MON_SMI_LOST), 0, 0);
  tb_puts("slave ");
  tb_putdec(id);
  tb_puts(": done\n");
}

#define RAW_MAX (64 * 1024)
static unsigned long raw[RAW_MAX];
static unsigned long raw_count, raw_dropped;

static void drain_mmi(void) {
  for (;;) {
    unsigned long w = TB_REG32(TB_MON_MMI_DATA_HI);
    if (w & ((unsigned long)TB_MON_MMI_DATA_HI_EMPTY << 16)) return; /* DATA_HI in the high word */
    if (raw_count < RAW_MAX) raw[raw_count++] = w;
    else ++raw_dropped;
  }
}

static unsigned char fs_sum;
static void link_put(unsigned char c) {
  fs_sum += c;
  tb_serial_putc(TB_SERIAL1_BASE, (char)c);
}

/* Host file service 'P' (put): store `len` bytes as `name` in the host's output folder. */
static int put_file(const char *name, const unsigned char *data, unsigned long len) {
  unsigned long i, n = 0;
  while (name[n]) ++n;
  tb_serial_putc(TB_SERIAL1_BASE, (char)TB_FS_REQUEST_SYNC);
  fs_sum = 0;
  link_put('P');
  link_put((unsigned char)n);
  for (i = 0; i < n; ++i) link_put((unsigned char)name[i]);
  for (i = 0; i < 4; ++i) link_put((unsigned char)(len >> (24 - 8 * i)));
  for (i = 0; i < len; ++i) link_put(data[i]);
  tb_serial_putc(TB_SERIAL1_BASE, (char)fs_sum);
  while (tb_serial_getc(TB_SERIAL1_BASE) != TB_FS_REPLY_SYNC) {
  }
  int status = tb_serial_getc(TB_SERIAL1_BASE);
  unsigned long rlen = 0;
  for (i = 0; i < 4; ++i) rlen = (rlen << 8) | (unsigned long)tb_serial_getc(TB_SERIAL1_BASE);
  for (i = 0; i < rlen + 1; ++i) (void)tb_serial_getc(TB_SERIAL1_BASE); /* data and checksum */
  return status;
}

static void master(void) {
  unsigned done = 0;
  unsigned long lost = 0;
  tb_puts("master: draining the MMI while ");
  tb_putdec(DEMO_SLAVES);
  tb_puts(" slaves pass ");
  tb_putdec(DEMO_ROUNDS);
  tb_puts(" messages each round the ring\n");
  while (done < DEMO_SLAVES) {
    drain_mmi();
    if (net_pending()) {
      if ((net_in(0) & TB_NET_HEADER_TAG) == TAG_DONE) {
        ++done;
        lost += net_in(1);
      }
      TB_REG32(TB_NET_RXCMD) = TB_NET_RXCMD_POP;
    }
  }
  /* Every slave's SMI was empty when it reported, but its last pair may still be on the
   * monitoring bus: wait until the MMI has stayed empty for a millisecond. */
  unsigned long quiet_since = tb_rtc_usec();
  while (tb_rtc_usec() - quiet_since < 1000) {
    unsigned long before = raw_count;
    drain_mmi();
    if (raw_count != before) quiet_since = tb_rtc_usec();
  }
  tb_puts("master: all slaves done; ");
  tb_putdec(raw_count);
  tb_puts(" MMI words collected, ");
  tb_putdec(lost);
  tb_puts(" events lost at the SMIs, ");
  tb_putdec(raw_dropped);
  tb_puts(" words dropped for want of RAM\n");
  tb_puts("master: sending monitor.raw over the LAN link\n");
  int st = put_file("monitor.raw", (const unsigned char *)raw, raw_count * 4);
  if (st != 0) {
    tb_puts("master: file service answered status ");
    tb_putdec((unsigned long)st);
    tb_putc('\n');
    tb_exit(0x500 + (unsigned long)st);
  }
  tb_puts("master: done\n");
  if (raw_dropped) tb_exit(0x600);
}

/* Returning 0 from main is success (crt0 writes 1 to SIMCTL EXIT); tb_exit(code) with any
 * other code is a failure the simulator reports. */
int main(void) {
  unsigned id = my_id();
  if (TB_REG16(TB_BOARDID_ROLE)) master();
  else if (TB_REG16(TB_BOARDID_NODE) == 0 && id >= 1 && id <= DEMO_SLAVES) slave(id);
  else tb_puts("demo: no part for this board\n");
  return 0;
}
