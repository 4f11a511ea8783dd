/* loopar: seed 002's loop-parallel application (Hobbs et al. section 4.1, Blocks 1 and 2): a
 * master starts SLAVES slave processes, gives each an equal share of WORK loop iterations,
 * collects their results and prints the time from the first start to the last result.
 *   loopar create SLAVES WORK   Block 1a: each slave made by rex_create() on the board the
 *                               global scheduler picks; its share sent to it, its result sent
 *                               back (channels 2i and 2i+1);
 *   loopar twin SLAVES WORK     Block 1b: each slave a process_twin() of the master, made on
 *                               the master's board (the scheduler may migrate it); its share is
 *                               in its copy of the master's memory, its result is its exit code.
 * Without a global scheduler serving, rex_create creates every slave here. */
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

#define MAX_SLAVES 20

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
  int i = (int)(long)arg;
  long range[2], r;
  if (receive(2 * i, range, sizeof range) != sizeof range) exit(1);
  r = share(range[0], range[1]);
  send_block(2 * i + 1, &r, sizeof r);
  exit(0);
}

static long lo_of(long work, int slaves, int i) { return work * i / slaves; }

/* One collector a slave, on the master's board, waiting for its result: a slave's send then
 * completes when its share is done and the slave ends there, as Block 1a's slaves did after
 * RHODOS's message. TOS's channels are synchronous: the master receiving in slave order held
 * every slave that finished early in its send until the ones before it had finished, so all
 * ended together at the end and migration on exit (Figure 9) found nothing left to move. */
static long results[MAX_SLAVES];
static void collector(void *arg) {
  int i = (int)(long)arg;
  if (receive(2 * i + 1, &results[i], sizeof results[i]) != sizeof results[i]) exit(1);
  exit(0);
}

int main(int argc, char **argv) {
  int twin = argc == 4 && !strcmp(argv[1], "twin");
  int slaves = argc == 4 ? atoi(argv[2]) : 0;
  long work = argc == 4 ? atol(argv[3]) : 0;
  if ((!twin && (argc != 4 || strcmp(argv[1], "create"))) || slaves < 1 || slaves > MAX_SLAVES || work < slaves) {
    printf("usage: loopar create|twin SLAVES(1..%d) WORK(>= SLAVES)\n", MAX_SLAVES);
    return 2;
  }
  unsigned long t0 = time_us();
  long total = 0;
  if (!twin) {
    for (int i = 0; i < slaves; ++i)
      if (!rex_create(i, 2, slave, (void *)(long)i)) {
        printf("loopar: slave %d: %s\n", i, tos_strerror(tos_errno));
        return 1;
      }
    for (int i = 0; i < slaves; ++i)
      if (!create(MAX_SLAVES + i, 1, HERE, collector, (void *)(long)i)) {
        printf("loopar: collector %d: %s\n", i, tos_strerror(tos_errno));
        return 1;
      }
    for (int i = 0; i < slaves; ++i) {
      long range[2] = {lo_of(work, slaves, i), lo_of(work, slaves, i + 1)};
      send_block(2 * i, range, sizeof range);
    }
    if (wait() != 0) return 1; /* the slaves and their collectors */
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
  unsigned long ms = (time_us() - t0 + 500) / 1000;
  printf("loopar: %s %d slaves, work %ld: %lu ms (result %ld)\n", twin ? "twin" : "create", slaves, work, ms, total);
  return 0;
}
