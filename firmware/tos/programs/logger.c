/* logger: the master's event logger (seed 000 sections 2.1.2 and 2.2.4: "Software on the
 * master processor performs the task of re-uniting time-stamps and event data from the same
 * SMI and outputs a time-ordered sequence of events"; section 3.3.7's "simple logger").
 *
 * It does the work section 3.3.7 lists as the least a logger must do, per word and per pair,
 * as the events arrive:
 *  1. poll the MMI (mon_read: the kernel reads the memory-mapped MMI word by word until it
 *     finds no valid SMI number, up to POLL_WORDS entries: TOS gives a program no direct access
 *     to the device, and a system call per word would cost the logger a trap the report's
 *     memory-mapped poll did not have) and take each word as its SMI's time stamp or event,
 *     following each SMI's stream (time stamp, event, ... with the global clock's overflow
 *     markers 0xAAnn counting the wraps);
 *  2. pair the time stamp with its event in that SMI's structure;
 *  3. merge the SMIs' streams in time order as they come: a pair is logged once every other
 *     SMI seen so far has reached its time (a later pair or a wrap marker: each SMI sends one
 *     every 65,536 ticks), or once the MMI has run empty (what comes after was written later,
 *     up to one MMI round), and logged to a file in the master's filestore, one write per pair.
 * Between polls that find the MMI empty it yields, so the master's other threads still run.
 * It stops after a duration, or once the monitor has been quiet (no event but markers) for a
 * while after events were seen, never between a time stamp and its event. Then it logs what
 * is still held in time order, reports on its console and sends the log to the host over the
 * LAN link (lan_put), read back from the filestore:
 *  - the log (default monitor.raw): the MMI's 32-bit values, each pair's time stamp and event
 *    word as the MMI gave them (source SMI in bits 16-19), pairs in time order, big-endian,
 *    exactly what the host's decoder reads (sw/monitor_decoder, testbed's report);
 *  - optionally (-t NAME) the time-ordered text trace it builds from it, one event a line:
 *    "<ticks> <board> 0x<word> <name>" (ticks = wraps * 65536 + time stamp).
 *
 * With -r it does none of that while logging: it keeps every word in RAM in read order and
 * orders the streams only after the run (the host's decoder orders them too). That sustains
 * several thousand pairs a second, what the latency experiments of section 3.3.1-3.3.6 make
 * with every event kept; section 3.3.7 measures the logger above (sw/analysis: overflow).
 *
 *   logger [-d ms] [-q ms] [-o name|-] [-t name] [-f file] [-r] [-F SMI:REG:VALUE]
 *     -d ms    stop after ms milliseconds (0: no limit; default 0)
 *     -q ms    stop when no event has come for ms milliseconds once events were seen
 *              (0: never; default 500)
 *     -o name  the log's name on the host (default monitor.raw; "-": do not send it)
 *     -t name  also send the time-ordered text trace as `name`
 *     -f file  the log's file in the master's filestore (default events.log; replaced)
 *     -r       keep the words in RAM (up to RAW_MAX), no file, no ordering while logging
 *     -F SMI:REG:VALUE  first write VALUE to SMI's event filter register at MON offset REG
 *              (mon_filter; e.g. -F 2:0x14:0x0002 -F 2:0x12:1 keeps only board 2's comms);
 *              repeatable. The shell's `filter BOARD ...` does the same by names, during a run
 *              too. Filter markers (0xABnn) in the stream are counted apart, and the report
 *              gives each filtered board's words filtered by choice (not lost).
 * Exit code 0; 1 if words were dropped (the file could not grow: its size or the filestore's
 * space; -r: RAM full), the stream broke its rules, or a transfer failed. */
#include <testbed/memory_map.h>
#include <tos/tos.h>

#define TEXT_MAX (64u * 1024u)  /* the text trace */
#define NSRC 16                 /* source field: 4 bits */
#define RING 256                /* pairs held per SMI while the others catch up */
#define POLL_WORDS 128          /* entries taken from the MMI per poll (one system call) */
#define RAW_MAX (96u * 1024u)   /* -r: words kept, 384 KB: 48K time stamp + event pairs */
#define RESERVE 16u             /* -r: room kept for the events of pairs already begun */

static uint32_t raw[RAW_MAX]; /* the log read back from the filestore, or (-r) the words as read */
static int ram_mode;
static uint32_t nraw;
static char *text; /* the text trace: in raw[] after the log (the image has no room for more) */
static uint32_t text_cap;
static const char *const board_names[] = TOS_BOARD_NAMES;

struct pair {
  uint32_t ticks;
  uint32_t w[2];           /* time stamp and event as the MMI gave them */
};
struct source {            /* one SMI's stream as it comes */
  int seen, have_ts;       /* a pair came; a time stamp waits for its event */
  int ts_kept;             /* -r: the time stamp was kept (its event will be too) */
  uint32_t ts_w;
  uint32_t wraps;          /* wrap markers seen, gaps in nn included */
  uint32_t last_ticks;
  uint32_t events, markers, fmarkers;
  uint32_t full;           /* markers that skipped a wrap: the SMI's FIFO was full (events lost) */
  struct pair *ring;       /* RING pairs not logged yet, in time order (heap: the image holds raw[]) */
  unsigned head, n;
};
static struct source src[NSRC];
static uint32_t words, dropped, broken, open_pairs, events_seen, markers_seen, forced, logged;
static FILE *log_file;
static int log_err;
static int new_event;

static int is_marker(uint16_t v) { return (v & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE; }
static int is_fmarker(uint16_t v) { return (v & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE; }

/* Log one pair to the file; a write that fails ends the log (the pair and the rest dropped). */
static void emit(struct source *s) {
  struct pair *p = &s->ring[s->head];
  s->head = (s->head + 1) % RING;
  --s->n;
  if (!log_err) {
    if (fwrite(p->w, sizeof p->w, 1, log_file) == 1) {
      ++logged;
      return;
    }
    log_err = 1;
  }
  dropped += 2;
}

static struct source *seen[NSRC]; /* the SMIs heard from, in the order they were */
static unsigned nseen;

/* The SMI whose held pair is the oldest, or NULL. */
static struct source *oldest(void) {
  struct source *best = NULL;
  uint32_t t = 0;
  for (unsigned i = 0; i < nseen; ++i) {
    struct source *s = seen[i];
    if (s->n && (!best || s->ring[s->head].ticks < t)) best = s, t = s->ring[s->head].ticks;
  }
  return best;
}

/* Log every held pair whose time no SMI can undercut any more (all: the end, log them all). */
static void merge(int all) {
  struct source *best;
  while ((best = oldest())) {
    uint32_t t = best->ring[best->head].ticks;
    if (!all)
      for (unsigned i = 0; i < nseen; ++i)
        if (!seen[i]->n && seen[i]->last_ticks < t) return; /* that SMI may still send an earlier pair */
    emit(best);
  }
}

/* One MMI entry: follow its SMI's stream; a whole pair is held and merged. */
static void take(uint32_t w) {
  unsigned k = (w >> 16) & 0xF;
  uint16_t v = (uint16_t)w;
  ++words;
  if (w & 0xFFF00000ul || k == 0) { /* reserved bits, or not an SMI: a broken stream */
    ++broken;
    return;
  }
  struct source *s = &src[k];
  if (!s->have_ts) { /* a time stamp: its event follows */
    s->have_ts = 1;
    s->ts_w = w;
    ++open_pairs;
    if (ram_mode) { /* kept only if its event will find room too */
      s->ts_kept = nraw < RAW_MAX - RESERVE;
      if (s->ts_kept) raw[nraw++] = w;
      else ++dropped;
    }
    return;
  }
  s->have_ts = 0;
  --open_pairs;
  uint32_t wraps = s->wraps;
  if (is_marker(v)) {
    uint32_t step = ((v & 0xFFu) - (s->wraps & 0xFFu)) & 0xFFu;
    if (step == 0) ++broken; /* a repeated wrap count */
    if (step > 1) ++s->full;
    wraps += step;
    ++s->markers;
    ++markers_seen;
  } else if (is_fmarker(v)) {
    ++s->fmarkers; /* the SMI's filter settings changed here (generation v & 0xFF) */
  } else {
    ++s->events;
    ++events_seen;
    new_event = 1;
  }
  uint32_t ticks = wraps << 16 | (s->ts_w & 0xFFFF);
  if (ticks < s->last_ticks) ++broken; /* time went back: pairing broken */
  s->wraps = wraps;
  s->last_ticks = ticks;
  if (!s->seen) {
    if (!ram_mode && !(s->ring = malloc(RING * sizeof *s->ring))) { /* cannot hold its pairs: not logged */
      ++broken;
      return;
    }
    s->seen = 1;
    seen[nseen++] = s;
  }
  if (ram_mode) {
    if (s->ts_kept) raw[nraw++] = w;
    else ++dropped;
    return;
  }
  if (s->n == RING) { /* an SMI silent without markers holds the merge up: log the oldest until there is room */
    ++forced;
    while (s->n == RING) emit(oldest());
  }
  struct pair *p = &s->ring[(s->head + s->n) % RING];
  p->ticks = ticks;
  p->w[0] = s->ts_w;
  p->w[1] = w;
  ++s->n;
  merge(0);
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
  int n = text_len < text_cap ? vsnprintf(text + text_len, text_cap - text_len, fmt, ap) : -1;
  va_end(ap);
  if (n < 0 || text_len + (uint32_t)n + 40u >= text_cap) text_full = 1;
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
  printf("usage: logger [-d ms] [-q ms] [-o name|-] [-t name] [-f file] [-r] [-F SMI:REG:VALUE]\n");
  return 2;
}

/* The log read back from the filestore into raw[]: what is sent is what was logged. */
static int read_back(const char *file) {
  int fd = open(file, TOS_O_READ);
  if (fd < 0) {
    printf("logger: %s: %s\n", file, tos_strerror(fd));
    return 1;
  }
  int n = read(fd, raw, (int)sizeof raw);
  close(fd);
  if (n < 0 || (uint32_t)n != logged * 8u) {
    printf("logger: %s: read back %d bytes of %lu logged\n", file, n, (unsigned long)logged * 8ul);
    return 1;
  }
  nraw = (uint32_t)n / 4u;
  return 0;
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
  const char *out = "monitor.raw", *trace = NULL, *file = "events.log";
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-' || !argv[i][1] || argv[i][2] || (argv[i][1] != 'r' && i + 1 >= argc)) return usage();
    const char *v = argv[++i];
    switch (argv[i - 1][1]) {
      case 'd': duration_ms = (unsigned long)atoi(v); break;
      case 'q': quiet_ms = (unsigned long)atoi(v); break;
      case 'o': out = strcmp(v, "-") == 0 ? NULL : v; break;
      case 't': trace = v; break;
      case 'f': file = v; break;
      case 'r': ram_mode = 1, --i; break;
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
  if (ram_mode) file = "RAM";
  else if (!(log_file = fopen(file, "wb"))) {
    printf("logger: cannot log to %s\n", file);
    return 1;
  }
  printf("logger: logging the MMI's events to %s until ", file);
  if (duration_ms) printf("%lu ms have passed%s", duration_ms, quiet_ms ? " or " : "");
  if (quiet_ms) printf("the monitor has been quiet for %lu ms", quiet_ms);
  printf("\n");

  unsigned long t0 = time_us(), now = t0, last_event_us = t0;
  /* the logger's sustained rate: the longest stretch in which the MMI was never found empty */
  unsigned long busy_t0 = 0, busy_us = 0, busy_pairs = 0, busy_p0 = 0;
  int busy = 0;
  static uint32_t buf[POLL_WORDS];
  for (;;) {
    int n = mon_read(buf, POLL_WORDS);
    if (n < 0) {
      printf("logger: mon_read: %s\n", tos_strerror(n));
      return 1;
    }
    if (n && !busy) { /* the MMI has words again: a stretch of polls that find it never empty */
      busy = 1;
      busy_t0 = time_us();
      busy_p0 = events_seen + markers_seen;
    }
    for (int i = 0; i < n; ++i) take(buf[i]);
    if (n == POLL_WORDS || open_pairs) continue; /* more waiting, or an event due: poll on */
    /* Empty: every SMI's FIFO was empty at the MMI's last round, so what comes next was
     * written after everything held (up to one round of the MMI, 36 us per SMI): log it all. */
    merge(1);
    now = time_us(); /* the MMI is empty: the clock is read only then */
    if (busy) {
      busy = 0;
      if (now - busy_t0 > busy_us) busy_us = now - busy_t0, busy_pairs = events_seen + markers_seen - busy_p0;
    }
    if (new_event) last_event_us = now, new_event = 0;
    if (duration_ms && now - t0 >= duration_ms * 1000ul) break;
    if (quiet_ms && events_seen && now - last_event_us >= quiet_ms * 1000ul) break;
    yield();
  }
  long stall = mon_status(TOS_MON_STALL) - stall0;
  merge(1);
  if (log_file && fclose(log_file) && !log_err) { /* the last buffer's write failed: its pairs are not in the file */
    log_err = 1;
    logged = 0;
  }
  if (log_err) printf("logger: %s: a write failed (the file's size or the filestore's space): %lu pairs not logged\n",
                      file, (unsigned long)dropped / 2);

  uint32_t markers = 0;
  for (unsigned k = 1; k < NSRC; ++k) markers += src[k].markers;
  printf("logger: %lu words read in %lu ms, %lu kept, %lu dropped; %lu events and %lu wrap markers\n",
         (unsigned long)words, (now - t0) / 1000ul, ram_mode ? (unsigned long)nraw : (unsigned long)logged * 2ul,
         (unsigned long)dropped,
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
  if (busy_us >= 100000ul) /* a stretch long enough to be the logger's own pace, not a burst's */
    printf("logger: sustained %lu pairs/s: %lu pairs logged in %lu ms in which the MMI was never found empty\n",
           (unsigned long)((unsigned long long)busy_pairs * 1000000ull / busy_us), busy_pairs, busy_us / 1000ul);
  if (forced) printf("logger: %lu times an SMI's held pairs were logged before the others had caught up (order not "
                     "guaranteed there)\n", (unsigned long)forced);
  if (broken) printf("logger: %lu words broke the stream's rules\n", (unsigned long)broken);

  int failed = dropped || broken;
  if (!ram_mode && (out || trace)) failed |= read_back(file);
  if (out) failed |= send(out, raw, nraw * 4);
  if (trace) {
    text = (char *)(raw + nraw);
    text_cap = (uint32_t)sizeof raw - nraw * 4u;
    if (text_cap > TEXT_MAX) text_cap = TEXT_MAX;
    build_text();
    failed |= send(trace, text, text_len);
  }
  printf("logger: done\n");
  return failed;
}
