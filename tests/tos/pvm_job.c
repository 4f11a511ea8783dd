/* The job pvm_tids_survive_moves moves (seed 001): two tasks of the PVM-style layer (lib/pvm.c)
 * in one process. The master task sends MESSAGES numbered messages (an int, a double and 1..600
 * bytes, tags cycling 0..3) to the worker and waits for each echo (tag 100, the number and a
 * checksum of the bytes); the worker takes them with pvm_recv(master, -1) and checks the number
 * is the next one and the bytes are right. Either a failure ends the job with a non-zero code.
 * PEER: the board the worker starts on (-1: this one). With MOVER 1 a third task moves the worker
 * (migrate()) to board 3 and then 4 while they talk: its tid stays the address the master sends to;
 * once it has ended there, a second worker is made on board 5, in the slot it freed (so with its
 * tid), and talks with the master again (MESSAGES / 4): a task in a slot freed by a finished task
 * on another board once never got its messages (the master's channel still pointed at board 4).
 *   pvm_job MESSAGES SEED PEER MOVER */
#include <stdlib.h>
#include <tos/pvm.h>
#include "tos_check.h"

static long messages;
static unsigned long seed;
static int master, worker;

static void work(void *arg) {
  (void)arg;
  static char b[600];
  unsigned long s = seed * 31;
  for (long k = 1; k <= messages; ++k) {
    int n = pvm_recv(master, -1), tag = -1, num = 0, len = 0;
    double d = 0;
    if (n < 0 || pvm_bufinfo(NULL, &tag, NULL) || pvm_upkint(&num, 1, 1) || pvm_upkdouble(&d, 1, 1) ||
        pvm_upkint(&len, 1, 1) || len < 1 || len > 600 || pvm_upkbyte(b, len, 1)) {
      printf("pvm_job %lu: FAIL message %ld unreadable (%d)\n", seed, k, n);
      exit(5);
    }
    unsigned long sum = 0;
    for (int i = 0; i < len; ++i) sum += (unsigned char)b[i] * (unsigned long)(i + 1);
    if (num != k || tag != k % 4 || d != k * 0.5) {
      printf("pvm_job %lu: FAIL message %ld: number %d tag %d on board %ld\n", seed, k, num, tag,
             tos_info(TOS_INFO_BOARD));
      exit(6);
    }
    if (pvm_initsend() || pvm_pkint(&num, 1, 1) || pvm_pklong((long *)&sum, 1, 1) || pvm_send(master, 100)) exit(7);
    tos_check_spin_us(tos_check_next(&s) % 2000);
  }
}

static volatile int moved;
static void exchange(void);

static void mover(void *arg) {
  (void)arg;
  unsigned long s = seed * 77;
  tos_check_spin_us(20000 + tos_check_next(&s) % 40000);
  for (int dest = 3; dest <= 4; ++dest) {
    int r = -1;
    for (int k = 0; k < 2000 && (r = migrate(worker, dest)) != 0; ++k) yield();
    if (r != 0) {
      printf("pvm_job %lu: FAIL migrate worker %x to %d: %s\n", seed, worker, dest, tos_strerror(r));
      exit(8);
    }
    moved = dest;
    tos_check_spin_us(30000 + tos_check_next(&s) % 30000);
  }
}

int main(int argc, char **argv) {
  CHECK(argc == 5, "usage: pvm_job MESSAGES SEED PEER MOVER");
  messages = atol(argv[1]);
  seed = strtoul(argv[2], NULL, 10);
  int peer = atoi(argv[3]), move = atoi(argv[4]);
  master = pvm_init();
  CHECK(master >= 0, "pvm_init");
  worker = pvm_spawn(work, NULL, peer < 0 ? HERE : peer, 8);
  CHECK(worker > 0, "spawn: %d (%s)", worker, tos_strerror(tos_errno));
  if (move) CHECK(pvm_spawn(mover, NULL, HERE, 4) > 0, "spawn the mover");
  exchange();
  int code = wait();
  CHECK(code == 0, "a task ended with %d", code);
  if (move) { /* the worker ended on board 4: a new one in its slot, on 5 */
    messages /= 4;
    int again = pvm_spawn(work, NULL, 5, 8);
    CHECK(again == worker, "the second worker %x is not in the first's slot (%x)", again, worker);
    exchange();
    CHECK((code = wait()) == 0, "the second worker ended with %d", code);
  }
  unsigned long ref = 0;
  for (int r = 0; r < PVM_R_N; ++r) ref += pvm_refused(r);
  CHECK(ref == 0, "%lu messages refused", ref);
  printf("pvm_job %lu: %ld messages in order, worker %x moved to %d%s, master ends on board %ld\n", seed, messages, worker,
         moved, move ? ", then a new worker in its slot on 5" : "", tos_info(TOS_INFO_BOARD));
  return 0;
}

static void exchange(void) {
  static char b[600];
  unsigned long s = seed;
  for (long k = 1; k <= messages; ++k) {
    int len = (int)(tos_check_next(&s) % 600) + 1, num = (int)k;
    double d = k * 0.5;
    unsigned long sum = 0, got = 0;
    for (int i = 0; i < len; ++i) {
      b[i] = (char)(k * 7 + i * 13 + (long)seed);
      sum += (unsigned char)b[i] * (unsigned long)(i + 1);
    }
    CHECK(pvm_initsend() == 0 && pvm_pkint(&num, 1, 1) == 0 && pvm_pkdouble(&d, 1, 1) == 0 && pvm_pkint(&len, 1, 1) == 0 &&
              pvm_pkbyte(b, len, 1) == 0 && pvm_send(worker, (int)(k % 4)) == 0,
          "send %ld", k);
    int echo = 0;
    CHECK(pvm_recv(worker, 100) > 0 && pvm_upkint(&echo, 1, 1) == 0 && pvm_upklong((long *)&got, 1, 1) == 0, "echo %ld", k);
    CHECK(echo == k && got == sum, "echo %ld: number %d sum %lu want %lu", k, echo, got, sum);
    tos_check_spin_us(tos_check_next(&s) % 1500); /* outside every call for a while: a checkpoint may be taken */
  }
}
