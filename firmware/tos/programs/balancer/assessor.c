/* The load assessor (seed 000 section 4.2, Figure 39): the master sees the slaves only through
 * the monitor. Each MMI entry is half of an SMI's pair (time stamp, then event); the assessor
 * follows each SMI's stream and keeps the load figures:
 *   RQ-LENGTH  class rqlen:   [RQ_GROW] a thread becomes ready, [RQ_SHRINK] a ready or running
 *                             one blocks, ends or leaves (the report's queue, running included);
 *   N-THREADS  class threads: [THREAD_IN+0x8000][TID], [THREAD_OUT+0x8000][TID];
 *   REM-COMM   class links:   [LINK_COUNT+0x8000][(board << 12) | count], sampled by the slaves.
 * Other fixed-length classes may be on too, but not rq or profile, whose [TID] words can take
 * any value; the variable-length events (bit 15) mix with anything. */
#include "balancer.h"

#define POLL 128
#define ARRIVALS 32

static int by_threads;
static long figure[SLAVES + 1];
static long sent[SLAVES + 1][SLAVES + 1];
static int have_ts[16];
static uint16_t pending[16]; /* a variable-length event waiting for its word */
static uint8_t present[SLAVES + 1][(EV_TID_MASK + 1) / 8]; /* N-THREADS: TIDs on each slave */
static struct { int tid, board; } arrivals[ARRIVALS];
static unsigned arr_head, arr_tail;

void assessor_init(int threads) { by_threads = threads; }

int link_index(int a, int b) {
  if (a > b) {
    int t = a;
    a = b;
    b = t;
  }
  int i = 0;
  for (int x = 1; x < a; ++x) i += SLAVES - x;
  return i + (b - a - 1);
}

void link_ends(int i, int *a, int *b) {
  for (int x = 1; x < SLAVES; ++x) {
    if (i < SLAVES - x) {
      *a = x;
      *b = x + 1 + i;
      return;
    }
    i -= SLAVES - x;
  }
  *a = *b = 0;
}

static void thread_event(int k, uint16_t code, uint16_t tid) {
  uint8_t *byte = &present[k][tid / 8], bit = (uint8_t)(1u << (tid % 8));
  if (code == EV_THREAD_IN) {
    if ((arr_head + 1) % ARRIVALS != arr_tail) {
      arrivals[arr_head].tid = tid;
      arrivals[arr_head].board = k;
      arr_head = (arr_head + 1) % ARRIVALS;
    }
    if (by_threads && !(*byte & bit)) {
      *byte |= bit;
      ++figure[k];
    }
  } else if (by_threads && (*byte & bit)) { /* a thread that came before the metric was on does not count */
    *byte &= (uint8_t)~bit;
    --figure[k];
  }
}

/* One MMI entry. */
/* The words as read, kept for the host's decoder (balancer -r): the monitor has one reader, and
 * while the scheduler reads it no logger can. Whole pairs only: a time stamp is kept only if its
 * event will find room too (RESERVE: one pair begun for each SMI). */
#define RESERVE 16u
static uint32_t *rec;
static uint32_t rec_n, rec_cap, rec_lost;
static uint8_t rec_ts[16], rec_kept[16]; /* an SMI's time stamp came, and was kept */

void assessor_record(uint32_t *buf, uint32_t cap) {
  rec = buf;
  rec_cap = cap;
}

const uint32_t *assessor_record_buffer(void) { return rec; }

uint32_t assessor_recorded(uint32_t *lost) {
  *lost = rec_lost;
  return rec_n;
}

static void record(uint32_t w) {
  unsigned k = (w >> 16) & 0xF;
  if (!rec_ts[k]) {
    rec_ts[k] = 1;
    rec_kept[k] = rec_n + RESERVE < rec_cap;
  } else {
    rec_ts[k] = 0;
  }
  if (rec_kept[k]) rec[rec_n++] = w;
  else ++rec_lost;
}

static void take(uint32_t w) {
  unsigned k = (w >> 16) & 0xF;
  uint16_t v = (uint16_t)w;
  if (rec) record(w);
  if (k == 0 || k > SLAVES) return;
  if (!have_ts[k]) {
    have_ts[k] = 1;
    return;
  }
  have_ts[k] = 0;
  if ((v & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE) return;
  if (pending[k]) {
    uint16_t code = pending[k];
    pending[k] = 0;
    if (code == EV_LINK_COUNT) {
      unsigned b = v >> EV_LINK_BOARD_SHIFT;
      if (b >= 1 && b <= SLAVES && b != k) sent[k][b] += v & EV_LINK_COUNT_MASK;
    } else if (code == EV_THREAD_IN || code == EV_THREAD_OUT) {
      thread_event((int)k, code, v & EV_TID_MASK);
    }
    return;
  }
  if (v & EV_CONTINUE_BIT) {
    pending[k] = v;
    return;
  }
  if (!by_threads && v == EV_RQ_GROW) ++figure[k];
  if (!by_threads && v == EV_RQ_SHRINK && figure[k] > 0) --figure[k]; /* one from before the class was on */
}

void assessor_drain(void) {
  static uint32_t buf[POLL];
  int n;
  while ((n = mon_read(buf, POLL)) > 0)
    for (int i = 0; i < n; ++i) take(buf[i]);
}

void assessor_summary(struct load *l) {
  for (int k = 1; k <= SLAVES; ++k) {
    l->cpu[k] = figure[k];
    for (int b = 1; b <= SLAVES; ++b) {
      l->sent[k][b] = sent[k][b];
      sent[k][b] = 0;
    }
  }
  for (int i = 0; i < LINKS; ++i) {
    int a, b;
    link_ends(i, &a, &b);
    l->lnk[i] = l->sent[a][b] + l->sent[b][a];
  }
}

int assessor_arrived(int *tid, int *board) {
  if (arr_tail == arr_head) return 0;
  *tid = arrivals[arr_tail].tid;
  *board = arrivals[arr_tail].board;
  arr_tail = (arr_tail + 1) % ARRIVALS;
  return 1;
}
