/* loopar: seed 002's loop-parallel application (Hobbs et al. section 4.1, Blocks 1 and 2): a
 * master starts SLAVES slave processes, gives each an equal share of WORK loop iterations,
 * collects their results and prints the time from the first start to the last result.
 *   loopar create SLAVES WORK   Block 1a: each slave made by rex_create() on the board the
 *                               global scheduler picks; its share sent to it by a courier
 *                               thread, its result sent back to the courier (channels 2i and
 *                               2i+1; see courier below);
 *   loopar twin SLAVES WORK     Block 1b: each slave a process_twin() of the master, made on
 *                               the master's board (the scheduler may migrate it); its share is
 *                               in its copy of the master's memory, its result is its exit code.
 * Without a global scheduler serving, rex_create creates every slave here.
 *   loopar create SLAVES WORK [trace] [inorder]
 *                               trace: each slave's steps marked by user events (class
 *                               overflow): EV_USER_LOOPAR_MARK + step * 32 + slave, the steps
 *                               below (MARK_*), so that the monitor's clock takes a REX creation
 *                               apart (seed 002's analysis); inorder: the master hands out the
 *                               shares itself, in slave order (the A/B of the couriers). */
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

#define MAX_SLAVES 20

/* The trace's steps: on the master's board the run's start, each slave's placement answered
 * (rex_place), its thread created there, its share taken by it (the send completed) and its
 * result in (the courier); on the slave's board its share received and its share computed. */
enum { MARK_START, MARK_PLACED, MARK_CREATED, MARK_HANDED, MARK_GOT, MARK_COMPUTED, MARK_RESULT, MARK_END };
/* A thread's argument: its slave's index in the low byte, and these flags (in the argument, not
 * globals: a slave's read of one would fetch a page from the home) */
#define SLAVE_MASK 0xFF
#define TRACE_FLAG 0x100 /* a slave: mark its steps */
#define HAND_FLAG 0x200  /* a courier: hand the share out first */
static int tracing;
static void mark(int on, int step, int i) {
  if (on) send_event(EV_USER_LOOPAR_MARK + step * 32 + i);
}

/* the work of one iteration: integer arithmetic, as the seed's our_work(cnt) */
static unsigned our_work(unsigned c) {
  unsigned x = c * 2654435761u;
  for (int k = 0; k < 4; ++k) x ^= x >> 7, x *= 2246822519u;
  return x >> 24;
}

static long share(long lo, long hi) {
  unsigned long s = 0;
  for (long c = lo; c < hi; ++c) s += our_work((unsigned)c);
  return (long)(s % 32749); /* fits an exit code */
}

static void slave(void *arg) {
  int i = (int)(long)arg & SLAVE_MASK, on = ((int)(long)arg & TRACE_FLAG) != 0;
  long range[2], r;
  if (receive(2 * i, range, sizeof range) != sizeof range) exit(1);
  mark(on, MARK_GOT, i);
  r = share(range[0], range[1]);
  mark(on, MARK_COMPUTED, i);
  send_block(2 * i + 1, &r, sizeof r);
  exit(0);
}

static long lo_of(long work, int slaves, int i) { return work * i / slaves; }

/* One courier a slave, on the master's board: it hands the slave its share and waits for its
 * result. RHODOS's sends are queued at the receiver's port (its IPC manager moves "the ports and
 * messages queued on them"), so Block 1a's master hands out every share at once and a slave
 * sends its result and ends when its share is done. TOS's channels are synchronous, so the
 * master's own sends in slave order (`inorder`) made each share wait until every slave before
 * it had taken its own -- one that shares a board with a computing slave only at a slice's end --
 * and its receives in order held every early finisher in its send, so all ended together and
 * migration on exit (Figure 9) found nothing left to move. */
/* create() on `processor` (-1: the board this thread is on), from the process's home: a
 * process's thread slots are its home's to give (EREMOTE away from it), and a balancer (the
 * policy table's) may have moved this thread off it. */
static int create_at_home(int id, int pages, int processor, void (*fn)(void *), void *arg) {
  int tid = create(id, pages, processor < 0 ? HERE : processor, fn, arg);
  if (tid || tos_errno != TOS_EREMOTE) return tid;
  if (migrate(gettid(), gettid() >> TOS_TID_BOARD_SHIFT & TOS_TID_BOARD_MASK) < 0) return 0;
  return create(id, pages, processor < 0 ? HERE : processor, fn, arg);
}

static long results[MAX_SLAVES];
static long work_, slaves_;
static void courier(void *arg) {
  int i = (int)(long)arg & SLAVE_MASK, hand = ((int)(long)arg & HAND_FLAG) != 0;
  if (hand) {
    long range[2] = {lo_of(work_, (int)slaves_, i), lo_of(work_, (int)slaves_, i + 1)};
    send_block(2 * i, range, sizeof range);
    mark(tracing, MARK_HANDED, i);
  }
  if (receive(2 * i + 1, &results[i], sizeof results[i]) != sizeof results[i]) exit(1);
  mark(tracing, MARK_RESULT, i);
  exit(0);
}

int main(int argc, char **argv) {
  int twin = argc == 4 && !strcmp(argv[1], "twin"), create_ = argc >= 4 && !strcmp(argv[1], "create");
  int inorder = 0, bad = !twin && !create_;
  for (int k = 4; k < argc && create_; ++k)
    if (!strcmp(argv[k], "trace")) tracing = 1;
    else if (!strcmp(argv[k], "inorder")) inorder = 1;
    else bad = 1;
  int slaves = bad ? 0 : atoi(argv[2]);
  long work = bad ? 0 : atol(argv[3]);
  if (bad || slaves < 1 || slaves > MAX_SLAVES || work < slaves) {
    printf("usage: loopar create|twin SLAVES(1..%d) WORK(>= SLAVES); loopar create SLAVES WORK [trace] [inorder]\n",
           MAX_SLAVES);
    return 2;
  }
  work_ = work;
  slaves_ = slaves;
  unsigned long t0 = time_us();
  long total = 0;
  mark(tracing, MARK_START, 0);
  if (!twin) {
    for (int i = 0; i < slaves; ++i) {
      int board = rex_place(); /* rex_create, its two steps apart */
      mark(tracing, MARK_PLACED, i);
      if (board < 0 || !create_at_home(i, 2, board, slave, (void *)(long)(i | (tracing ? TRACE_FLAG : 0)))) {
        printf("loopar: slave %d: %s\n", i, tos_strerror(tos_errno));
        return 1;
      }
      mark(tracing, MARK_CREATED, i);
    }
    for (int i = 0; i < slaves; ++i)
      if (!create_at_home(MAX_SLAVES + i, 1, -1, courier, (void *)(long)(i | (inorder ? 0 : HAND_FLAG)))) {
        printf("loopar: courier %d: %s\n", i, tos_strerror(tos_errno));
        return 1;
      }
    for (int i = 0; i < slaves && inorder; ++i) {
      long range[2] = {lo_of(work, slaves, i), lo_of(work, slaves, i + 1)};
      send_block(2 * i, range, sizeof range);
      mark(tracing, MARK_HANDED, i);
    }
    if (wait() != 0) return 1; /* the slaves and their couriers */
    for (int i = 0; i < slaves; ++i) total += results[i];
  } else {
    int pid[MAX_SLAVES];
    for (int i = 0; i < slaves; ++i) {
      int r = process_twin();
      if (r == 0) { /* the slave */
        long v = share(lo_of(work, slaves, i), lo_of(work, slaves, i + 1));
        exit((int)v);
      }
      if (r < 0) {
        printf("loopar: twin %d: %s\n", i, tos_strerror(tos_errno));
        return 1;
      }
      pid[i] = r;
    }
    for (int i = 0; i < slaves; ++i) {
      int r = pwait(pid[i]);
      if (r < 0) return 1;
      total += r;
    }
  }
  mark(tracing, MARK_END, 0);
  unsigned long ms = (time_us() - t0 + 500) / 1000;
  printf("loopar: %s %d slaves, work %ld: %lu ms (result %ld)\n", twin ? "twin" : "create", slaves, work, ms, total);
  return 0;
}
