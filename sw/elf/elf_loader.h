// Loading cross-compiled m68k ELF images (static executables from m68k-linux-gnu-gcc).
//
// Uses glibc's <elf.h> definitions; validates everything it reads, because a malformed image
// must give a clear message naming the file and what is wrong, never a crash.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace testbed {

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ElfSegment {
  uint32_t paddr = 0;   // where the loader places it (physical)
  uint32_t vaddr = 0;
  uint32_t memsz = 0;   // bytes in memory; past data.size() it is zero-filled (.bss)
  uint32_t flags = 0;   // PF_R | PF_W | PF_X
  std::vector<uint8_t> data;  // file bytes (filesz)
};

struct ElfImage {
  std::string path;
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;      // PT_LOAD segments with memsz > 0, sorted by paddr
  std::map<std::string, uint32_t> symbols;  // from .symtab when present

  // Symbol value, or throws ElfError naming the symbol and the image.
  uint32_t symbol(const std::string& name) const;
};

// Reads and validates: ELF32, big-endian, EM_68K, ET_EXEC, headers and segments inside the
// file, filesz <= memsz, no two segments overlapping, everything inside 24-bit address space.
ElfImage load_elf(const std::string& path);
ElfImage parse_elf(const std::vector<uint8_t>& bytes, const std::string& name);

// A span of guest physical memory an image may be loaded into.
struct LoadRegion {
  uint32_t base;
  uint32_t size;
  std::string name;
};

// Throws ElfError unless every segment lies wholly inside one of `regions`.
void check_image_fits(const ElfImage& image, const std::vector<LoadRegion>& regions);

}  // namespace testbed
