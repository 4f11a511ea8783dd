// MC68010 instruction timing: every row below names the table of the M68000 User's Manual
// (9th edition) it comes from, section 9 ("MC68010 Instruction Execution Times") for the 68010
// and section 8 for the 68000, in the manual's n(r/w) notation: total clocks, bus reads, bus
// writes (instruction fetches included). Each row runs the instruction on both models, so a
// row asserts the 68010's own figure and, beside it, the 68000's (which the reference vectors
// also check), so that a difference cannot appear or vanish on one side unnoticed.
//
// Loop mode (Appendix A) is tested on whole loops: after the first pass, neither the loop
// instruction nor the DBcc is fetched, and each iteration costs only the loop instruction's
// operand cycles and the DBcc's two internal clocks.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using m68k::Bus;
using m68k::BusAccess;
using m68k::BusResponse;
using m68k::Cpu;
using m68k::Model;

constexpr uint32_t kCode = 0x1000;
constexpr uint32_t kHandler = 0x3000;  // every exception vector points here

// 64 KB of RAM on the slow path, counting bus cycles; program fetches counted apart.
class CountingBus : public Bus, public M68kTestRam {
 public:
  CountingBus() : M68kTestRam(1 << 16) {}
  int reads = 0, writes = 0, fetches = 0;

  BusResponse read(const BusAccess& a, uint16_t& d, uint32_t&) override {
    reads++;
    if (a.fc == m68k::FC_USER_PROGRAM || a.fc == m68k::FC_SUPERVISOR_PROGRAM) fetches++;
    uint32_t x = a.address & 0xFFFF;
    d = a.byte ? mem[x] : (uint16_t)(mem[x & ~1u] << 8 | mem[x | 1]);
    return BusResponse::Ok;
  }
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t&) override {
    writes++;
    uint32_t x = a.address & 0xFFFF;
    if (a.byte) {
      mem[x] = (uint8_t)d;
    } else {
      mem[x] = (uint8_t)(d >> 8);
      mem[x + 1] = (uint8_t)d;
    }
    return BusResponse::Ok;
  }
  int interrupt_acknowledge(int, uint64_t, uint32_t&) override {
    reads++;  // the acknowledge is a read cycle in the manual's counts
    return kAutovector;
  }
};

struct Cost {
  int clocks = 0, reads = 0, writes = 0;
  bool operator==(const Cost& o) const {
    return clocks == o.clocks && reads == o.reads && writes == o.writes;
  }
};
std::string str(const Cost& c) {
  char b[32];
  std::snprintf(b, sizeof b, "%d(%d/%d)", c.clocks, c.reads, c.writes);
  return b;
}

using Prep = std::function<void(Cpu&, CountingBus&)>;

// A machine in supervisor mode, SSP 0x8000, A0 = 0x4000, A1 = 0x5000, A6 = 0x6000, the program
// at kCode and every vector at kHandler.
struct Machine {
  CountingBus bus;
  Cpu cpu;
  explicit Machine(Model m) : cpu(bus, m) {
    bus.put32(0, 0x8000);
    bus.put32(4, kCode);
    for (uint32_t v = 2; v < 64; v++) bus.put32(v * 4, kHandler);
    cpu.reset();
    cpu.regs().a[0] = 0x4000;
    cpu.regs().a[1] = 0x5000;
    cpu.regs().a[6] = 0x6000;
  }
  void load(const std::vector<uint16_t>& words) {
    uint32_t a = kCode;
    for (uint16_t w : words) {
      bus.put16(a, w);
      a += 2;
    }
    for (int i = 0; i < 8; i++, a += 2) bus.put16(a, 0x4E71);  // NOPs after it
  }
};

// Runs the first instruction of `words` from a full prefetch queue (the steady state the
// manual's figures assume) and reports its cost.
Cost measure(Model model, const std::vector<uint16_t>& words, const Prep& setup) {
  Machine m(model);
  m.load(words);
  if (setup) setup(m.cpu, m.bus);
  m.cpu.regs().pc = kCode;
  m.cpu.load_prefetch(words[0], words.size() > 1 ? words[1] : 0x4E71);
  m.bus.reads = m.bus.writes = 0;
  uint64_t c0 = m.cpu.cycles();
  m.cpu.run_until(c0 + 1);  // one instruction: the burst ends once the target is passed
  return {(int)(m.cpu.cycles() - c0), m.bus.reads, m.bus.writes};
}

struct Row {
  const char* name;  // "Table 9-x <row>"
  std::vector<uint16_t> code;
  Cost mc68000, mc68010;
  Prep setup = nullptr;
};

Prep d(int reg, uint32_t v) {
  return [=](Cpu& c, CountingBus&) { c.regs().d[reg] = v; };
}
Prep flags(uint16_t ccr) {
  return [=](Cpu& c, CountingBus&) { c.regs().sr = (uint16_t)((c.regs().sr & m68k::kSrSystemByte) | ccr); };
}
Prep both(Prep a, Prep b) {
  return [=](Cpu& c, CountingBus& bus) {
    a(c, bus);
    b(c, bus);
  };
}
constexpr uint16_t Z = 4, V = 2;

void check(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    Cost a = measure(Model::MC68000, r.code, r.setup);
    Cost b = measure(Model::MC68010, r.code, r.setup);
    // A 68000 figure of 0 clocks: data-dependent there, checked by the reference vectors.
    if (r.mc68000.clocks != 0) {
      EXPECT_TRUE(a == r.mc68000) << r.name << ": 68000 " << str(a) << ", section 8 "
                                  << str(r.mc68000);
    }
    EXPECT_TRUE(b == r.mc68010) << r.name << ": 68010 " << str(b) << ", section 9 "
                                << str(r.mc68010);
  }
}

// ------------------------------------------------------------------------------------------

TEST(Mc68010Timing, Table9_1_EffectiveAddressCalculation) {
  // Through TST (Table 9-9, 4(1/0) + EA) and, for the PC-relative and immediate modes a 68000
  // TST does not have, CMP <ea>,Dn (Table 9-6, 4(1/0) + EA, long 6(1/0) + EA).
  check({
      {"Table 9-1 (An), byte/word", {0x4A50}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-1 (An)+, byte/word", {0x4A58}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-1 -(An), byte/word", {0x4A60}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-1 (d16,An), byte/word", {0x4A68, 0x0010}, {12, 3, 0}, {12, 3, 0}},
      {"Table 9-1 (d8,An,Xn), byte/word", {0x4A70, 0x0010}, {14, 3, 0}, {14, 3, 0}},
      {"Table 9-1 (xxx).W, byte/word", {0x4A78, 0x4000}, {12, 3, 0}, {12, 3, 0}},
      {"Table 9-1 (xxx).L, byte/word", {0x4A79, 0x0000, 0x4000}, {16, 4, 0}, {16, 4, 0}},
      {"Table 9-1 (d16,PC), byte/word", {0xB07A, 0x0010}, {12, 3, 0}, {12, 3, 0}},
      {"Table 9-1 (d8,PC,Xn), byte/word", {0xB07B, 0x0010}, {14, 3, 0}, {14, 3, 0}},
      {"Table 9-1 #<data>, byte/word", {0xB07C, 0x1234}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-1 (An), long", {0x4A90}, {12, 3, 0}, {12, 3, 0}},
      {"Table 9-1 -(An), long", {0x4AA0}, {14, 3, 0}, {14, 3, 0}},
      {"Table 9-1 (xxx).L, long", {0x4AB9, 0x0000, 0x4000}, {20, 5, 0}, {20, 5, 0}},
      {"Table 9-1 #<data>, long", {0xB0BC, 0x0000, 0x1234}, {14, 3, 0}, {14, 3, 0}},
  });
}

// The source operand's effective address: Table 9-1 (identical to the 68000's Table 8-1).
struct Ea {
  const char* name;
  int mode, reg;
  std::vector<uint16_t> ext, ext_long;  // extension words (immediate data by size)
  Cost bw, l;                           // Table 9-1: byte/word, long
};
const std::vector<Ea>& source_modes() {
  static const std::vector<Ea> modes = {
      {"Dn", 0, 1, {}, {}, {0, 0, 0}, {0, 0, 0}},
      {"An", 1, 1, {}, {}, {0, 0, 0}, {0, 0, 0}},
      {"(An)", 2, 0, {}, {}, {4, 1, 0}, {8, 2, 0}},
      {"(An)+", 3, 0, {}, {}, {4, 1, 0}, {8, 2, 0}},
      {"-(An)", 4, 0, {}, {}, {6, 1, 0}, {10, 2, 0}},
      {"(d16,An)", 5, 0, {0x0010}, {0x0010}, {8, 2, 0}, {12, 3, 0}},
      {"(d8,An,Xn)", 6, 0, {0x0010}, {0x0010}, {10, 2, 0}, {14, 3, 0}},
      {"(xxx).W", 7, 0, {0x4000}, {0x4000}, {8, 2, 0}, {12, 3, 0}},
      {"(xxx).L", 7, 1, {0x0000, 0x4000}, {0x0000, 0x4000}, {12, 3, 0}, {16, 4, 0}},
      {"(d16,PC)", 7, 2, {0x0010}, {0x0010}, {8, 2, 0}, {12, 3, 0}},
      {"(d8,PC,Xn)", 7, 3, {0x0010}, {0x0010}, {10, 2, 0}, {14, 3, 0}},
      {"#<data>", 7, 4, {0x1234}, {0x0000, 0x1234}, {4, 1, 0}, {8, 2, 0}},
  };
  return modes;
}
Cost operator+(Cost a, Cost b) { return {a.clocks + b.clocks, a.reads + b.reads, a.writes + b.writes}; }

TEST(Mc68010Timing, Table9_1_EveryRowThroughCmp) {
  // CMP <ea>,D0: Table 9-6 gives 4(1/0) (byte, word) and 6(1/0) (long) plus Table 9-1.
  std::vector<Row> rows;
  for (const Ea& e : source_modes()) {
    for (int size : {1, 2, 4}) {
      if (size == 1 && e.mode == 1) continue;  // no byte access to An
      uint16_t op = (uint16_t)(0xB000 | (size == 1 ? 0 : size == 2 ? 1 : 2) << 6 | e.mode << 3 | e.reg);
      std::vector<uint16_t> code{op};
      for (uint16_t w : size == 4 ? e.ext_long : e.ext) code.push_back(w);
      Cost want = (size == 4 ? Cost{6, 1, 0} + e.l : Cost{4, 1, 0} + e.bw);
      static std::vector<std::string> names;
      names.push_back(std::string("Table 9-1 ") + e.name + (size == 4 ? ", long" : size == 2 ? ", word" : ", byte"));
      rows.push_back({names.back().c_str(), code, want, want});
    }
  }
  check(rows);
}

// MOVE: source EA (Table 9-1) plus the destination's cost. Tables 9-2 and 9-4 are these sums,
// cell by cell, except the one 68010 cell that differs (long Dn to -(An): 14(1/2)).
TEST(Mc68010Timing, Tables9_2_And_9_4_EveryCell) {
  struct Dst {
    const char* name;
    int mode, reg;
    std::vector<uint16_t> ext;
    Cost bw, l;
  };
  const std::vector<Dst> dsts = {
      {"Dn", 0, 2, {}, {4, 1, 0}, {4, 1, 0}},
      {"An", 1, 2, {}, {4, 1, 0}, {4, 1, 0}},
      {"(An)", 2, 1, {}, {8, 1, 1}, {12, 1, 2}},
      {"(An)+", 3, 1, {}, {8, 1, 1}, {12, 1, 2}},
      {"-(An)", 4, 1, {}, {8, 1, 1}, {12, 1, 2}},
      {"(d16,An)", 5, 1, {0x0020}, {12, 2, 1}, {16, 2, 2}},
      {"(d8,An,Xn)", 6, 1, {0x0020}, {14, 2, 1}, {18, 2, 2}},
      {"(xxx).W", 7, 0, {0x5000}, {12, 2, 1}, {16, 2, 2}},
      {"(xxx).L", 7, 1, {0x0000, 0x5000}, {16, 3, 1}, {20, 3, 2}},
  };
  std::vector<Row> rows;
  static std::vector<std::string> names;
  names.reserve(1000);
  for (int size : {1, 2, 4}) {
    for (const Ea& e : source_modes()) {
      for (const Dst& t : dsts) {
        if (size == 1 && (e.mode == 1 || t.mode == 1)) continue;  // no byte access to An
        uint16_t line = size == 1 ? 0x1000 : size == 2 ? 0x3000 : 0x2000;
        uint16_t op = (uint16_t)(line | t.reg << 9 | t.mode << 6 | e.mode << 3 | e.reg);
        std::vector<uint16_t> code{op};
        for (uint16_t w : size == 4 ? e.ext_long : e.ext) code.push_back(w);
        for (uint16_t w : t.ext) code.push_back(w);
        Cost m68000 = size == 4 ? e.l + t.l : e.bw + t.bw;
        Cost m68010 = m68000;
        if (size == 4 && e.mode == 0 && t.mode == 4) m68010.clocks += 2;
        names.push_back(std::string(size == 4 ? "Table 9-4 MOVE.L " : size == 2 ? "Table 9-2 MOVE.W "
                                                                                : "Table 9-2 MOVE.B ") +
                        e.name + "," + t.name);
        rows.push_back({names.back().c_str(), code, m68000, m68010});
      }
    }
  }
  check(rows);
}

TEST(Mc68010Timing, Table9_2_MoveByteAndWord) {
  check({
      {"Table 9-2 MOVE.W Dn,Dn", {0x3001}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-2 MOVE.W (An),(An)", {0x3290}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-2 MOVE.B (An)+,(An)+", {0x12D8}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-2 MOVE.W -(An),-(An)", {0x3320}, {14, 2, 1}, {14, 2, 1}},
      {"Table 9-2 MOVE.W Dn,(xxx).L", {0x33C0, 0x0000, 0x4000}, {16, 3, 1}, {16, 3, 1}},
  });
}

TEST(Mc68010Timing, Table9_4_MoveLong) {
  check({
      {"Table 9-4 MOVE.L Dn,-(An) (the cell that differs)", {0x2300}, {12, 1, 2}, {14, 1, 2}},
      {"Table 9-4 MOVE.L (An),-(An)", {0x2310}, {20, 3, 2}, {20, 3, 2}},
      {"Table 9-4 MOVE.L Dn,(An)", {0x2280}, {12, 1, 2}, {12, 1, 2}},
      {"Table 9-4 MOVE.L (An)+,(An)+", {0x22D8}, {20, 3, 2}, {20, 3, 2}},
  });
}

TEST(Mc68010Timing, Table9_6_Standard) {
  check({
      {"Table 9-6 ADD.W <ea>,Dn ((An))", {0xD050}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-6 ADD.L <ea>,Dn (Dn: 8)", {0xD081}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-6 ADD.L <ea>,Dn ((An))", {0xD090}, {14, 3, 0}, {14, 3, 0}},
      {"Table 9-6 ADD.W Dn,<M> ((An))", {0xD150}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-6 ADD.L Dn,<M> ((An))", {0xD190}, {20, 3, 2}, {20, 3, 2}},
      {"Table 9-6 ADDA.W <ea>,An (Dn)", {0xD0C1}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-6 CMP.L <ea>,Dn (Dn)", {0xB081}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-6 AND.W <ea>,Dn (Dn)", {0xC041}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-6 EOR.W Dn,Dn", {0xB141}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-6 OR.W <ea>,Dn (Dn)", {0x8041}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-6 OR.L Dn,<M> ((An))", {0x8390}, {20, 3, 2}, {20, 3, 2}},
      {"Table 9-6 SUB.L <ea>,Dn ((An))", {0x9090}, {14, 3, 0}, {14, 3, 0}},
      {"Table 9-6 SUBA.L <ea>,An (Dn: 8)", {0x91C1}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-6 CMPA.W <ea>,An (Dn)", {0xB0C1}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-6 CMPA.L <ea>,An ((An))", {0xB1D0}, {14, 3, 0}, {14, 3, 0}},
      // MULU: 38 + 2n on the 68000 (n = ones in the source); 40(1/0) on the 68010.
      {"Table 9-6 MULU <ea>,Dn (source 0)", {0xC0C1}, {38, 1, 0}, {40, 1, 0}, d(1, 0)},
      {"Table 9-6 MULU <ea>,Dn (source $FFFF)", {0xC0C1}, {70, 1, 0}, {40, 1, 0}, d(1, 0xFFFF)},
      {"Table 9-6 MULS <ea>,Dn (source 0)", {0xC1C1}, {38, 1, 0}, {42, 1, 0}, d(1, 0)},
      {"Table 9-6 DIVU <ea>,Dn", {0x80C1}, {0, 0, 0}, {108, 1, 0}, both(d(0, 100), d(1, 7))},
      {"Table 9-6 DIVS <ea>,Dn", {0x81C1}, {0, 0, 0}, {122, 1, 0}, both(d(0, 100), d(1, 7))},
  });
}

TEST(Mc68010Timing, Table9_8_Immediate) {
  // The 68000's ANDI.L #,Dn is 16(3/0) on the part (the reference vectors) where section 8
  // prints 14(3/0).
  check({
      {"Table 9-8 ADDI.L #,Dn", {0x0680, 0x0000, 0x0001}, {16, 3, 0}, {14, 3, 0}},
      {"Table 9-8 SUBI.L #,Dn", {0x0480, 0x0000, 0x0001}, {16, 3, 0}, {14, 3, 0}},
      {"Table 9-8 ORI.L #,Dn", {0x0080, 0x0000, 0x0001}, {16, 3, 0}, {14, 3, 0}},
      {"Table 9-8 EORI.L #,Dn", {0x0A80, 0x0000, 0x0001}, {16, 3, 0}, {14, 3, 0}},
      {"Table 9-8 ANDI.L #,Dn", {0x0280, 0x0000, 0x0001}, {16, 3, 0}, {14, 3, 0}},
      {"Table 9-8 CMPI.L #,Dn", {0x0C80, 0x0000, 0x0001}, {14, 3, 0}, {12, 3, 0}},
      {"Table 9-8 ADDI.W #,Dn", {0x0640, 0x0001}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-8 ADDI.W #,M ((An))", {0x0650, 0x0001}, {16, 3, 1}, {16, 3, 1}},
      {"Table 9-8 ADDI.L #,M ((An))", {0x0690, 0x0000, 0x0001}, {28, 5, 2}, {28, 5, 2}},
      {"Table 9-8 ADDQ.W #,Dn", {0x5240}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-8 ADDQ.L #,M ((An))", {0x5290}, {20, 3, 2}, {20, 3, 2}},
      {"Table 9-8 MOVEQ", {0x7001}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-8 SUBQ.L #,Dn", {0x5380}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-8 SUBQ.W #,An", {0x5348}, {8, 1, 0}, {8, 1, 0}},
  });
}

TEST(Mc68010Timing, Table9_9_SingleOperand) {
  check({
      {"Table 9-9 NEG.W M ((An))", {0x4451}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-9 NOT.L Dn", {0x4680}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-9 NBCD Dn", {0x4800}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-9 Scc Dn, condition true", {0x50C0}, {6, 1, 0}, {4, 1, 0}},
      {"Table 9-9 Scc Dn, condition false", {0x51C0}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-9 Scc M ((An))", {0x50D0}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-9 TST.L Dn", {0x4A80}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-9 NEGX.B Dn", {0x4000}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-9 NEGX.L M ((An))", {0x4090}, {20, 3, 2}, {20, 3, 2}},
      {"Table 9-9 TAS Dn", {0x4AC0}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-9 TAS M ((An))", {0x4AD0}, {14, 2, 1}, {14, 2, 1}},
  });
}

TEST(Mc68010Timing, Table9_10_Clear) {
  // The 68010's CLR writes without reading its destination.
  check({
      {"Table 9-10 CLR.W Dn", {0x4240}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-10 CLR.L Dn", {0x4280}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-10 CLR.W (An)", {0x4251}, {12, 2, 1}, {8, 1, 1}},
      {"Table 9-10 CLR.L (An)", {0x4291}, {20, 3, 2}, {12, 1, 2}},
      {"Table 9-10 CLR.W (An)+", {0x4259}, {12, 2, 1}, {8, 1, 1}},
      {"Table 9-10 CLR.L (An)+", {0x4299}, {20, 3, 2}, {12, 1, 2}},
      {"Table 9-10 CLR.W -(An)", {0x4261}, {14, 2, 1}, {10, 1, 1}},
      {"Table 9-10 CLR.L -(An)", {0x42A1}, {22, 3, 2}, {14, 1, 2}},
      {"Table 9-10 CLR.W (d16,An)", {0x4269, 0x0010}, {16, 3, 1}, {12, 2, 1}},
      {"Table 9-10 CLR.L (d16,An)", {0x42A9, 0x0010}, {24, 4, 2}, {16, 2, 2}},
      {"Table 9-10 CLR.W (d8,An,Xn)", {0x4271, 0x0010}, {18, 3, 1}, {16, 2, 1}},
      {"Table 9-10 CLR.L (d8,An,Xn)", {0x42B1, 0x0010}, {26, 4, 2}, {20, 2, 2}},
      {"Table 9-10 CLR.W (xxx).W", {0x4278, 0x3000}, {16, 3, 1}, {12, 2, 1}},
      {"Table 9-10 CLR.L (xxx).W", {0x42B8, 0x3000}, {24, 4, 2}, {16, 2, 2}},
      {"Table 9-10 CLR.W (xxx).L", {0x4279, 0x0000, 0x3000}, {20, 4, 1}, {16, 3, 1}},
      {"Table 9-10 CLR.L (xxx).L", {0x42B9, 0x0000, 0x3000}, {28, 5, 2}, {20, 3, 2}},
  });
}

TEST(Mc68010Timing, Table9_12_ShiftRotate) {
  check({
      {"Table 9-12 LSL.W #1,Dn (6+2n)", {0xE348}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-12 ASR.L #2,Dn (8+2n)", {0xE480}, {12, 1, 0}, {12, 1, 0}},
      {"Table 9-12 LSL.W Dm,Dn (count 3)", {0xE368}, {12, 1, 0}, {12, 1, 0}, d(1, 3)},
      {"Table 9-12 ROXL.L #8,Dn", {0xE190}, {24, 1, 0}, {24, 1, 0}},
      {"Table 9-12 LSR.W M ((An))", {0xE2D0}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-12 ROR.W #1,Dn", {0xE258}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-12 ROL.L #4,Dn", {0xE998}, {16, 1, 0}, {16, 1, 0}},
      {"Table 9-12 ASL.W M ((An))", {0xE1D0}, {12, 2, 1}, {12, 2, 1}},
  });
}

TEST(Mc68010Timing, Table9_14_BitManipulation) {
  check({
      {"Table 9-14 BTST #,Dn", {0x0800, 0x0003}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-14 BTST Dm,Dn", {0x0300}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-14 BSET #,Dn (bit < 16)", {0x08C0, 0x0003}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-14 BCHG #,M ((An))", {0x0850, 0x0003}, {16, 3, 1}, {16, 3, 1}},
      {"Table 9-14 BCLR #,Dn (bit 20: the maximum)", {0x0880, 0x0014}, {14, 2, 0}, {14, 2, 0}},
      {"Table 9-14 BSET #,Dn (bit 20: the maximum)", {0x08C0, 0x0014}, {12, 2, 0}, {12, 2, 0}},
      {"Table 9-14 BCLR Dm,M ((An))", {0x0390}, {12, 2, 1}, {12, 2, 1}},
  });
}

TEST(Mc68010Timing, Table9_15_Conditional) {
  check({
      {"Table 9-15 Bcc.B taken", {0x6010}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-15 Bcc.B not taken", {0x6710}, {8, 1, 0}, {6, 1, 0}},
      {"Table 9-15 Bcc.W taken", {0x6000, 0x0020}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-15 Bcc.W not taken", {0x6700, 0x0020}, {12, 2, 0}, {10, 2, 0}},
      {"Table 9-15 BSR.B", {0x6110}, {18, 2, 2}, {18, 2, 2}},
      {"Table 9-15 DBcc, cc true", {0x57C8, 0x0010}, {12, 2, 0}, {10, 2, 0}, flags(Z)},
      {"Table 9-15 DBcc, cc false, count not expired", {0x51C8, 0x0010}, {10, 2, 0}, {10, 2, 0},
       d(0, 5)},
      {"Table 9-15 DBcc, cc false, counter expired", {0x51C8, 0x0010}, {14, 3, 0}, {16, 3, 0},
       d(0, 0)},
  });
}

TEST(Mc68010Timing, Table9_16_JumpLeaPeaMovem) {
  check({
      {"Table 9-16 JMP (An)", {0x4ED0}, {8, 2, 0}, {8, 2, 0}},
      {"Table 9-16 JMP (d16,An)", {0x4EE8, 0x0010}, {10, 2, 0}, {10, 2, 0}},
      {"Table 9-16 JSR (An)", {0x4E90}, {16, 2, 2}, {16, 2, 2}},
      {"Table 9-16 LEA (An)", {0x43D0}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-16 LEA (d8,An,Xn)", {0x43F0, 0x0010}, {12, 2, 0}, {12, 2, 0}},
      {"Table 9-16 PEA (An)", {0x4850}, {12, 1, 2}, {12, 1, 2}},
      {"Table 9-16 MOVEM.W M->R (An), 2 registers", {0x4C90, 0x0003}, {20, 5, 0}, {20, 5, 0}},
      {"Table 9-16 MOVEM.L R->M -(An), 2 registers", {0x48E0, 0xC000}, {24, 2, 4}, {24, 2, 4}},
  });
}

TEST(Mc68010Timing, Table9_17_Multiprecision) {
  check({
      {"Table 9-17 ADDX.W Dy,Dx", {0xD141}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-17 ADDX.L Dy,Dx", {0xD181}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-17 ADDX.W -(Ay),-(Ax)", {0xD348}, {18, 3, 1}, {18, 3, 1}},
      {"Table 9-17 ADDX.L -(Ay),-(Ax)", {0xD388}, {30, 5, 2}, {30, 5, 2}},
      {"Table 9-17 CMPM.W", {0xB348}, {12, 3, 0}, {12, 3, 0}},
      {"Table 9-17 CMPM.L", {0xB388}, {20, 5, 0}, {20, 5, 0}},
      {"Table 9-17 ABCD Dy,Dx", {0xC101}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-17 ABCD -(Ay),-(Ax)", {0xC308}, {18, 3, 1}, {18, 3, 1}},
      {"Table 9-17 SUBX.L Dy,Dx", {0x9181}, {8, 1, 0}, {8, 1, 0}},
      {"Table 9-17 SUBX.W -(Ay),-(Ax)", {0x9348}, {18, 3, 1}, {18, 3, 1}},
      {"Table 9-17 SBCD Dy,Dx", {0x8101}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-17 SBCD -(Ay),-(Ax)", {0x8308}, {18, 3, 1}, {18, 3, 1}},
  });
}

TEST(Mc68010Timing, Table9_18_Miscellaneous) {
  Prep rte_frame = [](Cpu& c, CountingBus& bus) {
    c.regs().a[7] = 0x7000;
    bus.put16(0x7000, 0x2700);
    bus.put32(0x7002, kCode + 0x10);
    bus.put16(0x7006, 0x0000);  // 68010 format $0; the 68000 does not read it
  };
  Prep stack = [](Cpu& c, CountingBus& bus) {
    c.regs().a[7] = 0x7000;
    bus.put32(0x7000, kCode + 0x10);
    bus.put32(0x7004, kCode + 0x20);
  };
  check({
      {"Table 9-18 ANDI to CCR", {0x023C, 0x00FF}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 ORI to CCR", {0x003C, 0x0000}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 EORI to SR", {0x0A7C, 0x0000}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 ANDI to SR", {0x027C, 0xFFFF}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 EORI to CCR", {0x0A3C, 0x0000}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 ORI to SR", {0x007C, 0x0000}, {20, 3, 0}, {16, 2, 0}},
      {"Table 9-18 CHK, no trap", {0x4181}, {10, 1, 0}, {8, 1, 0}, both(d(0, 2), d(1, 5))},
      {"Table 9-18 EXG", {0xC141}, {6, 1, 0}, {6, 1, 0}},
      {"Table 9-18 EXT.W", {0x4880}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-18 LINK", {0x4E56, 0xFFF8}, {16, 2, 2}, {16, 2, 2}},
      {"Table 9-18 MOVE to CCR (Dn)", {0x44C0}, {12, 2, 0}, {12, 2, 0}},
      {"Table 9-18 MOVE to SR (Dn)", {0x46C0}, {12, 2, 0}, {12, 2, 0}, d(0, 0x2700)},
      {"Table 9-18 MOVE from SR, Dn", {0x40C0}, {6, 1, 0}, {4, 1, 0}},
      {"Table 9-18 MOVE from SR, M ((An))", {0x40D0}, {12, 2, 1}, {12, 2, 1}},
      {"Table 9-18 MOVE USP,An", {0x4E68}, {4, 1, 0}, {6, 1, 0}},
      {"Table 9-18 MOVE An,USP", {0x4E60}, {4, 1, 0}, {6, 1, 0}},
      {"Table 9-18 NOP", {0x4E71}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-18 RESET", {0x4E70}, {132, 1, 0}, {130, 1, 0}},
      {"Table 9-18 RTE (68010: short format)", {0x4E73}, {20, 5, 0}, {24, 6, 0}, rte_frame},
      {"Table 9-18 RTR", {0x4E77}, {20, 5, 0}, {20, 5, 0}, stack},
      {"Table 9-18 RTS", {0x4E75}, {16, 4, 0}, {16, 4, 0}, stack},
      {"Table 9-18 STOP", {0x4E72, 0x2700}, {4, 0, 0}, {4, 0, 0}},
      {"Table 9-18 SWAP", {0x4840}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-18 TRAPV, no trap", {0x4E76}, {4, 1, 0}, {4, 1, 0}},
      {"Table 9-18 UNLK", {0x4E5E}, {12, 3, 0}, {12, 3, 0}, [](Cpu& c, CountingBus&) {
         c.regs().a[6] = 0x7000;
       }},
  });
}

TEST(Mc68010Timing, Table9_18_Mc68010Only) {
  // Instructions the 68000 does not have (it takes them as illegal).
  Prep stack = [](Cpu& c, CountingBus& bus) {
    c.regs().a[7] = 0x7000;
    bus.put32(0x7000, kCode + 0x10);
  };
  struct R {
    const char* name;
    std::vector<uint16_t> code;
    Cost cost;
    Prep setup;
  };
  for (const R& r : std::vector<R>{
           {"Table 9-18 MOVE from CCR, Dn", {0x42C0}, {4, 1, 0}, nullptr},
           {"Table 9-18 MOVEC Cr,Rn", {0x4E7A, 0x0801}, {12, 2, 0}, nullptr},
           {"Table 9-18 MOVEC Rn,Cr", {0x4E7B, 0x0801}, {10, 2, 0}, nullptr},
           {"Table 9-18 RTD", {0x4E74, 0x0004}, {16, 4, 0}, stack},
       }) {
    Cost b = measure(Model::MC68010, r.code, r.setup);
    EXPECT_TRUE(b == r.cost) << r.name << ": " << str(b) << ", section 9 " << str(r.cost);
  }
}

TEST(Mc68010Timing, Table9_19_MovePeripheral) {
  check({
      {"Table 9-19 MOVEP.W M->R", {0x0108, 0x0000}, {16, 4, 0}, {16, 4, 0}},
      {"Table 9-19 MOVEP.L R->M", {0x01C8, 0x0000}, {24, 2, 4}, {24, 2, 4}},
  });
}

TEST(Mc68010Timing, Table9_20_ExceptionProcessing) {
  // Every 68010 frame carries a format/vector word: one more write and four more clocks than
  // the 68000's (whose figures the reference vectors check).
  Prep user = [](Cpu& c, CountingBus&) {
    c.regs().usp = 0x7800;
    c.regs().ssp = 0x8000;
    c.regs().sr = 0x0000;
    c.regs().a[7] = 0x7800;
  };
  check({
      {"Table 9-20 TRAP #n", {0x4E40}, {34, 4, 3}, {38, 4, 4}},
      {"Table 9-20 illegal instruction", {0x4AFC}, {34, 4, 3}, {38, 4, 4}},
      {"Table 9-20 line 1010 emulator", {0xA000}, {34, 4, 3}, {38, 4, 4}},
      {"Table 9-20 privilege violation", {0x46C0}, {34, 4, 3}, {38, 4, 4}, user},
      {"Table 9-20 TRAPV, trap", {0x4E76}, {34, 4, 3}, {38, 4, 4}, flags(V)},
      {"Table 9-20 CHK, trap (Dn > bound)", {0x4181}, {38, 4, 3}, {42, 4, 4},
       both(d(0, 9), d(1, 5))},
      {"Table 9-20 divide by zero (DIVU Dn)", {0x80C1}, {36, 4, 3}, {40, 4, 4}, d(1, 0)},
  });
}

TEST(Mc68010Timing, Table9_20_InterruptTraceReset) {
  for (Model model : {Model::MC68000, Model::MC68010}) {
    const bool m10 = model == Model::MC68010;
    // Interrupt: 68000 44(5/3) (the acknowledge cycle counted as a read); 68010 48(5/4).
    {
      Machine m(model);
      m.load({0x4E71});
      m.cpu.regs().sr = m68k::kSrSupervisor;
      m.cpu.regs().pc = kCode;
      m.cpu.load_prefetch(0x4E71, 0x4E71);
      m.cpu.set_ipl(3);
      m.bus.reads = m.bus.writes = 0;
      uint64_t c0 = m.cpu.cycles();
      m.cpu.run_until(c0 + 1);
      Cost got{(int)(m.cpu.cycles() - c0), m.bus.reads, m.bus.writes};
      EXPECT_EQ(str(got), m10 ? "48(5/4)" : "44(5/3)") << "Table 9-20 interrupt";
      EXPECT_EQ(m.cpu.regs().pc, kHandler);
    }
    // Trace: 68000 34(4/3); 68010 38(4/4), taken after the traced instruction.
    {
      Machine m(model);
      m.load({0x4E71});
      m.cpu.regs().sr = m68k::kSrTrace | m68k::kSrSupervisor | m68k::kSrIntMask;
      m.cpu.regs().pc = kCode;
      m.cpu.load_prefetch(0x4E71, 0x4E71);
      m.cpu.run_until(m.cpu.cycles() + 1);  // the NOP
      m.bus.reads = m.bus.writes = 0;
      uint64_t c0 = m.cpu.cycles();
      m.cpu.run_until(c0 + 1);
      Cost got{(int)(m.cpu.cycles() - c0), m.bus.reads, m.bus.writes};
      EXPECT_EQ(str(got), m10 ? "38(4/4)" : "34(4/3)") << "Table 9-20 trace";
    }
    // RESET exception: 40(6/0) on both (SSP and PC, then the queue).
    {
      CountingBus bus;
      bus.put32(0, 0x8000);
      bus.put32(4, kCode);
      Cpu cpu(bus, model);
      uint64_t c0 = cpu.cycles();
      cpu.reset();
      Cost got{(int)(cpu.cycles() - c0), bus.reads, bus.writes};
      EXPECT_EQ(str(got), "40(6/0)") << "Table 9-20 RESET";
    }
  }
}

// ------------------------------------------------------------------------------------------
// Loop mode (Appendix A)

// One traced instruction: where it ran and what it cost.
struct Step {
  uint32_t pc;
  Cost cost;
  int fetches;
};

// Runs a program until STOP, tracing every instruction.
std::vector<Step> run_program(Machine& m, const std::vector<uint16_t>& words,
                              const Prep& setup = nullptr, int max_steps = 10000) {
  m.load(words);
  if (setup) setup(m.cpu, m.bus);
  m.cpu.regs().pc = kCode;
  m.cpu.load_prefetch(words[0], words[1]);
  std::vector<Step> steps;
  struct Mark {
    uint32_t pc;
    uint64_t cycle;
    int reads, writes, fetches;
  } last{0, 0, 0, 0, 0};
  bool first = true;
  auto close = [&](uint64_t cycle) {
    if (first) return;
    steps.push_back({last.pc,
                     {(int)(cycle - last.cycle), m.bus.reads - last.reads, m.bus.writes - last.writes},
                     m.bus.fetches - last.fetches});
  };
  m.cpu.set_tracer([&](uint32_t pc, uint64_t cycle, bool) {
    close(cycle);
    first = false;
    last = {pc, cycle, m.bus.reads, m.bus.writes, m.bus.fetches};
  });
  for (int i = 0; i < max_steps && !m.cpu.stopped(); i++) m.cpu.run_until(m.cpu.cycles() + 1);
  close(m.cpu.cycles());
  return steps;
}

// MOVE.B (A0)+,(A1)+ / DBRA D0: a block copy of D0 + 1 bytes.
const std::vector<uint16_t> kCopyLoop = {0x12D8, 0x51C8, 0xFFFC, 0x4E72, 0x2700};

TEST(Mc68010LoopMode, CopyLoopStopsFetchingAfterTheFirstPass) {
  Machine m(Model::MC68010);
  for (int i = 0; i < 8; i++) m.bus.mem[0x4000 + i] = (uint8_t)(0xA0 + i);
  auto steps = run_program(m, kCopyLoop, d(0, 7));
  for (int i = 0; i < 8; i++) EXPECT_EQ(m.bus.mem[0x5000 + i], 0xA0 + i);
  EXPECT_EQ(m.cpu.regs().d[0] & 0xFFFF, 0xFFFFu);
  EXPECT_EQ(m.cpu.regs().a[0], 0x4008u);
  EXPECT_EQ(m.cpu.regs().a[1], 0x5008u);
  ASSERT_EQ(steps.size(), 17u);  // 8 MOVEs, 8 DBRAs, the STOP
  // First pass: fetched normally. MOVE.B (An)+,(An)+ 12(2/1), DBcc loop continued 10(2/0).
  EXPECT_EQ(str(steps[0].cost), "12(2/1)");
  EXPECT_EQ(str(steps[1].cost), "10(2/0)");
  // In loop mode: the MOVE makes only its operand cycles, the DBcc only its internal clocks.
  for (size_t i = 2; i + 3 < steps.size(); i += 2) {
    EXPECT_EQ(str(steps[i].cost), "8(1/1)") << "MOVE in iteration " << i / 2;
    EXPECT_EQ(steps[i].fetches, 0);
    EXPECT_EQ(str(steps[i + 1].cost), "2(0/0)") << "DBRA in iteration " << i / 2;
  }
  // The last MOVE is still in loop mode; the expiring DBcc leaves it and fetches what follows:
  // counter expired 16(3/0) as outside loop mode.
  EXPECT_EQ(str(steps[14].cost), "8(1/1)");
  EXPECT_EQ(str(steps[15].cost), "16(3/0)");
}

TEST(Mc68010LoopMode, SameResultAsThe68000InFewerClocks) {
  uint64_t clocks[2];
  int fetches[2];
  for (Model model : {Model::MC68000, Model::MC68010}) {
    Machine m(model);
    for (int i = 0; i < 100; i++) m.bus.mem[0x4000 + i] = (uint8_t)(i * 7);
    uint64_t c0 = m.cpu.cycles();
    m.bus.fetches = 0;
    run_program(m, kCopyLoop, d(0, 99));
    for (int i = 0; i < 100; i++) ASSERT_EQ(m.bus.mem[0x5000 + i], (uint8_t)(i * 7));
    int i = model == Model::MC68010;
    clocks[i] = m.cpu.cycles() - c0;
    fetches[i] = m.bus.fetches;
  }
  // 68000: 100 x (12 + 10) - 10 + 14 (+ STOP). 68010: the first pass as the 68000's, then
  // 99 x (8 + 2) (the last DBcc 16 instead of 2).
  EXPECT_EQ(clocks[0], 100u * 22 - 10 + 14 + 4);
  EXPECT_EQ(clocks[1], 22u + 98 * 10 + 8 + 16 + 4);
  EXPECT_GT(fetches[0], 300);
  EXPECT_LT(fetches[1], 8);  // the first pass, and the exit
}

TEST(Mc68010LoopMode, NotOnThe68000) {
  Machine m(Model::MC68000);
  auto steps = run_program(m, kCopyLoop, d(0, 7));
  for (size_t i = 0; i + 1 < steps.size(); i++) EXPECT_GT(steps[i].fetches, 0) << i;
}

TEST(Mc68010LoopMode, OnlyForLoopableInstructions) {
  // ADDQ.W #1,D1 / DBRA: a register instruction is not among Appendix A's loop instructions,
  // and a displacement other than -4 never loops either.
  Machine m(Model::MC68010);
  auto steps = run_program(m, {0x5241, 0x51C8, 0xFFFC, 0x4E72, 0x2700}, d(0, 5));
  EXPECT_EQ(m.cpu.regs().d[1] & 0xFFFF, 6u);
  for (size_t i = 0; i + 1 < steps.size(); i++) EXPECT_GT(steps[i].fetches, 0) << i;
}

TEST(Mc68010LoopMode, LeftWhenTheConditionBecomesTrue) {
  // CMP.B (A0)+,D1 / DBEQ D0: search for the byte in D1. Found at offset 5, so the DBcc ends
  // the loop with its condition true: 10(2/0), its fetches real again.
  Machine m(Model::MC68010);
  m.bus.mem[0x4005] = 0x42;
  auto steps = run_program(m, {0xB218, 0x57C8, 0xFFFC, 0x4E72, 0x2700},
                           both(d(0, 20), d(1, 0x42)));
  EXPECT_EQ(m.cpu.regs().a[0], 0x4006u);
  EXPECT_EQ(m.cpu.regs().d[0] & 0xFFFF, 15u);
  ASSERT_EQ(steps.size(), 13u);
  EXPECT_EQ(str(steps[2].cost), "4(1/0)");  // CMP.B (An)+,Dn in loop mode: its read only
  EXPECT_EQ(str(steps[11].cost), "10(2/0)");
  EXPECT_EQ(steps[11].fetches, 2);
}

TEST(Mc68010LoopMode, AnInterruptLeavesItAndTheLoopCompletes) {
  // The handler (RTE) runs from real fetches; the loop resumes, re-enters loop mode at its
  // next DBcc, and copies every byte once.
  Machine m(Model::MC68010);
  m.bus.put16(kHandler, 0x4E73);  // RTE
  for (int i = 0; i < 64; i++) m.bus.mem[0x4000 + i] = (uint8_t)(i + 1);
  m.load(kCopyLoop);
  m.cpu.regs().d[0] = 63;
  m.cpu.regs().sr = m68k::kSrSupervisor;  // interrupts enabled
  m.cpu.regs().pc = kCode;
  m.cpu.load_prefetch(kCopyLoop[0], kCopyLoop[1]);
  m.cpu.run_until(m.cpu.cycles() + 200);  // inside the loop, in loop mode
  int fetches_before = m.bus.fetches;
  m.cpu.set_ipl(3);
  m.cpu.run_until(m.cpu.cycles() + 60);  // exception, RTE
  m.cpu.set_ipl(0);
  EXPECT_GT(m.bus.fetches, fetches_before + 3);  // vector fetch, handler and return refills
  for (int i = 0; i < 1000 && !m.cpu.stopped(); i++) m.cpu.run_until(m.cpu.cycles() + 100);
  ASSERT_TRUE(m.cpu.stopped());
  for (int i = 0; i < 64; i++) EXPECT_EQ(m.bus.mem[0x5000 + i], i + 1) << i;
  EXPECT_EQ(m.bus.mem[0x5040], 0);
  EXPECT_EQ(m.cpu.regs().a[1], 0x5040u);
}

}  // namespace
