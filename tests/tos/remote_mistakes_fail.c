/* A program's own mistake made on another board is an error, not a hang and not an attack
 * (issue #57, finding 6). A child process asks, from a thread on air, for a region of its parent
 * (rgn_map of another process's rid: the ABI says ENOENT) and waits at a barrier its process
 * never made (EINVAL, as at home), once blocking and once spinning. Before the fix each blocked
 * its thread for ever and the home logged a forged kernel message; here every call must return
 * its error and earth must refuse no message. */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define NAME "remote_mistakes_fail"
#define AIR 2

static rid_t parents;

static void on_air(void *unused) {
  (void)unused;
  CHECK(tos_info(TOS_INFO_BOARD) == AIR, "not on air");
  CHECK(!rgn_map(parents) && tos_errno == TOS_ENOENT, "rgn_map of the parent's region from air: %s",
        tos_strerror(tos_errno));
  CHECK(barrier_wait(3) < 0 && tos_errno == TOS_EINVAL, "a blocking wait at a barrier never made: %s",
        tos_strerror(tos_errno));
  CHECK(barrier_policy(4, TOS_BARRIER_SPIN, 0) == 0, "barrier_policy");
  CHECK(barrier_wait(4) < 0 && tos_errno == TOS_EINVAL, "a spinning wait at a barrier never made: %s",
        tos_strerror(tos_errno));
  exit(0);
}

static int child(rid_t rid) {
  parents = rid;
  CHECK(!rgn_map(rid) && tos_errno == TOS_ENOENT, "rgn_map of the parent's region at home: %s",
        tos_strerror(tos_errno));
  long refused = tos_info(TOS_INFO_NET_REFUSED);
  CHECK(create(1, 4, AIR, on_air, NULL), "a thread on air: %s", tos_strerror(tos_errno));
  CHECK(wait() == 0, "the thread on air failed");
  CHECK(tos_info(TOS_INFO_NET_REFUSED) == refused, "earth refused %ld messages of the child's mistakes",
        tos_info(TOS_INFO_NET_REFUSED) - refused);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "child") == 0) return child((rid_t)strtoul(argv[2], NULL, 0));
  rid_t id = rgn_create(64);
  CHECK(id, "rgn_create: %s", tos_strerror(tos_errno));
  char args[64];
  snprintf(args, sizeof args, NAME " child %lu", (unsigned long)id);
  int c = spawn(NAME, args);
  CHECK(c >= 0, "spawn: %s", tos_strerror(tos_errno));
  CHECK(pwait(c) == 0, "the child failed");
  tos_pass(NAME);
  return 0;
}
