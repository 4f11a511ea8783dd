/* Seed 001's ping-pong (Overeinder et al. 1996, section 4.2, Tables 2-3, Figure 3): a master
 * task here and a slave task on BOARD bounce a message of each SIZE; half the round trip is the
 * time to send it. Each size is measured OBS times (observations) of REPS round trips in three
 * systems, interleaved so that all see the same machine:
 *   plain  plain TOS channels (send_block / receive of the bytes: no layer at all);
 *   fixed  the PVM-style task layer without routing indirection (pvm_setopt(PvmRoute,
 *          PvmRouteFixed): plain PVM's fixed task ids, no table lookup) -- the seed's "PVM";
 *   pvm    the same layer routed by the boards' tables (psend; kernel/route.c) -- the seed's
 *          "DynamicPVM".
 * Both layer systems use the same calls (pvm_initsend, pvm_pkbyte, pvm_send; pvm_recv,
 * pvm_upkbyte). The last reply of each observation is compared with what was sent.
 * LOAD "none", or "F:T": every size is measured again (the seed's "medium" network load, Table 3)
 * while a third task on board F sends 1 KB messages to a fourth on board T without pause (for
 * 1.2 times as long as the low-load observations took and 200 ms more: it must outlast them); the
 * load's bytes and time are printed, measured by its sender, and the medium-load observations' time.
 *   pvmpong [-layer fixed|pvm] BOARD OBS REPS LOAD SIZE...
 * -layer observes that system alone (no plain and no other layer between its round trips): a run
 * whose cycle profile is that layer's, for the experiment's routed-against-fixed A/B.
 * prints "pvmpong: obs low|medium SIZE plain|fixed|pvm REPS TOTAL_US" per observation,
 * "pvmpong: load BYTES US MEDIUM_US" and "pvmpong: done". */
#include <stdlib.h>
#include <string.h>
#include <tos/pvm.h>
#include <tos/tos.h>

#define MAXSIZE 16384
#define LOAD_MSG 1024
static int master_tid;
/* each on pages of its own: the slave's buffer must not share a page with the master's */
static char mbuf[MAXSIZE] __attribute__((aligned(1024))), sbuf[MAXSIZE] __attribute__((aligned(1024)));
static char lbuf[2][LOAD_MSG] __attribute__((aligned(1024)));
/* the load's length (written by the master before the load starts) and its sender's count
 * (written by the sender as it ends), on a page of their own. No flag the master writes while
 * the load runs: a page one board writes while another spins reading it goes back and forth
 * (kernel/pages.c) and starved the master in a trial run. */
static struct {
  unsigned long for_us, bytes, us;
  char pad[1024 - 12];
} load __attribute__((aligned(1024)));

enum { M_END, M_PLAIN, M_FIXED, M_PVM, M_N };
static const char *const mode_name[M_N] = {"", "plain", "fixed", "pvm"};
struct cmd { long mode, size, reps; };

static int pvm_round(char *buf, long size, int to, int tag_out, int tag_in) {
  return pvm_initsend() != 0 || pvm_pkbyte(buf, (int)size, 1) != 0 || pvm_send(to, tag_out) != 0 ||
         pvm_recv(to, tag_in) != 4 + ((size + 3) & ~3l) || pvm_upkbyte(buf, (int)size, 1) != 0;
}

static void slave(void *arg) {
  (void)arg;
  for (;;) {
    struct cmd c;
    if (receive(0, &c, sizeof c) != sizeof c || c.mode <= M_END || c.mode >= M_N || c.size < 1 || c.size > MAXSIZE)
      break;
    if (c.mode != M_PLAIN) pvm_setopt(PvmRoute, c.mode == M_FIXED ? PvmRouteFixed : PvmRouteTable);
    for (long r = 0; r < c.reps; ++r) {
      if (c.mode == M_PLAIN) {
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

/* the background load: channel 3, 1 KB messages as fast as the receiver takes them; a message
 * of 4 bytes ends it */
static void load_send(void *arg) {
  (void)arg;
  unsigned long n = 0, t0 = time_us(), for_us = load.for_us;
  while (time_us() - t0 < for_us) {
    if (send_block(3, lbuf[0], LOAD_MSG) != 0) exit(6);
    n += LOAD_MSG;
  }
  load.us = time_us() - t0;
  load.bytes = n;
  send_block(3, lbuf[0], 4);
  exit(0);
}
static void load_recv(void *arg) {
  (void)arg;
  while (receive(3, lbuf[1], LOAD_MSG) == LOAD_MSG) {
  }
  exit(0);
}

static int only = M_END; /* -layer: the one system observed; M_END: all three */

static int observe(const char *load_name, long size, int obs, int reps, int st, int *bad) {
  for (int o = 0; o < obs; ++o)
    for (int mode = M_PLAIN; mode < M_N; ++mode) {
      if (only != M_END && mode != only) continue;
      struct cmd c = {mode, size, reps};
      for (long i = 0; i < size; ++i) mbuf[i] = (char)(i * 7 + o * 3 + mode + size);
      if (send_block(0, &c, sizeof c) != 0) return 2;
      if (mode != M_PLAIN) pvm_setopt(PvmRoute, mode == M_FIXED ? PvmRouteFixed : PvmRouteTable);
      unsigned long t0 = time_us();
      for (int r = 0; r < reps; ++r) {
        if (mode == M_PLAIN) {
          if (send_block(1, mbuf, (int)size) != 0 || receive(2, mbuf, (int)size) != size) return 3;
        } else if (pvm_round(mbuf, size, st, 1, 2)) {
          return 4;
        }
      }
      unsigned long us = time_us() - t0;
      for (long i = 0; i < size; ++i)
        if (mbuf[i] != (char)(i * 7 + o * 3 + mode + size)) ++*bad;
      printf("pvmpong: obs %s %ld %s %d %lu\n", load_name, size, mode_name[mode], reps, us);
    }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "-layer")) {
    only = !strcmp(argv[2], "fixed") ? M_FIXED : !strcmp(argv[2], "pvm") ? M_PVM : -1;
    argv += 2;
    argc -= 2;
  }
  if (argc < 6 || only < 0) {
    printf("usage: pvmpong [-layer fixed|pvm] BOARD OBS REPS none|FROM:TO SIZE...\n");
    return 1;
  }
  int board = atoi(argv[1]), obs = atoi(argv[2]), reps = atoi(argv[3]), lfrom = -1, lto = -1;
  if (strcmp(argv[4], "none") != 0) {
    char *e;
    lfrom = (int)strtol(argv[4], &e, 10);
    if (*e != ':' || lfrom < 0) lfrom = -2;
    else lto = atoi(e + 1);
    if (lfrom < 0 || lto < 0 || lto == lfrom) {
      printf("pvmpong: FAIL load '%s': none or FROM:TO (two boards)\n", argv[4]);
      return 1;
    }
  }
  master_tid = pvm_init();
  if (master_tid < 0 || obs < 1 || reps < 1) {
    printf("pvmpong: FAIL bad arguments or pvm_init %d\n", master_tid);
    return 1;
  }
  for (int a = 5; a < argc; ++a)
    if (atol(argv[a]) < 1 || atol(argv[a]) > MAXSIZE) {
      printf("pvmpong: FAIL size %s (1..%d)\n", argv[a], MAXSIZE);
      return 1;
    }
  int st = pvm_spawn(slave, NULL, board, 8);
  if (st < 0) {
    printf("pvmpong: FAIL pvm_spawn on board %d: %d\n", board, st);
    return 1;
  }
  /* warm-up, not measured: one round trip of the largest message each way in every system, so
   * that every page of both tasks' buffers is on its task's board before the clock starts (as
   * the seed's measurements follow a task's start-up) */
  for (int mode = M_PLAIN; mode < M_N; ++mode) {
    struct cmd c = {mode, MAXSIZE, 1};
    if (send_block(0, &c, sizeof c) != 0) return 2;
    if (mode != M_PLAIN) pvm_setopt(PvmRoute, mode == M_FIXED ? PvmRouteFixed : PvmRouteTable);
    if (mode == M_PLAIN ? send_block(1, mbuf, MAXSIZE) != 0 || receive(2, mbuf, MAXSIZE) != MAXSIZE
                        : pvm_round(mbuf, MAXSIZE, st, 1, 2))
      return 5;
  }
  int bad = 0, r;
  unsigned long medium_us = 0, t0 = time_us();
  for (int a = 5; a < argc; ++a)
    if ((r = observe("low", atol(argv[a]), obs, reps, st, &bad)) != 0) return r;
  load.for_us = (time_us() - t0) * 6 / 5 + 200000;
  if (lfrom >= 0) {
    if (create(0, 4, lto, load_recv, NULL) <= 0 || create(0, 4, lfrom, load_send, NULL) <= 0) {
      printf("pvmpong: FAIL the load on %d -> %d: %s\n", lfrom, lto, tos_strerror(tos_errno));
      return 1;
    }
    t0 = time_us();
    while (time_us() - t0 < 50000) yield(); /* under way before the clock starts */
    t0 = time_us();
    for (int a = 5; a < argc; ++a)
      if ((r = observe("medium", atol(argv[a]), obs, reps, st, &bad)) != 0) return r;
    medium_us = time_us() - t0;
  }
  struct cmd end = {M_END, 0, 0};
  send_block(0, &end, sizeof end);
  wait();
  if (lfrom >= 0) printf("pvmpong: load %lu %lu %lu\n", load.bytes, load.us, medium_us);
  unsigned long ref = 0;
  for (int k = 0; k < PVM_R_N; ++k) ref += pvm_refused(k);
  if (bad || ref) {
    printf("pvmpong: FAIL %d bytes came back wrong, %lu messages refused\n", bad, ref);
    return 1;
  }
  printf("pvmpong: done\n");
  return 0;
}
