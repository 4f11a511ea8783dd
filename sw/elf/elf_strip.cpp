#include "elf_strip.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace testbed {
namespace {

uint32_t get32(const std::vector<uint8_t>& b, size_t o) {
  return uint32_t(b[o]) << 24 | uint32_t(b[o + 1]) << 16 | uint32_t(b[o + 2]) << 8 | b[o + 3];
}
uint16_t get16(const std::vector<uint8_t>& b, size_t o) { return uint16_t(b[o] << 8 | b[o + 1]); }
void put32(std::vector<uint8_t>& b, size_t o, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[o + i] = uint8_t(v >> (24 - 8 * i));
}
void put16(std::vector<uint8_t>& b, size_t o, uint16_t v) {
  b[o] = uint8_t(v >> 8);
  b[o + 1] = uint8_t(v);
}

struct Section {
  uint32_t name, type, flags, addr, offset, size, link, info, align, entsize;
};

}  // namespace

std::vector<uint8_t> strip_debug(const std::vector<uint8_t>& in) {
  const size_t n = in.size();
  if (n < sizeof(Elf32_Ehdr) || std::memcmp(in.data(), ELFMAG, SELFMAG) != 0 || in[EI_CLASS] != ELFCLASS32 ||
      in[EI_DATA] != ELFDATA2MSB)
    return in;
  uint32_t phoff = get32(in, 28), shoff = get32(in, 32);
  uint16_t phentsize = get16(in, 42), phnum = get16(in, 44), shentsize = get16(in, 46), shnum = get16(in, 48),
           shstrndx = get16(in, 50);
  if (shoff == 0 || shnum == 0 || shentsize != sizeof(Elf32_Shdr) || shstrndx >= shnum ||
      uint64_t(shoff) + uint64_t(shnum) * shentsize > n)
    return in;
  if (phnum && (phentsize != sizeof(Elf32_Phdr) || uint64_t(phoff) + uint64_t(phnum) * phentsize > n)) return in;

  std::vector<Section> sec(shnum);
  for (unsigned i = 0; i < shnum; ++i) {
    size_t o = shoff + size_t(i) * shentsize;
    Section& s = sec[i];
    s = {get32(in, o), get32(in, o + 4), get32(in, o + 8), get32(in, o + 12), get32(in, o + 16),
         get32(in, o + 20), get32(in, o + 24), get32(in, o + 28), get32(in, o + 32), get32(in, o + 36)};
    if (s.type != SHT_NOBITS && uint64_t(s.offset) + s.size > n) return in;
  }
  const Section& names = sec[shstrndx];
  if (names.type == SHT_NOBITS) return in;  // a name table without bytes: not a file to rewrite
  auto name_of = [&](const Section& s) -> std::string {
    if (s.name >= names.size) return "";
    size_t start = names.offset + s.name, end = names.offset + names.size;
    const uint8_t* z = static_cast<const uint8_t*>(std::memchr(in.data() + start, 0, end - start));
    return z ? std::string(reinterpret_cast<const char*>(in.data() + start), size_t(z - (in.data() + start))) : "";
  };

  // New index of every section (0: dropped, apart from the null section 0 itself).
  std::vector<uint16_t> renum(shnum, 0);
  std::vector<unsigned> kept{0};
  bool any = false;
  for (unsigned i = 1; i < shnum; ++i) {
    bool debug = !(sec[i].flags & SHF_ALLOC) && name_of(sec[i]).rfind(".debug", 0) == 0;
    if (debug) {
      any = true;
      continue;
    }
    renum[i] = uint16_t(kept.size());
    kept.push_back(i);
  }
  if (!any) return in;

  // Everything the loader reads keeps its offset: the ELF header, the program headers, every
  // segment's bytes and every loaded section. The rest follows, packed.
  uint64_t fixed_end = sizeof(Elf32_Ehdr);
  if (phnum) fixed_end = std::max<uint64_t>(fixed_end, uint64_t(phoff) + uint64_t(phnum) * phentsize);
  for (unsigned i = 0; i < phnum; ++i) {
    size_t o = phoff + size_t(i) * phentsize;
    uint64_t end = uint64_t(get32(in, o + 4)) + get32(in, o + 16);
    if (end > n) return in;
    fixed_end = std::max(fixed_end, end);
  }
  for (unsigned i : kept)
    if (i && (sec[i].flags & SHF_ALLOC) && sec[i].type != SHT_NOBITS)
      fixed_end = std::max<uint64_t>(fixed_end, uint64_t(sec[i].offset) + sec[i].size);

  std::vector<uint8_t> out(in.begin(), in.begin() + long(fixed_end));
  std::vector<Section> nsec;
  for (unsigned i : kept) {
    Section s = sec[i];
    if (i && !(s.flags & SHF_ALLOC) && s.type != SHT_NOBITS) {
      uint32_t align = std::max<uint32_t>(1, s.align);
      out.resize((out.size() + align - 1) / align * align, 0);
      uint32_t at = uint32_t(out.size());
      out.insert(out.end(), in.begin() + s.offset, in.begin() + s.offset + s.size);
      if (s.type == SHT_SYMTAB && s.entsize == sizeof(Elf32_Sym)) {
        // A symbol of a dropped section (its section symbol) becomes absolute; the others
        // follow their section's new index.
        for (uint32_t k = 0; k + sizeof(Elf32_Sym) <= s.size; k += sizeof(Elf32_Sym)) {
          size_t o = at + k + 14;
          uint16_t idx = get16(out, o);
          if (idx != SHN_UNDEF && idx < SHN_LORESERVE) put16(out, o, idx < shnum && renum[idx] ? renum[idx] : SHN_ABS);
        }
      }
      s.offset = at;
    }
    if (i) {
      s.link = s.link < shnum ? renum[s.link] : 0;
      if ((s.type == SHT_REL || s.type == SHT_RELA) && s.info < shnum) s.info = renum[s.info];
    }
    nsec.push_back(s);
  }
  out.resize((out.size() + 3) / 4 * 4, 0);
  uint32_t new_shoff = uint32_t(out.size());
  for (const Section& s : nsec) {
    size_t o = out.size();
    out.resize(o + sizeof(Elf32_Shdr), 0);
    uint32_t f[10] = {s.name, s.type, s.flags, s.addr, s.offset, s.size, s.link, s.info, s.align, s.entsize};
    for (int k = 0; k < 10; ++k) put32(out, o + 4 * k, f[k]);
  }
  put32(out, 32, new_shoff);
  put16(out, 48, uint16_t(nsec.size()));
  put16(out, 50, renum[shstrndx]);
  return out;
}

}  // namespace testbed
