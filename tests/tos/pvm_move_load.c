/* DynamicPVM's pvm_move under load (seed 001; lib/pvm.c): a job of a master task on this board
 * and three workers started on air, fire and water exchanges numbered, checksummed messages (each
 * worker sends MESSAGES, 1..512 bytes, and waits for each answer) while a scheduler task moves the
 * workers with pvm_move to slaves picked at random, and compute-bound threads of the job load
 * every slave meanwhile. Every message must arrive in order and intact at both ends (the master
 * takes each worker's k-th message before anyone's k+1-th), every move must complete, and each
 * worker must have been moved mid-exchange. Run in both NI modes (tests/tos_kernel.cmake).
 *   pvm_move_load MESSAGES SEED */
#include <stdlib.h>
#include <tos/pvm.h>
#include "tos_check.h"

#define WORKERS 3
#define LOAD_MS 800
static long messages;
static unsigned long seed;
static int master_tid, wtid[WORKERS];
static volatile int stop, mover_done, finished[WORKERS];
static int moves[WORKERS], refused, refused_w, refused_dest;

static unsigned long fill(char *b, int len, long k, int w) {
  unsigned long sum = 0;
  for (int i = 0; i < len; ++i) {
    b[i] = (char)(k * 5 + i * 3 + w);
    sum += (unsigned char)b[i] * (unsigned long)(i + 1);
  }
  return sum;
}

static void worker(void *arg) {
  int w = (int)(long)arg, master = master_tid;
  long n = messages;
  unsigned long s = seed * 131 + (unsigned long)w;
  char b[512];
  for (long k = 1; k <= n; ++k) {
    int len = 1 + (int)(tos_check_next(&s) % 512);
    long sum = (long)fill(b, len, k, w), ack = 0, here = tos_info(TOS_INFO_BOARD);
    if (pvm_initsend() || pvm_pklong(&k, 1, 1) || pvm_pklong(&here, 1, 1) || pvm_pkint(&len, 1, 1) ||
        pvm_pkbyte(b, len, 1) || pvm_pklong(&sum, 1, 1) || pvm_send(master, 1)) {
      printf("pvm_move_load: FAIL worker %d: send %ld on board %ld\n", w, k, tos_info(TOS_INFO_BOARD));
      exit(10);
    }
    if (pvm_recv(master, 2) < 0 || pvm_upklong(&ack, 1, 1) || ack != k) {
      printf("pvm_move_load: FAIL worker %d: answer %ld for message %ld on board %ld\n", w, ack, k,
             tos_info(TOS_INFO_BOARD));
      exit(11);
    }
  }
  finished[w] = 1; /* (a move after this finds no task: not counted as refused) */
}

static void load(void *arg) { /* a compute-bound thread: its board's tasks share the CPU with it */
  (void)arg;
  tos_check_spin_us(LOAD_MS * 1000ul);
}

static void scheduler(void *arg) { /* DynamicPVM's global scheduler, reduced to its moves */
  (void)arg;
  unsigned long s = seed * 7;
  while (!stop) {
    int w = (int)(tos_check_next(&s) % WORKERS), dest = 2 + (int)(tos_check_next(&s) % 4);
    int r = pvm_move(wtid[w], dest);
    if (r == 0) ++moves[w];
    else if (!stop && !finished[w]) {
      ++refused;
      refused_w = w;
      refused_dest = dest;
    }
    unsigned long t0 = time_us(), pause = 10000 + tos_check_next(&s) % 20000;
    while (!stop && time_us() - t0 < pause) yield();
  }
  mover_done = 1;
}

int main(int argc, char **argv) {
  CHECK(argc == 3, "usage: pvm_move_load MESSAGES SEED");
  messages = atol(argv[1]);
  seed = strtoul(argv[2], NULL, 10);
  CHECK(tos_info(TOS_INFO_BOARD) == 1, "run this on earth");
  master_tid = pvm_init();
  CHECK(master_tid > 0, "pvm_init: %d", master_tid);
  for (int w = 0; w < WORKERS; ++w) {
    wtid[w] = pvm_spawn(worker, (void *)(long)w, 2 + w, 4);
    CHECK(wtid[w] > 0, "pvm_spawn worker %d: %d", w, wtid[w]);
  }
  for (int b = 2; b <= 5; ++b)
    CHECK(create(0, 2, b, load, NULL) > 0, "create load on %d: %s", b, tos_strerror(tos_errno));
  CHECK(pvm_spawn(scheduler, NULL, 1, 4) > 0, "pvm_spawn scheduler");
  CHECK(pvm_move(master_tid, 1) == 0 && pvm_move(12345, 2) == PvmBadParam && pvm_move(wtid[0], 99) != 0,
        "pvm_move's refusals");
  static char b[512], want[512];
  long last[WORKERS] = {2, 3, 4};
  int changes[WORKERS] = {0, 0, 0};
  for (long k = 1; k <= messages; ++k)
    for (int w = 0; w < WORKERS; ++w) {
      long num = 0, sum = 0, board = 0;
      int len = 0;
      if (pvm_recv(wtid[w], 1) < 0 || pvm_upklong(&num, 1, 1) || pvm_upklong(&board, 1, 1) || pvm_upkint(&len, 1, 1) ||
          len < 1 || len > 512 ||
          pvm_upkbyte(b, len, 1) || pvm_upklong(&sum, 1, 1)) {
        printf("pvm_move_load: FAIL message %ld of worker %d unreadable\n", k, w);
        exit(2);
      }
      CHECK(num == k, "worker %d's message %ld came as number %ld: out of order", w, k, num);
      if (board != last[w]) { /* sent from another board than the last: it was moved between */
        ++changes[w];
        last[w] = board;
      }
      CHECK((long)fill(want, len, k, w) == sum && memcmp(b, want, (size_t)len) == 0,
            "worker %d's message %ld is not intact", w, k);
      CHECK(pvm_initsend() == 0 && pvm_pklong(&k, 1, 1) == 0 && pvm_send(wtid[w], 2) == 0, "answer %ld to worker %d",
            k, w);
    }
  stop = 1;
  unsigned long t0 = time_us();
  while (!mover_done && time_us() - t0 < 5000000) yield();
  CHECK(mover_done, "the scheduler did not stop");
  int total = 0;
  for (int w = 0; w < WORKERS; ++w) {
    CHECK(moves[w] > 0 && changes[w] > 0, "worker %d was never moved mid-exchange (%d moves, %d boards seen)", w,
          moves[w], changes[w]);
    total += moves[w];
  }
  CHECK(refused == 0, "%d pvm_move calls failed (the last: worker %d to board %d)", refused, refused_w, refused_dest);
  printf("pvm_move_load: %d workers, %ld messages each way in order and intact, %d moves (%d, %d, %d) under load, "
         "%d board changes seen in the messages\n", WORKERS, messages, total, moves[0], moves[1], moves[2],
         changes[0] + changes[1] + changes[2]);
  tos_pass("pvm_move_load");
  return 0;
}
