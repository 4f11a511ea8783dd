/* The task pmigrate_waits_for_critical_sections moves (seed 001): a PVM-style task that, as
 * soon as it starts, stays MS milliseconds inside a critical section (pvm_critical_begin: what
 * each PVM call is) computing and checking after each millisecond that it is still on its home
 * board; then it leaves the section and computes until it has been moved (at most 10 s). A move
 * inside the section fails it (exit 5).
 *   pmig_crit_task MS */
#include <stdlib.h>
#include <tos/pvm.h>
#include "tos_check.h"

int main(int argc, char **argv) {
  CHECK(argc == 2, "usage: pmig_crit_task MS");
  long ms = atol(argv[1]), home = tos_info(TOS_INFO_BOARD);
  CHECK(pvm_init() > 0, "pvm_init");
  CHECK(pvm_critical_begin() == 0, "pvm_critical_begin");
  for (long k = 0; k < ms; ++k) {
    tos_check_spin_us(1000);
    if (tos_info(TOS_INFO_BOARD) != home) {
      printf("pmig_crit_task: FAIL moved to board %ld %ld ms into its %ld ms critical section\n",
             tos_info(TOS_INFO_BOARD), k + 1, ms);
      exit(5);
    }
  }
  CHECK(pvm_critical_end() == 0, "pvm_critical_end");
  unsigned long t0 = time_us();
  while (tos_info(TOS_INFO_BOARD) == home) {
    CHECK(time_us() - t0 < 10000000ul, "not moved in 10 s after its critical section");
    tos_check_spin_us(200);
  }
  printf("pmig_crit_task: %ld ms critical section kept home, moved to board %ld after it\n", ms,
         tos_info(TOS_INFO_BOARD));
  return 0;
}
