/* The Testbed's decision maker (seed 000 section 4.2.2): one request a period at most, then
 * watch its effect in the next summaries before asking again.
 *   - A link overload first (Figure 41 moves work to quieten a link even with the ready queues
 *     uneven): the busiest link, if it carried more than link_per_s messages a second; work moves
 *     from its end with the longer ready queue (on a tie, the end that sent more over it) to the
 *     other end, which makes a pair talking over that link local.
 *   - Else a compute overload: the longest and the shortest ready queue differ by more than the
 *     threshold; work moves from the longest to the shortest, taking the equally short ones in
 *     turn (Figure 44: "different destinations being selected in turn"), so that a slave whose
 *     new threads block, and so still shows an empty queue, does not receive every thread. */
#include "balancer.h"

static int decide(const struct load *l, const struct settings *s, struct request *r) {
  int hot = -1;
  for (int i = 0; i < LINKS; ++i)
    if (l->lnk[i] > 0 && (hot < 0 || l->lnk[i] > l->lnk[hot])) hot = i;
  /* per second: the slaves report once a link sample period, so a short sample period sees
   * either nothing or a whole report */
  long span = l->sample_ms > TOS_LINK_SAMPLE_US / 1000 ? l->sample_ms : TOS_LINK_SAMPLE_US / 1000;
  if (hot >= 0 && l->lnk[hot] * 1000 > s->link_per_s * span) {
    int a, b;
    link_ends(hot, &a, &b);
    int from = l->cpu[a] != l->cpu[b] ? (l->cpu[a] > l->cpu[b] ? a : b) : (l->sent[a][b] >= l->sent[b][a] ? a : b);
    r->kind = TOS_RECONF_LINK;
    r->from = from;
    r->to = from == a ? b : a;
    r->link = hot;
    return 1;
  }
  static int last_to;
  int hi = 1, lo = 1;
  for (int k = 2; k <= SLAVES; ++k) {
    if (l->cpu[k] > l->cpu[hi]) hi = k;
    if (l->cpu[k] < l->cpu[lo]) lo = k;
  }
  if (l->cpu[hi] - l->cpu[lo] <= s->threshold) return 0;
  for (int i = 1; i <= SLAVES; ++i) { /* the first equally short one after the last chosen */
    int k = (last_to + i - 1) % SLAVES + 1;
    if (l->cpu[k] == l->cpu[lo] && k != hi) {
      lo = k;
      break;
    }
  }
  last_to = lo;
  r->kind = TOS_RECONF_COMPUTE;
  r->from = hi;
  r->to = lo;
  r->link = -1;
  return 1;
}

const struct policy policy_testbed = {"testbed", "the Testbed's: link overloads, then ready-queue imbalance",
                                      decide};
