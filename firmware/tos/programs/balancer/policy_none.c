/* No reconfiguration: the balancer only assesses and logs (the runs "without load balancing"
 * of Figures 54 and 55 still need the load summaries). */
#include "balancer.h"

static int decide(const struct load *l, const struct settings *s, struct request *r) {
  (void)l;
  (void)s;
  (void)r;
  return 0;
}

const struct policy policy_none = {"none", "log the load, never move work", decide};
