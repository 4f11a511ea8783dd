/* rgnbench: seed 003's measurements of shared regions and computation migration (Hsieh 1995,
 * section 7.2), run from the regions' home board (earth in the experiments); every number is
 * the simulated machine's clock (time_us) around operations that really run.
 *
 *   rgnbench ops SIZE MAXN STEP
 *       Tables 7.1/7.2: a client thread on air times each operation over n = 1, 1+STEP, ... MAXN
 *       distinct regions of SIZE bytes homed here (the regression's slope is one operation):
 *       start read hit, end read, start read miss with no invalidation, start write miss with
 *       one invalidation (fire holds a read copy) and with three (fire, water, space: every
 *       other slave). Lines: "ops NAME n us".
 *   rgnbench mig SIZES MAXN STEP [oam]
 *       Figures 7-1..7-6: for each size (comma separated), the client reads n remote regions by
 *       data migration (rgn_start_read/rgn_end_read on a flushed copy), by dynamic data
 *       migration (cm_call, the home's policy DATA) and by dynamic computation migration
 *       (cm_call of a null computation, policy RPC). Lines: "mig KIND SIZE n us". With "oam",
 *       the home runs the migrated computations as optimistic active messages (seed 003 6.2.3).
 *   rgnbench micro METHOD PCTS RUNS ITERS [SERVERS [timed]]
 *       Figures 7-7..7-10: one thread on every slave accesses one 256-byte region homed here,
 *       reading with probability PCT% (each of the comma separated PCTS) and writing otherwise,
 *       yielding after each access; run i (1..RUNS) has every thread do i*ITERS iterations.
 *       METHOD: data (rgn_start_*: data migration with replication), rpc, static, repeat
 *       (cm_call with the home's policy), each of the last three with "+oam" for optimistic
 *       active messages at the home. Lines: "micro METHOD PCT iters us"; with "+oam", after each
 *       PCT, "micro-oam PCT computed completed busy page budget call": the home's counts so far
 *       (computations run there; of them, handlers completed and aborts by cause). SERVERS (1 if
 *       not given): the server threads at the home that run migrated computations (and aborted
 *       handlers); the seed's thread implementation created a thread for every migration that
 *       arrived, so as many servers as callers (5) let no computation wait behind another's
 *       blocked access. "timed": each thread also reads the clock around every access and, at
 *       its end, prints "micro-op METHOD PCT iters clock C reads N US writes N US": C the cost
 *       of one clock read (two in a row, timed at its start), N the accesses of each kind and US
 *       their time, each with one clock read in it (the reads' and writes' costs, apart).
 * The client is driven over channels (only a thread on the process's home board may create
 * threads); helper threads take read copies on other boards and say so over a channel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/rand.h>
#include <tos/region.h>
#include <tos/tos.h>

#define MAXR 64
#define CLIENT 2 /* air */
#define CMD 1    /* main -> client */
#define REPLY 2  /* client -> main */
static rid_t ids[MAXR];
static void *home_r[MAXR];
static int nreg, reg_size;

static void fail(const char *what) {
  printf("rgnbench: FAIL: %s: %s\n", what, tos_strerror(tos_errno));
  exit(1);
}

static long null_fn(void *rgn, long arg) {
  (void)rgn;
  return arg;
}

/* ---- the client on air: one command at a time ---- */
enum { C_MAP, C_FLUSH, C_READ_MISS, C_END_READ, C_READ_HIT, C_WRITE, C_END_WRITE, C_CM_READ, C_QUIT };
struct cmd {
  int op, n;
};

static void client(void *unused) {
  (void)unused;
  void *r[MAXR];
  struct cmd c;
  for (;;) {
    if (receive(CMD, &c, sizeof c) != sizeof c) fail("client receive");
    unsigned long t0 = time_us();
    int how = 0;
    for (int i = 0; i < c.n; ++i) {
      switch (c.op) {
        case C_MAP:
          if (!(r[i] = rgn_map(ids[i]))) fail("rgn_map");
          break;
        case C_FLUSH:
          if (rgn_flush(r[i]) < 0) fail("rgn_flush");
          break;
        case C_READ_MISS:
        case C_READ_HIT:
          if (rgn_start_read(r[i]) < 0) fail("rgn_start_read");
          break;
        case C_END_READ:
          if (rgn_end_read(r[i]) < 0) fail("rgn_end_read");
          break;
        case C_WRITE:
          if (rgn_start_write(r[i]) < 0) fail("rgn_start_write");
          break;
        case C_END_WRITE:
          if (rgn_end_write(r[i]) < 0) fail("rgn_end_write");
          break;
        case C_CM_READ:
          cm_call_how(r[i], TOS_CM_READ, null_fn, i, &how);
          if (how < 0) fail("cm_call");
          break;
      }
    }
    long us = (long)(time_us() - t0);
    if (c.op == C_QUIT) exit(0);
    send_block(REPLY, &us, sizeof us);
  }
}

static long client_do(int op, int n) {
  struct cmd c = {op, n};
  long us;
  if (send_block(CMD, &c, sizeof c) < 0 || receive(REPLY, &us, sizeof us) != sizeof us) fail("client talk");
  return us;
}

/* A helper on board b takes a read copy of regions 0..n-1, says so in shared memory, and ends;
 * main collects the ends at the very last wait(). Helpers and workers run on the slaves only:
 * a thread created on the master from earth did not get past its first step that needs another
 * board (a channel send, a page) in these runs. */
static int helper_n;
static volatile int helper_done[TOS_BOARD_NAME_COUNT];
static void helper(void *arg) {
  int b = (int)arg;
  for (int i = 0; i < helper_n; ++i) {
    void *r = rgn_map(ids[i]);
    if (!r || rgn_start_read(r) < 0 || rgn_end_read(r) < 0) fail("helper read");
  }
  helper_done[b] = 1;
  exit(0);
}
static void copies_on(const int *boards, int nb, int n) {
  helper_n = n;
  for (int k = 0; k < nb; ++k) helper_done[boards[k]] = 0;
  for (int k = 0; k < nb; ++k)
    if (!create(100 + k, 4, boards[k], helper, (void *)boards[k])) fail("create helper");
  for (int k = 0; k < nb; ++k)
    while (!helper_done[boards[k]]) yield();
}

/* Every region back home alone: the home writes each (invalidating every copy). */
static void home_writes(int n) {
  for (int i = 0; i < n; ++i) {
    if (rgn_start_write(home_r[i]) < 0) fail("home write");
    ((long *)home_r[i])[0]++;
    rgn_end_write(home_r[i]);
  }
}

static void make_regions(int n, int size) {
  for (int i = 0; i < n; ++i) {
    if (!(ids[i] = rgn_create(size))) fail("rgn_create");
    if (!(home_r[i] = rgn_map(ids[i]))) fail("rgn_map");
  }
  nreg = n;
  reg_size = size;
}
static void drop_regions(void) {
  for (int i = 0; i < nreg; ++i) rgn_delete(home_r[i]);
  nreg = 0;
}

static void ops(int size, int maxn, int step) {
  static const int one[] = {3}, three[] = {3, 4, 5};
  make_regions(maxn, size);
  client_do(C_MAP, maxn);
  for (int n = 1; n <= maxn; n += step) {
    home_writes(n); /* the client's copies are gone */
    printf("ops read_miss %d %ld\n", n, client_do(C_READ_MISS, n));
    long end = client_do(C_END_READ, n), hit = -1;
    for (int k = 0; k < 3; ++k) { /* local operations: the least of a few (a timer tick may fall in one) */
      long h = client_do(C_READ_HIT, n), e = client_do(C_END_READ, n);
      if (hit < 0 || h < hit) hit = h;
      if (e < end) end = e;
    }
    printf("ops end_read %d %ld\n", n, end);
    printf("ops read_hit %d %ld\n", n, hit);
    home_writes(n);
    copies_on(one, 1, n);
    printf("ops write_inv1 %d %ld\n", n, client_do(C_WRITE, n));
    client_do(C_END_WRITE, n);
    home_writes(n);
    copies_on(three, 3, n);
    printf("ops write_inv3 %d %ld\n", n, client_do(C_WRITE, n));
    client_do(C_END_WRITE, n);
  }
  drop_regions();
}

static void mig(const char *sizes, int maxn, int step) {
  for (const char *s = sizes; *s;) {
    int size = atoi(s);
    make_regions(maxn, size);
    client_do(C_MAP, maxn);
    for (int n = 1; n <= maxn; n += step) {
      home_writes(n);
      printf("mig data %d %d %ld\n", size, n, client_do(C_READ_MISS, n) + client_do(C_END_READ, n));
      for (int i = 0; i < n; ++i) rgn_policy(home_r[i], TOS_CM_POLICY_DATA);
      home_writes(n);
      printf("mig dyndata %d %d %ld\n", size, n, client_do(C_CM_READ, n));
      for (int i = 0; i < n; ++i) rgn_policy(home_r[i], TOS_CM_POLICY_RPC);
      home_writes(n);
      printf("mig dyncomp %d %d %ld\n", size, n, client_do(C_CM_READ, n));
    }
    drop_regions();
    while (*s && *s != ',') ++s;
    if (*s == ',') ++s;
  }
}

/* ---- the microbenchmark ---- */
static int m_method, m_pct, m_iters, m_timed;
static const char *m_name;
static long m_read(void *rgn, long arg) {
  (void)arg;
  return ((volatile long *)rgn)[1];
}
static long m_write(void *rgn, long arg) {
  return ((long *)rgn)[1] += arg;
}
static void worker(void *arg) {
  uint32_t seed = 0x9E3779B9u * (uint32_t)((int)arg + 1);
  void *r = rgn_map(ids[0]);
  if (!r) fail("worker map");
  unsigned long clock = 0, t0 = 0, us[2] = {0, 0}, n[2] = {0, 0};
  if (m_timed) {
    t0 = time_us();
    clock = time_us() - t0;
  }
  for (int i = 0; i < m_iters; ++i) {
    seed = TOS_RAND_NEXT(seed);
    int read = (int)((seed >> 16) % 100) < m_pct;
    if (m_timed) t0 = time_us();
    if (m_method == TOS_CM_POLICY_DATA) { /* data migration with replication: CRL's calls */
      if ((read ? rgn_start_read(r) : rgn_start_write(r)) < 0) fail("worker access");
      if (read) (void)m_read(r, 0);
      else m_write(r, 1);
      if (read) rgn_end_read(r);
      else rgn_end_write(r);
    } else {
      int how;
      cm_call_how(r, read ? TOS_CM_READ : TOS_CM_WRITE, read ? m_read : m_write, 1, &how);
      if (how < 0) fail("worker cm_call");
    }
    if (m_timed) {
      us[read] += time_us() - t0;
      ++n[read];
    }
    yield();
  }
  if (m_timed)
    printf("micro-op %s %d %d clock %lu reads %lu %lu writes %lu %lu\n", m_name, m_pct, m_iters, clock, n[1], us[1],
           n[0], us[0]);
  exit(0);
}

static void micro_driver(void *arg) {
  const char **a = arg;
  const char *pcts = a[0];
  int runs = atoi(a[1]), iters = atoi(a[2]);
  for (const char *s = pcts; *s;) {
    m_pct = atoi(s);
    for (int i = 1; i <= runs; ++i) {
      m_iters = i * iters;
      unsigned long t0 = time_us();
      for (int b = 1; b < TOS_BOARD_NAME_COUNT; ++b) /* the slaves (see helper) */
        if (!create(b, 4, b, worker, (void *)b)) fail("create worker");
      if (wait() != 0) fail("a worker");
      printf("micro %s %d %d %ld\n", a[3], m_pct, m_iters, (long)(time_us() - t0));
    }
    if (strstr(a[3], "+oam")) /* how its handlers ended so far: the analysis takes each share's difference */
      printf("micro-oam %d %ld %ld %ld %ld %ld %ld\n", m_pct, rgn_count(home_r[0], TOS_CM_COUNT_COMPUTE),
             rgn_count(home_r[0], TOS_CM_COUNT_OAM), rgn_count(home_r[0], TOS_CM_COUNT_ABORT_BUSY),
             rgn_count(home_r[0], TOS_CM_COUNT_ABORT_PAGE), rgn_count(home_r[0], TOS_CM_COUNT_ABORT_BUDGET),
             rgn_count(home_r[0], TOS_CM_COUNT_ABORT_CALL));
    while (*s && *s != ',') ++s;
    if (*s == ',') ++s;
  }
  cm_serve_stop();
  exit(0);
}

static void micro(const char *method, const char *pcts, const char *runs, const char *iters, int servers, int timed) {
  m_method = cm_policy_named(method);
  m_name = method;
  m_timed = timed;
  if (m_method < 0) fail("method (data, rpc, static or repeat)");
  make_regions(1, 256);
  rgn_policy(home_r[0], m_method);
  for (int k = 0; k < servers; ++k)
    if (!cm_serve_start(4)) fail("cm_serve_start");
  static const char *a[4];
  a[0] = pcts;
  a[1] = runs;
  a[2] = iters;
  a[3] = method;
  if (!create(99, 8, HERE, micro_driver, a)) fail("create driver");
  if (wait() != 0) fail("micro");
  printf("micro: decisions data %ld computation %ld\n", rgn_count(home_r[0], TOS_CM_COUNT_DATA),
         rgn_count(home_r[0], TOS_CM_COUNT_COMPUTE));
  if (strstr(method, "+oam"))
    printf("micro: optimistic active messages completed %ld, aborted: region busy %ld, page away %ld, past the "
           "budget %ld, system call %ld\n", rgn_count(home_r[0], TOS_CM_COUNT_OAM),
           rgn_count(home_r[0], TOS_CM_COUNT_ABORT_BUSY), rgn_count(home_r[0], TOS_CM_COUNT_ABORT_PAGE),
           rgn_count(home_r[0], TOS_CM_COUNT_ABORT_BUDGET), rgn_count(home_r[0], TOS_CM_COUNT_ABORT_CALL));
}

int main(int argc, char **argv) {
  if (argc >= 5 && !strcmp(argv[1], "ops")) {
    if (!create(1, 4, CLIENT, client, NULL)) fail("create client");
    ops(atoi(argv[2]), atoi(argv[3]) > MAXR ? MAXR : atoi(argv[3]), atoi(argv[4]) > 0 ? atoi(argv[4]) : 1);
  } else if (argc >= 5 && !strcmp(argv[1], "mig")) {
    cm_oam(argc >= 6 && !strcmp(argv[5], "oam"));
    if (!cm_serve_start(4)) fail("cm_serve_start"); /* the home's server: computation migration */
    if (!create(1, 4, CLIENT, client, NULL)) fail("create client");
    mig(argv[2], atoi(argv[3]) > MAXR ? MAXR : atoi(argv[3]), atoi(argv[4]) > 0 ? atoi(argv[4]) : 1);
  } else if (argc >= 6 && !strcmp(argv[1], "micro")) {
    micro(argv[2], argv[3], argv[4], argv[5], argc >= 7 && atoi(argv[6]) > 0 ? atoi(argv[6]) : 1,
          argc >= 8 && !strcmp(argv[7], "timed"));
    printf("rgnbench: done\n");
    return 0;
  } else {
    printf("usage: rgnbench ops SIZE MAXN STEP | mig SIZES MAXN STEP [oam] | micro METHOD PCTS RUNS ITERS [SERVERS [timed]]\n");
    return 2;
  }
  struct cmd q = {C_QUIT, 0};
  send_block(CMD, &q, sizeof q);
  cm_serve_stop();
  wait();
  printf("rgnbench: done\n");
  return 0;
}
