/* The system-call fuzzer (issue #30; tests/fuzz/README.md "sysfuzz"). One program, four roles:
 *
 *   sysfuzz driver SEED ROUNDS CALLS [WILD]
 *                                      on one board: ROUNDS workers one after another (seeds
 *                                      SEED*1000+r), each pwaited, every other one killed at a
 *                                      moment the seed picks (issue #57: whatever it was waiting
 *                                      for, nothing of it may stay); prints the board's tally.
 *                                      WILD 0: create() only at real functions (a wild entry in
 *                                      the image area but unmapped faults the kernel at its RTE
 *                                      until create() checks entries: issue #30, sec-kernel)
 *   sysfuzz worker SEED CALLS          CALLS random system calls (every number the kernel has)
 *                                      with random arguments, while a
 *                                      churn thread moves the break up and down (sbrk: pages
 *                                      unmapped under the calls) and starts threads that end at
 *                                      once, and a watchdog kills the process if a call blocks
 *                                      for good (a receive no one answers); exit code: calls made
 *   sysfuzz witness ROUNDS             another user's program on the same board: local channels,
 *                                      a file and arithmetic whose results it knows, for ROUNDS
 *                                      rounds and until the driver there has ended (file fzend);
 *                                      any difference prints "FAIL" (its output must stay intact)
 *   sysfuzz nop                        exits at once (what a worker may spawn)
 *
 * Arguments come from pools of the interesting: kernel, device, unmapped, odd and boundary
 * addresses, huge and negative lengths, the worker's own buffers (valid, off by one, in the heap
 * the churn thread unmaps), and plain random words. On the test kernel (tos-test.elf) net_inject
 * forges kernel messages of every kind but three (below); on tos.elf it answers ENOSYS.
 * The invariants are checked by whoever runs it (tests/tos_security.cmake): no kernel fault on
 * any board, no FAIL from a witness, every board ends with all its frames and TCBs free. Calls
 * that would change what other users see by design are left out: exit (the round's end), dgl and
 * stty (machine-wide settings), and writes of the worker's bytes to the console (its noise would
 * interleave the witnesses' lines). The worker's own pseudo-random generator makes a seed's run
 * the same every time. */
#include <string.h>
#include <testbed/memory_map.h>
#include <testbed/tos_net.h>
#include "tos_check.h"

static uint32_t rng;
static uint32_t rnd(void) {
  rng = TOS_RAND_NEXT(rng);
  return (rng >> 8) ^ (rng << 21);
}
#define PICK(a) ((a)[rnd() % (sizeof(a) / sizeof((a)[0]))])

static unsigned char buf[2048];
static volatile int stop;
static volatile uint32_t heap; /* the churn thread's last break: unmapped and mapped under the calls */
static int me_board, my_pid;
static int wild = 1; /* create() at wild entries too (0: only at a real function) */

/* file names: its own, and bad ones (not "sysfuzz": renaming the program away is any user's right
 * on TOS's ownerless filestore, and would end the fuzzing) */
static const char *const names[] = {"fz0", "fz1", "fz2", "fz3", "", "no/such", "fz0fz0fz0fz0fz0fz0fz0fz0fz0fz0"};

static uint32_t addr(void) {
  static const uint32_t fixed[] = {0, 1, 2, 8, 0x400, TOS_FS_BASE, TOS_FS_BASE + 1024, TB_NET_BASE, TB_TIMER_BASE,
                                   TOS_USER_BASE - 1, TOS_USER_BASE, TOS_USER_IMAGE_TOP - 2, TOS_USER_IMAGE_TOP,
                                   TOS_STACK_BASE - 2, TOS_STACK_BASE, TOS_USER_TOP - 1, TOS_USER_TOP,
                                   0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu};
  switch (rnd() % 8) {
    case 0: case 1: return PICK(fixed);
    case 2: return (uint32_t)buf + rnd() % sizeof buf;
    case 3: return (uint32_t)buf;
    case 4: return heap ? heap - rnd() % 3000 : (uint32_t)buf;
    case 5: return (uint32_t)PICK(names);
    case 6: return (uint32_t)&addr + (rnd() & 1); /* code: read-only, odd */
    default: return rnd();
  }
}

static uint32_t len(void) {
  static const uint32_t fixed[] = {0, 1, 2, 3, 4, 16, 1023, 1024, 1025, 4096, 65536, 0x7FFFFFFF, 0x80000000u,
                                   0xFFFFFFFFu, 0xFFFFFFFEu, sizeof buf, sizeof buf + 1};
  return rnd() % 4 ? PICK(fixed) : rnd() % 3000;
}

static uint32_t word(void) {
  static const uint32_t fixed[] = {0, 1, 2, 3, 5, 6, 7, 15, 16, 63, 64, 99, 0x3FF, 0xFFFF, 0x10000, 0xFFFFFFFFu,
                                   0xFFFFFFFEu, 0x7FFFFFFF, 0x80000000u};
  return rnd() % 3 ? PICK(fixed) : rnd();
}

static void quick(void *arg) { exit((int)(uint32_t)arg & 3); }

/* Pages mapped and unmapped under the main thread's calls, threads that start and end. */
static void churn(void *arg) {
  (void)arg;
  while (!stop) {
    void *old = sbrk(2048);
    if (old != (void *)-1) {
      heap = (uint32_t)old + 2048;
      memset(old, 0x5A, 2048);
      yield();
      sbrk(-2048);
    }
    create(7, 1, me_board, quick, (void *)rnd());
    yield();
  }
  exit(0);
}

static unsigned long deadline;
static void watchdog(void *arg) {
  (void)arg;
  while (!stop) {
    if (time_us() > deadline) kill(my_pid); /* a call blocked for good: the round ends here */
    yield();
  }
  exit(0);
}

/* A forged kernel message: any type but three whose claims no receiver can check and whose
 * obedience is a kernel's right (a board saying it is done, a migration and a reconfiguration
 * asked by its kernel: they would end the run or move the witnesses); process names mostly of
 * other boards' processes (a kernel speaks for its own). */
static int32_t forge(void) {
  uint32_t ops[14];
  uint32_t type = rnd() % 70;
  if (type == NET_DONE || type == NET_MIGRATE_REQ || type == NET_RECONF) type = NET_HALT;
  for (int i = 0; i < 14; ++i) ops[i] = word();
  if (rnd() % 4) ops[0] = (uint32_t)((me_board + 1 + rnd() % 5) % 6); /* a home that is not this board */
  ops[1] = rnd() % 2 ? rnd() % 16 : ops[1];
  ops[2] = rnd() % 2 ? 1 + rnd() % 4 : ops[2];
  uint32_t to = rnd() % 8 ? rnd() % 6 : word();
  return __tos_syscall(SYS_NET_INJECT, (long)to, (long)type, rnd() % 16 ? (long)ops : (long)addr(),
                       (long)(rnd() % 15), 0, 0);
}

static int32_t one_call(uint32_t *forged) {
  uint32_t n = rnd() % TOS_SYSCALL_COUNT, a[6]; /* every call, those added since issue #30 too */
  for (int i = 0; i < 6; ++i) a[i] = rnd() % 2 ? addr() : word();
  switch (n) {
    case SYS_EXIT: case SYS_DGL: case SYS_STTY: return 0;
    case SYS_SEND: case SYS_RECEIVE: /* a real channel only with a buffer no call may use: else it waits for good */
      if (a[0] < TOS_MAX_CHANNELS) {
        static const uint32_t bad[] = {0, 0x400, TOS_FS_BASE, TB_NET_BASE, TOS_USER_BASE - 1, TOS_USER_TOP,
                                       0xFFFFFFFEu, TOS_USER_IMAGE_TOP};
        a[1] = PICK(bad);
        a[2] = 1 + rnd() % 2000;
      }
      break;
    case SYS_PSTATE: /* suspending itself would suspend its watchdog too */
      if (a[0] == (uint32_t)my_pid) a[1] = 0;
      break;
    case SYS_CREATE: /* a real entry mostly: a wild one faults its process, which ends the round */
      a[3] = rnd() % 32 || !wild ? (uint32_t)quick : addr();
      a[2] = rnd() % 2 ? (uint32_t)me_board : (rnd() % 2 ? (uint32_t)-1 : word());
      a[1] = rnd() % 2 ? 1 + rnd() % 4 : word();
      break;
    case SYS_WRITE: case SYS_READ:
      if (a[0] < 3 || rnd() % 2) a[0] = rnd() % 2 ? 3 + rnd() % 14 : word(); /* never the console */
      if (a[0] < 3) a[0] = 3;
      a[1] = addr();
      a[2] = len();
      break;
    case SYS_DUP2: /* never onto or from the console's descriptors */
      a[0] = 3 + rnd() % 14;
      a[1] = rnd() % 2 ? 3 + rnd() % 14 : word();
      if (a[1] < 3) a[1] = 3;
      break;
    case SYS_SPAWN:
      a[0] = rnd() % 2 ? (uint32_t)"sysfuzz" : addr();
      a[1] = rnd() % 2 ? (uint32_t)"sysfuzz nop" : addr();
      a[2] = 0;
      break;
    case SYS_OPEN: case SYS_REMOVE: case SYS_STAT: case SYS_CHMOD:
      a[0] = rnd() % 4 ? (uint32_t)PICK(names) : addr();
      break;
    case SYS_RENAME:
      a[0] = (uint32_t)PICK(names);
      a[1] = rnd() % 4 ? (uint32_t)PICK(names) : addr();
      break;
    case SYS_RPUT:
      a[0] = rnd() % 6;
      a[1] = rnd() % 4 ? (uint32_t)PICK(names) : addr();
      a[2] = addr();
      a[3] = len();
      break;
    case SYS_SBRK:
      a[0] = rnd() % 2 ? (uint32_t)(rnd() % 2 ? 1024 : -1024) : word();
      break;
    case SYS_RGN_SERVE: /* with a buffer of its own it would serve (block) until the watchdog */
      if (rnd() % 2 || (a[0] >= (uint32_t)buf && a[0] < (uint32_t)buf + sizeof buf)) a[0] = 0;
      break;
    case SYS_BARRIER_ARRIVE: /* blocking at a barrier of its own would wait for good: spin or refused */
      if (a[1] == TOS_BARRIER_BLOCK) a[1] = TOS_BARRIER_SPIN;
      break;
    case SYS_PMIGRATE: /* moving itself would take the round away from its driver's board */
      if (a[0] == (uint32_t)my_pid) a[0] = TOS_MAX_PROCESSES;
      break;
    case SYS_PROCESS_TWIN: return 0; /* a twin would go on fuzzing, a second worker no driver waits for */
    case SYS_NET_INJECT:
      ++*forged;
      return forge();
  }
  return __tos_syscall(n, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4], (long)a[5]);
}

/* churn and watchdog are not the main thread's children: its wait() must not wait for them */
static void starter(void *arg) {
  (void)arg;
  if (create(8, 2, me_board, churn, NULL) <= 0 || create(9, 1, me_board, watchdog, NULL) <= 0) kill(my_pid);
  exit(0);
}

static int worker(uint32_t seed, int calls, int wild_entries) {
  rng = seed;
  wild = wild_entries;
  me_board = (int)tos_info(TOS_INFO_BOARD);
  my_pid = gettid() >> 6 & 15;
  for (unsigned i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)rnd();
  deadline = time_us() + 2000000 + 40000ul * (unsigned)calls; /* far more than a round takes: it is stuck */
  if (create(10, 1, me_board, starter, NULL) <= 0) return 0;
  uint32_t forged = 0;
  int made = 0;
  for (; made < calls; ++made) one_call(&forged);
  stop = 1;
  for (const char *const *n = names; n < names + 4; ++n) remove(*n);
  return made;
}

static int driver(uint32_t seed, int rounds, int calls, int wild_entries) {
  int board = (int)tos_info(TOS_INFO_BOARD);
  unsigned long calls_done = 0, t0 = time_us();
  int faulted = 0, stuck = 0, done = 0, killed = 0;
  char args[48];
  for (int r = 0; r < rounds; ++r) {
    snprintf(args, sizeof args, "sysfuzz worker %lu %d %d", (unsigned long)(seed * 1000u + (uint32_t)r), calls,
             wild_entries);
    int pid = spawn("sysfuzz", args);
    if (pid < 0) {
      printf("sysfuzz: board %d: cannot spawn a worker: %s\n", board, tos_strerror(tos_errno));
      break;
    }
    if (r % 2) { /* every other worker is killed at a moment the seed picks, wherever its calls are */
      unsigned long at = time_us() + (seed * 7919u + (uint32_t)r * 104729u) % 400000u;
      while (time_us() < at && pstate(pid, 0) >= 0) yield();
      if (kill(pid) == 0) ++killed;
    }
    int code = pwait(pid);
    if (code == calls) { ++done; calls_done += (unsigned long)calls; }
    else if (code == -1) ++stuck;  /* killed by its watchdog (or it killed itself: kill is fuzzed too) */
    else ++faulted;                /* removed for a fault of its own (a wild entry, a shrunk heap) */
    for (const char *const *n = names; n < names + 4; ++n) remove(*n);
  }
  printf("sysfuzz: board %d: %d rounds of %d calls: %d completed (%lu calls), %d ended by their own fault, "
         "%d stuck and killed (%d of them at a random moment); %lu ms; kernel messages refused here %d\n", board,
         rounds, calls, done, calls_done, faulted, stuck, killed, (time_us() - t0) / 1000,
         (int)tos_info(TOS_INFO_NET_REFUSED));
  int fd = open("fzend", TOS_O_WRITE | TOS_O_CREATE); /* the witness here may stop now */
  if (fd >= 0) close(fd);
  return 0;
}

/* ---- the witness: its results are known; another program's calls must not change them ---- */
static void producer(void *arg) {
  uint32_t k = (uint32_t)arg;
  unsigned char b[700];
  for (unsigned i = 0; i < sizeof b; ++i) b[i] = (unsigned char)(k * 13 + i * 7);
  send_block(1, b, sizeof b);
  exit(0);
}

static int witness(int rounds) {
  int board = (int)tos_info(TOS_INFO_BOARD);
  char fname[16];
  snprintf(fname, sizeof fname, "wit%d", board);
  struct tos_stat st;
  int k = 0;
  for (; k < rounds || stat("fzend", &st) < 0; ++k) { /* at least `rounds`, and until the driver here ends */
    unsigned char b[700];
    CHECK(create(1, 2, board, producer, (void *)k) > 0, "witness: create");
    CHECK(receive(1, b, sizeof b) == sizeof b, "witness: receive");
    for (unsigned i = 0; i < sizeof b; ++i)
      CHECK(b[i] == (unsigned char)(k * 13 + i * 7), "witness on board %d: channel byte %u of round %d", board, i, k);
    CHECK(wait() == 0, "witness: its thread failed");
    int fd = open(fname, TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC);
    CHECK(fd >= 0, "witness: open %s: %s", fname, tos_strerror(tos_errno));
    CHECK(write(fd, b, sizeof b) == sizeof b, "witness: write");
    close(fd);
    memset(b, 0, sizeof b);
    fd = open(fname, TOS_O_READ);
    CHECK(fd >= 0 && read(fd, b, sizeof b) == sizeof b, "witness: read back");
    close(fd);
    for (unsigned i = 0; i < sizeof b; ++i)
      CHECK(b[i] == (unsigned char)(k * 13 + i * 7), "witness on board %d: file byte %u of round %d", board, i, k);
    uint32_t x = (uint32_t)k;
    for (int i = 0; i < 2000; ++i) x = x * 1664525u + 1013904223u;
    uint32_t y = (uint32_t)k;
    for (int i = 0; i < 2000; ++i) y = y * 1664525u + 1013904223u;
    CHECK(x == y, "witness on board %d: arithmetic", board);
    yield();
  }
  remove(fname);
  remove("fzend");
  printf("sysfuzz witness: board %d: intact after %d rounds\n", board, k);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "driver") == 0)
    return driver((uint32_t)atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 1);
  if (argc >= 4 && strcmp(argv[1], "worker") == 0) {
    int made = worker((uint32_t)strtoul(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 1);
    /* _Exit, not exit: C's exit flushes the streams, taking their locks, which newlib keeps in
     * the heap; the fuzzed sbrk calls may have moved the break below malloc's arena, and the churn
     * thread then mapped the page again and filled it with 0x5A, so a lock there reads as taken
     * for good (the main thread yields forever after the watchdog has seen stop) or its page is
     * gone (a bus error). A worker prints nothing: it has nothing to flush. The churn and watchdog
     * threads have seen stop and end too. */
    _Exit(made);
  }
  if (argc >= 3 && strcmp(argv[1], "witness") == 0) return witness(atoi(argv[2]));
  return 0; /* nop, or arguments a worker made up */
}
