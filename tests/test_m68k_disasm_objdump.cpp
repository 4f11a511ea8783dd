// The disassembler's text equals GNU objdump's, checked against objdump itself:
//  - every one of the 65536 first words, each followed by extension words of several patterns,
//    under -m m68k:68010 and -m m68k:68000;
//  - targeted sweeps of the fields a few words leave to their extension word (movec control
//    registers, movem register lists, index words, moves);
//  - every instruction objdump lists in the firmware images the build produces (GCC's jump
//    tables, data inside the code, left out as check_68010.py leaves them out).
//
// Layout of a generated image: one 32-byte slot per case, [op, e1..e4, 11 x nop]. objdump decodes
// sequentially, so an instruction shorter than the slot leaves e1..e4 to be decoded as
// instructions of their own; the nop padding is long enough (objdump's longest decode is 22
// bytes) that decoding is back in step at every slot start, where we compare. (-z: objdump
// otherwise abbreviates runs of zero words as "...".)
//
// Where we print differently from objdump on purpose (documented in hw/cpu/DISASSEMBLER.md):
//  - F-line words: objdump -m m68k:68010 still decodes 68881/68851 coprocessor instructions;
//    the 68010 has no coprocessor interface and takes the F-line trap, so we print ".short".
//  - Bits 10..8 of a brief extension word (68020 scale / full format): the patterns below keep
//    them clear, and IndexWordsIgnoreScaleAndFullFormatBits checks that we ignore them as the
//    68000/68010 does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "m68k_disasm.h"

namespace {

using m68k::DisasmCpu;

constexpr uint32_t kSlotWords = 16;
constexpr uint32_t kSlotBytes = kSlotWords * 2;
constexpr uint32_t kVma = 0x10000;  // nonzero so that PC-relative targets are not near 0

struct Case {
  uint16_t w[5];  // first word and up to four extension words
};

struct ObjdumpInsn {
  int length = 0;  // bytes objdump consumed
  std::string text;
};

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  EXPECT_EQ(rc, 0) << cmd;
  return out;
}

// "6004 0801 " (groups of four hex digits, each followed by a space, then padding).
bool is_hex_words(const std::string& s) {
  size_t i = 0;
  int groups = 0;
  while (i + 5 <= s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) {
    for (size_t k = 0; k < 4; ++k)
      if (!std::isxdigit(static_cast<unsigned char>(s[i + k]))) return false;
    if (s[i + 4] != ' ') return false;
    i += 5;
    ++groups;
  }
  return groups > 0 && s.find_first_not_of(' ', i) == std::string::npos;
}

// objdump prints an address in an image with symbols as "48c <main+0x4>"; we print 0x48c.
std::string strip_symbols(const std::string& text) {
  std::string out = text;
  for (size_t lt; (lt = out.find(" <")) != std::string::npos;) {
    size_t gt = out.find('>', lt);
    size_t begin = lt;
    while (begin > 0 && std::isxdigit(static_cast<unsigned char>(out[begin - 1]))) --begin;
    if (gt == std::string::npos || begin == lt) break;
    out = out.substr(0, begin) + "0x" + out.substr(begin, lt - begin) + out.substr(gt + 1);
  }
  return out;
}

// Parses objdump -d/-D output into address -> instruction; continuation lines (bytes only) add
// to the previous instruction's length. `bytes`, if given, collects every byte listed.
std::map<uint32_t, ObjdumpInsn> parse_objdump(const std::string& text,
                                              std::map<uint32_t, uint8_t>* bytes = nullptr) {
  std::map<uint32_t, ObjdumpInsn> insns;
  ObjdumpInsn* cur = nullptr;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // "    1000:\t6004           \tbras 0x1006" or continuation "    1018:\t7923 41f0 "
    size_t colon = line.find(":\t");
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(' ');
    if (start >= colon) continue;
    char* end = nullptr;
    unsigned long addr = std::strtoul(line.c_str() + start, &end, 16);
    if (end != line.c_str() + colon) continue;
    size_t hex_begin = colon + 2;
    size_t tab = line.find('\t', hex_begin);
    std::string hex = line.substr(hex_begin, tab == std::string::npos ? std::string::npos
                                                                      : tab - hex_begin);
    // objdump -d shows data objects in a code section as "hex words   ASCII" lines: not
    // instructions, and they end the previous instruction.
    if (!is_hex_words(hex)) {
      cur = nullptr;
      continue;
    }
    int n = 0;
    for (size_t i = 0; i + 1 < hex.size();) {
      if (hex[i] == ' ') { ++i; continue; }
      if (bytes) (*bytes)[static_cast<uint32_t>(addr) + n] =
          static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16));
      ++n;
      i += 2;
    }
    if (tab != std::string::npos) {
      cur = &insns[static_cast<uint32_t>(addr)];
      cur->length = n;
      cur->text = line.substr(tab + 1);
    } else if (cur) {
      cur->length += n;
    }
  }
  return insns;
}

// Runs objdump over `cases` laid out in slots and compares at every slot start.
// Returns the number of mismatches (and reports the first few).
// skip_indexed: extension words may have bits 10..8 set, where objdump shows 68020 modes;
// instructions we print with an index register are then not compared.
int compare_cases(const std::vector<Case>& cases, DisasmCpu cpu, const std::string& tag,
                  bool skip_indexed = false) {
  std::vector<uint8_t> image(cases.size() * kSlotBytes);
  for (size_t i = 0; i < cases.size(); ++i) {
    for (uint32_t k = 0; k < kSlotWords; ++k) {
      uint16_t w = k < 5 ? cases[i].w[k] : 0x4e71;
      image[i * kSlotBytes + 2 * k] = static_cast<uint8_t>(w >> 8);
      image[i * kSlotBytes + 2 * k + 1] = static_cast<uint8_t>(w);
    }
  }
  // Per process too: two ctest runs in one build tree must not share a scratch file.
  std::string path = std::string(DISASM_SCRATCH_DIR) + "/disasm_" + tag + "_" +
                     std::to_string(getpid()) + ".bin";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
  }
  char vma[32];
  std::snprintf(vma, sizeof vma, "0x%x", kVma);
  std::string out = run(std::string(M68K_OBJDUMP) + " -D -z -b binary -m " +
                        (cpu == DisasmCpu::MC68010 ? "m68k:68010" : "m68k:68000") +
                        " --adjust-vma=" + vma + " " + path);
  std::remove(path.c_str());
  auto insns = parse_objdump(out);

  auto fetch = [&](uint32_t a) -> uint16_t {
    uint32_t off = a - kVma;
    if (off + 1 >= image.size()) return 0;
    return static_cast<uint16_t>(image[off] << 8 | image[off + 1]);
  };
  int bad = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    uint32_t addr = kVma + static_cast<uint32_t>(i * kSlotBytes);
    std::string mine;
    int len = m68k::disassemble(addr, fetch, mine, cpu);
    if (skip_indexed && (mine.find(":w)") != std::string::npos ||
                         mine.find(":l)") != std::string::npos))
      continue;
    std::string want;
    int want_len;
    uint16_t op = cases[i].w[0];
    if ((op & 0xf000) == 0xf000) {  // F-line: our documented choice, see the file comment
      char buf[16];
      std::snprintf(buf, sizeof buf, ".short 0x%04x", op);
      want = buf;
      want_len = 2;
    } else {
      auto it = insns.find(addr);
      if (it == insns.end()) {
        if (++bad <= 20) ADD_FAILURE() << tag << ": objdump out of step at slot " << i;
        continue;
      }
      want = it->second.text;
      want_len = it->second.length;
    }
    if (mine != want || len != want_len) {
      if (++bad <= 40) {
        char words[64];
        std::snprintf(words, sizeof words, "%04x %04x %04x %04x %04x", cases[i].w[0],
                      cases[i].w[1], cases[i].w[2], cases[i].w[3], cases[i].w[4]);
        ADD_FAILURE() << tag << " [" << words << "]: objdump \"" << want << "\" (" << want_len
                      << " bytes), ours \"" << mine << "\" (" << len << " bytes)";
      }
    }
  }
  return bad;
}

// Deterministic extension words (xorshift32), so failures reproduce.
struct Rng {
  uint32_t s;
  uint16_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return static_cast<uint16_t>(s >> 8);
  }
};

// Every first word; extension words from `rng` with `keep` applied (0xf8ff keeps brief
// extension words 68000-valid: no scale, no full format).
std::vector<Case> all_first_words(uint32_t seed, uint16_t keep) {
  Rng rng{seed};
  std::vector<Case> cases(65536);
  for (uint32_t op = 0; op < 65536; ++op) {
    cases[op].w[0] = static_cast<uint16_t>(op);
    for (int k = 1; k < 5; ++k) cases[op].w[k] = seed ? (rng.next() & keep) : 0;
  }
  return cases;
}

TEST(DisasmVsObjdump, EveryFirstWord68010ZeroExtensions) {
  EXPECT_EQ(compare_cases(all_first_words(0, 0), DisasmCpu::MC68010, "z10"), 0);
}

TEST(DisasmVsObjdump, EveryFirstWord68010RandomExtensions) {
  EXPECT_EQ(compare_cases(all_first_words(0x1234567, 0xf8ff), DisasmCpu::MC68010, "r10a"), 0);
  EXPECT_EQ(compare_cases(all_first_words(0x9e3779b9, 0xf8ff), DisasmCpu::MC68010, "r10b"), 0);
}

// Any extension words (immediates and addresses with every bit pattern); instructions with a
// brief extension word are covered by the tests above and below.
TEST(DisasmVsObjdump, EveryFirstWord68010UnrestrictedExtensions) {
  EXPECT_EQ(compare_cases(all_first_words(0x7f4a7c15, 0xffff), DisasmCpu::MC68010, "u10", true),
            0);
}

// Extension words with bits 10..0 clear: the only ones moves accepts.
TEST(DisasmVsObjdump, EveryFirstWord68010RegisterSelectExtensions) {
  EXPECT_EQ(compare_cases(all_first_words(0x51ed270b, 0xf800), DisasmCpu::MC68010, "s10"), 0);
}

TEST(DisasmVsObjdump, EveryFirstWord68000) {
  EXPECT_EQ(compare_cases(all_first_words(0x2545f491, 0xf8ff), DisasmCpu::MC68000, "r00"), 0);
  EXPECT_EQ(compare_cases(all_first_words(0x51ed270b, 0xf800), DisasmCpu::MC68000, "s00"), 0);
}

TEST(DisasmVsObjdump, EveryMovecControlRegisterAndMovesExtension) {
  std::vector<Case> cases;
  for (uint32_t e = 0; e < 65536; ++e) {
    if ((e & 0x7ff) == 0 || (e & 0x7ff) == 0x7ff || (e & 0x7ff) == 0x400)
      for (uint16_t op : {0x0e10, 0x0e58, 0x0ea0, 0x0e39})
        cases.push_back({{op, static_cast<uint16_t>(e), 0x1234, 0x5678, 0}});
    if (e < 0x1000 || (e & 0xfff) == 0x801)
      for (uint16_t op : {0x4e7a, 0x4e7b}) cases.push_back({{op, static_cast<uint16_t>(e)}});
  }
  EXPECT_EQ(compare_cases(cases, DisasmCpu::MC68010, "movec"), 0);
}

TEST(DisasmVsObjdump, EveryMovemRegisterList) {
  std::vector<Case> cases;
  for (uint32_t m = 0; m < 65536; ++m) {
    cases.push_back({{0x48e7, static_cast<uint16_t>(m)}});  // moveml ...,%sp@- (reversed mask)
    if (m % 4 == 0) cases.push_back({{0x4cdf, static_cast<uint16_t>(m)}});  // moveml %sp@+,...
  }
  EXPECT_EQ(compare_cases(cases, DisasmCpu::MC68010, "movem"), 0);
}

// All brief extension words objdump also reads as 68000 ones, on An and PC bases.
TEST(DisasmVsObjdump, EveryIndexWord) {
  std::vector<Case> cases;
  for (uint32_t e = 0; e < 65536; ++e)
    if ((e & 0x700) == 0)
      for (uint16_t op : {0x41f5, 0x4bfb, 0x2036})  // lea a5@(..),a0; lea pc@(..),a5; movel
        cases.push_back({{op, static_cast<uint16_t>(e)}});
  EXPECT_EQ(compare_cases(cases, DisasmCpu::MC68010, "index"), 0);
}

TEST(DisasmVsObjdump, IndexWordsIgnoreScaleAndFullFormatBits) {
  // The 68000/68010 decode only d8, the index register and its size; objdump shows 68020
  // scale and full-format forms for bits 10..8, we show what the 68010 executes.
  for (uint32_t e = 0; e < 65536; ++e) {
    uint16_t words[2] = {0x41f5, static_cast<uint16_t>(e)};
    uint16_t clean[2] = {0x41f5, static_cast<uint16_t>(e & ~0x700u)};
    std::string a, b;
    int la = m68k::disassemble(0, [&](uint32_t x) { return x < 4 ? words[x / 2] : 0; }, a);
    int lb = m68k::disassemble(0, [&](uint32_t x) { return x < 4 ? clean[x / 2] : 0; }, b);
    ASSERT_EQ(a, b) << std::hex << e;
    ASSERT_EQ(la, 4);
    ASSERT_EQ(lb, 4);
  }
}

// GCC's jump tables (for the 68000: a `jmp %pc@(T,%dN:w)` and at T a table of 16-bit offsets
// from T) are data inside the code, which objdump lists as instructions; their words may hold a
// 68020 index form that we print the 68010's way. As firmware/lib/runtime/check_68010.py finds
// them: from T while each entry is an even offset to a place in [lo, hi) outside the entries
// read so far, up to the first target after T. Removes the table's entries from `insns` and lists
// the code after it again with objdump from the table's end, so that the comparison is back in
// step (objdump's listing of the table can run past its end). Returns the tables skipped.
int skip_jump_tables(const std::string& file, std::map<uint32_t, ObjdumpInsn>& insns,
                     const std::map<uint32_t, uint8_t>& bytes) {
  static const std::regex jmp_table(R"(^jmp %pc@\((?:0x)?([0-9a-f]+)(?: <[^>]*>)?,%[ad][0-7]:w\)$)");
  if (insns.empty()) return 0;
  const uint32_t lo = insns.begin()->first;
  const uint32_t hi = insns.rbegin()->first + insns.rbegin()->second.length;
  auto word = [&](uint32_t a) {
    auto h = bytes.find(a), l = bytes.find(a + 1);
    return static_cast<int16_t>((h == bytes.end() ? 0 : h->second) << 8 | (l == bytes.end() ? 0 : l->second));
  };
  std::vector<uint32_t> starts;
  for (const auto& [addr, insn] : insns) {
    std::smatch m;
    if (std::regex_match(insn.text, m, jmp_table)) starts.push_back(std::stoul(m[1], nullptr, 16));
  }
  int tables = 0;
  for (uint32_t start : starts) {
    if (start < lo || start >= hi) continue;
    uint32_t pos = start, stop = hi;
    while (pos + 2 <= stop) {
      const uint32_t target = start + word(pos);
      if (target < lo || target >= hi || (target & 1) || (start <= target && target <= pos)) break;
      if (target > pos) stop = std::min(stop, target);
      pos += 2;
    }
    if (pos == start) continue;
    ++tables;
    // objdump again from the table's end, until its listing meets the first one.
    char range[64];
    std::snprintf(range, sizeof range, " --start-address=0x%x --stop-address=0x%x", pos,
                  std::min(hi, pos + 256));
    auto again = parse_objdump(run(std::string(M68K_OBJDUMP) + " -d -m m68k:68010" + range + " " + file));
    uint32_t meet = std::min(hi, pos + 256);
    for (const auto& [addr, insn] : again) {
      auto same = insns.find(addr);
      if (same != insns.end() && same->second.length == insn.length && same->second.text == insn.text) {
        meet = addr;
        break;
      }
    }
    insns.erase(insns.lower_bound(start), insns.lower_bound(meet));
    for (const auto& [addr, insn] : again)
      if (addr < meet && addr + insn.length <= meet) insns[addr] = insn;
  }
  return tables;
}

// Every instruction objdump lists in every firmware image: same text, same length. objdump
// prints addresses as "48c <sym+0x4>" in an image with symbols; we print 0x48c.
TEST(DisasmVsObjdump, FirmwareImages) {
  std::string list = run(std::string("ls ") + TESTBED_FIRMWARE_DIR + "/*.elf");
  std::istringstream files(list);
  std::string file;
  int images = 0, checked = 0, bad = 0, tables = 0;
  while (std::getline(files, file)) {
    ++images;
    std::map<uint32_t, uint8_t> bytes;
    // -m m68k:68010: the ELF header only says "m68000", but the boards are 68010s.
    auto insns = parse_objdump(run(std::string(M68K_OBJDUMP) + " -d -m m68k:68010 " + file),
                               &bytes);
    tables += skip_jump_tables(file, insns, bytes);
    auto fetch = [&](uint32_t a) -> uint16_t {
      auto hi = bytes.find(a), lo = bytes.find(a + 1);
      return static_cast<uint16_t>((hi == bytes.end() ? 0 : hi->second) << 8 |
                                   (lo == bytes.end() ? 0 : lo->second));
    };
    for (const auto& [addr, insn] : insns) {
      std::string want = strip_symbols(insn.text);
      int want_len = insn.length;
      if ((fetch(addr) & 0xf000) == 0xf000) {  // F-line: as in compare_cases
        char buf[16];
        std::snprintf(buf, sizeof buf, ".short 0x%04x", fetch(addr));
        want = buf;
        want_len = 2;
      }
      std::string mine;
      int len = m68k::disassemble(addr, fetch, mine);
      ++checked;
      if (mine != want || len != want_len) {
        if (++bad <= 40)
          ADD_FAILURE() << file << " @" << std::hex << addr << ": objdump \"" << want << "\" ("
                        << std::dec << want_len << "), ours \"" << mine << "\" (" << len << ")";
      }
    }
  }
  std::printf("%d images, %d instructions compared, %d jump tables left out\n", images, checked,
              tables);
  EXPECT_GE(images, 1) << "no firmware images in " << TESTBED_FIRMWARE_DIR;
  EXPECT_GT(checked, 10);
  EXPECT_EQ(bad, 0);
}

}  // namespace
