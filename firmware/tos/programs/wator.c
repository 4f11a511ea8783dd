/* wator (seed 000 section 4.3.3; Fox et al., Solving Problems on Concurrent Processors, section
 * 17): fish and sharks on an N x N toroidal ocean (100 x 100 in the seed), with seasons.
 *
 * The ocean is cut into 20 strips of whole rows, one thread each; strips 0-4 are region 1,
 * 5-9 region 2, 10-14 region 3, 15-19 region 4 (the seed's placement `regions`: region 1 on
 * water, 2 on air, 3 on space, 4 on fire; earth has none). Five strips a region let a balancer
 * move part of a region. The seed's program had a thread a region ("each being responsible for a
 * region of the ocean"; its authors had to assume which slave held which region, earth none), so
 * its random placement put whole regions on slaves: `random` deals the four regions to four of
 * the slaves at random (each region's strips together); `strips` deals the 20 strips one by one
 * (the kernel's random allocation, equal numbers a slave), a placement the seed's program could
 * not make. Each step a strip thread
 *   1. exchanges boundary rows with the strips above and below (ghost rows: what it sees there),
 *   2. grows the food in each of its cells at the rate its row's temperature sets,
 *   3. updates its own animals in row order, each once: a fish moves to a random empty
 *      neighbour (N, E, S, W), eats the food where it ends, and, fed enough, leaves a young
 *      fish behind when it moves; a shark eats a random neighbouring fish, else moves like a
 *      fish, breeds when old enough and starves after STARVE steps without food. A move into a
 *      ghost row makes the animal an emigrant,
 *   4. exchanges emigrants with its neighbours and resolves conflicts: an immigrant takes its
 *      cell if it is empty (a shark also if it holds a fish: eaten), else it is lost; a fish
 *      that arrives eats the food of its new cell,
 *   5. reports its counts (and its board) to main, which prints them (and, after step 1, the
 *      board of each strip: which regions share a board).
 * Seasons, the seed's rule: "seasonal temperature variations occur across the ocean regions and
 * these affect the fish's food sources, promoting or restricting the reproduction rate". A row's
 * temperature follows a sine of period SEASON steps whose phase moves across the ocean (a
 * quarter period a region), the food of its cells grows at a rate that rises with it, and a fish
 * breeds on the food it has eaten. So the regions' populations, and with them the threads'
 * work, boom and bust at different times: the seed says the seasons have "the effect of inducing
 * large changes in the load balance", and that "the region with the most fish matches the
 * processor with the longest ready queue". The temperature is a double and its sine the C
 * library's (C89's <math.h> has no float functions), once a row a step; a cell's food is 16-bit
 * fixed point, as a 68010 program without a floating-point unit keeps per-cell state, so that a
 * step's work is mostly the animals'. Grown in software doubles (`-f double`, an A/B run of
 * section4.md) the food is most of a step, the same in every cell whatever lives there.
 *
 * Every random choice is a hash of the seed, the step and the cell's coordinates, and every
 * thread receives in a fixed order, so the populations depend on the arguments only, never on
 * placement or timing. A strip lives on its thread's stack (it may migrate).
 *   wator [-n N] [-k K] [-f fixed|double] [steps [regions|random|strips|here]] [seed]
 * N: the ocean's side, 20..100 (default 100); K: print every K steps (default 10); -f: the
 * food's arithmetic (default fixed); steps
 * default 100; placement default here; seed default 1. */
#include <math.h>
#include <tos/tos.h>
#include <tos/rand.h>

#define STRIPS 20
#define REGIONS 4
#define MAXN 100
#define MAXR (MAXN / STRIPS) /* rows of a strip, at most */
#define SEASON 40
#define SHARK_BREED 8
#define STARVE 4
#define GROW_COLD 0.05 /* the food a cell grows a step, as a share of what it lacks, coldest */
#define GROW_WARM 0.5  /* ... and warmest */
#define FOOD_ONE 65535u /* a full cell's food, in the fixed point of `food` (16-bit fraction) */
#define FISH_FULL (2 * FOOD_ONE) /* a fish breeds once it has eaten this much (a cell holds at most 1) */
#define STRIP_PAGES 24 /* a strip thread's stack: its rows, ghosts, food and emigrants */

#define CH_DOWN_ROW 0                      /* + t: strip t's bottom row, to t + 1 */
#define CH_UP_ROW (CH_DOWN_ROW + STRIPS)   /* + t: its top row, to t - 1 */
#define CH_DOWN_EMIG (CH_UP_ROW + STRIPS)  /* + t: its emigrants, to t + 1 */
#define CH_UP_EMIG (CH_DOWN_EMIG + STRIPS) /* + t: to t - 1 */
#define CH_REPORT (CH_UP_EMIG + STRIPS)    /* + t: its counts, to main */

enum { EMPTY, FISH, SHARK };
#define MOVED (1 << 7) /* in kind: already updated this step (kinds fit below it) */

struct cell {
  uint8_t kind, age, hunger, col; /* col: an emigrant's column */
  uint32_t fed;                   /* a fish: food eaten since it last bred (FOOD_ONE a cell) */
};
struct emigrants {
  int16_t n, pad;
  struct cell c[MAXN];
};
struct report {
  int16_t fish, sharks, board; /* board: where the strip ran step 1 (0 after: no call a step) */
};

/* The arguments a strip needs, copied onto its stack when it starts. Read from the globals in
 * its loops, they would share a page with main's stdio state, which main writes whenever it
 * prints: each print would take the page from every strip's board, and every strip would ask
 * the home for it again (remote paging, the pages' home the program's board). */
struct ocean {
  int n, steps, food_double;
  uint32_t seed;
};
static struct ocean args = {MAXN, 100, 0, 1};
static int every = 10;

static uint32_t hash(const struct ocean *o, unsigned step, unsigned row, unsigned col, unsigned salt) {
  uint32_t h = o->seed ^ ((uint32_t)step << 19) ^ ((uint32_t)row << 11) ^ ((uint32_t)col << 3) ^ salt;
  for (int i = 0; i < 2; ++i) { /* shifts and adds: the 68010 has no 32-bit multiply */
    h += h << 10;
    h ^= h >> 6;
    h += h << 3;
    h ^= h >> 11;
    h += h << 15;
  }
  return h;
}

/* Milliseconds since `*since`, summed step by step: time_us() wraps after 71 minutes. */
static unsigned long elapsed_ms(unsigned long *since, unsigned long *rest_us) {
  unsigned long now = time_us(), us = now - *since + *rest_us;
  *since = now;
  *rest_us = us % 1000;
  return us / 1000;
}

/* The share of its lack a cell's food grows in ocean row `row` at `step`: a season's sine whose
 * phase moves a whole period across the ocean's rows (a quarter period a region). */
static double growth(const struct ocean *o, int step, int row) {
  double warmth = 0.5 + 0.5 * sin(2 * M_PI * ((double)step / SEASON + (double)row / o->n));
  return GROW_COLD + (GROW_WARM - GROW_COLD) * warmth;
}

/* Exchange around the ring of strips: even strips send first, so no rendezvous waits on
 * another (STRIPS is even). */
static void swap(int t, int out, const void *sbuf, int slen, int in, void *rbuf, int rlen) {
  int bad = 0;
  if ((t & 1) == 0) bad |= send_block(out, sbuf, slen) < 0;
  bad |= receive(in, rbuf, rlen) < 0;
  if (t & 1) bad |= send_block(out, sbuf, slen) < 0;
  if (bad) exit(1);
}

/* The food of a strip's cells, shaped as its rows (ghosts included), so a cell's food sits at
 * its cell's offset; rows 0 and rows + 1 unused (a ghost cell's food is its owner's). `d` only
 * with `-f double`: the A/B run whose food is grown in software doubles in every cell. */
struct pantry {
  uint16_t q[MAXR + 2][MAXN];
  double d[MAXR + 2][MAXN];
};

/* A fish that ends its step in the cell at offset `at` of its strip eats the cell's food. */
static void eat(const struct ocean *o, struct cell *x, struct pantry *f, long at) {
  if ((x->kind & ~MOVED) != FISH) return;
  if (o->food_double) {
    double *d = &f->d[0][0] + at;
    x->fed += (uint32_t)(*d * FOOD_ONE);
    *d = 0;
  } else {
    uint16_t *q = &f->q[0][0] + at;
    x->fed += *q;
    *q = 0;
  }
}

/* A step's growth in the cells of a strip's row `r` (1..rows), ocean row `row`. */
static void grow_row(const struct ocean *o, struct pantry *f, int r, int step, int row) {
  double grow = growth(o, step, row);
  int n = o->n;
  if (o->food_double) {
    for (int c = 0; c < n; ++c) f->d[r][c] += grow * (1.0 - f->d[r][c]);
    return;
  }
  uint16_t rate = (uint16_t)(grow * FOOD_ONE); /* 16 x 16 -> 32: the 68010's mulu */
  for (int c = 0; c < n; ++c) f->q[r][c] += (uint16_t)((uint32_t)(uint16_t)(FOOD_ONE - f->q[r][c]) * rate >> 16);
}

static void strip(void *arg) {
  int t = (int)(long)arg;
  const struct ocean o = args;
  int n = o.n;
  int r0 = t * n / STRIPS, rows = (t + 1) * n / STRIPS - r0;
  int up = (t + STRIPS - 1) % STRIPS, down = (t + 1) % STRIPS, rowlen = n * (int)sizeof(struct cell);
  struct cell g[MAXR + 2][MAXN]; /* rows 0 and rows + 1: the neighbours' boundary rows */
  struct pantry food;
  struct emigrants out[2], in[2]; /* [0] up, [1] down */
  for (int r = 1; r <= rows; ++r)
    for (int c = 0; c < n; ++c) {
      unsigned h = hash(&o, 0, (unsigned)(r0 + r - 1), (unsigned)c, 1) & 1023;
      struct cell *x = &g[r][c];
      x->kind = h < 250 ? FISH : h < 300 ? SHARK : EMPTY;
      x->age = (uint8_t)(h % 7);
      x->hunger = 0;
      x->fed = 0;
      food.q[r][c] = FOOD_ONE / 2;
      if (o.food_double) food.d[r][c] = 0.5;
    }
  for (int step = 1; step <= o.steps; ++step) {
    swap(t, CH_DOWN_ROW + t, g[rows], rowlen, CH_DOWN_ROW + up, g[0], rowlen);
    swap(t, CH_UP_ROW + t, g[1], rowlen, CH_UP_ROW + down, g[rows + 1], rowlen);
    out[0].n = out[1].n = 0;
    for (int r = 1; r <= rows; ++r) grow_row(&o, &food, r, step, r0 + r - 1);
    for (int r = 1; r <= rows; ++r)
      for (int c = 0; c < n; ++c) {
        struct cell *x = &g[r][c];
        if (x->kind == EMPTY || (x->kind & MOVED)) continue;
        int shark = x->kind == SHARK;
        struct cell *nb[4] = {&g[r - 1][c], &g[r][(c + 1) % n], &g[r + 1][c], &g[r][(c + n - 1) % n]};
        struct cell *cand[4];
        int k = 0, eats = 0;
        if (shark)
          for (int i = 0; i < 4; ++i)
            if ((nb[i]->kind & ~MOVED) == FISH) cand[k++] = nb[i];
        if (k)
          eats = 1;
        else
          for (int i = 0; i < 4; ++i)
            if (nb[i]->kind == EMPTY) cand[k++] = nb[i];
        if (x->age < 255) ++x->age;
        if (shark && !eats && ++x->hunger >= STARVE) {
          x->kind = EMPTY;
          continue;
        }
        if (eats) x->hunger = 0;
        if (!k) {
          eat(&o, x, &food, x - &g[0][0]);
          continue;
        }
        uint32_t h = hash(&o, (unsigned)step, (unsigned)(r0 + r - 1), (unsigned)c, 2);
        struct cell *to = cand[(uint16_t)(h >> 8) % (uint16_t)k];
        struct cell born = {(uint8_t)(shark ? SHARK | MOVED : FISH | MOVED), 0, 0, 0, 0};
        int breeds = shark ? x->age >= SHARK_BREED : x->fed >= FISH_FULL;
        if (breeds) {
          x->age = 0;
          x->fed = 0;
        }
        *to = *x;
        to->kind |= MOVED;
        if (to < g[1] || to >= g[rows + 1]) { /* a ghost cell: an emigrant (it eats on arrival) */
          struct emigrants *e = &out[to >= g[rows + 1]];
          e->c[e->n] = *to;
          e->c[e->n++].col = (uint8_t)(to < g[1] ? to - g[0] : to - g[rows + 1]);
        } else {
          eat(&o, to, &food, to - &g[0][0]);
        }
        *x = breeds ? born : (struct cell){EMPTY, 0, 0, 0, 0}; /* a newborn waits for the next step */
      }
    int len = (int)sizeof(struct emigrants), cell = (int)sizeof(struct cell);
    swap(t, CH_DOWN_EMIG + t, &out[1], 4 + out[1].n * cell, CH_DOWN_EMIG + up, &in[0], len);
    swap(t, CH_UP_EMIG + t, &out[0], 4 + out[0].n * cell, CH_UP_EMIG + down, &in[1], len);
    for (int side = 0; side < 2; ++side) /* from above into row 1, from below into row `rows` */
      for (int i = 0; i < in[side].n; ++i) {
        int r = side ? rows : 1;
        struct cell im = in[side].c[i], *x = &g[r][im.col];
        int was = x->kind & ~MOVED, kind = im.kind & ~MOVED;
        if (was == EMPTY || (kind == SHARK && was == FISH)) {
          *x = im;
          eat(&o, x, &food, x - &g[0][0]);
        }
      }
    struct report rep = {0, 0, (int16_t)(step == 1 ? tos_info(TOS_INFO_BOARD) : 0)};
    for (int r = 1; r <= rows; ++r)
      for (int c = 0; c < n; ++c) {
        int kind = g[r][c].kind &= (uint8_t)~MOVED;
        rep.fish += kind == FISH;
        rep.sharks += kind == SHARK;
      }
    if (send_block(CH_REPORT + t, &rep, sizeof rep) < 0) exit(1);
  }
  exit(0);
}

int main(int argc, char **argv) {
  int a = 1;
  for (; a + 1 < argc && argv[a][0] == '-'; a += 2)
    if (!strcmp(argv[a], "-n"))
      args.n = atoi(argv[a + 1]);
    else if (!strcmp(argv[a], "-k"))
      every = atoi(argv[a + 1]);
    else if (!strcmp(argv[a], "-f") && (!strcmp(argv[a + 1], "fixed") || !strcmp(argv[a + 1], "double")))
      args.food_double = !strcmp(argv[a + 1], "double");
    else
      break;
  if (a < argc) args.steps = atoi(argv[a++]);
  const char *place = a < argc ? argv[a++] : "here";
  if (a < argc) args.seed = strtoul(argv[a++], NULL, 10);
  int n = args.n, steps = args.steps;
  int random = !strcmp(place, "random"), regions = !strcmp(place, "regions"), strips = !strcmp(place, "strips");
  int slaves = (int)tos_info(TOS_INFO_BOARDS) - 1;
  if (a < argc || n < STRIPS || n > MAXN || every < 1 || steps < 1 ||
      (!random && !regions && !strips && strcmp(place, "here")) || ((random || regions) && slaves < REGIONS)) {
    printf("usage: wator [-n 20..100] [-k every] [-f fixed|double] [steps [regions|random|strips|here]] [seed]"
           " (regions and random: %d slaves or more)\n", REGIONS);
    return 2;
  }
  int region_board[REGIONS] = {4, 2, 5, 3}; /* water, air, space, fire */
  if (random) { /* the first REGIONS of a shuffle of the slaves 1..slaves (Fisher-Yates) */
    int deck[64];
    unsigned long st = args.seed;
    for (int b = 0; b < slaves && b < 64; ++b) deck[b] = b + 1;
    for (int i = 0; i < REGIONS; ++i) {
      st = TOS_RAND_NEXT(st);
      int j = i + (int)((st >> 16) % (unsigned long)(slaves - i)), d = deck[j];
      deck[j] = deck[i];
      deck[i] = region_board[i] = d;
    }
  }
  unsigned long t0 = time_us(), rest = 0, ms = 0;
  for (int t = 0; t < STRIPS; ++t) {
    int board = strips ? -1 : (random || regions) ? region_board[t / (STRIPS / REGIONS)] : HERE;
    if (!create(t + 2, STRIP_PAGES, board, strip, (void *)(long)t)) {
      printf("wator: create strip %d: %s\n", t, tos_strerror(tos_errno));
      return 1;
    }
  }
  long fish = 0, sharks = 0;
  int on[STRIPS];
  for (int step = 1; step <= steps; ++step) {
    long rf[REGIONS] = {0};
    fish = sharks = 0;
    for (int t = 0; t < STRIPS; ++t) {
      struct report rep;
      if (receive(CH_REPORT + t, &rep, sizeof rep) != (int)sizeof rep) {
        printf("wator: strip %d failed\n", t);
        return 1;
      }
      fish += rep.fish;
      sharks += rep.sharks;
      rf[t / (STRIPS / REGIONS)] += rep.fish;
      on[t] = rep.board;
    }
    if (step == 1) { /* where the strips started: a placement's share of each region, board by board */
      printf("wator: strips on boards");
      for (int t = 0; t < STRIPS; ++t) printf(" %d", on[t]);
      printf("\n");
    }
    ms += elapsed_ms(&t0, &rest);
    if (step % every == 0)
      printf("wator: step %d fish %ld sharks %ld (fish by region %ld %ld %ld %ld)\n", step, fish, sharks, rf[0], rf[1],
             rf[2], rf[3]);
  }
  int rc = wait();
  ms += elapsed_ms(&t0, &rest);
  printf("wator: %d steps (%s) in %lu ms; fish %ld sharks %ld\n", steps, place, ms, fish, sharks);
  return rc ? 1 : 0;
}
