/* adder (seed 000 section 4.3.2, Figure 49, Appendix A.7): an asynchronous 8-bit adder
 * simulated by one thread per circuit element, 15 elements, and the environment (main).
 *
 * The circuit (the seed's Figure 49 survives only as a caption, so we chose one): a ripple adder
 * of eight full-adder cells with carry completion, whose sum bits reach the environment through
 * a tree of seven merge elements.
 *
 *   cell i (a Muller-C join of its operand bits a_i b_i and its carry-in c_i): sum bit
 *     a_i ^ b_i ^ c_i when both have come; carry-out to cell i+1 (cell 7: to the environment).
 *     When a_i == b_i the carry-out is a_i whatever c_i is (kill or generate), so it does not
 *     wait for c_i; only a propagating cell (a_i != b_i) passes its carry-in on. That makes the
 *     circuit's delay depend on its inputs: the longest run of propagating bits.
 *   merge j: passes each message from either input on. Cells 0,1 -> merge 0, 2,3 -> 1, 4,5 -> 2,
 *     6,7 -> 3; merges 0,1 -> 4, 2,3 -> 5; 4,5 -> 6 -> environment.
 *
 * A delay record (one counter per element type) travels with every message and each element
 * adds one to its type's field. An element that joins inputs carries on the record of the input
 * that came last in circuit time (the larger weighted delay); so the record the environment keeps
 * (the latest of its nine outputs) counts the elements on the critical path of that addition.
 *
 * TOS has no ALT and a TOS channel has one sender and one receiver (a second sender gets
 * EINVAL), so an element cannot have one input channel that several others send on. Each wire is
 * a channel of its own, and an element receives its inputs in a fixed order: operand, then
 * carry; merge input A, then B. The order is that of one global sequence of the messages of an
 * addition (operands to cells 0..7; then per bit: sum up the merge tree, carry to the next cell),
 * so no rendezvous can wait on a message that comes later: it cannot deadlock. The circuit's
 * timing is the delay record's, not the order in which the threads happen to run.
 *
 * Placement of the element threads: `here` on this board, `random` on boards TOS picks, `spread`
 * round robin over the five slaves (element e on board 1 + e % 5). Each element keeps its state
 * on its stack, so it may migrate. Pairs of operands follow a fixed sequence: 255 + 1 (the longest
 * carry propagation) first, then an LCG's; 65536 pairs are the seed's every op1, op2.
 *   adder [pairs [here|random|spread]]    defaults 256 here */
#include <tos/rand.h>
#include <tos/tos.h>

#define BITS 8
#define CELLS BITS
#define MERGES (CELLS - 1)
#define ELEMENTS (CELLS + MERGES)
#define SHOWN 4 /* additions printed one by one: the console is slow */

/* Channels, one a wire. */
#define CH_OP 0                    /* + cell: environment -> cell */
#define CH_CARRY (CH_OP + CELLS)   /* + cell 1..7: cell - 1 -> cell */
#define CH_SUM (CH_CARRY + CELLS)  /* + cell: cell -> its merge */
#define CH_MERGE (CH_SUM + CELLS)  /* + merge 0..5: merge -> the next merge */
#define CH_RESULT (CH_MERGE + 6)   /* merge 6 -> environment */
#define CH_COUT (CH_RESULT + 1)    /* cell 7 -> environment */

/* Relative delays of the element types, to tell which input came last. */
#define MULLER_DELAY 3
#define MERGE_DELAY 1

enum { M_DATA, M_STOP };
struct delay {
  uint16_t muller, merge;
};
struct msg {
  int16_t kind;
  int16_t value; /* operand: a | b << 1 | c << 2 (c for cell 0 only); sum: bit << 1 | s; carry */
  struct delay d;
};

static unsigned long weight(struct delay d) { return (unsigned long)d.muller * MULLER_DELAY + d.merge * MERGE_DELAY; }
static struct delay later(struct delay a, struct delay b) { return weight(a) >= weight(b) ? a : b; }

/* Milliseconds since the last call's `*since`: time_us() wraps after 71 minutes, the seed's
 * 65536 additions take nearly two hours, so elapsed time is summed in short pieces. */
static unsigned long elapsed_ms(unsigned long *since, unsigned long *rest_us) {
  unsigned long now = time_us(), us = now - *since + *rest_us;
  *since = now;
  *rest_us = us % 1000;
  return us / 1000;
}

static void put(int chan, struct msg *m) {
  if (send_block(chan, m, sizeof *m) < 0) exit(1);
}
static void get(int chan, struct msg *m) {
  if (receive(chan, m, sizeof *m) != (int)sizeof *m) exit(1);
}

static void cell(void *arg) {
  int i = (int)(long)arg;
  for (;;) {
    struct msg op, c, out;
    get(CH_OP + i, &op);
    if (op.kind == M_STOP) {
      put(CH_SUM + i, &op);
      exit(0);
    }
    int a = op.value & 1, b = (op.value >> 1) & 1;
    if (i == 0) { /* the carry-in of the whole adder comes with its operand */
      c.value = (op.value >> 2) & 1;
      c.d = op.d;
    } else
      get(CH_CARRY + i, &c);
    out.kind = M_DATA;
    out.value = (int16_t)(i << 1 | (a ^ b ^ c.value));
    out.d = later(op.d, c.d);
    ++out.d.muller;
    put(CH_SUM + i, &out);
    if (a == b) { /* kill or generate: known from the operands alone */
      out.value = (int16_t)a;
      out.d = op.d;
    } else {
      out.value = c.value;
      out.d = later(op.d, c.d);
    }
    ++out.d.muller;
    put(i + 1 < CELLS ? CH_CARRY + i + 1 : CH_COUT, &out);
  }
}

/* Merge j: `per` messages from input A, then `per` from B, per addition. */
static void merge(void *arg) {
  int j = (int)(long)arg;
  int in = j < 4 ? CH_SUM + 2 * j : CH_MERGE + 2 * (j - 4);
  int out = j < 6 ? CH_MERGE + j : CH_RESULT, per = j < 4 ? 1 : j < 6 ? 2 : 4;
  for (;;)
    for (int side = 0; side < 2; ++side)
      for (int k = 0; k < per; ++k) {
        struct msg m;
        get(in + side, &m);
        if (m.kind == M_STOP) { /* the first of a round from each input */
          if (side == 0) get(in + 1, &m);
          put(out, &m);
          exit(0);
        }
        ++m.d.merge;
        put(out, &m);
      }
}

int main(int argc, char **argv) {
  long pairs = argc > 1 ? atol(argv[1]) : 256;
  const char *place = argc > 2 ? argv[2] : "here";
  int random = !strcmp(place, "random"), spread = !strcmp(place, "spread");
  if (pairs < 1 || pairs > 65536 || (!random && !spread && strcmp(place, "here"))) {
    printf("usage: adder [pairs 1..65536 [here|random|spread]]\n");
    return 2;
  }
  unsigned long t0 = time_us(), rest = 0, ms = 0;
  for (int e = 0; e < ELEMENTS; ++e) {
    int board = random ? -1 : spread ? 1 + e % 5 : HERE;
    int cellp = e < CELLS;
    if (!create(e + 2, 2, board, cellp ? cell : merge, (void *)(long)(cellp ? e : e - CELLS))) {
      printf("adder: create element %d: %s\n", e, tos_strerror(tos_errno));
      return 1;
    }
  }
  unsigned long x = 12345; /* the operands' LCG */
  struct delay worst = {0, 0};
  int worst1 = 0, worst2 = 0, wrong = 0;
  for (long k = 0; k < pairs; ++k) {
    int op1, op2;
    if (pairs == 65536) {
      op1 = (int)(k >> 8);
      op2 = (int)(k & 255);
    } else if (k == 0) {
      op1 = 255;
      op2 = 1;
    } else {
      x = TOS_RAND_NEXT(x);
      op1 = (int)((x >> 16) & 255);
      op2 = (int)((x >> 24) & 255);
    }
    struct msg m;
    m.kind = M_DATA;
    for (int i = 0; i < CELLS; ++i) {
      m.value = (int16_t)(((op1 >> i) & 1) | ((op2 >> i) & 1) << 1); /* carry-in 0 */
      m.d.muller = m.d.merge = 0;
      put(CH_OP + i, &m);
    }
    int sum = 0;
    struct delay d = {0, 0};
    for (int i = 0; i < CELLS; ++i) {
      get(CH_RESULT, &m);
      sum |= (m.value & 1) << (m.value >> 1);
      d = later(d, m.d);
    }
    get(CH_COUT, &m);
    sum |= m.value << BITS;
    d = later(d, m.d);
    if (sum != op1 + op2) { /* stop the circuit all the same, so that the process ends */
      printf("adder: WRONG: %d + %d gave %d\n", op1, op2, sum);
      wrong = 1;
      break;
    }
    if (k < SHOWN) printf("adder: %d + %d is %d, delays: muller %u merge %u\n", op1, op2, sum, d.muller, d.merge);
    ms += elapsed_ms(&t0, &rest);
    if (weight(d) > weight(worst)) {
      worst = d;
      worst1 = op1;
      worst2 = op2;
    }
  }
  struct msg stop = {M_STOP, 0, {0, 0}};
  for (int i = 0; i < CELLS; ++i) put(CH_OP + i, &stop);
  get(CH_RESULT, &stop);
  int rc = wait();
  ms += elapsed_ms(&t0, &rest);
  if (rc) printf("adder: an element failed (%d)\n", rc);
  if (rc || wrong) return 1;
  printf("adder: longest delay %d + %d: muller %u merge %u\n", worst1, worst2, worst.muller, worst.merge);
  printf("adder: %ld additions (%s) correct in %lu ms\n", pairs, place, ms);
  return 0;
}
