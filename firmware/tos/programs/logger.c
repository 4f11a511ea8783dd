/* logger: the master's event logger (seed 000 sections 2.1.2 and 2.2.4: "Software on the
 * master processor performs the task of re-uniting time-stamps and event data from the same
 * SMI and outputs a time-ordered sequence of events"; section 3.3.7's "simple logger").
 *
 * While the experiments run on the slaves it drains the MMI (mon_read, never waiting), keeps
 * every word in RAM in read order, and follows each SMI's stream as it comes: time stamp,
 * event, time stamp, event... with the global clock's overflow markers (0xAAnn) counting the
 * wraps. Between polls it yields, so the master's other threads still run. It stops after a
 * duration, or once the monitor has been quiet (no event but markers) for a while after
 * events were seen, never between a time stamp and its event. Then it reports on its console
 * and sends the log to the host over the LAN link (lan_put):
 *  - the raw stream (default monitor.raw): the MMI's 32-bit values in read order, big-endian,
 *    exactly what the host's decoder reads (sw/monitor_decoder, testbed's report);
 *  - optionally (-t NAME) the time-ordered text trace it builds itself, one event a line:
 *    "<ticks> <board> 0x<word> <name>" (ticks = wraps * 65536 + time stamp).
 *
 *   logger [-d ms] [-q ms] [-o name|-] [-t name] [-F SMI:REG:VALUE]
 *     -d ms    stop after ms milliseconds (0: no limit; default 0)
 *     -q ms    stop when no event has come for ms milliseconds once events were seen
 *              (0: never; default 500)
 *     -o name  the raw stream's name on the host (default monitor.raw; "-": do not send it)
 *     -t name  also send the time-ordered text trace as `name`
 *     -F SMI:REG:VALUE  first write VALUE to SMI's event filter register at MON offset REG
 *              (mon_filter; e.g. -F 2:0x14:0x0002 -F 2:0x12:1 keeps only board 2's comms);
 *              repeatable. The shell's `filter BOARD ...` does the same by names, during a run
 *              too. Filter markers (0xABnn) in the stream are counted apart, and the report
 *              gives each filtered board's words filtered by choice (not lost).
 * Exit code 0; 1 if words were dropped, the stream broke its rules, or a transfer failed. */
#include <testbed/memory_map.h>
#include <tos/tos.h>

#define RAW_MAX (96u * 1024u)   /* words kept: 384 KB, 48K time stamp + event pairs */
#define RESERVE 16u             /* room kept for the events of pairs already begun */
#define TEXT_MAX (64u * 1024u)  /* the text trace */
#define NSRC 16                 /* source field: 4 bits */
#define POLL_WORDS 128

static uint32_t raw[RAW_MAX];
static uint32_t nraw;
static char text[TEXT_MAX];
static const char *const board_names[] = TOS_BOARD_NAMES;

struct source {            /* one SMI's stream as it comes */
  int have_ts, ts_kept;    /* a time stamp waits for its event; it was kept */
  uint16_t ts;
  uint32_t wraps;          /* wrap markers seen, gaps in nn included */
  uint32_t last_ticks;
  uint32_t events, markers, fmarkers;
  uint32_t full;           /* markers that skipped a wrap: the SMI's FIFO was full (events lost) */
};
static struct source src[NSRC];
static uint32_t words, dropped, broken, open_pairs, events_seen;
static unsigned long last_event_us;

static int is_marker(uint16_t v) { return (v & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE; }
static int is_fmarker(uint16_t v) { return (v & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE; }

/* One MMI entry: keep it and follow its SMI's stream. */
static void take(uint32_t w, unsigned long now) {
  unsigned k = (w >> 16) & 0xF;
  uint16_t v = (uint16_t)w;
  ++words;
  if (w & 0xFFF00000ul || k == 0) { /* reserved bits, or not an SMI: a broken stream */
    ++broken;
    return;
  }
  struct source *s = &src[k];
  if (!s->have_ts) { /* a time stamp: kept only if its event will find room too */
    s->have_ts = 1;
    s->ts = v;
    s->ts_kept = nraw < RAW_MAX - RESERVE;
    if (s->ts_kept) raw[nraw++] = w;
    else ++dropped;
    ++open_pairs;
    return;
  }
  s->have_ts = 0;
  --open_pairs;
  if (s->ts_kept) raw[nraw++] = w;
  else ++dropped;
  uint32_t wraps = s->wraps;
  if (is_marker(v)) {
    uint32_t step = ((v & 0xFFu) - (s->wraps & 0xFFu)) & 0xFFu;
    if (step == 0) ++broken; /* a repeated wrap count */
    if (step > 1) ++s->full;
    wraps += step;
    ++s->markers;
  } else if (is_fmarker(v)) {
    ++s->fmarkers; /* the SMI's filter settings changed here (generation v & 0xFF) */
  } else {
    ++s->events;
    ++events_seen;
    last_event_us = now;
  }
  uint32_t ticks = wraps << 16 | s->ts;
  if (ticks < s->last_ticks) ++broken; /* time went back: pairing broken */
  s->wraps = wraps;
  s->last_ticks = ticks;
}

/* ---- the time-ordered text trace: a merge of the per-SMI streams of raw[] ---- */
struct cursor {
  uint32_t pos;           /* next word of raw[] to look at */
  uint32_t wraps, ticks;
  uint16_t word;
  int have, cont;         /* a pair is ready; the last event word had the continue bit */
};

static int next_pair(struct cursor *c, unsigned k) {
  uint32_t ts = 0;
  int got_ts = 0;
  for (; c->pos < nraw; ++c->pos) {
    uint32_t w = raw[c->pos];
    if (((w >> 16) & 0xF) != k) continue;
    if (!got_ts) {
      ts = w & 0xFFFF;
      got_ts = 1;
      continue;
    }
    ++c->pos;
    c->word = (uint16_t)w;
    if (is_marker(c->word)) c->wraps += ((c->word & 0xFFu) - (c->wraps & 0xFFu)) & 0xFFu;
    c->ticks = c->wraps << 16 | ts;
    return c->have = 1;
  }
  return c->have = 0;
}

static uint32_t text_len;
static int text_full;
static void text_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void text_add(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text + text_len, TEXT_MAX - text_len, fmt, ap);
  va_end(ap);
  if (n < 0 || text_len + (uint32_t)n >= TEXT_MAX - 40) text_full = 1;
  else text_len += (uint32_t)n;
}

static const char *event_name(uint16_t w, char *buf, size_t n) {
  if (is_marker(w) || is_fmarker(w)) {
    snprintf(buf, n, "%s_%02X", is_marker(w) ? "WRAP" : "FILTER", w & 0xFF);
    return buf;
  }
#define X(name, first, follows, desc) \
  if (w == (first)) return #name;
  TB_EVENT_LIST(X)
#undef X
  if (!(w & EV_CONTINUE_BIT) && (w & EV_SCHEDULE_BIT)) {
    snprintf(buf, n, "SCHED(%u)", w & EV_TID_MASK);
    return buf;
  }
  snprintf(buf, n, "EVENT_%04X", w);
  return buf;
}

static void build_text(void) {
  static struct cursor cur[NSRC];
  text_add("# testbed logger trace: ticks board word name (%lu words from the MMI)\n", (unsigned long)nraw);
  for (unsigned k = 1; k < NSRC; ++k) next_pair(&cur[k], k);
  for (;;) {
    unsigned best = 0;
    for (unsigned k = 1; k < NSRC; ++k)
      if (cur[k].have && (!best || cur[k].ticks < cur[best].ticks)) best = k; /* ties: lower board */
    if (!best || text_full) break;
    struct cursor *c = &cur[best];
    char nb[16], ab[16];
    const char *name = event_name(c->word, nb, sizeof nb);
    if (c->cont && !is_marker(c->word) && !is_fmarker(c->word)) {
      snprintf(ab, sizeof ab, "ARG(%u)", c->word & 0x7FFF);
      name = ab;
    }
    if (!is_marker(c->word) && !is_fmarker(c->word)) c->cont = (c->word & EV_CONTINUE_BIT) != 0;
    text_add("%lu %u 0x%04X %s\n", (unsigned long)c->ticks, best, c->word, name);
    next_pair(c, best);
  }
  if (text_full) text_add("# trace truncated: the logger's text buffer is full\n");
}

static int send(const char *name, const void *buf, uint32_t len) {
  printf("logger: sending %s (%lu bytes) over the LAN link\n", name, (unsigned long)len);
  int rc = lan_put(name, buf, (int)len);
  if (rc < 0) printf("logger: %s: lan_put failed: %s\n", name, tos_strerror(rc));
  return rc < 0;
}

static int usage(void) {
  printf("usage: logger [-d ms] [-q ms] [-o name|-] [-t name] [-F SMI:REG:VALUE]\n");
  return 2;
}

/* A number in C notation at *q (decimal, or 0x hex), advancing *q past it. */
static unsigned long number(const char **q) {
  unsigned long v = 0, base = 10;
  if ((*q)[0] == '0' && ((*q)[1] == 'x' || (*q)[1] == 'X')) base = 16, *q += 2;
  for (;; ++*q) {
    char c = **q;
    unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99u;
    if (d >= base) return v;
    v = v * base + d;
  }
}

/* Words SMI k's filter dropped by choice (all classes), or -1 if the MMI has no such SMI. */
static long filtered_words(unsigned k) {
  long n = 0;
  for (int c = 0; c < 16; ++c) {
    long f = mon_filter((int)k, TB_MON_FLT_FILTERED0_OFF + 4 * c, -1);
    if (f < 0) return -1;
    n += f;
  }
  return n;
}

int main(int argc, char **argv) {
  unsigned filtered_boards = 0;
  unsigned long duration_ms = 0, quiet_ms = 500;
  const char *out = "monitor.raw", *trace = NULL;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc || argv[i][0] != '-' || argv[i][2]) return usage();
    const char *v = argv[++i];
    switch (argv[i - 1][1]) {
      case 'd': duration_ms = (unsigned long)atoi(v); break;
      case 'q': quiet_ms = (unsigned long)atoi(v); break;
      case 'o': out = strcmp(v, "-") == 0 ? NULL : v; break;
      case 't': trace = v; break;
      case 'F': { /* SMI:REG:VALUE, numbers in C notation (0x..): one mon_filter write */
        unsigned long f[3];
        const char *q = v;
        int nf = 0;
        while (nf < 3) {
          f[nf++] = number(&q);
          if (*q != ':') break;
          ++q;
        }
        if (nf != 3 || *q || f[0] < 1 || f[0] > 15 || mon_filter((int)f[0], (int)f[1], (long)f[2]) < 0 ||
            f[2] > 0xFFFF) {
          printf("logger: -F %s: not applied (SMI:REG:VALUE, a FLT_ settings register's MON offset)\n", v);
          return 2;
        }
        filtered_boards |= 1u << f[0];
        break;
      }
      default: return usage();
    }
  }
  if (!duration_ms && !quiet_ms) return usage();
  long stall0 = mon_status(TOS_MON_STALL);
  if (stall0 < 0) {
    printf("logger: no MMI on this board (%s): the logger runs on the master\n", tos_strerror((int)stall0));
    return 1;
  }
  printf("logger: draining the MMI until ");
  if (duration_ms) printf("%lu ms have passed%s", duration_ms, quiet_ms ? " or " : "");
  if (quiet_ms) printf("the monitor has been quiet for %lu ms", quiet_ms);
  printf("\n");

  static uint32_t buf[POLL_WORDS];
  unsigned long t0 = time_us(), now = t0;
  for (;;) {
    int n = mon_read(buf, POLL_WORDS);
    now = time_us();
    if (n < 0) {
      printf("logger: mon_read: %s\n", tos_strerror(n));
      return 1;
    }
    for (int i = 0; i < n; ++i) take(buf[i], now);
    if (n == POLL_WORDS || open_pairs) continue; /* more waiting, or an event due: read on */
    if (duration_ms && now - t0 >= duration_ms * 1000ul) break;
    if (quiet_ms && events_seen && now - last_event_us >= quiet_ms * 1000ul) break;
    yield();
  }
  long stall = mon_status(TOS_MON_STALL) - stall0;

  uint32_t markers = 0;
  for (unsigned k = 1; k < NSRC; ++k) markers += src[k].markers;
  printf("logger: %lu words read in %lu ms, %lu kept, %lu dropped; %lu events and %lu wrap markers\n",
         (unsigned long)words, (now - t0) / 1000ul, (unsigned long)nraw, (unsigned long)dropped,
         (unsigned long)events_seen, (unsigned long)markers);
  for (unsigned k = 1; k < NSRC; ++k) {
    struct source *s = &src[k];
    if (!s->events && !s->markers) continue;
    printf("logger: board %u (%s): %lu events, %lu markers", k, k < TOS_BOARD_NAME_COUNT ? board_names[k] : "?",
           (unsigned long)s->events, (unsigned long)s->markers);
    if (s->full) printf(", its SMI was full %lu times (events lost there)", (unsigned long)s->full);
    if (s->fmarkers || filtered_boards >> k & 1)
      printf(", %lu filter markers, %ld words filtered by choice (not lost)", (unsigned long)s->fmarkers, filtered_words(k));
    printf("\n");
  }
  printf("logger: MMI poller stalled %ld clocks on a full FIFO while logging; events lost at the SMIs are "
         "counted by each slave (SMI LOST) and by the host's probe\n", stall);
  if (broken) printf("logger: %lu words broke the stream's rules\n", (unsigned long)broken);

  int failed = dropped || broken;
  if (out) failed |= send(out, raw, nraw * 4);
  if (trace) {
    build_text();
    failed |= send(trace, text, text_len);
  }
  printf("logger: done\n");
  return failed;
}
