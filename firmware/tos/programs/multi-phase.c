/* multi-phase (seed 000 Appendix A.4, section 3.3.6, Table 5, Figure 18): 25 worker threads,
 * five on each slave (earth, air, fire, water, space), pass together through eight phases:
 *
 *   phase  1 compute-bound  local  short     5 communication-bound  local  short
 *          2 compute-bound  local  long      6 communication-bound  local  long
 *          3 compute-bound  remote short     7 communication-bound  remote short
 *          4 compute-bound  remote long      8 communication-bound  remote long
 *
 * The workers form a 5 x 5 grid (Figure 18): worker (row r, board b). "Vertical" channels join
 * the five workers of one board in a ring (local communication), "horizontal" channels the five
 * workers of one row, one per board, in a ring (remote communication). In each of `iterations`
 * steps a worker computes 1 ms (compute-bound phases: 10 ms), then sends to its next neighbour
 * and receives from its previous one (ring positions of even parity send first, so the ring
 * cannot deadlock); short messages are 1 byte, long ones max_msg bytes. The seed's listing is
 * garbled where compute-bound phases communicate; we read Table 5: every phase communicates,
 * compute-bound ones compute ten times longer between communications.
 *
 * Thread 1 (main, on the board that runs the program) is the barrier, as in the seed: before
 * each phase it sends a "go" to every worker and after it receives a "done" from each, then
 * computes for pause_ms (1000 in the seed) so that phases are separated in the trace. At each
 * phase's start and at the end it emits a user event (class overflow, when on): EV_USER_PHASE_MARK + phase
 * (1..8), and 0x01FF when all is done, so the analysis can tell the phases apart. Compute
 * is CPU work (a loop calibrated at start), not wall time, so that sharing a board's CPU makes
 * a thread slower as it would on the Testbed.
 *   multi-phase [iterations [max_msg [pause_ms]]]     defaults 10 5000 1000 */
#include <tos/tos.h>

#define MAX_MSG 5000
#define BOARDS 5 /* earth .. space */
#define ROWS 5
#define WORKERS (BOARDS * ROWS)
#define CH_GO 0                 /* + worker: main -> worker */
#define CH_DONE (CH_GO + WORKERS) /* + worker: worker -> main */
#define CH_LOCAL (CH_DONE + WORKERS)  /* + worker: worker -> next on its board */
#define CH_REMOTE (CH_LOCAL + WORKERS) /* + worker: worker -> next in its row */
#define PHASE_MARK EV_USER_PHASE_MARK /* user event at a phase's start: + phase number (events.toml) */

static unsigned long loops_per_ms = 1;
static int iterations = 10, max_msg = MAX_MSG, pause_ms = 1000;

static void spin(unsigned long loops) {
  for (volatile unsigned long i = 0; i < loops; ++i) {
  }
}
static void compute(unsigned long ms) { spin(ms * loops_per_ms); }

static int worker_of(int row, int board) { return row * BOARDS + board; } /* board 0..4 */

/* One exchange around a ring: position pos sends on out, receives on in. */
static int exchange(int pos, int out, int in, char *buf, int len) {
  int r1, r2;
  if ((pos & 1) == 0) {
    r1 = send_block(out, buf, len);
    r2 = receive(in, buf, MAX_MSG);
  } else {
    r2 = receive(in, buf, MAX_MSG);
    r1 = send_block(out, buf, len);
  }
  return r1 < 0 || r2 < 0;
}

static void worker(void *arg) {
  int w = (int)(long)arg, row = w / BOARDS, board = w % BOARDS;
  char buf[MAX_MSG];
  int errors = 0;
  for (int i = 0; i < MAX_MSG; ++i) buf[i] = (char)i;
  for (int phase = 0; phase < 8; ++phase) {
    int comm_bound = phase >= 4, remote = (phase >> 1) & 1, big = phase & 1, go;
    if (receive(CH_GO + w, &go, sizeof go) != (int)sizeof go) ++errors;
    int len = big ? max_msg : 1;
    for (int i = 0; i < iterations; ++i) {
      compute(comm_bound ? 1 : 10);
      if (remote)
        errors += exchange(board, CH_REMOTE + w, CH_REMOTE + worker_of(row, (board + BOARDS - 1) % BOARDS), buf, len);
      else
        errors += exchange(row, CH_LOCAL + w, CH_LOCAL + worker_of((row + ROWS - 1) % ROWS, board), buf, len);
    }
    if (send_block(CH_DONE + w, &errors, sizeof errors) < 0) ++errors;
  }
  exit(errors ? 1 : 0);
}

int main(int argc, char **argv) {
  if (argc > 1) iterations = atoi(argv[1]);
  if (argc > 2) max_msg = atoi(argv[2]);
  if (argc > 3) pause_ms = atoi(argv[3]);
  if (iterations < 1 || max_msg < 1 || max_msg > MAX_MSG || pause_ms < 0) {
    printf("usage: multi-phase [iterations [max_msg 1..%d [pause_ms]]]\n", MAX_MSG);
    return 2;
  }
  /* calibrate: loops per millisecond of this CPU, alone */
  unsigned long t0 = time_us(), n = 20000;
  spin(n);
  unsigned long us = time_us() - t0;
  loops_per_ms = us ? n * 1000ul / us : n;
  for (int w = 0; w < WORKERS; ++w)
    if (!create(w + 2, 8, 1 + w % BOARDS, worker, (void *)(long)w)) {
      printf("multi-phase: create worker %d on board %d: %s\n", w, 1 + w % BOARDS, tos_strerror(tos_errno));
      return 1;
    }
  int errors = 0;
  for (int phase = 0; phase < 8; ++phase) {
    compute((unsigned long)pause_ms);
    unsigned long p0 = time_us();
    send_event(PHASE_MARK + phase + 1);
    for (int w = 0; w < WORKERS; ++w)
      if (send_block(CH_GO + w, &phase, sizeof phase) < 0) ++errors;
    for (int w = 0; w < WORKERS; ++w) {
      int e = 0;
      if (receive(CH_DONE + w, &e, sizeof e) != (int)sizeof e || e) ++errors;
    }
    printf("multi-phase: phase %d (%s, %s, %s) took %lu ms\n", phase + 1, phase >= 4 ? "communication-bound" : "compute-bound",
           (phase >> 1) & 1 ? "remote" : "local", phase & 1 ? "long" : "short", (time_us() - p0) / 1000ul);
  }
  send_event(PHASE_MARK + 0xFF);
  int rc = wait();
  printf("multi-phase: %d workers, 8 phases of %d steps, %lu loops/ms: %s\n", WORKERS, iterations, loops_per_ms,
         errors || rc ? "errors" : "ok");
  return errors || rc ? 1 : 0;
}
