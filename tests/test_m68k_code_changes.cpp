// What the core runs when the code under it changes: an instruction's own write to code (through
// the fast path and through the bus), the 68010's loop mode holding its words, a code page mapped
// to another frame (what migration does), a breakpoint set and removed, and a rollback across a
// code write. These pin what any faster way of running instructions (issue #64's decode cache)
// must keep: the word already in the prefetch queue runs as it was fetched, every later word as
// memory holds it when it is fetched.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using namespace m68k;

constexpr uint32_t kMemSize = 64 * 1024;
constexpr uint32_t kCode = 0x1000;

// All of RAM on the fast path. A page the test protects sends its writes here, and the bus does
// them in RAM as the board's journal does, keeping the page protected.
class CodeBus : public Bus, public M68kTestRam {
 public:
  CodeBus() : M68kTestRam(kMemSize) {}
  Cpu* cpu = nullptr;
  int bus_writes = 0;

  BusResponse read(const BusAccess&, uint16_t& d, uint32_t&) override {
    d = 0xFFFF;
    return BusResponse::Ok;
  }
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t& wait) override {
    ++bus_writes;
    if (a.byte) mem[a.address] = uint8_t(d);
    else put16(a.address, d);
    wait = cpu->fast_wait_states(Space::Supervisor, a.address);
    return BusResponse::Ok;
  }
};

struct Machine {
  CodeBus b;
  Cpu c;
  explicit Machine(Model m) : c(b, m) {
    b.cpu = &c;
    b.put32(0, 0x8000);  // SSP
    b.put32(4, kCode);   // PC
  }
  void start() {
    c.map_fast(Space::Supervisor, 0, kMemSize, b.mem.data(), true);
    c.reset();
  }
};

const char* name(Model m) { return m == Model::MC68010 ? "68010" : "68000"; }

TEST(M68kCodeChanges, TheWordInTheQueueRunsAsFetchedALaterWordAsWritten) {
  for (Model m : {Model::MC68000, Model::MC68010}) {
    Machine x(m);
    x.b.code(kCode, {0x31FC, 0x7001, 0x1006,   // move.w #$7001,($1006).w: the next opcode
                     0x7000,                   // moveq #0,d0: in IRC when written, runs as it was
                     0x31FC, 0x7403, 0x1012,   // move.w #$7403,($1012).w: the opcode after the next
                     0x7200,                   // moveq #0,d1
                     0x4E71,                   // nop
                     0x7400,                   // moveq #0,d2: fetched after the write, runs as moveq #3,d2
                     0x4E72, 0x2700});         // stop #$2700
    x.start();
    x.c.regs().d[0] = x.c.regs().d[1] = x.c.regs().d[2] = 0xAA;
    x.c.run_until(1000);
    ASSERT_TRUE(x.c.stopped()) << name(m);
    EXPECT_EQ(x.b.get16(0x1006), 0x7001) << name(m);
    EXPECT_EQ(x.c.regs().d[0], 0u) << name(m) << ": the prefetched word ran";
    EXPECT_EQ(x.c.regs().d[1], 0u) << name(m);
    EXPECT_EQ(x.c.regs().d[2], 3u) << name(m) << ": the word fetched after the write ran as written";
  }
}

// move.w d1,(a0)+ / dbf d0 writes nops over the words before it, then over itself, its DBcc and
// the displacement. The 68010 holds those three words in loop mode from the second iteration on
// and runs all five iterations; the 68000 fetches its own rewritten opcode and runs nops.
TEST(M68kCodeChanges, LoopModeRunsTheWordsItHoldsThoughTheLoopRewritesThem) {
  for (Model m : {Model::MC68000, Model::MC68010}) {
    Machine x(m);
    x.b.code(kCode, {0x41F8, 0x100C,           // lea ($100C).w,a0
                     0x303C, 0x0004,           // move.w #4,d0
                     0x323C, 0x4E71,           // move.w #$4E71,d1
                     0x7400,                   // $100C: moveq #0,d2
                     0x7600,                   // $100E: moveq #0,d3
                     0x30C1,                   // $1010: move.w d1,(a0)+
                     0x51C8, 0xFFFC,           // $1012: dbf d0,$1010
                     0x4E72, 0x2700});         // $1016: stop #$2700
    x.start();
    x.c.run_until(2000);
    ASSERT_TRUE(x.c.stopped()) << name(m);
    EXPECT_EQ(x.c.regs().d[0] & 0xFFFF, 0xFFFFu) << name(m);
    EXPECT_EQ(x.b.get16(0x1010), 0x4E71) << name(m);
    if (m == Model::MC68010) {
      EXPECT_EQ(x.c.regs().a[0], 0x1016u) << "five writes: the held loop ran every iteration";
      EXPECT_EQ(x.b.get16(0x1014), 0x4E71);
    } else {
      EXPECT_EQ(x.c.regs().a[0], 0x1012u) << "three writes, then the rewritten opcode (a nop) ran";
      EXPECT_EQ(x.b.get16(0x1012), 0x51C8);
    }
  }
}

// A loop on a page of its own, recording a value its code holds. Mapping the page to another
// frame while the loop runs (what migration and paging do to a process's page) makes it run that
// frame's code from the next fetch on: the words already in the queue run as they were fetched.
TEST(M68kCodeChanges, ACodePageMappedToAnotherFrameRunsThatFramesCode) {
  Machine x(Model::MC68010);
  x.b.code(kCode, {0x43F8, 0x2000,            // lea ($2000).w,a1
                   0x4EF8, 0x4000});          // jmp ($4000).w
  x.b.code(0x4000, {0x7001, 0x32C0, 0x60FA});  // frame A: moveq #1,d0; move.w d0,(a1)+; bra.s
  std::vector<uint8_t> frame_b(1024, 0);
  const uint8_t b_code[] = {0x70, 0x02, 0x32, 0xC0, 0x60, 0xFA};  // frame B: moveq #2,d0; ...
  std::memcpy(frame_b.data(), b_code, sizeof b_code);
  x.start();
  x.c.run_until(3000);
  x.c.map_fast(Space::Supervisor, 0x4000, 1024, frame_b.data(), true);
  x.c.run_until(6000);
  uint32_t end = x.c.regs().a[1];
  ASSERT_GT(end, 0x2000u + 40);
  int ones = 0, twos = 0;
  for (uint32_t a = 0x2000; a < end; a += 2) {
    uint16_t v = x.b.get16(a);
    ASSERT_TRUE(v == 1 || v == 2) << std::hex << a;
    if (v == 1) {
      EXPECT_EQ(twos, 0) << "frame A's code ran after the page moved, at 0x" << std::hex << a;
      ++ones;
    } else {
      ++twos;
    }
  }
  EXPECT_GT(ones, 0);
  EXPECT_GT(twos, 0);
}

// A loop that rewrites an instruction three words ahead of it on each pass (addq.l #2,d2 and
// addq.l #1,d2 by turns): what it adds is what it wrote.
void load_toggle(CodeBus& b) {
  b.code(kCode, {0x7400,                      // moveq #0,d2
                 0x41F8, 0x1010,              // lea ($1010).w,a0
                 0x323C, 0x5482,              // move.w #$5482,d1 (addq.l #2,d2)
                 0x3081,                      // $100A: move.w d1,(a0)
                 0x0A41, 0x0600,              // eori.w #$0600,d1 (addq.l #2 <-> addq.l #1)
                 0x5282,                      // $1010: rewritten before each fetch
                 0x60F6});                    // bra.s $100A
}

TEST(M68kCodeChanges, ACodeWriteThroughTheBusRunsAsOneThroughTheFastPath) {
  uint32_t d2[2];
  uint64_t cycles[2];
  for (int protect = 0; protect < 2; ++protect) {
    Machine x(Model::MC68010);
    load_toggle(x.b);
    x.start();
    if (protect) {
      ASSERT_TRUE(x.c.protect_writes(Space::Supervisor, kCode));
    }
    x.c.run_until(20000);
    d2[protect] = x.c.regs().d[2];
    cycles[protect] = x.c.cycles();
    if (protect) {
      EXPECT_GT(x.b.bus_writes, 100);
    } else {
      EXPECT_EQ(x.b.bus_writes, 0);
    }
    // Every pass adds what it wrote: 2, 1, 2, 1, ... so d2 is 3 per two passes (a pass that the
    // run cut short after its write has added its value or not, never the other one).
    uint32_t v = x.c.regs().d[2];
    EXPECT_TRUE(v % 3 == 0 || v % 3 == 2) << v;
  }
  EXPECT_EQ(d2[0], d2[1]);
  EXPECT_EQ(cycles[0], cycles[1]);
}

// The same run without a breakpoint, and with one that stops it and is then removed.
TEST(M68kCodeChanges, ABreakpointSetAndRemovedLeavesTheRunAsWithoutIt) {
  Machine plain(Model::MC68010);
  load_toggle(plain.b);
  plain.start();
  plain.c.run_until(20000);

  Machine x(Model::MC68010);
  load_toggle(x.b);
  x.start();
  int hits = 0;
  x.c.set_break_check([&](uint32_t pc, bool) { return pc == 0x1010 && ++hits == 5; });
  x.c.run_until(20000);
  ASSERT_TRUE(x.c.break_hit());
  EXPECT_EQ(x.c.regs().pc, 0x1010u);
  x.c.set_break_check(nullptr);
  x.c.run_until(20000);
  EXPECT_FALSE(x.c.break_hit());
  EXPECT_EQ(x.c.cycles(), plain.c.cycles());
  EXPECT_EQ(x.c.instructions(), plain.c.instructions());
  EXPECT_EQ(std::memcmp(x.c.regs().d, plain.c.regs().d, sizeof plain.c.regs().d), 0);
  EXPECT_EQ(x.c.regs().pc, plain.c.regs().pc);
  EXPECT_EQ(x.b.mem, plain.b.mem);
}

// Saved mid-run, run on (the code rewritten many times), then the state and memory put back:
// the second run repeats the first exactly, the code it finds included.
TEST(M68kCodeChanges, ARollbackAcrossCodeWritesRepeatsTheRun) {
  Machine x(Model::MC68010);
  load_toggle(x.b);
  x.start();
  x.c.run_until(5003);
  Cpu::State s;
  x.c.save(s);
  std::vector<uint8_t> mem = x.b.mem;
  x.c.run_until(20000);
  uint32_t d2 = x.c.regs().d[2];
  uint64_t cycles = x.c.cycles(), instructions = x.c.instructions();
  std::vector<uint8_t> after = x.b.mem;
  ASSERT_NE(after, mem) << "the run wrote code";

  x.c.restore(s);
  std::memcpy(x.b.mem.data(), mem.data(), mem.size());  // the journal's part: RAM as it was
  x.c.run_until(20000);
  EXPECT_EQ(x.c.regs().d[2], d2);
  EXPECT_EQ(x.c.cycles(), cycles);
  EXPECT_EQ(x.c.instructions(), instructions);
  EXPECT_EQ(x.b.mem, after);
}

}  // namespace
