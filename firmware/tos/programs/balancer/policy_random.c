/* Random reconfiguration: the load-blind baseline. Every migration period one slave, chosen at
 * random among those with work by the metric, is asked to move a thread to another slave chosen
 * at random. The generator is the balancer's own (seeded by -s), so a run repeats exactly. */
#include <tos/rand.h>

#include "balancer.h"

static unsigned long state;

static int pick(int n) { /* 0..n-1 */
  state = TOS_RAND_NEXT(state);
  return (int)((state >> 16) % (unsigned long)n);
}

static int decide(const struct load *l, const struct settings *s, struct request *r) {
  static int seeded;
  if (!seeded) {
    state = s->seed;
    seeded = 1;
  }
  int busy[SLAVES], n = 0;
  for (int k = 1; k <= SLAVES; ++k)
    if (l->cpu[k] > 0) busy[n++] = k;
  if (!n) return 0;
  r->kind = TOS_RECONF_COMPUTE;
  r->from = busy[pick(n)];
  r->to = 1 + pick(SLAVES - 1);
  if (r->to >= r->from) ++r->to;
  r->link = -1;
  return 1;
}

const struct policy policy_random = {"random", "a random slave with work moves a thread to a random other", decide};
