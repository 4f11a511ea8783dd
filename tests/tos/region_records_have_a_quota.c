/* One process may not take every region record of its board (issue #57, finding 3): a process
 * holds at most regions_per_process records on a board (ENOSPC past it, counted in the board's
 * end-of-run line), so that another process there can still make regions. Before the quota the
 * first process took all 128 records and its child's rgn_create failed. */
#include <string.h>
#include <tos/region.h>
#include "tos_check.h"

#define NAME "region_records_have_a_quota"

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    rid_t id = rgn_create(16);
    CHECK(id && rgn_map(id), "another process's rgn_create: %s", tos_strerror(tos_errno));
    return 0;
  }
  int made = 0;
  while (made < 2 * TOS_MAX_REGIONS && rgn_create(16)) ++made;
  CHECK(tos_errno == TOS_ENOSPC, "rgn_create %d: %s, not ENOSPC", made + 1, tos_strerror(tos_errno));
  CHECK(made == TOS_MAX_REGIONS_PER_PROCESS, "one process made %d regions, its quota is %d", made,
        TOS_MAX_REGIONS_PER_PROCESS);
  int c = spawn(NAME, NAME " child");
  CHECK(c >= 0, "spawn: %s", tos_strerror(tos_errno));
  CHECK(pwait(c) == 0, "the other process could not make a region");
  printf(NAME ": %d regions made, the next refused\n", made);
  tos_pass(NAME);
  return 0;
}
