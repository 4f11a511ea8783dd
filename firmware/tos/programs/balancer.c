/* balancer: the Testbed's load balancer, master side (seed 000 section 4.2, Figures 39-41), with
 * the RQ-LENGTH metric: the master sees the slaves only through the monitor. Each slave's
 * kernel emits a ready-queue event as a thread joins ([TID + 0x4000]) or leaves ([TID]) its
 * ready queue (Table 2, class rq: `dgl +rq` on the slaves); the assessor keeps one count per
 * slave from them. Every sample period it logs the counts (Figure 41's RQL lines) and the
 * decision maker compares the most and the least loaded slave: when they differ by more than
 * the threshold, and at least a migration period has passed since the last request, it sends
 * the most loaded a compute-overload request naming the least loaded; that slave chooses the
 * thread (Figure 40, kernel/balance.c) and migrates it.
 *   balancer [-p sample_ms] [-m migration_ms] [-t threshold] [-d duration_ms]
 *            defaults 1000 1000 2 0 (0: until stopped)
 * It prints "TIM <ms>" and "RQL <earth> <air> <fire> <water> <space>" each period, "REQ" for
 * each request and its result, and at the end the number of migrations and when every slave's
 * ready queue was first within the threshold of the mean with work queued everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

#define SLAVES (TOS_BOARD_NAME_COUNT - 1)
#define POLL 128

static long rq[SLAVES + 1];   /* per SMI (1..5): threads in its ready queues, from the events */
static int have_ts[16];

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
  rq[k] += (v & EV_RQ_JOIN_BIT) ? 1 : -1;
}

static void drain(void) {
  static uint32_t buf[POLL];
  int n;
  while ((n = mon_read(buf, POLL)) > 0)
    for (int i = 0; i < n; ++i) take(buf[i]);
}

int main(int argc, char **argv) {
  long sample = 1000, period = 1000, threshold = 2, duration = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    long v = atol(argv[i + 1]);
    if (!strcmp(argv[i], "-p")) sample = v;
    else if (!strcmp(argv[i], "-m")) period = v;
    else if (!strcmp(argv[i], "-t")) threshold = v;
    else if (!strcmp(argv[i], "-d")) duration = v;
    else sample = -1;
  }
  if (sample <= 0 || period < 0 || threshold < 1 || duration < 0 || (argc - 1) % 2) {
    printf("usage: balancer [-p sample_ms > 0] [-m migration_ms >= 0] [-t threshold >= 1] [-d duration_ms]\n");
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
    printf("TIM %lu\nRQL", now / 1000);
    for (int k = 1; k <= SLAVES; ++k) printf(" %ld", rq[k]);
    printf("\n");
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
      printf("REQ compute overload on board %d to board %d: %s %x\n", hi, lo, r > 0 ? "moved" : tos_strerror(r),
             r > 0 ? r : 0);
    }
    if (duration && now >= (unsigned long)duration * 1000ul) break;
  }
  if (balanced_at >= 0)
    printf("balancer: %d requests, %d migrations; every slave's ready queue within %ld of the mean from %ld ms\n",
           requests, moved, threshold, balanced_at);
  else
    printf("balancer: %d requests, %d migrations; the ready queues were never within %ld of the mean\n", requests,
           moved, threshold);
  return 0;
}
