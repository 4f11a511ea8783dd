// The fuzz harness's one interface: libFuzzer's. Each fuzz_<target>.cpp defines it; it is linked
// either with libFuzzer (clang -fsanitize=fuzzer, scripts/fuzz.sh) or with fuzz_driver.cpp (the
// project's own mutation driver, used by CTest and wherever libFuzzer is not available).
#pragma once
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Tokens the mutation driver inserts (nullptr-terminated); optional, libFuzzer ignores it (its
// own -dict= files do that job).
extern "C" const char* const* fuzz_dictionary() __attribute__((weak));
