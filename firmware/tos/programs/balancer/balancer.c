/* balancer: the Testbed's load balancer, master side (seed 000 section 4.2, Figures 39-41).
 *   balancer [-P testbed|random|none] [-M rq|threads] [-p sample_ms] [-m migration_ms]
 *            [-t threshold] [-l link_msgs_per_s] [-s seed] [-d duration_ms] [-q samples]
 *            [-o logfile] [-r name]
 *   balancer -P rhodos-ip|rhodos-twin|rhodos-exit|dpvm [-n boards] [-g gap] [-d duration_ms] [-q idle_ms]
 *            [-o logfile] [-r name]
 * The second form is seed 002's event-driven global scheduler (global.c, gsched.h): it answers
 * the REX's placement questions and follows class threads (`dgl @* +threads`), with no sample
 * period; -n: it uses slave boards 1..n (default all); -g: a move's source must be that many
 * processes above its destination (default 2, gsched.c); -q: it stops that long after its last
 * process ended.
 * defaults: testbed rq 1000 1000 2 50 1 0 (0: until stopped) 0, no log file. -q: stop after
 * that many samples in a row with no load anywhere (no thread counted, no link used), once
 * there has been some: the experiments end with the program they balance. On the slaves switch
 * on what the assessor reads: `dgl @* +rqlen +links` (or +threads for -M threads).
 * Each sample period it takes the assessor's summary and writes Figure 41's lines:
 *   TIM: <ms>
 *   LNK: <ten links 1-2 1-3 .. 4-5> (av n)
 *   RQL: <earth air fire water space> (av n)          (NTH: for -M threads)
 * and, when the migration period has passed, asks the policy (balancer.h) whether to move work:
 *   move work from 3 to 5 to quieten link 9/3-5 (mig #6)
 *   move work from 1 to 4 to relieve processor 1 (mig #7)
 * then what the slave answered ("mig #6: 0x4003 leaves 3 for 5", or "... no thread fits on 3
 * now: the request waits there") and, with class threads on, arrivals ("mig #6: 0x4003 arrives
 * at 5, time 60880"). The log goes to the console and, with -o, to the master's filestore
 * (`download logfile`). With -r, every word it reads from the monitor is kept (whole pairs, up to
 * RECORD_WORDS) and sent to the host as `name` at the end, which the host decodes as it does the
 * logger's monitor.raw: the monitor has one reader, so no logger can run beside it. At the end: the number of requests and migrations, and when every
 * slave's figure was first within the threshold of the mean with work everywhere. Exit 2 for
 * settings it refuses (before anything runs). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "balancer.h"
#include "gsched.h"

static const struct policy *const policies[] = {&policy_testbed, &policy_random, &policy_none};
#define NPOLICIES (int)(sizeof policies / sizeof policies[0])

static FILE *logf;
#define RECORD_WORDS (32u * 1024u) /* -r: 128 KB, 16K pairs */

/* -r: the recorded words to the host (after the last line, which the host's copy ends with). */
static int send_record(const char *name) {
  if (!name) return 0;
  uint32_t lost, n = assessor_recorded(&lost);
  printf("balancer: recorded %lu monitor words (%lu lost: the buffer was full), sent as %s\n", (unsigned long)n,
         (unsigned long)lost, name);
  int rc = lan_put(name, assessor_record_buffer(), (int)(n * 4));
  if (rc < 0) printf("balancer: %s: lan_put failed: %s\n", name, tos_strerror(rc));
  return rc < 0 || lost;
}

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

static int usage(const char *why, const char *what) {
  printf("balancer: %s%s%s\n", why, what ? ": " : "", what ? what : "");
  printf("usage: balancer [-P");
  for (int i = 0; i < NPOLICIES; ++i) printf("%s%s", i ? "|" : " ", policies[i]->name);
  for (int f = 0; f < GS_FAMILIES; ++f) printf("|%s", gs_family_name(f));
  printf("] [-M rq|threads] [-p sample_ms > 0] [-m migration_ms >= sample_ms] [-t threshold >= 1] "
         "[-l link_msgs_per_s >= 1] [-s seed] [-d duration_ms >= 0] [-q idle_samples >= 0] [-n gs_boards 1..5] "
         "[-g gs_gap 1..64] [-o logfile] [-r name]\n");
  return 2;
}

static int number(const char *s, long *v) {
  char *end;
  *v = strtol(s, &end, 10);
  return *s && !*end;
}

/* What we asked to move and has not been seen arriving: for the arrival lines. */
#define TRACKED 16
static struct { int tid, mig; } moving[TRACKED];

static void note_arrivals(unsigned long now_ms) {
  int tid, board;
  while (assessor_arrived(&tid, &board))
    for (int i = 0; i < TRACKED; ++i)
      if (moving[i].mig && moving[i].tid == tid) {
        out("mig #%d: 0x%x arrives at %d, time %lu\n", moving[i].mig, tid, board, now_ms);
        moving[i].mig = 0;
      }
}

static void print_row(const char *tag, const long *v, int n) {
  long sum = 0;
  out("%s:", tag);
  for (int i = 0; i < n; ++i) {
    out(" %ld", v[i]);
    sum += v[i];
  }
  out(" (av %ld)\n", sum / n);
}

int main(int argc, char **argv) {
  struct settings s = {1000, 1000, 2, 50, 0, 1};
  const struct policy *policy = &policy_testbed;
  const char *log_name = NULL, *record_name = NULL;
  int by_threads = 0, family = -1;
  long gs_boards = SLAVES, gs_gap = 2;
  long quiet_samples = 0, quiet = 0, seen_load = 0;
  for (int i = 1; i < argc; i += 2) {
    const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
    long v = 0;
    if (!arg) return usage("a value is missing after", opt);
    if (!strcmp(opt, "-P") && gs_family_by_name(arg) >= 0) {
      family = gs_family_by_name(arg);
    } else if (!strcmp(opt, "-P")) {
      policy = NULL;
      for (int k = 0; k < NPOLICIES; ++k)
        if (!strcmp(arg, policies[k]->name)) policy = policies[k];
      if (!policy) return usage("unknown policy", arg);
    } else if (!strcmp(opt, "-M")) {
      by_threads = !strcmp(arg, "threads");
      if (!by_threads && strcmp(arg, "rq")) return usage("unknown metric", arg);
    } else if (!strcmp(opt, "-o")) {
      log_name = arg;
    } else if (!strcmp(opt, "-r")) {
      record_name = arg;
    } else if (strlen(opt) != 2 || !strchr("pmtlsdqng", opt[1]) || opt[0] != '-') {
      return usage("unknown option", opt);
    } else if (!number(arg, &v)) {
      return usage("not a whole number", arg);
    } else {
      switch (opt[1]) {
      case 'p': s.sample_ms = v; break;
      case 'm': s.migration_ms = v; break;
      case 't': s.threshold = v; break;
      case 'l': s.link_per_s = v; break;
      case 's': s.seed = (unsigned long)v; break;
      case 'q': quiet_samples = v; break;
      case 'n': gs_boards = v; break;
      case 'g': gs_gap = v; break;
      default: s.duration_ms = v; break;
      }
    }
  }
  if (s.sample_ms <= 0) return usage("the sample period must be positive", NULL);
  if (s.migration_ms < s.sample_ms) /* section 4.2.2: a request's effect is watched for at least a sample */
    return usage("the migration period must be at least the sample period", NULL);
  if (s.threshold < 1 || s.threshold > TOS_MAX_THREADS) return usage("the threshold must be 1..64 threads", NULL);
  if (s.link_per_s < 1) return usage("the link threshold must be at least 1 message a second", NULL);
  if (s.duration_ms < 0) return usage("the duration must not be negative", NULL);
  if (quiet_samples < 0) return usage("the idle samples must not be negative", NULL);
  if (gs_boards < 1 || gs_boards > SLAVES) return usage("the global scheduler's boards must be 1..5", NULL);
  if (gs_gap < 1 || gs_gap > TOS_MAX_THREADS) return usage("the global scheduler's load gap must be 1..64", NULL);
  if (log_name && !(logf = fopen(log_name, "w"))) {
    printf("balancer: %s: %s\n", log_name, tos_strerror(tos_errno));
    return 2;
  }
  if (record_name) {
    uint32_t *buf = malloc(RECORD_WORDS * 4);
    if (!buf) {
      printf("balancer: -r: no room for %u words\n", RECORD_WORDS);
      return 2;
    }
    assessor_record(buf, RECORD_WORDS);
  }
  if (family >= 0) {
    int rc = global_run(family, (int)gs_boards, (int)gs_gap, s.duration_ms, quiet_samples, out);
    if (logf && fclose(logf) != 0) return 1;
    return send_record(record_name) ? 1 : rc;
  }
  out("balancer: policy %s (%s), metric %s, sample %ld ms, migration period %ld ms, threshold %ld, link %ld/s\n",
      policy->name, policy->what, by_threads ? "N-THREADS" : "RQ-LENGTH", s.sample_ms, s.migration_ms, s.threshold,
      s.link_per_s);
  assessor_init(by_threads);
  unsigned long t0 = time_us(), next = (unsigned long)s.sample_ms * 1000ul, last_req = 0;
  int requests = 0, moved = 0, waiting = 0;
  long balanced_at = -1; /* first sample with work everywhere near the mean */
  for (;;) {
    assessor_drain();
    unsigned long now = time_us() - t0;
    note_arrivals(now / 1000);
    if (now < next) {
      yield();
      continue;
    }
    next += (unsigned long)s.sample_ms * 1000ul;
    struct load l;
    l.sample_ms = s.sample_ms;
    assessor_summary(&l);
    out("TIM: %lu\n", now / 1000);
    print_row("LNK", l.lnk, LINKS);
    print_row(by_threads ? "NTH" : "RQL", l.cpu + 1, SLAVES);
    long sum = 0;
    for (int k = 1; k <= SLAVES; ++k) sum += l.cpu[k];
    int even = sum >= SLAVES;
    for (int k = 1; k <= SLAVES; ++k)
      if (l.cpu[k] * SLAVES - sum > s.threshold * SLAVES || sum - l.cpu[k] * SLAVES > s.threshold * SLAVES) even = 0;
    if (even && balanced_at < 0) balanced_at = (long)(now / 1000);
    struct request r;
    if ((!requests || now - last_req >= (unsigned long)s.migration_ms * 1000ul) && policy->decide(&l, &s, &r)) {
      ++requests;
      last_req = now;
      if (r.kind == TOS_RECONF_LINK) {
        int a, b;
        link_ends(r.link, &a, &b);
        out("move work from %d to %d to quieten link %d/%d-%d (mig #%d)\n", r.from, r.to, r.link + 1, a, b, requests);
      } else {
        out("move work from %d to %d to relieve processor %d (mig #%d)\n", r.from, r.to, r.from, requests);
      }
      int tid = reconfigure(r.from, r.kind, r.to);
      if (tid > 0) {
        ++moved;
        moving[requests % TRACKED].tid = tid & EV_TID_MASK;
        moving[requests % TRACKED].mig = requests;
        out("mig #%d: 0x%x leaves %d for %d\n", requests, tid, r.from, r.to);
      } else if (tid == 0) {
        ++waiting;
        out("mig #%d: no thread fits on %d now: the request waits there\n", requests, r.from);
      } else {
        out("mig #%d: refused by %d: %s\n", requests, r.from, tos_strerror(tid));
      }
    }
    if (s.duration_ms && now >= (unsigned long)s.duration_ms * 1000ul) break;
    long load = 0;
    for (int k = 1; k <= SLAVES; ++k) load += l.cpu[k];
    for (int i = 0; i < LINKS; ++i) load += l.lnk[i];
    seen_load |= load > 0;
    quiet = load ? 0 : quiet + 1;
    if (quiet_samples && seen_load && quiet >= quiet_samples) break;
  }
  if (balanced_at >= 0)
    out("balancer: %d requests, %d migrations; every slave's load within %ld of the mean from %ld ms\n", requests,
        moved, s.threshold, balanced_at);
  else
    out("balancer: %d requests, %d migrations; the slaves' loads were never within %ld of the mean\n", requests,
        moved, s.threshold);
  out("balancer: %d requests found no thread at once and waited on the slave\n", waiting);
  if (logf && fclose(logf) != 0) {
    printf("balancer: %s: could not be written\n", log_name);
    return 1;
  }
  return send_record(record_name);
}
