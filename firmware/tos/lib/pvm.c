/* The PVM-style task layer (include/tos/pvm.h; seed 001). A message on the wire (one channel
 * transfer): six words of header -- magic, source tid, destination tid, tag, body bytes, the
 * pair's sequence number -- then the body, typed items each a word (type << 24 | count) and the
 * elements, padded to a word. The header is the layer's own and is believed of nothing: the
 * channel it came on names the only task that can have sent it, and every field is checked
 * against that before the message is used. */
#include <stdlib.h>
#include <string.h>
#include <tos/pvm.h>
#include <tos/tos.h>

#define MAGIC 0x50564D31ul /* "PVM1" */
#define HDR 6
#define HBYTES (HDR * 4)
enum { T_BYTE = 1, T_SHORT, T_INT, T_LONG, T_FLOAT, T_DOUBLE, T_STR };

/* A task's state and buffers are one block of whole pages, allocated by the thread that makes
 * the task, on the job's home board, before the task runs (a thread on another board cannot
 * grow the heap: its new pages would be on no board; nor can a job moved whole). Only the task
 * writes its block, so its pages move to its board once and stay there: the threads of a job
 * share one address space page by page (kernel/pages.c), and state of two tasks on one page
 * would travel between their boards with every message. */
struct task {
  void *raw; /* what malloc gave */
  volatile uint32_t crit __attribute__((aligned(4))); /* critical-section depth: the kernel reads it (pmig_critical) */
  int slen; /* body bytes packed */
  int rlen, rpos, rtag, rsrc, have;
  int nstash, sused; /* messages kept for a later pvm_recv of their tag, back to back in sarea */
  int fixed;         /* PvmRouteFixed: sends go without the routing table (the plain baseline) */
  struct { int off, len; } st[PVM_STASH];
  uint32_t seq_out[PVM_MAX_TASKS], seq_in[PVM_MAX_TASKS];
  unsigned long refused[PVM_R_N];
  unsigned char said[PVM_R_N];
  char sbuf[HBYTES + PVM_MAX_BYTES] __attribute__((aligned(4)));
  char rbuf[HBYTES + PVM_MAX_BYTES + 4] __attribute__((aligned(4))); /* a word longer: an oversized message shows */
  char sarea[PVM_STASH_BYTES] __attribute__((aligned(4)));
};
/* What every call reads, on a page of its own that is written only as tasks start: every board
 * keeps a read copy of it (a variable of someone else's on the page would take the copies away
 * at each write). */
static struct {
  int job_base;                     /* the job's tids without the slot */
  int by_stack;                     /* myslot() may trust the stack pointer */
  struct task *tp[PVM_MAX_TASKS];   /* each written once, by its task, before it runs */
  char pad[TOS_PAGE_SIZE - 8 - 4 * PVM_MAX_TASKS];
} g __attribute__((aligned(TOS_PAGE_SIZE))) = {-1, 0, {0}, {0}};
#define by_stack g.by_stack
#define job_base g.job_base
#define tp g.tp
static const char *const reasons[PVM_R_N] = {"shorter than a header", "bad magic", "source tid not the channel's",
                                              "destination tid not the receiver", "length not the bytes received",
                                              "tag outside 0..PVM_TAG_MAX", "sequence number out of order",
                                              "no room to keep it for a later receive", "unpacked as the wrong type or past its end"};

/* The layer's copies. newlib's memcpy is built for size (a byte at a time, several microseconds
 * a byte on the 68010: two copies of a 4 KB message cost more than its channel transfer); this
 * moves long words when both ends are even (all the 68010 asks). */
static void copy(void *dst, const void *src, long n) {
  char *d = dst;
  const char *s = src;
  if (!(((uintptr_t)d | (uintptr_t)s) & 1)) {
    uint32_t *dl = (uint32_t *)(void *)d;
    const uint32_t *sl = (const uint32_t *)(const void *)s;
    for (; n >= 16; n -= 16) {
      dl[0] = sl[0];
      dl[1] = sl[1];
      dl[2] = sl[2];
      dl[3] = sl[3];
      dl += 4;
      sl += 4;
    }
    for (; n >= 4; n -= 4) *dl++ = *sl++;
    d = (char *)dl;
    s = (const char *)sl;
  }
  while (n-- > 0) *d++ = *s++;
}

const char *pvm_reason(int r) { return r >= 0 && r < PVM_R_N ? reasons[r] : "?"; }
unsigned long pvm_refused(int r) {
  unsigned long n = 0;
  for (int i = 0; i < PVM_MAX_TASKS; ++i)
    if (r >= 0 && r < PVM_R_N && tp[i]) n += tp[i]->refused[r];
  return n;
}

static struct task *self(void);

static void refuse(int r, int me, int from) {
  struct task *t = self();
  ++t->refused[r];
  if (!t->said[r]) { /* once per reason and task: the counts are the record */
    t->said[r] = 1;
    printf("pvm: task %x refused a message on the channel from %x: %s\n", me, from, reasons[r]);
  }
}

/* The caller's thread slot, from where its stack is (slot n's stack is the n-th window above
 * TOS_STACK_BASE: tos.toml's layout), with no system call; pvm_init checks it against gettid()
 * and, should the layout ever differ, every call asks the kernel instead. */
static int myslot(void) {
  char here;
  uintptr_t a = (uintptr_t)&here;
  if (by_stack && a >= TOS_STACK_BASE) return (int)((a - TOS_STACK_BASE) / TOS_STACK_WINDOW);
  return gettid() & 63;
}
static int mytid(void) { return job_base | myslot(); }

static struct task *alloc(void) {
  char *raw = malloc(sizeof(struct task) + 2 * TOS_PAGE_SIZE);
  if (!raw) return NULL;
  struct task *t = (struct task *)(((uintptr_t)raw + TOS_PAGE_SIZE - 1) & ~(uintptr_t)(TOS_PAGE_SIZE - 1)); /* its own pages */
  memset(t, 0, sizeof *t);
  t->raw = raw;
  return t;
}

int pvm_init(void) {
  int slot = gettid() & 63;
  if (slot >= PVM_MAX_TASKS) return PvmSysErr;
  job_base = gettid() & ~63;
  by_stack = 1;
  if (myslot() != slot) by_stack = 0;
  if (!tp[slot] && !(tp[slot] = alloc())) return PvmNoMem;
  tp[slot]->crit = 0; /* (written first: its page is here and writable when the kernel is told) */
  pmig_critical((uint32_t *)&tp[slot]->crit);
  return gettid();
}

int pvm_mytid(void) { return gettid(); }

int pvm_setopt(int what, int val) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  if (what != PvmRoute || (val != PvmRouteTable && val != PvmRouteFixed)) return PvmBadParam;
  int old = t->fixed ? PvmRouteFixed : PvmRouteTable;
  t->fixed = val == PvmRouteFixed;
  return old;
}

static struct task *self(void) {
  int slot = myslot();
  return job_base < 0 || slot >= PVM_MAX_TASKS ? NULL : tp[slot];
}

/* a tid of this job's tasks: its slot, or -1 */
static int slot_of(int tid) {
  if (job_base < 0 || (tid & ~63) != job_base || (tid & 63) >= PVM_MAX_TASKS) return -1;
  return tid & 63;
}

/* a new task in slot `slot`: the spawner's sequence to it starts again (others' restart from
 * the receiver's side: check()) */
static void tasks_seq_reset(int slot) {
  struct task *t = self();
  if (t) t->seq_out[slot] = 0;
}

struct start {
  void (*entry)(void *);
  void *arg;
  struct task *t;
};

/* the new task's first code: its block, its entry, then exit 0 (a thread's exit code is
 * otherwise whatever its entry left in d0); a slot past the layer's channels ends at once (its
 * spawner has said PvmNoMem) */
static void trampoline(void *p) {
  struct start *s = p;
  int slot = gettid() & 63;
  if (slot >= PVM_MAX_TASKS) exit(0);
  tp[slot] = s->t;
  s->t->crit = 0; /* (written first: a task started on another board takes its block's page here) */
  pmig_critical((uint32_t *)&s->t->crit);
  s->entry(s->arg);
  exit(0);
}

int pvm_spawn(void (*entry)(void *), void *arg, int board, int stack_pages) {
  if (job_base < 0 || !entry) return PvmBadParam;
  struct start *s = malloc(sizeof *s);
  if (!s) return PvmNoMem;
  if (!(s->t = alloc())) {
    free(s);
    return PvmNoMem;
  }
  s->entry = entry;
  s->arg = arg;
  int tid = create(0, stack_pages, board, trampoline, s);
  if (tid <= 0) {
    free(s->t->raw);
    free(s);
    return PvmSysErr;
  }
  if (slot_of(tid) < 0) return PvmNoMem;
  tasks_seq_reset(tid & 63);
  return tid; /* the start record stays the task's: it may not have read it yet */
}

int pvm_initsend(void) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  t->slen = 0;
  return 0;
}

static int pk(int type, int size, const void *p, int n, int stride) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  if (n < 0 || n >= (1 << 24) || stride < 1 || (n > 0 && !p)) return PvmBadParam;
  long bytes = (long)n * size, padded = (bytes + 3) & ~3l;
  if (padded + 4 > PVM_MAX_BYTES - t->slen) return PvmNoMem;
  char *d = t->sbuf + HBYTES + t->slen;
  uint32_t w = (uint32_t)type << 24 | (uint32_t)n;
  copy(d, &w, 4);
  if (stride == 1) copy(d + 4, p, bytes);
  else
    for (int i = 0; i < n; ++i) memcpy(d + 4 + (long)i * size, (const char *)p + (long)i * stride * size, (size_t)size);
  memset(d + 4 + bytes, 0, (size_t)(padded - bytes));
  t->slen += (int)(4 + padded);
  return 0;
}

int pvm_pkbyte(const char *p, int n, int s) { return pk(T_BYTE, 1, p, n, s); }
int pvm_pkshort(const short *p, int n, int s) { return pk(T_SHORT, 2, p, n, s); }
int pvm_pkint(const int *p, int n, int s) { return pk(T_INT, 4, p, n, s); }
int pvm_pklong(const long *p, int n, int s) { return pk(T_LONG, 4, p, n, s); }
int pvm_pkfloat(const float *p, int n, int s) { return pk(T_FLOAT, 4, p, n, s); }
int pvm_pkdouble(const double *p, int n, int s) { return pk(T_DOUBLE, 8, p, n, s); }
int pvm_pkstr(const char *s) { return s ? pk(T_STR, 1, s, (int)strlen(s) + 1, 1) : PvmBadParam; }

static int chan(int from, int to) { return PVM_CHAN_BASE + from * PVM_MAX_TASKS + to; }

int pvm_critical_begin(void) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  ++t->crit;
  return 0;
}

int pvm_critical_end(void) {
  struct task *t = self();
  if (!t || t->crit == 0) return PvmNoBuf;
  --t->crit;
  return 0;
}

int pvm_move(int tid, int board) {
  if (slot_of(tid) < 0 || board < 0) return PvmBadParam;
  unsigned long t0 = time_us();
  for (;;) {
    int r = migrate(tid, board);
    if (r == 0) return 0;
    if (r == -TOS_EINVAL || r == -TOS_ESRCH) return PvmBadParam;
    if ((r != -TOS_ENOTREADY && r != -TOS_EAGAIN) || time_us() - t0 > 2000000ul) return PvmSysErr;
    yield(); /* inside a call or a critical section (held back until it is out), or the last move has not left */
  }
}

static int send1(struct task *t, int tid, int tag);
int pvm_send(int tid, int tag) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  ++t->crit;
  int r = send1(t, tid, tag);
  --t->crit;
  return r;
}

static int send1(struct task *t, int tid, int tag) {
  int to = slot_of(tid), me = myslot();
  if (to < 0 || to == me || tag < 0 || tag > PVM_TAG_MAX) return PvmBadParam;
  uint32_t h[HDR] = {MAGIC, (uint32_t)mytid(), (uint32_t)tid, (uint32_t)tag, (uint32_t)t->slen, ++t->seq_out[to]};
  copy(t->sbuf, h, HBYTES);
  /* routed: the kernel asks this board's table where the receiver is (route.c); fixed: the
   * pair's channel as it stands */
  int r = t->fixed ? send_block(chan(me, to), t->sbuf, HBYTES + t->slen) : psend(chan(me, to), t->sbuf, HBYTES + t->slen, tid);
  if (r < 0) {
    --t->seq_out[to];
    return PvmSysErr;
  }
  return 0;
}

/* PVM's multicast: the send buffer to each task in turn (each send waits for its receiver, as
 * every send here does); every tid is checked before anything is sent */
int pvm_mcast(const int *tids, int n, int tag) {
  if (!tids || n < 1 || n > PVM_MAX_TASKS) return PvmBadParam;
  for (int i = 0; i < n; ++i)
    if (slot_of(tids[i]) < 0 || slot_of(tids[i]) == myslot()) return PvmBadParam;
  struct task *t = self();
  if (!t) return PvmNoBuf;
  ++t->crit; /* one section: the job is not moved between two of its sends */
  int r = 0;
  for (int i = 0; i < n && r >= 0; ++i) r = send1(t, tids[i], tag);
  --t->crit;
  return r < 0 ? r : 0;
}

/* the message in t->rbuf (n bytes from slot `from`): its tag, or -1 refused */
static int check(struct task *t, int n, int from) {
  int me = mytid();
  uint32_t h[HDR];
  if (n < HBYTES) return refuse(PVM_R_SHORT, me, job_base | from), -1;
  copy(h, t->rbuf, HBYTES);
  if (h[0] != MAGIC) return refuse(PVM_R_MAGIC, me, job_base | from), -1;
  if (h[1] != (uint32_t)(job_base | from)) return refuse(PVM_R_SRC, me, job_base | from), -1;
  if (h[2] != (uint32_t)me) return refuse(PVM_R_DST, me, job_base | from), -1;
  if (n > HBYTES + PVM_MAX_BYTES || h[4] != (uint32_t)(n - HBYTES)) return refuse(PVM_R_LEN, me, job_base | from), -1;
  if (h[3] > PVM_TAG_MAX) return refuse(PVM_R_TAG, me, job_base | from), -1;
  /* in order: the next number; or a sequence (re)starting, since TOS gives a finished task's slot,
   * and so its tid, to the next task made: the first message from a slot, or a number 1 */
  if (h[5] != t->seq_in[from] + 1 && t->seq_in[from] != 0 && h[5] != 1)
    return refuse(PVM_R_SEQ, me, job_base | from), -1;
  t->seq_in[from] = h[5];
  return (int)h[3];
}

static int take(struct task *t, int len, int tag, int from) {
  t->rlen = len;
  t->rpos = HBYTES;
  t->rtag = tag;
  t->rsrc = job_base | from;
  t->have = 1;
  return len - HBYTES;
}

static int recv1(struct task *t, int tid, int tag);
int pvm_recv(int tid, int tag) {
  struct task *t = self();
  if (!t) return PvmNoBuf;
  ++t->crit;
  int r = recv1(t, tid, tag);
  --t->crit;
  return r;
}

static int recv1(struct task *t, int tid, int tag) {
  int from = slot_of(tid), me = myslot();
  if (from < 0 || from == me || tag < -1 || tag > PVM_TAG_MAX) return PvmBadParam;
  t->have = 0;
  for (int i = 0; i < t->nstash; ++i) { /* kept earlier, in arrival order: the first that fits */
    uint32_t h[HDR];
    int off = t->st[i].off, len = t->st[i].len;
    copy(h, t->sarea + off, HBYTES);
    if (h[1] != (uint32_t)tid || (tag >= 0 && h[3] != (uint32_t)tag)) continue;
    copy(t->rbuf, t->sarea + off, len);
    memmove(t->sarea + off, t->sarea + off + len, (size_t)(t->sused - off - len));
    for (int k = i + 1; k < t->nstash; ++k) {
      t->st[k - 1].off = t->st[k].off - len;
      t->st[k - 1].len = t->st[k].len;
    }
    --t->nstash;
    t->sused -= len;
    return take(t, len, (int)h[3], from);
  }
  for (;;) {
    int n = receive(chan(from, me), t->rbuf, HBYTES + PVM_MAX_BYTES + 4);
    if (n < 0) return PvmSysErr;
    int got = check(t, n, from);
    if (got < 0) continue;
    if (tag < 0 || got == tag) return take(t, n, got, from);
    if (t->nstash == PVM_STASH || n > PVM_STASH_BYTES - t->sused) {
      refuse(PVM_R_STASH, mytid(), tid);
      continue;
    }
    copy(t->sarea + t->sused, t->rbuf, n);
    t->st[t->nstash].off = t->sused;
    t->st[t->nstash++].len = n;
    t->sused += n;
  }
}

int pvm_bufinfo(int *bytes, int *tag, int *tid) {
  struct task *t = self();
  if (!t || !t->have) return PvmNoBuf;
  if (bytes) *bytes = t->rlen - HBYTES;
  if (tag) *tag = t->rtag;
  if (tid) *tid = t->rsrc;
  return 0;
}

static int upk(int type, int size, void *p, int n, int stride) {
  struct task *t = self();
  if (!t || !t->have) return PvmNoBuf;
  if (n < 0 || stride < 1 || (n > 0 && !p)) return PvmBadParam;
  uint32_t w;
  long bytes = (long)n * size, padded = (bytes + 3) & ~3l;
  if (t->rlen - t->rpos < 4) return refuse(PVM_R_UNPACK, mytid(), t->rsrc), PvmNoData;
  copy(&w, t->rbuf + t->rpos, 4);
  if (w >> 24 != (uint32_t)type || (w & 0xFFFFFF) != (uint32_t)n || padded > t->rlen - t->rpos - 4)
    return refuse(PVM_R_UNPACK, mytid(), t->rsrc), PvmNoData;
  const char *s = t->rbuf + t->rpos + 4;
  if (stride == 1) copy(p, s, bytes);
  else
    for (int i = 0; i < n; ++i) memcpy((char *)p + (long)i * stride * size, s + (long)i * size, (size_t)size);
  t->rpos += (int)(4 + padded);
  return 0;
}

int pvm_upkbyte(char *p, int n, int s) { return upk(T_BYTE, 1, p, n, s); }
int pvm_upkshort(short *p, int n, int s) { return upk(T_SHORT, 2, p, n, s); }
int pvm_upkint(int *p, int n, int s) { return upk(T_INT, 4, p, n, s); }
int pvm_upklong(long *p, int n, int s) { return upk(T_LONG, 4, p, n, s); }
int pvm_upkfloat(float *p, int n, int s) { return upk(T_FLOAT, 4, p, n, s); }
int pvm_upkdouble(double *p, int n, int s) { return upk(T_DOUBLE, 8, p, n, s); }

/* a string: its item's count is its length with the NUL, which must be where the count says */
int pvm_upkstr(char *s, int max) {
  struct task *t = self();
  if (!t || !t->have) return PvmNoBuf;
  if (!s || max < 1) return PvmBadParam;
  uint32_t w;
  if (t->rlen - t->rpos < 4) return refuse(PVM_R_UNPACK, mytid(), t->rsrc), PvmNoData;
  copy(&w, t->rbuf + t->rpos, 4);
  long n = (long)(w & 0xFFFFFF);
  if (w >> 24 != T_STR || n < 1 || n > max || ((n + 3) & ~3l) > t->rlen - t->rpos - 4 ||
      t->rbuf[t->rpos + 4 + n - 1] != 0)
    return refuse(PVM_R_UNPACK, mytid(), t->rsrc), PvmNoData;
  return upk(T_STR, 1, s, (int)n, 1);
}
