/* Seed 001's ping-pong (Overeinder et al. 1996, section 4.2, Tables 2-3, Figure 3): a master
 * task here and a slave task on BOARD bounce a message of each SIZE; half the round trip is the
 * time to send it. Each size is measured OBS times (observations) of REPS round trips through
 * plain TOS channels (send_block / receive of the bytes) and through the PVM-style task layer
 * (lib/pvm.c: pvm_initsend, pvm_pkbyte, pvm_send; pvm_recv, pvm_upkbyte), interleaved so both
 * see the same machine. The last reply of each observation is compared with what was sent.
 *   pvmpong BOARD OBS REPS SIZE...
 * prints "pvmpong: obs SIZE plain|pvm REPS TOTAL_US" per observation, then "pvmpong: done". */
#include <stdlib.h>
#include <tos/pvm.h>
#include <tos/tos.h>

#define MAXSIZE 16384
static int master_tid;
/* each on pages of its own: the slave's buffer must not share a page with the master's */
static char mbuf[MAXSIZE] __attribute__((aligned(1024))), sbuf[MAXSIZE] __attribute__((aligned(1024)));

struct cmd { long mode, size, reps; }; /* mode 0: end, 1 plain, 2 pvm */

static void slave(void *arg) {
  (void)arg;
  for (;;) {
    struct cmd c;
    if (receive(0, &c, sizeof c) != sizeof c || c.mode == 0 || c.size < 1 || c.size > MAXSIZE) break;
    for (long r = 0; r < c.reps; ++r) {
      if (c.mode == 1) {
        if (receive(1, sbuf, (int)c.size) != c.size || send_block(2, sbuf, (int)c.size) != 0) exit(3);
      } else {
        if (pvm_recv(master_tid, 1) != 4 + ((c.size + 3) & ~3l) || /* one byte item */
            pvm_upkbyte(sbuf, (int)c.size, 1) != 0 || pvm_initsend() != 0 || pvm_pkbyte(sbuf, (int)c.size, 1) != 0 ||
            pvm_send(master_tid, 2) != 0)
          exit(4);
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 5) {
    printf("usage: pvmpong BOARD OBS REPS SIZE...\n");
    return 1;
  }
  int board = atoi(argv[1]), obs = atoi(argv[2]), reps = atoi(argv[3]);
  master_tid = pvm_init();
  if (master_tid < 0 || obs < 1 || reps < 1) {
    printf("pvmpong: FAIL bad arguments or pvm_init %d\n", master_tid);
    return 1;
  }
  int st = pvm_spawn(slave, NULL, board, 8);
  if (st < 0) {
    printf("pvmpong: FAIL pvm_spawn on board %d: %d\n", board, st);
    return 1;
  }
  /* warm-up, not measured: one round trip of the largest message each way, so that every page
   * of both tasks' buffers is on its task's board before the clock starts (as the seed's
   * measurements follow a task's start-up) */
  for (int mode = 1; mode <= 2; ++mode) {
    struct cmd c = {mode, MAXSIZE, 1};
    if (send_block(0, &c, sizeof c) != 0) return 2;
    if (mode == 1 ? send_block(1, mbuf, MAXSIZE) != 0 || receive(2, mbuf, MAXSIZE) != MAXSIZE
                  : pvm_initsend() != 0 || pvm_pkbyte(mbuf, MAXSIZE, 1) != 0 || pvm_send(st, 1) != 0 ||
                        pvm_recv(st, 2) < 0 || pvm_upkbyte(mbuf, MAXSIZE, 1) != 0)
      return 5;
  }
  int bad = 0;
  for (int a = 4; a < argc; ++a) {
    long size = atol(argv[a]);
    if (size < 1 || size > MAXSIZE) {
      printf("pvmpong: FAIL size %ld (1..%d)\n", size, MAXSIZE);
      return 1;
    }
    for (int o = 0; o < obs; ++o)
      for (int mode = 1; mode <= 2; ++mode) {
        struct cmd c = {mode, size, reps};
        for (long i = 0; i < size; ++i) mbuf[i] = (char)(i * 7 + o * 3 + mode + size);
        if (send_block(0, &c, sizeof c) != 0) return 2;
        unsigned long t0 = time_us();
        for (int r = 0; r < reps; ++r) {
          if (mode == 1) {
            if (send_block(1, mbuf, (int)size) != 0 || receive(2, mbuf, (int)size) != size) return 3;
          } else {
            if (pvm_initsend() != 0 || pvm_pkbyte(mbuf, (int)size, 1) != 0 || pvm_send(st, 1) != 0 ||
                pvm_recv(st, 2) < 0 || pvm_upkbyte(mbuf, (int)size, 1) != 0)
              return 4;
          }
        }
        unsigned long us = time_us() - t0;
        for (long i = 0; i < size; ++i)
          if (mbuf[i] != (char)(i * 7 + o * 3 + mode + size)) ++bad;
        printf("pvmpong: obs %ld %s %d %lu\n", size, mode == 1 ? "plain" : "pvm", reps, us);
      }
  }
  struct cmd end = {0, 0, 0};
  send_block(0, &end, sizeof end);
  wait();
  unsigned long ref = 0;
  for (int r = 0; r < PVM_R_N; ++r) ref += pvm_refused(r);
  if (bad || ref) {
    printf("pvmpong: FAIL %d bytes came back wrong, %lu messages refused\n", bad, ref);
    return 1;
  }
  printf("pvmpong: done\n");
  return 0;
}
