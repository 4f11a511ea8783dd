/* balancer: the Testbed's load balancer, master side (seed 000 section 4.2, Figures 39-41): the
 * master sees the slaves only through the monitor. The assessor keeps one load figure per slave
 * from their events, by the metric chosen (section 4.1):
 *   -M rq       RQ-LENGTH: a thread joins ([TID + 0x4000]) or leaves ([TID]) a ready queue
 *               (Table 2, class rq: `dgl @* +rq` on the slaves);
 *   -M threads  N-THREADS: a thread comes to a board (created or migrated in, THREAD_IN) or
 *               leaves it (ended or migrated away, THREAD_OUT) (class threads: `dgl @* +threads`).
 * Every sample period it logs the figures (Figure 41's RQL lines; NTH for N-THREADS) and the
 * decision maker compares the most and the least loaded slave: when they differ by more than
 * the threshold, and at least a migration period has passed since the last request, it sends
 * the most loaded a compute-overload request naming the least loaded; that slave chooses the
 * thread (Figure 40, kernel/balance.c) and migrates it.
 *   balancer [-M rq|threads] [-p sample_ms] [-m migration_ms] [-t threshold] [-d duration_ms]
 *            [-o logfile]
 *            defaults rq 1000 1000 2 0 (0: until stopped), no log file (the log also goes to the
 *            console; with -o it is written to the master's filestore: `download logfile`)
 * It prints "TIM <ms>" and "RQL|NTH <earth> <air> <fire> <water> <space>" each period, "REQ"
 * for each request and its result, and at the end the number of migrations and when every
 * slave's figure was first within the threshold of the mean with work everywhere. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

#define SLAVES (TOS_BOARD_NAME_COUNT - 1)
#define POLL 128

static long rq[SLAVES + 1];   /* per SMI (1..5): the metric's load figure, from the events */
static int have_ts[16];
static uint16_t pending[16];  /* THREAD_IN / THREAD_OUT waiting for its TID word */
static uint8_t present[SLAVES + 1][(EV_TID_MASK + 1) / 8]; /* N-THREADS: TIDs on each slave */
static int by_threads;        /* -M threads: N-THREADS, else RQ-LENGTH */

static FILE *logf; /* -o: Figure 41's log in the filestore too */

static void out(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (logf) {
    va_start(ap, fmt);
    vfprintf(logf, fmt, ap);
    va_end(ap);
  }
}

static int is_marker(uint16_t v) { return (v & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE; }

/* One MMI entry: a time stamp, then its event, per SMI; an event is a ready-queue change. */
static void take(uint32_t w) {
  unsigned k = (w >> 16) & 0xF;
  uint16_t v = (uint16_t)w;
  if (k == 0 || k > SLAVES) return;
  if (!have_ts[k]) {
    have_ts[k] = 1;
    return;
  }
  have_ts[k] = 0;
  if (is_marker(v)) return;
  if (!by_threads) {
    rq[k] += (v & EV_RQ_JOIN_BIT) ? 1 : -1;
    return;
  }
  if (pending[k]) { /* the TID: a thread that came before the metric was on does not count when it leaves */
    uint16_t tid = v & EV_TID_MASK;
    uint8_t *byte = &present[k][tid / 8], bit = (uint8_t)(1u << (tid % 8));
    if (pending[k] == EV_THREAD_IN && !(*byte & bit)) {
      *byte |= bit;
      ++rq[k];
    } else if (pending[k] == EV_THREAD_OUT && (*byte & bit)) {
      *byte &= (uint8_t)~bit;
      --rq[k];
    }
    pending[k] = 0;
    return;
  }
  if (v == EV_THREAD_IN || v == EV_THREAD_OUT) pending[k] = v;
}

static void drain(void) {
  static uint32_t buf[POLL];
  int n;
  while ((n = mon_read(buf, POLL)) > 0)
    for (int i = 0; i < n; ++i) take(buf[i]);
}

int main(int argc, char **argv) {
  long sample = 1000, period = 1000, threshold = 2, duration = 0;
  const char *log_name = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    long v = atol(argv[i + 1]);
    if (!strcmp(argv[i], "-M")) {
      by_threads = !strcmp(argv[i + 1], "threads");
      if (!by_threads && strcmp(argv[i + 1], "rq")) sample = -1; /* an unknown metric */
    } else if (!strcmp(argv[i], "-o")) log_name = argv[i + 1];
    else if (!strcmp(argv[i], "-p")) sample = v;
    else if (!strcmp(argv[i], "-m")) period = v;
    else if (!strcmp(argv[i], "-t")) threshold = v;
    else if (!strcmp(argv[i], "-d")) duration = v;
    else sample = -1;
  }
  if (sample <= 0 || period < 0 || threshold < 1 || duration < 0 || (argc - 1) % 2) {
    printf("usage: balancer [-M rq|threads] [-p sample_ms > 0] [-m migration_ms >= 0] [-t threshold >= 1] "
           "[-d duration_ms] [-o logfile]\n");
    return 2;
  }
  if (log_name && !(logf = fopen(log_name, "w"))) {
    printf("balancer: %s: %s\n", log_name, tos_strerror(tos_errno));
    return 2;
  }
  unsigned long t0 = time_us(), next = sample * 1000ul, last_req = 0;
  int requests = 0, moved = 0, req_made = 0;
  long balanced_at = -1; /* first sample with work queued everywhere near the mean */
  for (;;) {
    drain();
    unsigned long now = time_us() - t0;
    if (now < next) {
      yield();
      continue;
    }
    next += sample * 1000ul;
    int hi = 1, lo = 1;
    for (int k = 2; k <= SLAVES; ++k) {
      if (rq[k] > rq[hi]) hi = k;
      if (rq[k] < rq[lo]) lo = k;
    }
    out("TIM %lu\n%s", now / 1000, by_threads ? "NTH" : "RQL");
    for (int k = 1; k <= SLAVES; ++k) out(" %ld", rq[k]);
    out("\n");
    long sum = 0;
    for (int k = 1; k <= SLAVES; ++k) sum += rq[k];
    int even = sum >= SLAVES;
    for (int k = 1; k <= SLAVES; ++k)
      if (rq[k] * SLAVES - sum > threshold * SLAVES || sum - rq[k] * SLAVES > threshold * SLAVES) even = 0;
    if (even && balanced_at < 0) balanced_at = (long)(now / 1000);
    if (rq[hi] - rq[lo] > threshold && (!req_made || now - last_req >= period * 1000ul)) {
      int r = reconfigure(hi, TOS_RECONF_COMPUTE, lo);
      ++requests;
      req_made = 1;
      last_req = now;
      if (r > 0) ++moved;
      out("REQ compute overload on board %d to board %d: %s %x\n", hi, lo, r > 0 ? "moved" : tos_strerror(r),
             r > 0 ? r : 0);
    }
    if (duration && now >= (unsigned long)duration * 1000ul) break;
  }
  if (balanced_at >= 0)
    out("balancer: %d requests, %d migrations; every slave's load within %ld of the mean from %ld ms\n",
           requests, moved, threshold, balanced_at);
  else
    out("balancer: %d requests, %d migrations; the slaves' loads were never within %ld of the mean\n", requests,
           moved, threshold);
  if (logf && fclose(logf) != 0) {
    printf("balancer: %s: could not be written\n", log_name);
    return 1;
  }
  return 0;
}
