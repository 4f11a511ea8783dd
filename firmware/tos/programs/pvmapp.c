/* Seed 001's applications that gain from migration (Overeinder et al. 1996, section 4.4-4.5,
 * Tables 4-5, Figures 5-6): a NAS-like kernel -- EP, the NAS Parallel Benchmarks' embarrassingly
 * parallel kernel (Gaussian pairs by the polar method from NAS's LCG, counted in square annuli) --
 * written with the PVM-style task layer (lib/pvm.c): a master task here, one worker task on each
 * of WORKER boards, ITERS iterations coordinated by the master as the seed's 25 iterations (each
 * worker does one batch of NK pairs per iteration; the master adds the batches' sums in a fixed
 * order, so every run's result is the same bits).
 *   pvmapp ITERS NK [BOARD:START:DUR ...]
 * runs the application three times in one job, with the same tasks:
 *   unloaded  no background load;
 *   static    PVM: the scripted load, tasks stay where they were spawned;
 *   dynamic   DynamicPVM: the scripted load, and a task on a board that became busy is moved
 *             whole to an idle board by DynamicPVM's global scheduler, a task of its own.
 * The scripted load is the seed's "owner returns to the workstation": at START percent of the
 * unloaded run's time a `busy` process (programs/busy.c) puts two compute-bound threads on BOARD
 * for DUR percent of it, then leaves. It is another process, started by a thread of this one
 * that only keeps the script's clock; the application learns about it only by measuring.
 *
 * The policy (DynamicPVM's global scheduler, a task on the master task's board): a board's load
 * is measured, not told -- a worker's board by the worker's batch time against the same batch's
 * in the unloaded run, a board without a worker by a probe thread made there each iteration that
 * times a fixed amount of computing (longer than a slice, so that it waits for every other thread
 * there) against the same amount on the master's board before the runs. The master sends the
 * scheduler each iteration's readings when it has handed out the next batches; a worker whose
 * board's load is over BUSY (in BUSY_ITERS iterations in a row) goes to the least-loaded board
 * under IDLE (ties: the highest board), one per board: the scheduler moves it with pvm_move while
 * it computes that batch (held back while the task is inside a PVM call: the seed's critical
 * section) and tells the master where it sent whom; the task's pages follow on first touch.
 *
 * Output (per run): "pvmapp: run NAME", "pvmapp: iter RUN IT MS [board:comp_us:load%]...",
 * "pvmapp: probe RUN IT [board:load%]...", "pvmapp: move RUN IT W FROM TO MOVE_US EXCESS_US"
 * (MOVE_US: the scheduler's pvm_move; EXCESS_US: the batch it moved in over the same batch
 * unloaded), "pvmapp: unmoved RUN IT W TO" (a pvm_move that gave up),
 * "pvmapp: result RUN q0..q9 SXHI SXLO SYHI SYLO" (the sums' IEEE bits), "pvmapp: time RUN MS
 * migrations N"; "pvmapp: owner ..." from the load script; "pvmapp: done" at the end, or
 * "pvmapp: FAIL ..." on any error. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tos/pvm.h>
#include <tos/tos.h>

#define WORKER 3          /* worker tasks, on boards 2..4 (air, fire, water) at spawn */
#define FIRST_WORKER_BOARD 2
#define MAX_NK 2048       /* pairs per batch: the batch's randoms are an array, as NAS EP's */
#define NQ 10
#define MAX_LOADS 8
#define MAX_BOARDS 6
#define PROBE_US 60000ul  /* a probe's computing: three slices, so it waits for every other thread */
#define BUSY 150          /* percent: a board this loaded is busy */
#define IDLE 125          /* percent: a board under this is idle */
#define BUSY_ITERS 1      /* iterations in a row a board must be busy before its task leaves (1: at once,
                           * as DynamicPVM acts on one load reading; more: against short bursts) */
#define TAG_WORK 1
#define TAG_RESULT 2
#define TAG_LOAD 3  /* master -> scheduler: the last iteration's readings (iteration -1: end) */
#define TAG_MOVED 4 /* scheduler -> master: the moves it made */
#define LOAD_THREADS 2    /* the owner's compute-bound threads */

enum { R_UNLOADED, R_STATIC, R_DYNAMIC, R_N };
static const char *const run_name[R_N] = {"unloaded", "static", "dynamic"};

/* each worker's randoms on pages of its own (only that worker touches them) */
static double xs[WORKER][2 * MAX_NK] __attribute__((aligned(1024)));

/* what every task reads, on a page of its own written only before the tasks start: each board
 * keeps a read copy (a variable the master writes on the page would take the copies away) */
static struct {
  int master_tid, nk, iters, nboards;
  unsigned long probe_rounds;
  char pad[1024 - 5 * 4];
} cfg __attribute__((aligned(1024)));
#define master_tid cfg.master_tid
#define nk cfg.nk
#define iters cfg.iters
#define nboards cfg.nboards
#define probe_rounds cfg.probe_rounds

/* What the master says during a run is kept here and printed after it: printf writes the C
 * library's stdout state, on the data page that also holds libm's __fdlib_version, which every
 * log() and sqrt() of the workers reads; each line printed mid-run would take the workers' read
 * copies of that page away and make them fetch it again from this board (measured: remote
 * batches about a third slower, and uneven, when the master printed as it went). */
static struct {
  int used;
  char text[16380];
} say_buf __attribute__((aligned(1024)));
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int room = (int)sizeof say_buf.text - say_buf.used;
  int n = room > 0 ? vsnprintf(say_buf.text + say_buf.used, (size_t)room, fmt, ap) : 0;
  va_end(ap);
  say_buf.used = n > 0 && n < room ? say_buf.used + n : (int)sizeof say_buf.text; /* full: the rest is lost, and said */
}
static int say_flush(void) { /* 1: lines were lost */
  int full = say_buf.used >= (int)sizeof say_buf.text;
  if (full) say_buf.text[sizeof say_buf.text - 1] = 0;
  printf("%s", say_buf.text);
  if (full) printf("pvmapp: FAIL the run's lines did not fit in %d bytes\n", (int)sizeof say_buf.text);
  say_buf.used = 0;
  say_buf.text[0] = 0;
  return full;
}

/* NAS EP's generator: x <- a x mod 2^46, a = 5^13, from 271828183; uniform = x / 2^46 */
#define A_LCG 1220703125ull
#define SEED_LCG 271828183ull
#define MASK46 ((1ull << 46) - 1)

static uint64_t lcg_jump(uint64_t n) { /* a^n mod 2^46 by squaring */
  uint64_t r = 1, b = A_LCG;
  while (n) {
    if (n & 1) r = (r * b) & MASK46;
    b = (b * b) & MASK46;
    n >>= 1;
  }
  return r;
}

struct result {
  int g, board, comp_us;
  int q[NQ];
  double sx, sy;
};

/* batch g: pairs g*nk .. g*nk+nk-1 of the stream, randoms 2*nk*g .. */
static void ep_batch(int w, int g, struct result *r) {
  double *x = xs[w];
  uint64_t s = (SEED_LCG * lcg_jump(2ull * (uint64_t)nk * (uint64_t)g)) & MASK46;
  for (int i = 0; i < 2 * nk; ++i) {
    s = (s * A_LCG) & MASK46;
    x[i] = (double)s * 0x1p-46;
  }
  double sx = 0, sy = 0;
  for (int i = 0; i < NQ; ++i) r->q[i] = 0;
  for (int i = 0; i < nk; ++i) {
    double x1 = 2.0 * x[2 * i] - 1.0, x2 = 2.0 * x[2 * i + 1] - 1.0;
    double t1 = x1 * x1 + x2 * x2;
    if (t1 <= 1.0 && t1 > 0.0) {
      double t2 = sqrt(-2.0 * log(t1) / t1), t3 = x1 * t2, t4 = x2 * t2;
      double m = fabs(t3) > fabs(t4) ? fabs(t3) : fabs(t4);
      int l = (int)m;
      if (l < NQ) ++r->q[l];
      sx += t3;
      sy += t4;
    }
  }
  r->sx = sx;
  r->sy = sy;
}

static void worker(void *arg) {
  int w = (int)(long)arg;
  for (;;) {
    int cmd[3]; /* iteration's batch (-1: end) */
    if (pvm_recv(master_tid, TAG_WORK) < 0 || pvm_upkint(cmd, 3, 1) != 0) exit(3);
    if (cmd[0] < 0) break;
    struct result r;
    memset(&r, 0, sizeof r);
    r.g = cmd[0];
    unsigned long t0 = time_us();
    ep_batch(w, r.g, &r);
    r.comp_us = (int)(time_us() - t0);
    r.board = HERE; /* where it ends the batch: the scheduler may have moved it during it */
    int hdr[3] = {r.g, r.board, r.comp_us};
    if (pvm_initsend() != 0 || pvm_pkint(hdr, 3, 1) != 0 || pvm_pkint(r.q, NQ, 1) != 0 || pvm_pkdouble(&r.sx, 1, 1) != 0 ||
        pvm_pkdouble(&r.sy, 1, 1) != 0 || pvm_send(master_tid, TAG_RESULT) != 0)
      exit(4);
  }
}

static int wtid[WORKER];

/* DynamicPVM's global scheduler, a task of its own: each iteration the master's readings of the
 * last one (each board's load in percent of unloaded, which boards a probe measured, where each
 * worker answered from, which ones had just moved); it decides and moves. A first batch on a new
 * board carries its pages and its move: not a load. */
static void scheduler(void *arg) {
  (void)arg;
  int busy_for[WORKER] = {0};
  for (;;) {
    int it, load[MAX_BOARDS], probed[MAX_BOARDS], wboard[WORKER], moved[WORKER];
    if (pvm_recv(master_tid, TAG_LOAD) < 0 || pvm_upkint(&it, 1, 1) != 0) exit(5);
    if (it < 0) break;
    if (pvm_upkint(load, MAX_BOARDS, 1) != 0 || pvm_upkint(probed, MAX_BOARDS, 1) != 0 ||
        pvm_upkint(wboard, WORKER, 1) != 0 || pvm_upkint(moved, WORKER, 1) != 0)
      exit(5);
    if (it == 1) /* a new run */
      for (int w = 0; w < WORKER; ++w) busy_for[w] = 0;
    int taken[MAX_BOARDS] = {0}, out[WORKER][4], n = 0;
    for (int w = 0; w < WORKER; ++w)
      if (wboard[w] < 0 || wboard[w] >= MAX_BOARDS) exit(5);
      else taken[wboard[w]] = 1;
    for (int w = 0; w < WORKER; ++w) {
      busy_for[w] = load[wboard[w]] > BUSY && !moved[w] ? busy_for[w] + 1 : 0;
      if (busy_for[w] < BUSY_ITERS) continue;
      int best = -1;
      for (int b = nboards - 1; b >= 1; --b)
        if (b < MAX_BOARDS && probed[b] && !taken[b] && load[b] < IDLE && (best < 0 || load[b] < load[best])) best = b;
      if (best < 0) continue;
      taken[best] = 1;
      busy_for[w] = 0;
      unsigned long t = time_us();
      int rc = pvm_move(wtid[w], best); /* waits while the task is inside a PVM call */
      out[n][0] = w, out[n][1] = wboard[w], out[n][2] = best;
      out[n][3] = rc == 0 ? (int)(time_us() - t) : -1;
      ++n;
    }
    /* (packed as the master unpacks: the count, then each move) */
    if (pvm_initsend() != 0 || pvm_pkint(&n, 1, 1) != 0) exit(5);
    for (int k = 0; k < n; ++k)
      if (pvm_pkint(out[k], 4, 1) != 0) exit(5);
    if (pvm_send(master_tid, TAG_MOVED) != 0) exit(5);
  }
  exit(0);
}

/* the probe: a fixed amount of computing, timed; its microseconds to the master on channel BOARD */
/* a fixed count of loop rounds, calibrated once on the master task's board, not a clock: on a
 * loaded board the same rounds take longer */
static unsigned long spin(unsigned long rounds) {
  volatile unsigned long sink = 0;
  unsigned long t0 = time_us();
  for (unsigned long i = 0; i < rounds; ++i)
    for (volatile int k = 0; k < 4; ++k) sink += k;
  return time_us() - t0;
}
static void probe(void *arg) {
  int b = (int)(long)arg;
  unsigned long us = spin(probe_rounds);
  send_block(b, &us, sizeof us);
  exit(0);
}

/* the owner's load: script entries in percent of the unloaded run */
struct load { int board, start, dur; };
static struct load loads[MAX_LOADS];
static int nloads;
static unsigned long script_base_us; /* the unloaded run's time */
#define CH_OWNERS 0 /* master <-> starter: the run is over; the owners have gone */
#define CH_START 6  /* clock -> starter: load i begins (-1: the last has begun) */

/* The script's clock, on the master board (board 0, where no task or probe runs): TOS has no
 * sleep, so it polls the clock, yielding; on a slave its turns would be a load of their own.
 * Every load starts within the unloaded run's time (START <= 100%), so before a loaded run ends. */
static void owner_clock(void *arg) {
  unsigned long t0 = (unsigned long)arg;
  int order[MAX_LOADS];
  for (int i = 0; i < nloads; ++i) order[i] = i;
  for (int i = 1; i < nloads; ++i) /* by start time */
    for (int k = i; k > 0 && loads[order[k]].start < loads[order[k - 1]].start; --k) {
      int t = order[k];
      order[k] = order[k - 1];
      order[k - 1] = t;
    }
  for (int i = 0; i < nloads; ++i) {
    unsigned long at = script_base_us / 100 * (unsigned long)loads[order[i]].start;
    while (time_us() - t0 < at) yield();
    send_block(CH_START, &order[i], sizeof order[i]);
  }
  int end = -1;
  send_block(CH_START, &end, sizeof end);
  exit(0);
}

/* The owners, on the master task's board: each load a `busy` process, ended when the run ends;
 * what happened is recorded for the master to say after the run (say_buf's reason) */
static struct owner { int board, pid; unsigned long at_ms, ms; } owners[MAX_LOADS];
static void starter(void *arg) {
  unsigned long t0 = (unsigned long)arg;
  int n = 0, i;
  while (receive(CH_START, &i, sizeof i) == sizeof i && i >= 0 && i < nloads) {
    struct load *l = &loads[i];
    unsigned long ms = script_base_us / 100000 * (unsigned long)l->dur;
    char args[48];
    sprintf(args, "busy %d %lu 0 %d", LOAD_THREADS, ms ? ms : 1, l->board);
    unsigned long at = (time_us() - t0) / 1000;
    int pid = spawn("busy", args);
    owners[n].board = l->board, owners[n].at_ms = at, owners[n].ms = ms, owners[n].pid = pid;
    ++n;
  }
  receive(CH_OWNERS, &i, sizeof i); /* the run is over */
  for (int k = 0; k < n; ++k)
    if (owners[k].pid >= 0) {
      kill(owners[k].pid); /* gone already: refused, harmless */
      pwait(owners[k].pid);
    }
  send_block(CH_OWNERS, &n, sizeof n);
  exit(0);
}

static int wboard[WORKER], sched_tid;
#define MAX_ITERS 1000
static int ref_us[MAX_ITERS * WORKER]; /* each batch's time in the unloaded run: the same work later */
static unsigned long probe_ref_us;
static int fails;

static int run(int r, int qsum[NQ], double *sx, double *sy) {
  say("pvmapp: run %s\n", run_name[r]);
  unsigned long t0 = time_us();
  int scripted = r != R_UNLOADED && nloads;
  if (scripted && (!create(60, 4, HERE, starter, (void *)t0) || !create(61, 4, 0, owner_clock, (void *)t0))) {
    printf("pvmapp: FAIL the load script: %s\n", tos_strerror(tos_errno));
    return -1;
  }
  int move_to[WORKER], move_us[WORKER], migrations = 0, moved[WORKER];
  int last_load[MAX_BOARDS] = {0}, last_probed[MAX_BOARDS] = {0};
  for (int w = 0; w < WORKER; ++w) moved[w] = 0;
  for (int i = 0; i < NQ; ++i) qsum[i] = 0;
  *sx = *sy = 0;
  for (int it = 0; it < iters; ++it) {
    int from[WORKER];
    for (int w = 0; w < WORKER; ++w) {
      int cmd[3] = {it * WORKER + w, -1, 0};
      from[w] = wboard[w];
      if (pvm_initsend() != 0 || pvm_pkint(cmd, 3, 1) != 0 || pvm_send(wtid[w], TAG_WORK) != 0) {
        printf("pvmapp: FAIL send to worker %d\n", w);
        return -1;
      }
    }
    for (int w = 0; w < WORKER; ++w) move_to[w] = -1, move_us[w] = 0;
    if (r == R_DYNAMIC && it > 0) { /* the scheduler decides from the last readings and moves during these batches */
      int n = 0, mv[4];
      if (pvm_initsend() != 0 || pvm_pkint(&it, 1, 1) != 0 || pvm_pkint(last_load, MAX_BOARDS, 1) != 0 ||
          pvm_pkint(last_probed, MAX_BOARDS, 1) != 0 || pvm_pkint(wboard, WORKER, 1) != 0 ||
          pvm_pkint(moved, WORKER, 1) != 0 || pvm_send(sched_tid, TAG_LOAD) != 0 ||
          pvm_recv(sched_tid, TAG_MOVED) < 0 || pvm_upkint(&n, 1, 1) != 0 || n < 0 || n > WORKER) {
        printf("pvmapp: FAIL the scheduler's answer\n");
        return -1;
      }
      for (int k = 0; k < n; ++k) {
        if (pvm_upkint(mv, 4, 1) != 0 || mv[0] < 0 || mv[0] >= WORKER || mv[2] < 1 || mv[2] >= nboards) {
          printf("pvmapp: FAIL the scheduler's move %d\n", k);
          return -1;
        }
        if (mv[3] < 0) {
          say("pvmapp: unmoved %s %d %d %d\n", run_name[r], it, mv[0], mv[2]);
        } else {
          move_to[mv[0]] = mv[2];
          move_us[mv[0]] = mv[3];
        }
      }
    }
    for (int w = 0; w < WORKER; ++w) moved[w] = 0;
    /* probes on the boards without a worker (the master's board too: it mostly waits) */
    int has[MAX_BOARDS] = {0}, probed[MAX_BOARDS] = {0}, load[MAX_BOARDS] = {0};
    for (int w = 0; w < WORKER; ++w) has[move_to[w] >= 0 ? move_to[w] : wboard[w]] = 1;
    for (int b = 1; b < nboards && b < MAX_BOARDS; ++b)
      if (!has[b]) {
        if (!create(40 + b, 2, b, probe, (void *)(long)b)) {
          printf("pvmapp: FAIL probe on board %d: %s\n", b, tos_strerror(tos_errno));
          return -1;
        }
        probed[b] = 1;
      }
    char line[160];
    int n = sprintf(line, "pvmapp: probe %s %d", run_name[r], it);
    for (int b = 1; b < nboards && b < MAX_BOARDS; ++b)
      if (probed[b]) {
        unsigned long us;
        if (receive(b, &us, sizeof us) != sizeof us) {
          printf("pvmapp: FAIL probe answer from board %d\n", b);
          return -1;
        }
        load[b] = (int)(us * 100 / probe_ref_us);
        n += sprintf(line + n, " %d:%d", b, load[b]);
      }
    say("%s\n", line);
    n = 0;
    for (int w = 0; w < WORKER; ++w) {
      int hdr[3], q[NQ];
      double bx, by;
      if (pvm_recv(wtid[w], TAG_RESULT) < 0 || pvm_upkint(hdr, 3, 1) != 0 || pvm_upkint(q, NQ, 1) != 0 ||
          pvm_upkdouble(&bx, 1, 1) != 0 || pvm_upkdouble(&by, 1, 1) != 0) {
        printf("pvmapp: FAIL result of worker %d\n", w);
        return -1;
      }
      if (hdr[0] != it * WORKER + w || hdr[1] < 1 || hdr[1] >= nboards || hdr[2] <= 0) {
        printf("pvmapp: FAIL worker %d answered batch %d from board %d (asked batch %d)\n", w, hdr[0], hdr[1],
               it * WORKER + w);
        return -1;
      }
      for (int i = 0; i < NQ; ++i) qsum[i] += q[i];
      *sx += bx;
      *sy += by;
      if (move_to[w] >= 0) {
        if (hdr[1] != move_to[w]) {
          printf("pvmapp: FAIL worker %d was not moved to board %d (on %d)\n", w, move_to[w], hdr[1]);
          ++fails;
        } else {
          ++migrations;
          moved[w] = 1;
          /* the batch it moved in against the same batch unloaded: the move and the pages coming after it */
          say("pvmapp: move %s %d %d %d %d %d %d\n", run_name[r], it, w, from[w], hdr[1], move_us[w],
                 hdr[2] - ref_us[hdr[0]]);
        }
      } else if (hdr[1] != from[w]) {
        printf("pvmapp: FAIL worker %d answered from board %d, not %d\n", w, hdr[1], from[w]);
        ++fails;
      }
      wboard[w] = hdr[1];
      if (r == R_UNLOADED) ref_us[hdr[0]] = hdr[2];
      load[hdr[1]] = (int)((long)hdr[2] * 100 / ref_us[hdr[0]]);
      n += sprintf(line + n, " %d:%d:%d", hdr[1], hdr[2], load[hdr[1]]);
    }
    say("pvmapp: iter %s %d %lu%s\n", run_name[r], it, (time_us() - t0) / 1000, line);
    memcpy(last_load, load, sizeof load);
    memcpy(last_probed, probed, sizeof probed);
  }
  unsigned long ms = (time_us() - t0) / 1000;
  if (scripted) { /* the owners leave: the next run starts unloaded */
    int n = 0;
    if (send_block(CH_OWNERS, &n, sizeof n) != 0 || receive(CH_OWNERS, &n, sizeof n) != sizeof n) {
      printf("pvmapp: FAIL the load script did not end\n");
      return -1;
    }
    for (int k = 0; k < n && k < MAX_LOADS; ++k)
      say("pvmapp: owner returns to board %d at %lu ms for %lu ms%s%s\n", owners[k].board, owners[k].at_ms, owners[k].ms,
          owners[k].pid < 0 ? ": " : "", owners[k].pid < 0 ? tos_strerror(-owners[k].pid) : "");
  }
  if (r == R_UNLOADED) script_base_us = ms * 1000;
  uint32_t bits[4];
  memcpy(bits, sx, 8);
  memcpy(bits + 2, sy, 8);
  if (say_flush()) ++fails;
  printf("pvmapp: result %s", run_name[r]);
  for (int i = 0; i < NQ; ++i) printf(" %d", qsum[i]);
  printf(" %08lx %08lx %08lx %08lx\n", (unsigned long)bits[0], (unsigned long)bits[1], (unsigned long)bits[2],
         (unsigned long)bits[3]);
  printf("pvmapp: time %s %lu migrations %d\n", run_name[r], ms, migrations);
  return 0;
}

int main(int argc, char **argv) {
  iters = argc > 2 ? atoi(argv[1]) : 0;
  nk = argc > 2 ? atoi(argv[2]) : 0;
  nboards = (int)tos_info(TOS_INFO_BOARDS);
  if (nboards > MAX_BOARDS) nboards = MAX_BOARDS; /* the Testbed's six: a larger machine's others stay unused */
  if (iters < 2 || iters > MAX_ITERS || nk < 1 || nk > MAX_NK || nboards < FIRST_WORKER_BOARD + WORKER) {
    printf("usage: pvmapp ITERS(2..%d) NK(1..%d) [BOARD:START%%(0..100):DUR%%(1..1000) ...] (a machine of at least %d "
           "boards)\n", MAX_ITERS, MAX_NK, FIRST_WORKER_BOARD + WORKER);
    return 2;
  }
  for (int a = 3; a < argc; ++a) {
    struct load l;
    char *e;
    l.board = (int)strtol(argv[a], &e, 10);
    if (*e == ':') l.start = (int)strtol(e + 1, &e, 10);
    if (*e == ':') l.dur = (int)strtol(e + 1, &e, 10);
    else e = "?";
    if (*e || nloads == MAX_LOADS || l.board < 1 || l.board >= nboards || l.start < 0 || l.start > 100 || l.dur < 1 ||
        l.dur > 1000) {
      printf("pvmapp: FAIL load '%s': BOARD(1..%d):START%%(0..100):DUR%%(1..1000), at most %d\n", argv[a], nboards - 1,
             MAX_LOADS);
      return 2;
    }
    loads[nloads++] = l;
  }
  master_tid = pvm_init();
  if (master_tid < 0) {
    printf("pvmapp: FAIL pvm_init %d\n", master_tid);
    return 1;
  }
  /* the probe's rounds: PROBE_US of this (unloaded) board's computing */
  {
    unsigned long us;
    probe_rounds = 1000;
    do {
      probe_rounds *= 2;
      us = spin(probe_rounds);
    } while (us < PROBE_US / 4);
    probe_rounds = probe_rounds * PROBE_US / us;
    probe_ref_us = spin(probe_rounds);
  }
  for (int w = 0; w < WORKER; ++w) {
    wboard[w] = FIRST_WORKER_BOARD + w;
    wtid[w] = pvm_spawn(worker, (void *)(long)w, wboard[w], 8);
    if (wtid[w] < 0) {
      printf("pvmapp: FAIL pvm_spawn on board %d: %d\n", wboard[w], wtid[w]);
      return 1;
    }
  }
  sched_tid = pvm_spawn(scheduler, NULL, HERE, 4);
  if (sched_tid < 0) {
    printf("pvmapp: FAIL pvm_spawn of the scheduler: %d\n", sched_tid);
    return 1;
  }
  printf("pvmapp: %d workers on boards %d..%d, %d iterations of %d pairs each, probe %lu us\n", WORKER,
         FIRST_WORKER_BOARD, FIRST_WORKER_BOARD + WORKER - 1, iters, nk, probe_ref_us);
  int q[R_N][NQ];
  double sx[R_N], sy[R_N];
  for (int r = 0; r < R_N; ++r) {
    if (run(r, q[r], &sx[r], &sy[r]) != 0) {
      say_flush(); /* the run's lines so far, after its FAIL line */
      return 1;
    }
    if (r > 0 && (memcmp(q[r], q[0], sizeof q[0]) || memcmp(&sx[r], &sx[0], 8) || memcmp(&sy[r], &sy[0], 8))) {
      printf("pvmapp: FAIL run %s's result differs from the unloaded run's\n", run_name[r]);
      ++fails;
    }
  }
  for (int w = 0; w < WORKER; ++w) {
    int cmd[3] = {-1, -1, 0};
    if (pvm_initsend() != 0 || pvm_pkint(cmd, 3, 1) != 0 || pvm_send(wtid[w], TAG_WORK) != 0) return 1;
  }
  int end = -1;
  if (pvm_initsend() != 0 || pvm_pkint(&end, 1, 1) != 0 || pvm_send(sched_tid, TAG_LOAD) != 0) return 1;
  int rc = wait();
  unsigned long ref = 0;
  for (int i = 0; i < PVM_R_N; ++i) ref += pvm_refused(i);
  if (rc || ref || fails) {
    printf("pvmapp: FAIL %d errors, %lu messages refused, children's exit %d\n", fails, ref, rc);
    return 1;
  }
  printf("pvmapp: done\n");
  return 0;
}
