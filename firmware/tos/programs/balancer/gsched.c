/* Decisions of the global scheduler families (gsched.h). A move is proposed only when it makes
 * the load more even (source at least two above the destination): a move between boards one
 * apart only swaps which one is busier, and each costs a migration. The gap is a setting
 * (balancer -g) for seed 002's A/B run of Figure 9: with a gap of 1, an exit moves a process
 * whenever another board has more, which is what takes the wave away if anything does. */
#include <string.h>
#include "gsched.h"

static const char *const names[GS_FAMILIES] = {"rhodos-ip", "rhodos-twin", "rhodos-exit", "dpvm"};

const char *gs_family_name(int family) { return family >= 0 && family < GS_FAMILIES ? names[family] : "?"; }

int gs_family_by_name(const char *name) {
  for (int f = 0; f < GS_FAMILIES; ++f)
    if (!strcmp(name, names[f])) return f;
  return -1;
}

int gs_init(struct gs *g, int family, int boards) {
  if (family < 0 || family >= GS_FAMILIES || boards < 1 || boards > GS_MAX_BOARDS) return -1;
  memset(g, 0, sizeof *g);
  g->family = family;
  g->boards = boards;
  g->gap = 2;
  g->last = boards; /* the first turn is board 1's */
  return 0;
}

static int valid(const struct gs *g, int b) { return b >= 1 && b <= g->boards; }

/* The least loaded board, equals taken in turn after the last chosen; `not`: excluded. */
static int least(const struct gs *g, int not) {
  int best = -1;
  for (int i = 1; i <= g->boards; ++i) {
    int k = (g->last + i - 1) % g->boards + 1;
    if (k != not && (best < 0 || g->load[k] < g->load[best])) best = k;
  }
  return best;
}

/* The most loaded board (the lowest number among equals); `not`: excluded. */
static int most(const struct gs *g, int not) {
  int best = -1;
  for (int k = 1; k <= g->boards; ++k)
    if (k != not && (best < 0 || g->load[k] > g->load[best])) best = k;
  return best;
}

int gs_place(struct gs *g) {
  int b = g->family == GS_DPVM ? g->last % g->boards + 1 : least(g, 0);
  g->last = b;
  ++g->load[b];
  ++g->placed;
  return b;
}

static int propose(struct gs *g, int from, int to, struct gs_move *m) {
  if (from < 0 || to < 0 || g->load[from] < g->load[to] + g->gap) return 0;
  m->from = from;
  m->to = to;
  ++g->moves;
  /* counted as done at once: the next event (twins come faster than migrations end) must see
   * it; gs_on_moved(to, from) undoes a move the slave could not make */
  --g->load[from];
  ++g->load[to];
  return 1;
}

int gs_on_twin(struct gs *g, int b, struct gs_move *m) {
  if (!valid(g, b)) return 0; /* a board the scheduler does not manage: not counted */
  ++g->load[b];
  ++g->twins;
  if (g->family != GS_RHODOS_TWIN && g->family != GS_RHODOS_EXIT) return 0;
  int to = least(g, b);
  if (!propose(g, b, to, m)) return 0;
  g->last = to;
  return 1;
}

int gs_on_exit(struct gs *g, int b, struct gs_move *m) {
  if (!valid(g, b)) return 0;
  if (g->load[b] > 0) --g->load[b];
  ++g->exits;
  if (g->family == GS_RHODOS_EXIT) return propose(g, most(g, b), b, m);
  if (g->family == GS_DPVM && g->load[b] == 0) return propose(g, most(g, b), b, m);
  return 0;
}

void gs_on_moved(struct gs *g, int from, int to) {
  if (!valid(g, from) || !valid(g, to)) return;
  if (g->load[from] > 0) --g->load[from];
  ++g->load[to];
}
