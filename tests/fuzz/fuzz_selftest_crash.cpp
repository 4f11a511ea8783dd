// A target that crashes on purpose (an input starting with "CRASH"): proves that the driver
// reports a crash and leaves the input on disk (tests/fuzz.cmake, fuzz_driver_reports_a_crash).
#include "fuzz_targets.h"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 5 && std::memcmp(data, "CRASH", 5) == 0) std::abort();
  return 0;
}
