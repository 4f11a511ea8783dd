#include "elf_loader.h"

#include "host_file.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <sstream>

namespace testbed {
namespace {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase << v;
  return s.str();
}

// Big-endian field readers with bounds checks: every read names what it was reading.
class Reader {
 public:
  Reader(const std::vector<uint8_t>& b, const std::string& name) : b_(b), name_(name) {}
  void need(uint64_t off, uint64_t len, const char* what) const {
    if (off > b_.size() || len > b_.size() - off)
      throw ElfError(name_ + ": truncated ELF: " + what + " at offset " + hex(off) + " (+" +
                     std::to_string(len) + " bytes) lies past the end of the file (" +
                     std::to_string(b_.size()) + " bytes)");
  }
  uint16_t u16(uint64_t off) const { return uint16_t(b_[off] << 8 | b_[off + 1]); }
  uint32_t u32(uint64_t off) const {
    return uint32_t(b_[off]) << 24 | uint32_t(b_[off + 1]) << 16 | uint32_t(b_[off + 2]) << 8 |
           b_[off + 3];
  }

 private:
  const std::vector<uint8_t>& b_;
  const std::string& name_;
};

}  // namespace

uint32_t ElfImage::symbol(const std::string& name) const {
  auto it = symbols.find(name);
  if (it == symbols.end()) throw ElfError(path + ": no symbol '" + name + "'");
  return it->second;
}

ElfImage load_elf(const std::string& path) {
  std::vector<uint8_t> bytes;
  try {
    bytes = read_host_file(path, "image");
  } catch (const HostFileError& e) {
    throw ElfError(e.what());
  }
  return parse_elf(bytes, path);
}

ElfImage parse_elf(const std::vector<uint8_t>& b, const std::string& name) {
  Reader r(b, name);
  ElfImage img;
  img.path = name;
  r.need(0, sizeof(Elf32_Ehdr), "ELF header");
  if (std::memcmp(b.data(), ELFMAG, SELFMAG) != 0) throw ElfError(name + ": not an ELF file (bad magic)");
  if (b[EI_CLASS] != ELFCLASS32) throw ElfError(name + ": not a 32-bit ELF (class " + std::to_string(b[EI_CLASS]) + "); the Testbed boards are 68010s");
  if (b[EI_DATA] != ELFDATA2MSB) throw ElfError(name + ": not a big-endian ELF; m68k images are big-endian");
  uint16_t type = r.u16(16), machine = r.u16(18);
  if (machine != EM_68K)
    throw ElfError(name + ": ELF machine is " + std::to_string(machine) + ", not m68k (" + std::to_string(EM_68K) + "): built for another processor?");
  if (type != ET_EXEC) throw ElfError(name + ": ELF type " + std::to_string(type) + " is not an executable (ET_EXEC): link it with a fixed address");
  img.entry = r.u32(24);
  uint32_t phoff = r.u32(28), shoff = r.u32(32);
  uint16_t phentsize = r.u16(42), phnum = r.u16(44), shentsize = r.u16(46), shnum = r.u16(48);
  if (phnum == 0) throw ElfError(name + ": no program headers: nothing to load");
  if (phentsize < sizeof(Elf32_Phdr)) throw ElfError(name + ": program header entry size " + std::to_string(phentsize) + " is too small");
  r.need(phoff, uint64_t(phentsize) * phnum, "program header table");
  for (unsigned i = 0; i < phnum; ++i) {
    uint64_t ph = phoff + uint64_t(i) * phentsize;
    if (r.u32(ph) != PT_LOAD) continue;
    uint32_t off = r.u32(ph + 4), vaddr = r.u32(ph + 8), paddr = r.u32(ph + 12);
    uint32_t filesz = r.u32(ph + 16), memsz = r.u32(ph + 20), flags = r.u32(ph + 24);
    std::string what = "segment " + std::to_string(i) + " [" + hex(paddr) + ", +" + hex(memsz) + ")";
    if (memsz == 0) continue;
    if (filesz > memsz) throw ElfError(name + ": " + what + " has more file bytes (" + hex(filesz) + ") than memory bytes");
    if (uint64_t(paddr) + memsz > (1u << 24))
      throw ElfError(name + ": " + what + " ends past the 68010's 24-bit address space");
    r.need(off, filesz, what.c_str());
    ElfSegment s;
    s.paddr = paddr;
    s.vaddr = vaddr;
    s.memsz = memsz;
    s.flags = flags;
    s.data.assign(b.begin() + off, b.begin() + off + filesz);
    img.segments.push_back(std::move(s));
  }
  if (img.segments.empty()) throw ElfError(name + ": no loadable (PT_LOAD) segment with contents");
  std::sort(img.segments.begin(), img.segments.end(), [](auto& x, auto& y) { return x.paddr < y.paddr; });
  for (size_t i = 1; i < img.segments.size(); ++i) {
    auto& p = img.segments[i - 1];
    auto& q = img.segments[i];
    if (uint64_t(p.paddr) + p.memsz > q.paddr)
      throw ElfError(name + ": segments overlap: [" + hex(p.paddr) + ", " + hex(uint64_t(p.paddr) + p.memsz) +
                     ") and [" + hex(q.paddr) + ", " + hex(uint64_t(q.paddr) + q.memsz) + ")");
  }
  // Symbols are optional (a stripped image still boots); a broken table is an error.
  if (shoff && shnum) {
    if (shentsize < sizeof(Elf32_Shdr)) throw ElfError(name + ": section header entry size too small");
    r.need(shoff, uint64_t(shentsize) * shnum, "section header table");
    for (unsigned i = 0; i < shnum; ++i) {
      uint64_t sh = shoff + uint64_t(i) * shentsize;
      if (r.u32(sh + 4) != SHT_SYMTAB) continue;
      uint32_t off = r.u32(sh + 16), size = r.u32(sh + 20), link = r.u32(sh + 24), entsize = r.u32(sh + 36);
      if (entsize < sizeof(Elf32_Sym) || link >= shnum) throw ElfError(name + ": malformed symbol table section");
      r.need(off, size, "symbol table");
      uint64_t strsh = shoff + uint64_t(link) * shentsize;
      uint32_t stroff = r.u32(strsh + 16), strsize = r.u32(strsh + 20);
      r.need(stroff, strsize, "symbol string table");
      for (uint32_t e = 0; e + entsize <= size; e += entsize) {
        uint32_t nameoff = r.u32(off + e);
        if (nameoff == 0) continue;
        if (nameoff >= strsize) throw ElfError(name + ": symbol name offset past its string table");
        const char* s = reinterpret_cast<const char*>(b.data() + stroff + nameoff);
        size_t n = strnlen(s, strsize - nameoff);
        img.symbols[std::string(s, n)] = r.u32(off + e + 4);
      }
    }
  }
  return img;
}

void check_image_fits(const ElfImage& image, const std::vector<LoadRegion>& regions) {
  for (auto& s : image.segments) {
    uint64_t end = uint64_t(s.paddr) + s.memsz;
    bool ok = std::any_of(regions.begin(), regions.end(), [&](const LoadRegion& r) {
      return s.paddr >= r.base && end <= uint64_t(r.base) + r.size;
    });
    if (!ok) {
      std::string where;
      for (auto& r : regions) where += (where.empty() ? "" : ", ") + r.name + " [" + hex(r.base) + ", " + hex(uint64_t(r.base) + r.size) + ")";
      throw ElfError(image.path + ": segment [" + hex(s.paddr) + ", " + hex(end) +
                     ") lies outside the board's loadable memory: " + where);
    }
  }
}

}  // namespace testbed
