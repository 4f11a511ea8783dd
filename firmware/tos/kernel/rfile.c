/* Files between boards: `cp FILE water:FILE` (seed 000 section 2.1.2: "Files may be copied
 * between processor boards by the user"). The sending thread blocks while its buffer goes to
 * the other board over Centrenet: RF_OPEN (size, permissions, name), RF_DATA pieces (offset,
 * then up to a page of data each, straight from the thread's pages), and the other board's
 * RF_DONE (0 or -error) releases it. The receiving board writes the file into its filestore
 * as the pieces arrive; an error there (directory full, store full, file in use) is answered
 * at once and the rest of the transfer is ignored. One transfer per sending board at a time
 * on each side. */
#include "defs.h"

#define NAME_WORDS 7 /* 27 characters and the NUL */

/* ---- sending ---- */
static struct tcb *sender;       /* the thread whose file is on its way */
static uint32_t to, base, total, sent, perm;
static char name[TOS_FS_NAME_LEN];
static int opened;

static void pack_name(uint32_t *ops, const char *n) {
  for (uint32_t i = 0; i < NAME_WORDS; ++i) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < 4; ++k) w = (w << 8) | (uint8_t)n[4 * i + k];
    ops[i] = w;
  }
}

static void unpack_name(const uint32_t *ops, char *n) {
  for (uint32_t i = 0; i < 4 * NAME_WORDS; ++i) n[i] = (char)(ops[i / 4] >> (24 - 8 * (i % 4)));
  n[TOS_FS_NAME_LEN - 1] = 0;
}

/* The transfer stops half-way (the buffer lost a page, the thread was removed): the other board
 * is told by an RF_DATA with a second operand and no data, and removes what it has written. */
#define RF_ABANDONED 1u
static void abandon(void) {
  uint32_t ops[2] = {sent, RF_ABANDONED};
  if (opened && sent < total) net_send_wait(to, NET_RF_DATA, ops, 2);
  sender = NULL;
}

/* Send phase: the next pieces of the file, as the network queue has room. */
void rfile_send_phase(void) {
  if (!sender) return;
  if (!opened) {
    uint32_t ops[2 + NAME_WORDS] = {total, perm};
    pack_name(ops + 2, name);
    if (!net_queue(to, NET_RF_OPEN, ops, 2 + NAME_WORDS, 0, 0, NULL, NULL)) return;
    opened = 1;
  }
  while (sent < total && net_queue_room() > 1) {
    uint32_t va = base + sent, n = TOS_PAGE_SIZE - (va & (TOS_PAGE_SIZE - 1));
    if (n > total - sent) n = total - sent;
    uint32_t pa;
    if (!vm_user_pa(sender->proc, va, 0, &pa)) { /* a page went while the thread waited */
      struct tcb *t = sender;
      abandon();
      finish(t, -TOS_EFAULT);
      return;
    }
    net_queue(to, NET_RF_DATA, &sent, 1, pa, n, NULL, NULL);
    sent += n;
  }
}

static void on_done(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if (!sender || from != to)
    return (void)net_bad(from, NET_RF_DONE, "a file stored that this board did not send there, sender", from);
  struct tcb *t = sender;
  sender = NULL;
  finish(t, (int32_t)ops[0]);
}

/* A thread removed while its file was on the way: the rest is not sent. */
void rfile_forget(struct tcb *t) {
  if (sender == t) abandon();
}

SYSCALL(rput) {
  char n[TOS_FS_NAME_LEN];
  if (a1 == net_me() || a1 >= nboards) return -TOS_EINVAL;
  if (!vm_copyinstr(t->proc, n, a2, sizeof n) || !fs_name_ok(n)) return -TOS_EINVAL;
  if (a4 > TOS_MAX_FS_FILE_BYTES) return -TOS_EFBIG;
  USER_BUFFER(t, a3, a4, 0);
  if (sender) return -TOS_EBUSY;
  memcpy(name, n, sizeof name);
  sender = t;
  to = a1;
  base = a3;
  total = a4;
  perm = a5 & (TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC);
  sent = 0;
  opened = 0;
  t->state = T_REMOTE;
  return 0;
}

/* ---- receiving ---- */
static struct {
  int node;      /* the file being written, or -1 */
  int32_t error; /* answered already: ignore the rest */
  uint32_t size, got, perm;
  char name[TOS_FS_NAME_LEN]; /* to find it again: a program here may remove or shrink it meanwhile */
} in[TOS_MAX_BOARDS];

static void reply(uint32_t dest, int32_t status) {
  uint32_t s = (uint32_t)status;
  net_send_wait(dest, NET_RF_DONE, &s, 1); /* never dropped: the sender waits for it */
}

static void on_open(uint32_t from, const uint32_t *ops, uint32_t nops) {
  char n[TOS_FS_NAME_LEN];
  if (from >= nboards) return;
  /* any board may store a file here (cp FILE BOARD:NAME is every user's), within the limits */
  if (nops < 2 + NAME_WORDS) return (void)net_bad(from, NET_RF_OPEN, "operands", nops);
  unpack_name(ops + 2, n);
  if (!fs_name_ok(n)) return (void)net_bad(from, NET_RF_OPEN, "file name", 0);
  if (ops[0] > TOS_MAX_FS_FILE_BYTES) return (void)net_bad(from, NET_RF_OPEN, "size", ops[0]);
  if (ops[1] & ~(uint32_t)(TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC))
    return (void)net_bad(from, NET_RF_OPEN, "permissions", ops[1]);
  memcpy(in[from].name, n, sizeof n);
  in[from].size = ops[0];
  in[from].perm = ops[1];
  in[from].got = 0;
  in[from].error = 0;
  int node = fs_node(n);
  if (node >= 0 && fs_busy(node)) node = -TOS_EBUSY;
  if (node == -TOS_ENOENT) node = fs_create(n);
  if (node >= 0) {
    int r = fs_resize(node, in[from].size);
    if (r < 0) {
      fs_remove(node);
      node = r;
    }
  }
  in[from].node = node;
  if (node < 0) {
    in[from].error = node;
    reply(from, node);
  } else if (in[from].size == 0) {
    fs_entry(node)->perm = in[from].perm;
    reply(from, 0);
  }
}

static void on_data(uint32_t from, const uint32_t *ops, uint32_t nops) {
  if (from >= nboards) return;
  if (in[from].error) return; /* answered already: the rest of the transfer is ignored */
  if (in[from].node < 0) return (void)net_bad(from, NET_RF_DATA, "data for no file the sender opened, offset", ops[0]);
  if (nops > 1 && ops[1] == RF_ABANDONED) { /* the sender's buffer lost a page, or it was removed */
    kprintf("tos: %s: file %s from %s abandoned by its sender after %u of %u bytes: removed\n", board_name,
            fs_entry(in[from].node)->name, board_name_of(from), in[from].got, in[from].size);
    fs_remove(in[from].node);
    in[from].node = -1;
    return;
  }
  uint32_t n = net_data_len(), off = ops[0];
  if (off > in[from].size || n > in[from].size - off || n > TOS_PAGE_SIZE)
    return (void)net_bad(from, NET_RF_DATA, "offset", off);
  if (fs_node(in[from].name) != in[from].node || off + n > fs_entry(in[from].node)->size) {
    in[from].error = -TOS_ENOENT; /* removed or shrunk here while it came: the transfer fails */
    in[from].node = -1;
    reply(from, -TOS_ENOENT);
    return;
  }
  net_take(0, (uint32_t)fs_bytes(in[from].node) + off, n);
  in[from].got += n;
  if (in[from].got == in[from].size) {
    fs_entry(in[from].node)->perm = in[from].perm;
    in[from].node = -1;
    reply(from, 0);
  }
}

void rfile_init(void) {
  for (uint32_t i = 0; i < TOS_MAX_BOARDS; ++i) in[i].node = -1;
  net_register(NET_RF_OPEN, on_open, 2);
  net_register(NET_RF_DATA, on_data, 1);
  net_register(NET_RF_DONE, on_done, 1);
}
