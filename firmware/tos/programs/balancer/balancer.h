/* The master's load balancer (seed 000 section 4.2, Figure 39): the load assessor turns the
 * monitor's events into a load summary each sample period, and a policy, the decision maker,
 * reads the summary and may ask one slave to move work to another. Policies are modules with
 * the small interface below, chosen by `balancer -P name`; the slaves choose which thread moves
 * (Figure 40, kernel/balance.c). */
#ifndef BALANCER_H
#define BALANCER_H
#include <tos/tos.h>

#define SLAVES (TOS_BOARD_NAME_COUNT - 1)  /* boards 1..SLAVES */
#define LINKS (SLAVES * (SLAVES - 1) / 2)  /* unordered pairs of slaves: 1-2 1-3 .. 4-5 */

/* What the assessor knows at the end of a sample period. */
struct load {
  long cpu[SLAVES + 1];               /* per slave: RQ-LENGTH or N-THREADS, by the metric */
  long sent[SLAVES + 1][SLAVES + 1];  /* REM-COMM: messages a slave reported sending to another */
  long lnk[LINKS];                    /* REM-COMM per link: both ends' counts */
  long sample_ms;                     /* the sample period, for thresholds given per second */
};

struct settings {
  long sample_ms, migration_ms, threshold, link_per_s, duration_ms;
  unsigned long seed;
};

/* A reconfiguration request: move work from one slave to another, for a compute overload or
 * to quieten a link (then `link` is its index). */
struct request {
  int kind; /* TOS_RECONF_COMPUTE or TOS_RECONF_LINK */
  int from, to, link;
};

struct policy {
  const char *name;
  const char *what; /* for the usage line and the log */
  /* Called once a sample period when a request is allowed (the migration period has passed):
   * fill *r and return 1 to issue it, 0 to leave the load alone. */
  int (*decide)(const struct load *l, const struct settings *s, struct request *r);
};

extern const struct policy policy_testbed, policy_random, policy_none;

/* assessor.c */
void assessor_init(int by_threads);
void assessor_drain(void);                 /* every event the MMI has */
void assessor_record(uint32_t *buf, uint32_t cap); /* and keep every word read in buf (balancer -r) */
uint32_t assessor_recorded(uint32_t *lost);        /* words kept; *lost: words that found buf full */
const uint32_t *assessor_record_buffer(void);
void assessor_summary(struct load *l);     /* this period's summary; the link counts restart */
int assessor_arrived(int *tid, int *board); /* a thread came to a slave (threads class on): 1 */
/* global.c: the event-driven global scheduler (seed 002), -P with a gsched.h family */
int global_run(int family, int boards, int gap, long duration_ms, long quiet_ms, void (*out)(const char *, ...));
int link_index(int a, int b);              /* a != b, both 1..SLAVES */
void link_ends(int i, int *a, int *b);
#endif
