/* The global scheduler of seed 002 (RHODOS, Hobbs et al. section 3) and DynamicPVM's load
 * sharing (seed 001), as decisions on events: a load table of processes per slave board, kept
 * exact by the REX managers' notes (kernel/rex.c: a process created where placed, twinned,
 * ended) rather than by polling, and the decisions each family takes on them:
 *   rhodos-ip    initial placement only: a creation goes to the least loaded board (ties in
 *                turn after the last chosen: round robin on a dedicated machine, the seed's
 *                section 4.2); twins stay where they were made; nothing moves later;
 *   rhodos-twin  and a new twin migrates at once to the least loaded board when that evens the
 *                load (Figure 7: migration "on twin" only);
 *   rhodos-exit  and when a process ends, a process moves from the most loaded board to the one
 *                it left when that evens the load (Figures 8 and 9: exit events enabled);
 *   dpvm         DynamicPVM's: round-robin initial placement blind to load; a board left idle
 *                takes a task from the busiest board (ranked by load) if that has two or more.
 * Pure decisions, no I/O: the balancer feeds them the notes (global.c) and enacts a move with
 * reconfigure() (the slave moves its process's one thread: kernel/balance.c, migrate.c); the
 * seed002 test feeds them scripted sequences. */
#ifndef GSCHED_H
#define GSCHED_H
#include <tos/tos.h>

#define GS_MAX_BOARDS (TOS_BOARD_NAME_COUNT - 1) /* slave boards 1..GS_MAX_BOARDS */

enum gs_family { GS_RHODOS_IP, GS_RHODOS_TWIN, GS_RHODOS_EXIT, GS_DPVM, GS_FAMILIES };

struct gs {
  int family, boards;                /* boards 1..boards take work */
  int gap;                           /* a move's source at least this far above its destination */
  long load[GS_MAX_BOARDS + 1];      /* processes on each board, by the events */
  int last;                          /* the board chosen last, for turns among equals */
  long placed, twins, exits, moves;  /* counts for the log */
};

struct gs_move {
  int from, to;
};

const char *gs_family_name(int family);
int gs_family_by_name(const char *name); /* -1: no such family */
/* boards: 1..GS_MAX_BOARDS; returns 0, or -1 for bad arguments */
int gs_init(struct gs *g, int family, int boards);
/* A process is to be created (REX asks): the board it goes to, already counted. */
int gs_place(struct gs *g);
/* A process appeared on board b without asking (a twin, made where its parent is, or a
 * creation the scheduler did not place): counted; 1 and *m when it should move. */
int gs_on_twin(struct gs *g, int b, struct gs_move *m);
/* A process on board b ended: 1 and *m when another should move to even the load. */
int gs_on_exit(struct gs *g, int b, struct gs_move *m);
/* A process moved that the scheduler did not order (or one it ordered was not made, with the
 * boards swapped): the table follows. Proposed moves count as made when proposed. */
void gs_on_moved(struct gs *g, int from, int to);
#endif
