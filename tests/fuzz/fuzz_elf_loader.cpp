// Fuzz target: the one image loader (sw/elf), which every tool uses. Bad input must end in an
// ElfError naming the image, never in a crash or an out-of-bounds read.
#include "fuzz_targets.h"

#include <vector>

#include "elf_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    testbed::ElfImage img = testbed::parse_elf(std::vector<uint8_t>(data, data + size), "fuzz.elf");
    // What a loader then does with it: every segment's bytes and the symbols are read.
    uint64_t sum = img.entry;
    for (auto& s : img.segments)
      for (uint8_t b : s.data) sum += b;
    for (auto& [name, value] : img.symbols) sum += name.size() + value;
    if (sum == 0x123456789ull) return 1;  // keeps the reads
  } catch (const testbed::ElfError& e) {
    if (!*e.what()) __builtin_trap();
  }
  return 0;
}

extern "C" const char* const* fuzz_dictionary() {
  static const char* const words[] = {"\x7f" "ELF", "\x01\x02\x01", "\x00\x04", "\x00\x02", "\x00\x00\x00\x01",
                                      ".symtab", ".strtab", "\xff\xff\xff\xff", nullptr};
  return words;
}
