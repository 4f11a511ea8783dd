/* Each global scheduler family (seed 002's RHODOS variants and DynamicPVM's load sharing,
 * programs/balancer/gsched.c) takes the decisions its rules say on scripted event sequences:
 * where each creation goes, which twin or exit moves a process from where to where, and the
 * load table after each step. A step is (event, board) and what must follow: the board placed,
 * or the move (0 0: none), then the loads of boards 1..3. */
#include "../../firmware/tos/programs/balancer/gsched.c"
#include "tos_check.h"

enum { PLACE, TWIN, EXIT };
struct step {
  int ev, board;      /* board: the event's (PLACE: the board expected) */
  int from, to;       /* the move expected, 0 0: none */
  long load[4];       /* boards 1..3 after the step */
};

static void run(int family, int gap, const struct step *s, int n) {
  struct gs g;
  CHECK(gs_init(&g, family, 3) == 0, "gs_init %s", gs_family_name(family));
  g.gap = gap;
  for (int i = 0; i < n; ++i) {
    struct gs_move m = {0, 0};
    int moved = 0;
    if (s[i].ev == PLACE) {
      int b = gs_place(&g);
      CHECK(b == s[i].board, "%s step %d: placed on %d, expected %d", gs_family_name(family), i, b, s[i].board);
    } else {
      moved = s[i].ev == TWIN ? gs_on_twin(&g, s[i].board, &m) : gs_on_exit(&g, s[i].board, &m);
    }
    CHECK(moved == (s[i].from != 0) && (!moved || (m.from == s[i].from && m.to == s[i].to)),
          "%s step %d (%s on %d): move %d %d->%d, expected %d->%d", gs_family_name(family), i,
          s[i].ev == TWIN ? "twin" : s[i].ev == EXIT ? "exit" : "create", s[i].board, moved, m.from, m.to,
          s[i].from, s[i].to);
    for (int k = 1; k <= 3; ++k)
      CHECK(g.load[k] == s[i].load[k], "%s step %d: board %d has %ld, expected %ld", gs_family_name(family), i, k,
            g.load[k], s[i].load[k]);
  }
  printf("%s: %d steps as expected (placed %ld, twins %ld, exits %ld, moves %ld)\n", gs_family_name(family), n,
         g.placed, g.twins, g.exits, g.moves);
}

#define N(a) (int)(sizeof a / sizeof a[0])

/* Initial placement: creations in turn over equals, the least loaded first; twins and exits
 * never move anything. */
static const struct step ip[] = {
    {PLACE, 1, 0, 0, {0, 1, 0, 0}}, {PLACE, 2, 0, 0, {0, 1, 1, 0}}, {PLACE, 3, 0, 0, {0, 1, 1, 1}},
    {PLACE, 1, 0, 0, {0, 2, 1, 1}}, {EXIT, 3, 0, 0, {0, 2, 1, 0}},  {PLACE, 3, 0, 0, {0, 2, 1, 1}},
    {TWIN, 1, 0, 0, {0, 3, 1, 1}},  {TWIN, 1, 0, 0, {0, 4, 1, 1}},  {EXIT, 2, 0, 0, {0, 4, 0, 1}},
    {EXIT, 9, 0, 0, {0, 4, 0, 1}}, /* a board it does not manage: ignored */
};
/* Migration on twin: all twins made on board 1 spread once it is two above the least loaded;
 * exits move nothing. */
static const struct step twin[] = {
    {TWIN, 1, 0, 0, {0, 1, 0, 0}}, {TWIN, 1, 1, 2, {0, 1, 1, 0}}, {TWIN, 1, 1, 3, {0, 1, 1, 1}},
    {TWIN, 1, 0, 0, {0, 2, 1, 1}}, {TWIN, 1, 1, 2, {0, 2, 2, 1}}, {EXIT, 3, 0, 0, {0, 2, 2, 0}},
    {EXIT, 2, 0, 0, {0, 2, 1, 0}},
};
/* ... and on exit: the board a process left takes one from the most loaded (lowest number
 * among equals) when that evens the load. */
static const struct step exits[] = {
    {TWIN, 1, 0, 0, {0, 1, 0, 0}}, {TWIN, 1, 1, 2, {0, 1, 1, 0}}, {TWIN, 1, 1, 3, {0, 1, 1, 1}},
    {TWIN, 1, 0, 0, {0, 2, 1, 1}}, {TWIN, 1, 1, 2, {0, 2, 2, 1}}, {EXIT, 3, 1, 3, {0, 1, 2, 1}},
    {EXIT, 1, 2, 1, {0, 1, 1, 1}}, {EXIT, 3, 0, 0, {0, 1, 1, 0}}, /* 1 above: a move would only swap */
    {PLACE, 3, 0, 0, {0, 1, 1, 1}}, {TWIN, 2, 0, 0, {0, 1, 2, 1}}, /* twins move from any board */
    {TWIN, 2, 2, 1, {0, 2, 2, 1}},
};
/* The same family with a load gap of 1 (balancer -g 1, seed 002's A/B run of Figure 9): a move
 * whenever the source has more than the destination, boards one apart included. */
static const struct step exits_gap1[] = {
    {TWIN, 1, 1, 2, {0, 0, 1, 0}}, {TWIN, 1, 1, 3, {0, 0, 1, 1}}, {TWIN, 1, 0, 0, {0, 1, 1, 1}},
    {EXIT, 3, 1, 3, {0, 0, 1, 1}}, {EXIT, 2, 3, 2, {0, 0, 1, 0}},
};
/* DynamicPVM: round robin blind to load; only a board left idle takes a task from the busiest,
 * and only if that has two or more. */
static const struct step dpvm[] = {
    {PLACE, 1, 0, 0, {0, 1, 0, 0}}, {TWIN, 2, 0, 0, {0, 1, 1, 0}},  {TWIN, 2, 0, 0, {0, 1, 2, 0}},
    {PLACE, 2, 0, 0, {0, 1, 3, 0}}, {PLACE, 3, 0, 0, {0, 1, 3, 1}}, {PLACE, 1, 0, 0, {0, 2, 3, 1}},
    {EXIT, 3, 2, 3, {0, 2, 2, 1}},  {EXIT, 1, 0, 0, {0, 1, 2, 1}},  {EXIT, 1, 2, 1, {0, 1, 1, 1}},
};

int main(void) {
  struct gs g;
  CHECK(gs_init(&g, GS_FAMILIES, 3) < 0 && gs_init(&g, GS_DPVM, 0) < 0 && gs_init(&g, GS_DPVM, GS_MAX_BOARDS + 1) < 0,
        "bad families and board counts are refused");
  CHECK(gs_family_by_name("rhodos-exit") == GS_RHODOS_EXIT && gs_family_by_name("rhodos") < 0, "names");
  run(GS_RHODOS_IP, 2, ip, N(ip));
  run(GS_RHODOS_TWIN, 2, twin, N(twin));
  run(GS_RHODOS_EXIT, 2, exits, N(exits));
  run(GS_RHODOS_EXIT, 1, exits_gap1, N(exits_gap1));
  run(GS_DPVM, 2, dpvm, N(dpvm));
  tos_pass("gsched_policies_decide");
  return 0;
}
