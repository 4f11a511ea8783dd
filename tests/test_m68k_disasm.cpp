// The disassembler on hand-picked instructions: objdump's text (as binutils 2.40 prints it, see
// test_m68k_disasm_objdump.cpp for the exhaustive comparison), lengths, the 68000/68010
// difference and our documented departures from objdump. Runs without binutils installed.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "m68k_disasm.h"

namespace {

using m68k::DisasmCpu;

struct Result {
  std::string text;
  int length;
};

Result dis(std::initializer_list<uint16_t> words, uint32_t pc = 0x1000,
           DisasmCpu cpu = DisasmCpu::MC68010) {
  std::vector<uint16_t> w(words);
  Result r;
  r.length = m68k::disassemble(
      pc,
      [&](uint32_t a) -> uint16_t {
        uint32_t i = (a - pc) / 2;
        return i < w.size() ? w[i] : 0x4e71;
      },
      r.text, cpu);
  return r;
}

void expect(std::initializer_list<uint16_t> words, const std::string& text, int length,
            DisasmCpu cpu = DisasmCpu::MC68010) {
  Result r = dis(words, 0x1000, cpu);
  EXPECT_EQ(r.text, text);
  EXPECT_EQ(r.length, length) << text;
}

TEST(Disasm, MovesAndAddressingModes) {
  expect({0x2f02}, "movel %d2,%sp@-", 2);
  expect({0x206f, 0x000c}, "moveal %sp@(12),%a0", 4);
  expect({0x46fc, 0x2700}, "movew #9984,%sr", 4);
  expect({0x2e7c, 0x0040, 0x0000}, "moveal #4194304,%sp", 6);
  expect({0x4298}, "clrl %a0@+", 2);
  expect({0x302f, 0x0006}, "movew %sp@(6),%d0", 4);
  expect({0x23c0, 0x00ff, 0xfff4}, "movel %d0,0xfffff4", 6);
  expect({0x3038, 0x8000}, "movew 0xffff8000,%d0", 4);          // abs.w sign-extends
  expect({0x1030, 0x70fe}, "moveb %a0@(fffffffffffffffe,%d7:w),%d0", 4);  // objdump's hex
  expect({0x41fb, 0x7010}, "lea %pc@(0x1012,%d7:w),%a0", 4);     // base: the extension word
  expect({0x303a, 0x0010}, "movew %pc@(0x1012),%d0", 4);
  expect({0x7001}, "moveq #1,%d0", 2);
  expect({0x70ff}, "moveq #-1,%d0", 2);
}

TEST(Disasm, BranchTargetsAreAbsolute) {
  expect({0x6404}, "bccs 0x1006", 2);
  expect({0x60fe}, "bras 0x1000", 2);
  expect({0x6100, 0x0100}, "bsrw 0x1102", 4);
  expect({0x51c8, 0xfffe}, "dbf %d0,0x1000", 4);
}

TEST(Disasm, RegisterLists) {
  expect({0x48e7, 0x3f3e}, "moveml %d2-%d7/%a2-%fp,%sp@-", 4);  // -(An): reversed mask
  expect({0x4cdf, 0x7cfc}, "moveml %sp@+,%d2-%d7/%a2-%fp", 4);
  expect({0x48d0, 0x81c3}, "moveml %d0-%d1/%d6-%a0/%sp,%a0@", 4);  // ranges cross d7/a0
  expect({0x48d0, 0x0000}, "moveml #0,%a0@", 4);
}

TEST(Disasm, The68010Additions) {
  expect({0x4e7a, 0x0801}, "movec %vbr,%d0", 4);
  expect({0x4e7b, 0x8000}, "movec %a0,%sfc", 4);
  expect({0x4e7a, 0x0010}, "movec 0x10,%d0", 4);
  expect({0x0e10, 0x0800}, "movesb %d0,%a0@", 4);
  expect({0x0e90, 0x8000}, "movesl %a0@,%a0", 4);
  expect({0x4e74, 0x0004}, "rtd #4", 4);
  expect({0x4848}, "bkpt 0", 2);
  expect({0x42c0}, "movew %ccr,%d0", 2);
  // The same words on a 68000 are undefined, as objdump -m m68k:68000 prints them.
  expect({0x4e7a, 0x0801}, ".short 0x4e7a", 2, DisasmCpu::MC68000);
  expect({0x0e10, 0x0800}, ".short 0x0e10", 2, DisasmCpu::MC68000);
  expect({0x4e74, 0x0004}, ".short 0x4e74", 2, DisasmCpu::MC68000);
  expect({0x4848}, ".short 0x4848", 2, DisasmCpu::MC68000);
  expect({0x42c0}, ".short 0x42c0", 2, DisasmCpu::MC68000);
}

TEST(Disasm, UndefinedWords) {
  expect({0x4afc}, "illegal", 2);
  expect({0x4afb}, ".short 0x4afb", 2);
  expect({0xa123}, ".short 0xa123", 2);
  expect({0x4e7b, 0x0000}, "movec %d0,%sfc", 4);
  expect({0x49c0}, ".short 0x49c0", 2);  // extb.l is 68020
  expect({0x4c00, 0x0800}, ".short 0x4c00", 2);  // mull is 68020
  expect({0x0e10, 0x0801}, ".short 0x0e10", 2);  // moves with nonzero reserved bits
}

// Our departures from objdump (hw/cpu/DISASSEMBLER.md): F-line words are the 68010's F-line trap
// (objdump decodes 68881/68851 instructions), and bits 10..8 of a brief extension word are
// ignored as the 68010 ignores them (objdump shows 68020 scale and full-format modes).
TEST(Disasm, DeparturesFromObjdump) {
  expect({0xf123}, ".short 0xf123", 2);
  expect({0xf200, 0x0000}, ".short 0xf200", 2);
  expect({0x41f0, 0x7323}, "lea %a0@(23,%d7:w),%a0", 4);   // objdump: %d7:w:2
  expect({0x41f0, 0x7123, 0x41f0}, "lea %a0@(23,%d7:w),%a0", 4);  // objdump: full format
}

TEST(Disasm, FetchesOnlyTheInstructionsWords) {
  // A tracer's fetch may be a bus access: nothing past the instruction may be read.
  uint32_t highest = 0;
  std::string text;
  const uint16_t w[] = {0x23f0, 0x70fe, 0x0012, 0x3456, 0x4e71};
  int len = m68k::disassemble(
      0x100,
      [&](uint32_t a) -> uint16_t {
        highest = std::max(highest, a);
        return w[(a - 0x100) / 2];
      },
      text);
  EXPECT_EQ(text, "movel %a0@(fffffffffffffffe,%d7:w),0x123456");
  EXPECT_EQ(len, 8);
  EXPECT_EQ(highest, 0x106u);
}

}  // namespace
