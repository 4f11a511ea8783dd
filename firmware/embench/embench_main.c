/* The Embench benchmark runner: upstream's support/main.c without its board and timing hooks
 * (no caches to warm, nothing to time: the harness counts instructions and clocks). One run of
 * benchmark(), i.e. the LOCAL_SCALE_FACTOR x GLOBAL_SCALE_FACTOR passes of the benchmark's body,
 * then verify_benchmark() on its result. benchmark()'s value goes to the simulator-control
 * checksum; the start-up (lib/crt0.S) writes the exit code from main's return: 1 (success) when
 * verify_benchmark() says the result is right, 0x101 when it says wrong. */
#include <testbed/memory_map.h>

#include "support.h"

int main(void) {
  initialise_benchmark();
  int result = benchmark();
  int correct = verify_benchmark(result);
  *(volatile int *)TB_SIMCTL_CHECKSUM = result;
  return correct == 1 ? 0 : 1;
}
