// MC68010 behaviour of the core: the differences from the 68000, the format $8 bus-error frame
// and RTE continuation, interrupts at every IPL, trace, and the double bus fault.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using m68k::Bus;
using m68k::BusAccess;
using m68k::BusResponse;
using m68k::Cpu;
using m68k::Model;

constexpr uint32_t kMemSize = 1 << 20;
constexpr uint32_t kMapAll = 0xFF0000;  // a store here makes every absent page present
constexpr uint32_t kResult = 0x6000;    // programs leave their results here

// 1 MB of RAM on the slow path, with 1 KB pages that can be absent (bus error), as an MMU
// would make them before the OS maps them in.
class PagedBus : public Bus, public M68kTestRam {
 public:
  PagedBus() : M68kTestRam(kMemSize) {}
  std::vector<bool> absent = std::vector<bool>(kMemSize / 1024, false);
  int bus_errors = 0;
  int iack_level = 0;

  BusResponse read(const BusAccess& a, uint16_t& d, uint32_t&) override {
    if (a.address >= kMemSize || absent[a.address / 1024]) return fault();
    d = a.byte ? mem[a.address] : (uint16_t)(mem[a.address & ~1u] << 8 | mem[a.address | 1]);
    return BusResponse::Ok;
  }
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t&) override {
    if (a.address == kMapAll) {
      std::fill(absent.begin(), absent.end(), false);
      return BusResponse::Ok;
    }
    if (a.address >= kMemSize || absent[a.address / 1024]) return fault();
    if (a.byte) {
      mem[a.address] = (uint8_t)d;
    } else {
      mem[a.address] = (uint8_t)(d >> 8);
      mem[a.address + 1] = (uint8_t)d;
    }
    return BusResponse::Ok;
  }
  int interrupt_acknowledge(int level, uint64_t, uint32_t&) override {
    iack_level = level;
    return kAutovector;
  }

 private:
  BusResponse fault() {
    bus_errors++;
    return BusResponse::BusError;
  }
};

// Vectors: SSP 0x8000, PC 0x1000; every exception lands on a handler that records its vector
// number at kResult and stops.
void setup(PagedBus& bus, uint32_t ssp = 0x8000) {
  bus.put32(0, ssp);
  bus.put32(4, 0x1000);
  for (int v = 2; v < 64; v++) {
    uint32_t h = 0x4000 + (uint32_t)v * 32;
    bus.put32((uint32_t)v * 4, h);
    // move.w #v,(kResult).l ; move.l sp,(kResult+4).l ; stop #$2700
    bus.code(h, {0x33FC, (uint16_t)v, 0x0000, (uint16_t)kResult, 0x23CF, 0x0000,
                 (uint16_t)(kResult + 4), 0x4E72, 0x2700});
  }
}

void run(Cpu& cpu, uint64_t clocks = 100000) {
  cpu.reset();
  cpu.run_until(cpu.cycles() + clocks);
}

TEST(M68010, MoveFromSrIsPrivilegedOn68010ButNotOn68000) {
  for (Model m : {Model::MC68000, Model::MC68010}) {
    PagedBus bus;
    setup(bus);
    // move.w #$0000,sr (to user mode) ; move.w sr,d0 ; move.w #$55,(kResult).l ; stop
    bus.code(0x1000, {0x46FC, 0x0000, 0x40C0, 0x33FC, 0x0055, 0x0000, (uint16_t)kResult});
    bus.code(0x100E, {0x4AFC});  // user mode cannot STOP: an illegal instruction ends the test
    Cpu cpu(bus, m);
    run(cpu);
    EXPECT_EQ(bus.get16(kResult), m == Model::MC68010 ? 8 : 4);
  }
}

TEST(M68010, MoveFromCcrMovecVbrAndFormatZeroFrame) {
  PagedBus bus;
  setup(bus);
  // move.l #$20000,d1 ; movec d1,vbr ; movec vbr,d2 ; move.w ccr,d3 (after moveq #-1: N set)
  // trap #0 -> through VBR
  bus.code(0x1000, {0x223C, 0x0002, 0x0000, 0x4E7B, 0x1801, 0x4E7A, 0x2801, 0x7EFF, 0x42C3,
                    0x4E40});
  bus.put32(0x20000 + 32 * 4, 0x4000 + 33 * 32);  // vector 32 via VBR -> the "33" handler
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  EXPECT_EQ(cpu.regs().vbr, 0x20000u);
  EXPECT_EQ(cpu.regs().d[2], 0x20000u);
  EXPECT_EQ(cpu.regs().d[3] & 0xFFFF, 0x0008u);  // N from moveq #-1
  EXPECT_EQ(bus.get16(kResult), 33);
  uint32_t sp = bus.get32(kResult + 4);
  EXPECT_EQ(bus.get32(sp + 2), 0x1014u);       // PC after TRAP
  EXPECT_EQ(bus.get16(sp + 6), 0x0000 | 32 * 4);  // format $0, vector offset 128
}

TEST(M68010, RtdPopsReturnAddressAndDisplacement) {
  PagedBus bus;
  setup(bus);
  // bsr.s sub ; move.w #$77,(kResult).l ; stop #$2700 ; dc.w 0,0 ; sub: rtd #8
  bus.code(0x1000, {0x6110, 0x33FC, 0x0077, 0x0000, (uint16_t)kResult, 0x4E72, 0x2700, 0x0000,
                    0x0000, 0x4E74, 0x0008});
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  EXPECT_EQ(bus.get16(kResult), 0x77);
  EXPECT_EQ(cpu.regs().a[7], 0x8000u + 8);
}

TEST(M68010, RteWithUnknownFormatTakesFormatError) {
  PagedBus bus;
  setup(bus);
  // move.w #$2700,-(sp) ; ... build a frame with format $F: move.w #$F000,-(sp) first
  // move.w #$F000,-(sp) ; move.l #$1000,-(sp) ; move.w #$2700,-(sp) ; rte
  bus.code(0x1000, {0x3F3C, 0xF000, 0x2F3C, 0x0000, 0x1000, 0x3F3C, 0x2700, 0x4E73});
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  EXPECT_EQ(bus.get16(kResult), 14);
}

// The OS-style handler for bus errors: map the pages in, RTE.
void bus_error_handler_maps_and_returns(PagedBus& bus) {
  uint32_t h = 0x4000 + 2 * 32;
  // move.l sp,(kResult+8).l ; move.w #1,(kMapAll).l ; rte
  bus.code(h, {0x23CF, 0x0000, (uint16_t)(kResult + 8), 0x33FC, 0x0001, 0x00FF, 0x0000, 0x4E73});
}

TEST(M68010, BusErrorFormat8FrameAndRteCompletesMovemOf16RegistersAcrossPage) {
  PagedBus bus;
  setup(bus);
  bus_error_handler_maps_and_returns(bus);
  std::vector<uint16_t> prog;
  for (int i = 0; i < 8; i++) {  // move.l #$D0D0000i,di
    prog.insert(prog.end(), {(uint16_t)(0x203C | i << 9), 0xD0D0, (uint16_t)i});
  }
  for (int i = 0; i < 6; i++) {  // movea.l #$A0A0000i,ai
    prog.insert(prog.end(), {(uint16_t)(0x207C | i << 9), 0xA0A0, (uint16_t)i});
  }
  // lea $23E0,a6 ; movem.l d0-a7,(a6) ; stop #$2700
  prog.insert(prog.end(), {0x4DF9, 0x0000, 0x23E0, 0x48D6, 0xFFFF, 0x4E72, 0x2700});
  uint32_t a = 0x1000;
  for (uint16_t w : prog) {
    bus.put16(a, w);
    a += 2;
  }
  bus.absent[0x2400 / 1024] = true;
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  ASSERT_FALSE(cpu.halted()) << cpu.halt_reason();
  EXPECT_TRUE(cpu.stopped());
  EXPECT_EQ(bus.bus_errors, 1);
  // The frame the handler saw: format $8, vector offset 8, fault address 0x2400, a write.
  uint32_t sp = bus.get32(kResult + 8);
  EXPECT_EQ(bus.get16(sp + 6), 0x8008);
  EXPECT_EQ(bus.get32(sp + 10), 0x2400u);
  EXPECT_EQ(bus.get16(sp + 8) & 0x0100, 0);  // SSW RW=0: a write
  // Every register is in memory exactly as an unfaulted MOVEM would have left it.
  for (int i = 0; i < 8; i++) EXPECT_EQ(bus.get32(0x23E0 + 4 * i), 0xD0D00000u | i) << i;
  for (int i = 0; i < 6; i++) EXPECT_EQ(bus.get32(0x2400 + 4 * i), 0xA0A00000u | i) << i;
  EXPECT_EQ(bus.get32(0x2400 + 24), 0x23E0u);  // a6
  EXPECT_EQ(bus.get32(0x2400 + 28), 0x8000u);  // a7 (SSP) as at the MOVEM
  EXPECT_EQ(cpu.regs().a[7], 0x8000u);
}

TEST(M68010, BusErrorRteCompletesMovemLoadAndReadModifyWrite) {
  PagedBus bus;
  setup(bus);
  bus_error_handler_maps_and_returns(bus);
  for (int i = 0; i < 13; i++) bus.put32(0x27E0 + 4 * i, 0x11110000u + (uint32_t)i);
  bus.put32(0x2C00, 1000);
  // lea $27E0,a5 ; movem.l (a5),d0-d7/a0-a4 ; lea $2C00,a6 ; move.l #5,d7... use addq:
  // add.l d1,(a6) with d1 = 0x11110001 ; stop
  bus.code(0x1000, {0x4BF9, 0x0000, 0x27E0, 0x4CD5, 0x1FFF, 0x4DF9, 0x0000, 0x2C00, 0xD396,
                    0x4E72, 0x2700});
  bus.absent[0x2800 / 1024] = true;
  bus.absent[0x2C00 / 1024] = true;
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  ASSERT_TRUE(cpu.stopped());
  EXPECT_EQ(bus.bus_errors, 1);  // the handler maps both pages at once
  for (int i = 0; i < 8; i++) EXPECT_EQ(cpu.regs().d[i], 0x11110000u + i) << i;
  for (int i = 0; i < 5; i++) EXPECT_EQ(cpu.regs().a[i], 0x11110008u + i) << i;
  EXPECT_EQ(cpu.regs().a[5], 0x27E0u);
  EXPECT_EQ(bus.get32(0x2C00), 1000u + 0x11110001u);  // added exactly once
}

// A bus-error handler that stores two registers as it finds them (move.l Rx,(kResult+12).l and
// move.l Ry,(kResult+16).l), then maps the pages in and returns.
void bus_error_handler_records(PagedBus& bus, uint16_t store_x, uint16_t store_y) {
  bus.code(0x4000 + 2 * 32, {store_x, 0x0000, (uint16_t)(kResult + 12), store_y, 0x0000,
                             (uint16_t)(kResult + 16), 0x33FC, 0x0001, 0x00FF, 0x0000, 0x4E73});
}

TEST(M68010, BusErrorRollsBackPostincrementAndPredecrementBeforeRerun) {
  PagedBus bus;
  setup(bus);
  bus_error_handler_records(bus, 0x23C8, 0x23C9);  // a0, a1
  bus.put32(0x23F0, 0xCAFEBABE);
  // lea $23F0,a0 ; lea $2C04,a1 ; move.l (a0)+,-(a1) ; stop #$2700
  bus.code(0x1000, {0x41F9, 0x0000, 0x23F0, 0x43F9, 0x0000, 0x2C04, 0x2318, 0x4E72, 0x2700});
  bus.absent[0x2C00 / 1024] = true;
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  ASSERT_TRUE(cpu.stopped());
  EXPECT_EQ(bus.bus_errors, 1);
  EXPECT_EQ(bus.get32(kResult + 12), 0x23F0u);  // the handler sees both as before the MOVE
  EXPECT_EQ(bus.get32(kResult + 16), 0x2C04u);
  EXPECT_EQ(cpu.regs().a[0], 0x23F4u);  // and the rerun steps each exactly once
  EXPECT_EQ(cpu.regs().a[1], 0x2C00u);
  EXPECT_EQ(bus.get32(0x2C00), 0xCAFEBABEu);
}

TEST(M68010, BusErrorOnPrefetchRollsBackExgBeforeRerun) {
  PagedBus bus;
  setup(bus);
  bus_error_handler_records(bus, 0x23C0, 0x23C1);  // d0, d1
  // moveq #1,d0 ; moveq #2,d1 ; jmp $13FC.l ; at $13FC: exg d0,d1 ; nop ; at $1400: stop
  bus.code(0x1000, {0x7001, 0x7202, 0x4EF9, 0x0000, 0x13FC});
  bus.code(0x13FC, {0xC141, 0x4E71, 0x4E72, 0x2700});
  bus.absent[0x1400 / 1024] = true;  // the EXG's prefetch of $1400 faults
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  ASSERT_TRUE(cpu.stopped());
  EXPECT_EQ(bus.bus_errors, 1);
  EXPECT_EQ(bus.get32(kResult + 12), 1u);
  EXPECT_EQ(bus.get32(kResult + 16), 2u);
  EXPECT_EQ(cpu.regs().d[0], 2u);  // exchanged once, by the rerun
  EXPECT_EQ(cpu.regs().d[1], 1u);
}

// Runs `setup_code`, then `insn` (one word) at $13FC, whose prefetch of the page at $1400
// faults when `fault` is set (the handler maps the page and returns, and the
// instruction is rerun); returns the registers and SR at the STOP behind it.
struct EdgeResult {
  uint32_t d[8], a[8];
  uint16_t sr;
  int bus_errors;
};
EdgeResult run_at_page_edge(std::initializer_list<uint16_t> setup_code, uint16_t insn, bool fault) {
  PagedBus bus;
  setup(bus);
  bus_error_handler_maps_and_returns(bus);
  bus.code(0x1000, setup_code);
  bus.code(0x1000 + 2 * (uint32_t)setup_code.size(), {0x4EF9, 0x0000, 0x13FC});  // jmp $13FC.l
  bus.code(0x13FC, {insn, 0x4E71, 0x4E72, 0x2700});  // insn ; nop ; stop #$2700 (at $1400)
  bus.absent[0x1400 / 1024] = fault;
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  EdgeResult r{};
  EXPECT_TRUE(cpu.stopped());
  for (int i = 0; i < 8; i++) r.d[i] = cpu.regs().d[i], r.a[i] = cpu.regs().a[i];
  r.sr = cpu.regs().sr;
  r.bus_errors = bus.bus_errors;
  return r;
}

// The CCR is saved before an instruction only when the instruction reads it and then writes it
// (README: the undo log); for the others a rerun from the flags the faulted attempt left ends
// the same. Each instruction here writes its flags before its prefetch faults, and ends with the
// registers and SR of an unfaulted run.
TEST(M68010, BusErrorRerunEndsWithTheFlagsOfAnUnfaultedRun) {
  // moveq #1,d0 ; moveq #2,d1 ; move #$11,ccr (X and C set)
  const std::initializer_list<uint16_t> pre = {0x7001, 0x7202, 0x44FC, 0x0011};
  struct Case {
    const char* what;
    uint16_t insn;
  } cases[] = {
      {"addx.l d1,d0 (reads X: 1 + 2 + 1, X cleared)", 0xD181},
      {"subx.l d1,d0 (reads X)", 0x9181},
      {"roxl.l #1,d0 (reads X)", 0xE390},
      {"negx.l d0 (reads X and Z)", 0x4080},
      {"abcd d1,d0 (reads X and Z)", 0xC101},
      {"add.l d1,d0 (writes X from the operands only)", 0xD081},
      {"cmp.l d1,d0 (keeps X)", 0xB081},
      {"move.w d1,d0", 0x3001},
      // Handlers whose register write ends them, after their prefetch (Exec::wd_last): it must
      // stay after the prefetch, since it is not in the undo log.
      {"adda.l d1,a0", 0xD1C1},
      {"addq.l #1,d0", 0x5280},
      {"addq.w #1,a0", 0x5248},
      {"moveq #5,d0", 0x7005},
      {"movea.w d1,a0", 0x3041},
      {"st d0", 0x50C0},
      {"move sr,d0", 0x40C0},
      {"not.l d0", 0x4680},
      {"lsl.l #1,d0", 0xE388},
      {"nbcd d0 (reads X and Z)", 0x4800},
      {"lea (a1),a0", 0x41D1},
  };
  for (const Case& k : cases) {
    EdgeResult plain = run_at_page_edge(pre, k.insn, false);
    EdgeResult faulted = run_at_page_edge(pre, k.insn, true);
    EXPECT_EQ(plain.bus_errors, 0) << k.what;
    EXPECT_EQ(faulted.bus_errors, 1) << k.what;
    EXPECT_EQ(faulted.sr, plain.sr) << k.what;
    for (int i = 0; i < 8; i++) EXPECT_EQ(faulted.d[i], plain.d[i]) << k.what << " d" << i;
    for (int i = 0; i < 8; i++) EXPECT_EQ(faulted.a[i], plain.a[i]) << k.what << " a" << i;
  }
  EXPECT_EQ(run_at_page_edge(pre, 0xD181, false).d[0], 4u);  // addx: 1 + 2 + X
}

TEST(M68010, DoubleBusFaultHaltsWithReason) {
  PagedBus bus;
  setup(bus, 0x50000);  // the supervisor stack is in an absent page
  bus.absent[0x50000 / 1024 - 1] = true;
  bus.absent[0x30000 / 1024] = true;
  // move.l $30000,d0 -> bus error, whose frame cannot be stacked
  bus.code(0x1000, {0x2039, 0x0003, 0x0000, 0x4E71});
  for (Model m : {Model::MC68000, Model::MC68010}) {
    Cpu cpu(bus, m);
    run(cpu);
    ASSERT_TRUE(cpu.halted());
    EXPECT_NE(std::strstr(cpu.halt_reason(), "double bus fault"), nullptr) << cpu.halt_reason();
    EXPECT_EQ(cpu.halt_pc(), 0x1000u);
  }
}

TEST(M68010, InterruptsAtEachIplAreMaskedByTheSrMaskExceptLevel7) {
  for (int level = 1; level <= 7; level++) {
    for (int mask = 0; mask <= 7; mask++) {
      PagedBus bus;
      setup(bus);
      // move.w #($2000|mask<<8),sr ; nop ; nop ; move.w #$EE,(kResult).l ; stop #$2700
      bus.code(0x1000, {0x46FC, (uint16_t)(0x2000 | mask << 8), 0x4E71, 0x4E71, 0x33FC, 0x00EE,
                        0x0000, (uint16_t)kResult, 0x4E72, 0x2700});
      Cpu cpu(bus, Model::MC68010);
      cpu.reset();
      cpu.set_ipl(level);
      cpu.run_until(cpu.cycles() + 10000);
      bool taken = level > mask || level == 7;
      if (taken) {
        EXPECT_EQ(bus.get16(kResult), 24 + level) << level << " " << mask;
        EXPECT_EQ(bus.iack_level, level);
        uint32_t sp = bus.get32(kResult + 4);
        EXPECT_EQ(bus.get16(sp + 6), (24 + level) * 4);
        EXPECT_EQ(cpu.regs().sr & m68k::kSrIntMask, m68k::kSrIntMask);  // the handler's STOP #$2700
      } else {
        EXPECT_EQ(bus.get16(kResult), 0xEE) << level << " " << mask;
      }
    }
  }
}

TEST(M68010, TraceTakesVector9AfterEachInstructionWithPcOfTheNext) {
  PagedBus bus;
  setup(bus);
  // move.w #$A000,sr (T=1) ; nop ; nop
  bus.code(0x1000, {0x46FC, 0xA000, 0x4E71, 0x4E71});
  Cpu cpu(bus, Model::MC68010);
  run(cpu);
  EXPECT_EQ(bus.get16(kResult), 9);
  uint32_t sp = bus.get32(kResult + 4);
  EXPECT_EQ(bus.get32(sp + 2), 0x1006u);  // traced the first NOP
  EXPECT_EQ(bus.get16(sp) & 0x8000, 0x8000);  // T was set in the stacked SR
}

// The core caches the code page of the last fetch (the fetch window). A platform that remaps a
// page from a Bus callback in the middle of a run (an MMU, a ROM overlay switched off) must see
// the next fetches come from the new mapping.
class RemapBus : public PagedBus {
 public:
  Cpu* cpu = nullptr;
  uint32_t remapped = 0x1000;  // the page the switch maps to page_b
  std::vector<uint8_t> page_a = std::vector<uint8_t>(1024, 0);
  std::vector<uint8_t> page_b = std::vector<uint8_t>(1024, 0);
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t& w) override {
    if (a.address == 0xF00000) {  // the "switch" register
      for (auto s : {m68k::Space::User, m68k::Space::Supervisor}) {
        cpu->unmap_fast(s, remapped, 1024);
        cpu->map_fast(s, remapped, 1024, page_b.data(), true);
      }
      return BusResponse::Ok;
    }
    return PagedBus::write(a, d, w);
  }
};

void put_code(std::vector<uint8_t>& page, uint32_t offset, std::initializer_list<uint16_t> words) {
  for (uint16_t w : words) {
    page[offset++] = (uint8_t)(w >> 8);
    page[offset++] = (uint8_t)w;
  }
}

TEST(M68010, FetchWindowFollowsAPageRemappedFromABusCallback) {
  for (Model m : {Model::MC68000, Model::MC68010}) {
    RemapBus bus;
    setup(bus);
    // $1000: move.w #1,$F00000.l (remaps the page) ; nop ; nop ; moveq #N,d0 ; stop #$2700
    // The two NOPs are in the prefetch queue when the write happens; the MOVEQ is fetched after.
    for (auto* page : {&bus.page_a, &bus.page_b}) {
      put_code(*page, 0, {0x33FC, 0x0001, 0x00F0, 0x0000, 0x4E71, 0x4E71,
                          (uint16_t)(page == &bus.page_a ? 0x7001 : 0x7002), 0x4E72, 0x2700});
    }
    Cpu cpu(bus, m);
    bus.cpu = &cpu;
    for (auto s : {m68k::Space::User, m68k::Space::Supervisor})
      cpu.map_fast(s, 0x1000, 1024, bus.page_a.data(), true);
    run(cpu);
    ASSERT_TRUE(cpu.stopped());
    EXPECT_EQ(cpu.regs().d[0], 2u) << (m == Model::MC68010 ? "68010" : "68000");
  }
}

// The same for the read and write windows (the data page of the last fast read and write).
TEST(M68010, ReadAndWriteWindowsFollowAPageRemappedFromABusCallback) {
  for (Model m : {Model::MC68000, Model::MC68010}) {
    RemapBus bus;
    setup(bus);
    bus.remapped = 0x2000;
    // $1000: move.w $2000.l,d1 ; move.w d1,$2002.l ; move.w #1,$F00000.l (remaps $2000) ;
    //        move.w $2000.l,d2 ; move.w d2,$2004.l ; stop #$2700
    bus.code(0x1000, {0x3239, 0x0000, 0x2000, 0x33C1, 0x0000, 0x2002, 0x33FC, 0x0001, 0x00F0, 0x0000,
                      0x3439, 0x0000, 0x2000, 0x33C2, 0x0000, 0x2004, 0x4E72, 0x2700});
    put_code(bus.page_a, 0, {0x1111});
    put_code(bus.page_b, 0, {0x2222});
    Cpu cpu(bus, m);
    bus.cpu = &cpu;
    for (auto s : {m68k::Space::User, m68k::Space::Supervisor}) {
      cpu.map_fast(s, 0x1000, 1024, bus.mem.data() + 0x1000, true);
      cpu.map_fast(s, 0x2000, 1024, bus.page_a.data(), true);
    }
    run(cpu);
    const char* model = m == Model::MC68010 ? "68010" : "68000";
    ASSERT_TRUE(cpu.stopped()) << model;
    EXPECT_EQ(cpu.regs().d[1], 0x1111u) << model;
    EXPECT_EQ(cpu.regs().d[2], 0x2222u) << model << ": read through the old mapping";
    EXPECT_EQ(bus.page_a[2] << 8 | bus.page_a[3], 0x1111) << model;
    EXPECT_EQ(bus.page_b[4] << 8 | bus.page_b[5], 0x2222) << model << ": written through the old mapping";
    EXPECT_EQ(bus.page_a[4] << 8 | bus.page_a[5], 0) << model;
  }
}

}  // namespace
