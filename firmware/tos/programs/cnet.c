/* cnet: seed 003's counting network (Hsieh 1995, 7.3.1, Figures 7-11 to 7-13) on TOS regions,
 * run from the process's home board (earth in the experiments); every number is the simulated
 * machine's clock (time_us) around traversals that really run.
 *
 *   cnet METHOD FIRST_BALANCER FIRST_CLIENT CLIENTS RUNS ITERS [SEED [WIDTH [FIRST_COUNTER]]]
 *
 * The 8x8 bitonic counting network of Aspnes, Herlihy and Shavit (Bitonic[8]: two Bitonic[4]
 * and a Merger[8]; six stages of four balancers, 24 in all) is built here (WIDTH 4: the 4x4
 * network, Bitonic[4], three stages of two balancers and four counters, which the seed ran to
 * see how far its protocol scales: 7.3.1; below, 8 stands for WIDTH), one balancer per
 * board: balancer n is a region homed on board FIRST_BALANCER + n (a thread created there makes
 * it, so the region is homed where it runs), holding its toggle and its two output wires (the
 * next balancer, or one of the eight output counters). Output counter j is a region homed on the
 * board of the last-stage balancer that feeds it, or with FIRST_COUNTER (not 0) on board
 * FIRST_COUNTER + j, made by a thread of its own there: every node on a board of its own (the
 * seed placed its balancers so, "to maximize the throughput", and does not say where its counters
 * were; on the feeders' boards the last stage's boards serve three nodes each). It hands out j,
 * j + 8, j + 16, ... Each such thread then serves migrated computations on its board (cm_serve).
 *
 * For each client count c of CLIENTS (comma separated) and run i = 1..RUNS, c client threads,
 * on boards FIRST_CLIENT, FIRST_CLIENT + 1, ..., each take i * ITERS values, after a run 0 of
 * ITERS values each, not timed, in which the clients' boards map the 32 nodes (and a lone client
 * under data migration gathers the balancers on its path: the seed's seven iterations): a client enters the
 * network on input wire (its number mod 8) and at each balancer and at the counter does one
 * write access -- METHOD data: rgn_start_write / rgn_end_write (data migration with
 * replication, the balancer's region comes to the client); static, repeat: cm_call with the
 * home's policy STATIC or REPEAT (every access is a write, so both migrate the computation to
 * the balancer's home and bring back the output wire: the seed ran STATIC only, for that
 * reason); "+oam" runs them as optimistic active messages, "+onward" lets the computation go on
 * from balancer to balancer as the seed's did (cm_onward: each balancer's board maps the nodes it
 * feeds, and only the counter's home answers the client), and "+cm5" then sends the migration
 * requests and onward steps as the CM-5 had to (a set-up round trip before each: cm_map). Lines: "cnet METHOD CLIENTS iters us" (the time from creating the clients until the
 * last has its values; the regression over the runs takes out creation and mapping), and after
 * each run the check that the values handed out are exactly the next c * i * ITERS integers
 * (each once): "cnet check METHOD CLIENTS iters ok" or "cnet: FAIL: ...", and for a timed run
 * "cnet misses METHOD CLIENTS iters N": the clients' accesses in it that had to ask a home for the
 * region (rgn_count's TOS_CM_COUNT_MISS on their boards, read after the time is taken).
 * SEED (default 0: none) delays each client's start by a pseudo-random 0..SEED_SPREAD_US
 * (the same in every run, so the regression takes it out) and gives each node's step 0..SEED_WORK
 * iterations of an empty loop more (a few microseconds, wherever the step runs): a saturated
 * network's interleaving depends on such phases and on a step's cost to the cycle (a few cycles
 * more at each migrated computation's end move a full network's cost per value by more than the
 * start phases' spread), and the runs of several seeds show its spread. First the network as
 * built: "cnet wire W NODE" (input wire W enters NODE), "cnet node N NEXT0 NEXT1 BOARD" (nodes
 * 24..31 are the counters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/region.h>
#include <tos/tos.h>

/* Bitonic[8], the seed's network, or Bitonic[4] (WIDTH 4: a quarter of it, three stages of two
 * balancers), which the seed ran to test scalability (7.3.1); arrays and channels are sized for
 * the larger */
#define MAXWIDTH 8
#define MAXBAL 24                     /* Bitonic[8]'s balancers */
#define MAXNODES (MAXBAL + MAXWIDTH) /* balancers 0..nbal-1, then the output counters */
#define MAXCLIENTS 32
#define MAXITERS 512
/* channels are occam's, one sender and one receiver each */
#define READY 1                /* + n: balancer n's thread -> main: its regions exist */
#define DONE (READY + MAXBAL)   /* + k: client k -> the driver: it has its values */
#define GO (DONE + MAXCLIENTS) /* + n: main -> balancer n's thread: every node exists (+onward) */
#define MAPPED (GO + MAXBAL)    /* + n: balancer n's thread -> main: it has mapped the nodes it feeds */
#define COUNTED (MAPPED + MAXBAL) /* + j: counter j's thread (FIRST_COUNTER) -> main: its region exists */

struct node { /* a region of 32 bytes: the seed's nodes are eight words */
  long counter;  /* 1: an output counter */
  long toggle;   /* a balancer's next output; a counter's next value */
  long next[2];  /* a balancer's output wires: node numbers */
  long work;     /* SEED: the step's extra loop iterations */
  long pad[3];
};

/* What every thread reads at every step -- the network as built and the run's settings -- on a
 * page of its own, written only before any client or balancer's step runs. A page of a process
 * is shared by its threads on every board (one owner, read copies), so a write anywhere to a page
 * this shares (tos_errno, when a step's cm_onward is refused; a client's values) would take every
 * board's copy away in the middle of the network's traffic; the seed's SPMD program had such data
 * in each processor's own memory. */
static struct __attribute__((aligned(TOS_PAGE_SIZE))) { /* (the type's alignment makes it a page) */
  int method; /* TOS_CM_POLICY_DATA, _STATIC or _REPEAT */
  int onward; /* "+onward": the computation goes on from node to node (cm_onward) */
  int first_bal, first_client;
  int first_counter; /* 0: each output counter on its feeder's board */
  unsigned seed;
  /* the network, built by main before any thread runs (rid: by each balancer's thread, before
   * its READY) */
  int width, stages; /* the network's inputs (8 or 4) and depth */
  int entry[MAXWIDTH];
  int next_of[MAXBAL][2];
  int feeder[MAXWIDTH]; /* the last-stage balancer of each output counter */
  int nbal;             /* balancers (once built): node nbal + j is output counter j */
  volatile rid_t rid[MAXNODES];
} net;
/* each client's values of the last run, copied here after it has said DONE (out of the time) */
static long got[MAXCLIENTS][MAXITERS];
static long misses[MAXCLIENTS]; /* each client board's misses so far, over the 32 nodes (counted there) */
static int run_iters;
#define SEED_SPREAD_US 1000
#define SEED_WORK 4
/* A pseudo-random number of (seed, k): a client's phase, a node's work. */
static unsigned seeded(unsigned k) {
  unsigned x = (net.seed * 2654435761u) ^ (k * 40503u + 0x9E37u);
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return x;
}
static unsigned char seen[MAXCLIENTS * MAXITERS];

static void fail(const char *what) {
  printf("cnet: FAIL: %s: %s\n", what, tos_strerror(tos_errno));
  exit(1);
}

/* ---- building Bitonic[8]: wires are "slots" to be connected to the node that takes them ---- */
struct slot {
  int node, port; /* node -1: network input `port` */
};
static void connect(struct slot s, int n) {
  if (s.node < 0) net.entry[s.port] = n;
  else net.next_of[s.node][s.port] = n;
}
static void balancer(struct slot a, struct slot b, struct slot *out) {
  int n = net.nbal++;
  connect(a, n);
  connect(b, n);
  out[0] = (struct slot){n, 0};
  out[1] = (struct slot){n, 1};
}
static void merger(const struct slot *x, int w, struct slot *out) {
  if (w == 2) {
    balancer(x[0], x[1], out);
    return;
  }
  int k = w / 2;
  struct slot in1[MAXWIDTH / 2] = {{0, 0}}, in2[MAXWIDTH / 2] = {{0, 0}}, m1[MAXWIDTH / 2], m2[MAXWIDTH / 2];
  for (int i = 0; i < k / 2; ++i) { /* evens of the first half with odds of the second, and vice versa */
    in1[i] = x[2 * i];
    in1[k / 2 + i] = x[k + 2 * i + 1];
    in2[i] = x[2 * i + 1];
    in2[k / 2 + i] = x[k + 2 * i];
  }
  merger(in1, k, m1);
  merger(in2, k, m2);
  for (int i = 0; i < k; ++i) balancer(m1[i], m2[i], &out[2 * i]);
}
static void bitonic(const struct slot *x, int w, struct slot *out) {
  if (w == 2) {
    merger(x, 2, out);
    return;
  }
  struct slot y[MAXWIDTH];
  bitonic(x, w / 2, y);
  bitonic(x + w / 2, w / 2, y + w / 2);
  merger(y, w, out);
}
static void build(void) {
  struct slot in[MAXWIDTH], out[MAXWIDTH];
  int lg = net.width == 8 ? 3 : 2;
  net.stages = lg * (lg + 1) / 2; /* Bitonic[2^k]'s depth: k(k+1)/2 stages of 2^(k-1) balancers */
  for (int i = 0; i < net.width; ++i) in[i] = (struct slot){-1, i};
  net.nbal = 0;
  bitonic(in, net.width, out);
  if (net.nbal != net.stages * net.width / 2) fail("the network's size");
  for (int j = 0; j < net.width; ++j) {
    net.next_of[out[j].node][out[j].port] = net.nbal + j;
    net.feeder[j] = out[j].node;
  }
}

/* ---- the balancers' boards ---- */
static void make(int n, long counter, long toggle, const int *next) {
  rid_t id = rgn_create(sizeof(struct node));
  if (!id) fail("rgn_create");
  struct node *r = rgn_map(id);
  if (!r || rgn_policy(r, net.method) < 0 || rgn_start_write(r) < 0) fail("a node's region");
  r->counter = counter;
  r->toggle = toggle;
  r->next[0] = next ? next[0] : -1;
  r->next[1] = next ? next[1] : -1;
  r->work = net.seed ? (long)(seeded(1000u + (unsigned)n) % (SEED_WORK + 1)) : 0;
  rgn_end_write(r);
  net.rid[n] = id;
}
static void node_board(void *arg) {
  int n = (int)arg;
  make(n, 0, 0, net.next_of[n]);
  for (int j = 0; j < net.width && !net.first_counter; ++j)
    if (net.feeder[j] == n) make(net.nbal + j, 1, j, NULL);
  if (send_block(READY + n, &n, sizeof n) < 0) fail("ready");
  if (net.onward) { /* the onward steps start here: the nodes this balancer feeds are mapped on its board */
    int go;
    if (receive(GO + n, &go, sizeof go) != sizeof go) fail("go");
    for (int p = 0; p < 2; ++p)
      if (!cm_map(net.rid[net.next_of[n][p]])) fail("a balancer's cm_map");
    if (send_block(MAPPED + n, &n, sizeof n) < 0) fail("mapped");
  }
  cm_serve(); /* until cm_serve_stop on this board */
}
static void counter_board(void *arg) { /* FIRST_COUNTER: output counter j's own board */
  int j = (int)arg;
  make(net.nbal + j, 1, j, NULL);
  if (send_block(COUNTED + j, &j, sizeof j) < 0) fail("counted");
  cm_serve();
}
static void stopper(void *unused) {
  (void)unused;
  cm_serve_stop();
  exit(0);
}

/* ---- one step through the network: a write of node r ---- */
static long step(void *rgn, long unused) {
  (void)unused;
  struct node *r = rgn;
  for (long i = r->work; i > 0; --i) __asm__ volatile("");
  if (r->counter) {
    long v = r->toggle;
    r->toggle += net.width;
    return v;
  }
  long t = r->toggle;
  r->toggle = !t;
  return r->next[t];
}

/* Node n's step at its home, the rest of the way going on from there (+onward): a counter's value
 * (>= 0), or -1 - the next node when the step could not go on (cm_call ran it on the client's
 * board), where the client goes on itself. */
static long walk(void *rgn, long n) {
  long x = step(rgn, 0);
  if (n >= net.nbal) return x;
  if (x >= 0 && x < net.nbal + net.width && cm_onward(net.rid[x], TOS_CM_WRITE, walk, x) == 0) return 0; /* (dropped) */
  return -1 - x;
}

static void client(void *arg) {
  int k = (int)arg;
  int nodes = net.nbal + net.width;
  void *r[MAXNODES];
  long mine[MAXITERS];
  for (int n = 0; n < nodes; ++n)
    if (!(r[n] = cm_map(net.rid[n]))) fail("client cm_map");
  if (net.seed) { /* this client's phase */
    unsigned long until = time_us() + seeded((unsigned)k) % (SEED_SPREAD_US + 1);
    while (time_us() < until) {
    }
  }
  for (int i = 0; i < run_iters; ++i) {
    long n = net.entry[k % net.width], v = -1;
    for (int hops = 0; hops <= net.stages && v < 0; ++hops) {
      if (n < 0 || n >= nodes) fail("a wire to no node");
      long x;
      if (net.method == TOS_CM_POLICY_DATA) {
        if (rgn_start_write(r[n]) < 0) fail("rgn_start_write");
        x = step(r[n], 0);
        rgn_end_write(r[n]);
      } else if (net.onward) {
        int how;
        x = cm_call_how(r[n], TOS_CM_WRITE, walk, n, &how);
        if (how < 0) fail("cm_call");
        if (x >= 0) v = x;
        else n = -1 - x;
        continue;
      } else {
        int how;
        x = cm_call_how(r[n], TOS_CM_WRITE, step, 0, &how);
        if (how < 0) fail("cm_call");
      }
      if (n >= net.nbal) v = x;
      else n = x;
    }
    if (v < 0) fail("a path longer than the network");
    mine[i] = v;
  }
  if (send_block(DONE + k, &k, sizeof k) < 0) fail("done");
  memcpy(got[k], mine, sizeof(long) * (unsigned)run_iters);
  long m = 0;
  for (int n = 0; n < nodes; ++n) m += rgn_count(r[n], TOS_CM_COUNT_MISS);
  misses[k] = m;
  exit(0);
}

static const char *clients_arg;
static int runs, iters;

/* The clients are this thread's children (wait() waits for all of a thread's children, and the
 * balancers' threads, main's, serve until the end). */
static void driver(void *unused) {
  (void)unused;
  long boards = tos_info(TOS_INFO_BOARDS), base = 0, before[MAXCLIENTS] = {0};
  for (const char *s = clients_arg; *s;) {
    int c = atoi(s);
    if (c < 1 || c > MAXCLIENTS || net.first_client + c > boards) fail("clients past the machine");
    for (int i = 0; i <= runs; ++i) { /* run 0 (not timed): see the head of the file */
      run_iters = i ? i * iters : iters;
      unsigned long t0 = time_us();
      for (int k = 0; k < c; ++k)
        if (!create(100 + k, 8, net.first_client + k, client, (void *)k)) fail("create a client");
      for (int k = 0; k < c; ++k) {
        int who;
        if (receive(DONE + k, &who, sizeof who) != sizeof who) fail("done");
      }
      long us = (long)(time_us() - t0);
      if (wait() != 0) fail("a client");
      long missed = 0;
      for (int k = 0; k < c; ++k) { /* (a board's count only grows: its records stay while the process lives) */
        if (misses[k] < before[k]) fail("a client board's miss count went back");
        missed += misses[k] - before[k];
        before[k] = misses[k];
      }
      long total = (long)c * run_iters;
      memset(seen, 0, (unsigned)total);
      for (int k = 0; k < c; ++k)
        for (int j = 0; j < run_iters; ++j) {
          long v = got[k][j] - base;
          if (v < 0 || v >= total || seen[v]) {
            printf("cnet: FAIL: client %d's value %ld: %s\n", k, got[k][j],
                   v < 0 || v >= total ? "out of the run's range" : "handed out twice");
            exit(1);
          }
          seen[v] = 1;
        }
      base += total;
      if (i) printf("cnet %s %d %d %ld\n", cm_policy_name(net.method), c, run_iters, us);
      if (i) printf("cnet misses %s %d %d %ld\n", cm_policy_name(net.method), c, run_iters, missed);
      printf("cnet check %s %d %d ok\n", cm_policy_name(net.method), c, run_iters);
    }
    while (*s && *s != ',') ++s;
    if (*s == ',') ++s;
  }
  for (int n = 0; n < net.nbal; ++n) /* one per balancer board: its server (the counters' too) ends */
    if (!create(200 + n, 4, net.first_bal + n, stopper, NULL)) fail("create a stopper");
  for (int j = 0; net.first_counter && j < net.width; ++j) /* and one per counter board */
    if (!create(300 + j, 4, net.first_counter + j, stopper, NULL)) fail("create a stopper");
  if (wait() != 0) fail("a stopper");
  exit(0);
}

int main(int argc, char **argv) {
  if (argc < 7) {
    printf("usage: cnet data|static|repeat[+oam][+onward][+cm5] FIRST_BALANCER FIRST_CLIENT CLIENTS RUNS ITERS "
           "[SEED [WIDTH [FIRST_COUNTER]]]\n");
    return 2;
  }
  char name[32];
  strncpy(name, argv[1], sizeof name - 1);
  name[sizeof name - 1] = 0;
  char *on = strstr(name, "+onward");
  if (on) { /* (the rest is the library's policy name) */
    net.onward = 1;
    memmove(on, on + 7, strlen(on + 7) + 1);
  }
  net.method = cm_policy_named(name);
  net.first_bal = atoi(argv[2]);
  net.first_client = atoi(argv[3]);
  clients_arg = argv[4];
  runs = atoi(argv[5]);
  iters = atoi(argv[6]);
  net.seed = argc > 7 ? (unsigned)atoi(argv[7]) : 0;
  net.width = argc > 8 ? atoi(argv[8]) : MAXWIDTH;
  if (net.width != 8 && net.width != 4) fail("WIDTH (8 or 4)");
  net.first_counter = argc > 9 ? atoi(argv[9]) : 0;
  build();
  long boards = tos_info(TOS_INFO_BOARDS);
  if (net.method < 0 || net.method == TOS_CM_POLICY_RPC || (net.onward && net.method == TOS_CM_POLICY_DATA))
    fail("method (data, static or repeat; +onward with static or repeat)");
  if (net.first_bal < 1 || net.first_bal + net.nbal > boards) fail("balancer boards past the machine");
  if (net.first_client < 1) fail("client boards");
  if (net.first_counter < 0 || (net.first_counter && net.first_counter + net.width > boards))
    fail("counter boards past the machine");
  if (runs < 1 || iters < 1 || runs * iters > MAXITERS) fail("runs x iterations");
  if (net.seed) /* (the analysis names what a seed varies from this line) */
    printf("cnet seed %u: client starts 0..%d us late, node steps 0..%d loop iterations longer\n", net.seed,
           SEED_SPREAD_US, SEED_WORK);
  for (int w = 0; w < net.width; ++w) printf("cnet wire %d %d\n", w, net.entry[w]); /* (the analysis draws Figure 7-11) */
  for (int n = 0; n < net.nbal; ++n)
    printf("cnet node %d %d %d %d\n", n, net.next_of[n][0], net.next_of[n][1], net.first_bal + n);
  for (int n = 0; n < net.nbal; ++n)
    if (!create(n, 4, net.first_bal + n, node_board, (void *)n)) fail("create a balancer's thread");
  for (int j = 0; net.first_counter && j < net.width; ++j)
    if (!create(50 + j, 4, net.first_counter + j, counter_board, (void *)j)) fail("create a counter's thread");
  for (int n = 0; n < net.nbal; ++n) {
    int who;
    if (receive(READY + n, &who, sizeof who) != sizeof who) fail("ready");
  }
  for (int j = 0; net.first_counter && j < net.width; ++j) { /* (before any balancer maps the nodes it feeds) */
    int who;
    if (receive(COUNTED + j, &who, sizeof who) != sizeof who) fail("counted");
  }
  for (int n = 0; net.onward && n < net.nbal; ++n)
    if (send_block(GO + n, &n, sizeof n) < 0) fail("go");
  for (int n = 0; net.onward && n < net.nbal; ++n) {
    int who;
    if (receive(MAPPED + n, &who, sizeof who) != sizeof who) fail("mapped");
  }
  if (!create(99, 8, HERE, driver, NULL)) fail("create the driver");
  if (wait() != 0) fail("the run");
  printf("cnet: done\n");
  return 0;
}
