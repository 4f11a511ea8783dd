/* barjob: seed 004's synchronizing job on the Testbed (issue 34; testbed-experiment seed004).
 *   barjob SLAVES BG BARRIERS MU_US SIGMA_US POLICY WAKE [SEED [BOARD]]
 * One synchronizing thread on each of the first SLAVES slaves (boards 1..SLAVES) computes a
 * normally distributed interval (mean MU_US, spread SIGMA_US), then waits at the job's barrier,
 * BARRIERS times; BG compute-bound threads of the same process run on each of those boards for
 * as long as the job does (the seed's non-synchronizing threads, chapter 3). POLICY: block,
 * spin, cs, cs+, 2cs+ (two-phase, the spin limit 100%, 110%, 210% of the thread switch measured
 * here: the seed's CS = in + out, CS+ a little more, 2CS+ twice that and a little) or a number
 * of microseconds. WAKE: tail or head, set on every board used (sched_wakeup). BOARD (0 or absent:
 * the placement above) puts all SLAVES job threads and BG background threads on that one board
 * instead: on the process's home board a barrier completes and releases its waiters there, with
 * no kernel message (the spin-limit sweep's same-board placement). Prints one line:
 *   barjob: policy P wake W load L cs_us C limit_us M elapsed_us E spins S ok K blocks B last A
 * (L: the job's and background threads together), ending in " board N" when BOARD was given.
 * Several barjob processes started together are chapter 4's set of identical jobs. */
#include <tos/rand.h>
#include <tos/tos.h>

static int slaves, bg, barriers, bar, start_bar, one_board;
static long mu, sigma;
struct result {
  int k;
  struct barrier_stats st;
  unsigned long elapsed_us; /* from the start barrier to the last, on the thread's own clock */
};
static unsigned seed0 = 1;

static unsigned rnd(unsigned *s) { *s = TOS_RAND_NEXT(*s); return (*s >> 8) & 0xFFFFFF; }
/* mean + spread * N(0,1), the normal as the sum of twelve uniforms less six (Irwin-Hall), in
 * integers: the 68010 has no floating point, and a soft-float log and cos would take longer than
 * the seed's finest computation interval */
static long gauss(unsigned *s, long mean, long spread) {
  long sum = 0;
  for (int i = 0; i < 12; ++i) sum += (long)(rnd(s) & 4095);
  return mean + spread * (sum - 6 * 4096) / 4096;
}

static void compute_us(long us) {
  unsigned long t0 = time_us();
  while ((long)(time_us() - t0) < us) {
    for (volatile int i = 0; i < 20; ++i) {
    }
  }
}

static void sync_thread(void *arg) {
  int k = (int)(long)arg;
  unsigned s = seed0 * 7919u + (unsigned)k * 104729u;
  struct barrier_stats mine = {0, 0, 0, 0}; /* on its own stack: no page of the process is written */
  /* a start barrier, not counted: the threads are created one after another (a remote create
   * takes milliseconds), and the job starts when the last is there; it blocks, so its waits
   * are no spins in the monitor's trace either */
  if (barrier_wait(start_bar) != 0) k = -1;
  unsigned long t0 = time_us();
  for (int i = 0; i < barriers && k > 0; ++i) {
    long c = gauss(&s, mu, sigma);
    compute_us(c < 0 ? 0 : c);
    if (barrier_wait_stats(bar, &mine) != 0) k = -1;
    if (k < 0) break;
  }
  unsigned long t1 = time_us();
  struct result res = {k, mine, t1 - t0}; /* by message: no page of the process is written during the run */
  send_block((int)(long)arg, &res, sizeof res); /* a channel each: occam channels have one sender */
  exit(0);
}

static void background(void *arg) { /* until the job ends its process (kill) */
  (void)arg;
  for (;;) compute_us(5000);
}

static void set_wakeup(void *arg) { exit(sched_wakeup((int)(long)arg) >= 0 ? 0 : 1); }

int main(int argc, char **argv) {
  if (argc < 8) {
    printf("usage: barjob SLAVES BG BARRIERS MU_US SIGMA_US block|spin|cs|cs+|2cs+|US tail|head [SEED [BOARD]]\n");
    return 2;
  }
  slaves = atoi(argv[1]), bg = atoi(argv[2]), barriers = atoi(argv[3]);
  mu = atol(argv[4]), sigma = atol(argv[5]);
  const char *pol = argv[6];
  int wake = strcmp(argv[7], "head") == 0 ? TOS_WAKE_HEAD : TOS_WAKE_TAIL;
  if (argc > 8) seed0 = (unsigned)atoi(argv[8]);
  if (argc > 9) one_board = atoi(argv[9]);
  if (slaves < 1 || slaves >= TOS_BOARD_NAME_COUNT || bg < 0 || bg > 8 || barriers < 1 || mu < 0 || sigma < 0 ||
      one_board < 0 || one_board >= TOS_BOARD_NAME_COUNT) {
    printf("barjob: bad arguments\n");
    return 2;
  }
  /* the thread switch, measured on a slave before anything else runs there (the master's
   * logger would take turns with the measuring threads) */
  unsigned cs = barrier_measure_cs_on(one_board ? one_board : 1);
  if (!cs) {
    printf("barjob: the thread switch could not be measured: %s\n", tos_strerror(tos_errno));
    return 1;
  }
  int policy = TOS_BARRIER_TWO_PHASE;
  unsigned limit = 0;
  if (!strcmp(pol, "block")) policy = TOS_BARRIER_BLOCK;
  else if (!strcmp(pol, "spin")) policy = TOS_BARRIER_SPIN;
  else if (!strcmp(pol, "cs")) limit = cs;
  else if (!strcmp(pol, "cs+")) limit = cs * 110 / 100;
  else if (!strcmp(pol, "2cs+")) limit = cs * 210 / 100;
  else limit = (unsigned)atol(pol);
  bar = barrier_init(slaves);
  start_bar = barrier_init(slaves); /* its policy stays block */
  if (bar < 0 || start_bar < 0 || barrier_policy(bar, policy, limit) < 0) {
    printf("barjob: barrier: %s\n", tos_strerror(tos_errno));
    return 1;
  }
  /* job thread k (1..SLAVES) runs on board where(k); the boards used are where(1..SLAVES) */
#define WHERE(k) (one_board ? one_board : (k))
  int boards_used = one_board ? 1 : slaves;
  for (int b = 1; b <= boards_used; ++b) create(200 + b, 2, WHERE(b), set_wakeup, (void *)(long)wake);
  if (wait() != 0) {
    printf("barjob: sched_wakeup refused\n");
    return 1;
  }
  for (int b = 1; b <= boards_used; ++b)
    for (int j = 0; j < bg; ++j)
      if (!create(100 + WHERE(b) * 10 + j, 2, WHERE(b), background, NULL)) return 1;
  unsigned long elapsed = 0;
  for (int b = 1; b <= slaves; ++b)
    if (!create(b, 4, WHERE(b), sync_thread, (void *)(long)b)) return 1;
  /* the job's end: wait() would also wait for the background; each job thread says it is done */
  struct barrier_stats sum = {0, 0, 0, 0};
  for (int b = 1; b <= slaves; ++b) {
    struct result r;
    if (receive(b, &r, sizeof r) != sizeof r || r.k < 0) {
      printf("barjob: a job thread failed\n");
      return 1;
    }
    sum.spins += r.st.spins, sum.spin_ok += r.st.spin_ok, sum.blocks += r.st.blocks, sum.last += r.st.last;
    if (r.elapsed_us > elapsed) elapsed = r.elapsed_us;
  }
  printf("barjob: policy %s wake %s load %d cs_us %u limit_us %u elapsed_us %lu spins %u ok %u blocks %u last %u", pol,
         wake == TOS_WAKE_HEAD ? "head" : "tail", slaves + boards_used * bg, cs, policy == TOS_BARRIER_TWO_PHASE ? limit : 0,
         elapsed, sum.spins, sum.spin_ok, sum.blocks, sum.last);
  if (one_board) printf(" board %d", one_board);
  printf("\n");
  fflush(stdout);
  if (bg) kill(gettid() >> 6 & 15); /* the background threads end with the process */
  return 0;
}
