// The random-block differential: blocks of random words run as code (with their exceptions,
// faults, STOPs and mode changes) give the same machine whichever way the core runs them. The
// fast path (host pointers, the fetch, read and write windows, chained handlers) is compared with
// the Bus for every access, with one instruction at a time (a debugger's break check), with the
// run cut into slices, and with every page write-protected (the journal's path): registers,
// prefetch queue, clocks, instruction count, halt and stop state and every byte of memory. Any
// faster way of running instructions (issue #64) has to leave this equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using namespace m68k;

constexpr uint32_t kMemSize = 64 * 1024;
constexpr uint32_t kPage = 1024;
constexpr uint32_t kBlock = 0x1000, kBlockBytes = 0x1000;  // the random code
constexpr uint32_t kHandler = 0x800;                        // every exception vector's target
constexpr uint64_t kRunCycles = 100000;
constexpr uint32_t kSeeds = 150;  // per model

// RAM for the core: each 1 KB guest page in a frame of its own, the frames in a shuffled order in
// host memory, so that a fast path that ran past its page would read another page's words. The
// Bus serves what the core does not reach on its fast path. Page 0 (the vectors and the handler)
// ignores writes, so that random code cannot take the harness away; the rest of the 24-bit space
// and CPU space read as all ones and ignore writes; nothing adds wait states.
class RamBus : public Bus, public M68kTestRam {
 public:
  static constexpr uint32_t kPages = kMemSize / kPage;
  std::vector<uint8_t> host = std::vector<uint8_t>(kMemSize);
  uint32_t frame[kPages];

  explicit RamBus(uint32_t seed) : M68kTestRam(kMemSize) {
    for (uint32_t p = 0; p < kPages; ++p) frame[p] = p;
    std::mt19937 rng(seed ^ 0x5EED);
    std::shuffle(frame, frame + kPages, rng);
  }
  uint8_t* at(uint32_t a) { return &host[frame[a / kPage] * kPage + a % kPage]; }
  // mem (the guest's view, where load() writes) to the frames, and back.
  void to_frames() {
    for (uint32_t a = 0; a < kMemSize; ++a) *at(a) = mem[a];
  }
  void from_frames() {
    for (uint32_t a = 0; a < kMemSize; ++a) mem[a] = *at(a);
  }
  static bool outside(const BusAccess& a) {
    const int fc = a.fc & 7;
    return fc == 0 || fc == 3 || fc == 4 || fc == 7 || (a.address & 0xFFFFFF) >= kMemSize;
  }
  BusResponse read(const BusAccess& a, uint16_t& d, uint32_t&) override {
    const uint32_t x = a.address & 0xFFFFFF;
    if (outside(a)) d = a.byte ? 0xFF : 0xFFFF;
    else if (a.byte) d = *at(x);
    else d = uint16_t(*at(x) << 8 | *at(x + 1));
    return BusResponse::Ok;
  }
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t&) override {
    const uint32_t x = a.address & 0xFFFFFF;
    if (outside(a) || x < kPage) return BusResponse::Ok;
    if (a.byte) {
      *at(x) = uint8_t(d);
    } else {
      *at(x) = uint8_t(d >> 8);
      *at(x + 1) = uint8_t(d);
    }
    return BusResponse::Ok;
  }
};

enum class Way { Fast, OneAtATime, AllOnTheBus, Sliced, WriteProtected };
const char* name(Way w) {
  switch (w) {
    case Way::Fast: return "fast";
    case Way::OneAtATime: return "one at a time";
    case Way::AllOnTheBus: return "all on the bus";
    case Way::Sliced: return "sliced";
    default: return "write-protected";
  }
}

// The random block and the harness around it: vectors to a handler that counts the exception in
// D7, resets the stack and goes on at a place in the block chosen by the count. Even seeds run
// the block in supervisor mode (the handler jumps there); odd seeds in user mode (the handler
// returns there by RTE, from reset on), where the block cannot move the supervisor stack, so
// that fewer runs end in a double fault.
void load(RamBus& b, Model m, uint32_t seed) {
  std::mt19937 rng(seed);
  for (uint32_t a = 0; a < kMemSize; a += 2) b.put16(a, uint16_t(rng()));
  const bool user = seed & 1;
  b.put32(0, 0x8000);                   // SSP
  b.put32(4, user ? kHandler : kBlock);  // PC
  for (uint32_t v = 2; v < 256; ++v) b.put32(4 * v, kHandler);
  b.code(kHandler, {0x5247,                      // addq.w #1,d7
                    0x2E7C, 0x0000, 0x8000,      // movea.l #$8000,a7
                    0x3C07,                      // move.w d7,d6
                    0xCCFC, 0x0022,              // mulu.w #34,d6
                    0x0246, 0x0FFE,              // andi.w #$0FFE,d6
                    0x4BF8, uint16_t(kBlock)});  // lea (kBlock).w,a5
  uint32_t at = kHandler + 22;
  if (!user) {
    b.code(at, {0x4EF5, 0x6000});  // jmp (0,a5,d6.w)
    return;
  }
  b.code(at, {0xDAC6});  // adda.w d6,a5
  at += 2;
  if (m == Model::MC68010) {
    b.code(at, {0x3F3C, 0x0000});  // move.w #0,-(a7): format 0
    at += 4;
  }
  b.code(at, {0x2F0D,            // move.l a5,-(a7)
              0x3F3C, 0x0000,    // move.w #0,-(a7): SR, user mode
              0x4E73});          // rte
}

struct Outcome {
  Cpu::State s;
  std::vector<uint8_t> mem;
  std::string halt;
  bool stopped;
};

Outcome run(Model m, uint32_t seed, Way way) {
  RamBus b(seed);
  load(b, m, seed);
  b.to_frames();
  Cpu c(b, m);
  if (way != Way::AllOnTheBus) {
    for (Space sp : {Space::User, Space::Supervisor})
      for (uint32_t a = 0; a < kMemSize; a += kPage) c.map_fast(sp, a, kPage, b.at(a), a >= kPage);
  }
  if (way == Way::WriteProtected) {
    for (Space sp : {Space::User, Space::Supervisor})
      for (uint32_t a = kPage; a < kMemSize; a += kPage) c.protect_writes(sp, a);
  }
  if (way == Way::OneAtATime) c.set_break_check([](uint32_t, bool) { return false; });
  c.reset();
  if (way == Way::Sliced) {
    for (uint64_t t = 997; t < kRunCycles && !c.halted(); t += 997) c.run_until(t);
  }
  c.run_until(kRunCycles);
  Outcome o;
  c.save(o.s);
  b.from_frames();
  o.mem = b.mem;
  o.halt = c.halted() ? c.halt_reason() : "";
  o.stopped = c.stopped();
  return o;
}

void expect_same(const Outcome& x, const Outcome& y, const std::string& what) {
  EXPECT_EQ(0, std::memcmp(x.s.r.d, y.s.r.d, sizeof x.s.r.d)) << what;
  EXPECT_EQ(0, std::memcmp(x.s.r.a, y.s.r.a, sizeof x.s.r.a)) << what;
  EXPECT_EQ(x.s.r.usp, y.s.r.usp) << what;
  EXPECT_EQ(x.s.r.ssp, y.s.r.ssp) << what;
  EXPECT_EQ(x.s.r.pc, y.s.r.pc) << what;
  EXPECT_EQ(x.s.r.sr, y.s.r.sr) << what;
  EXPECT_EQ(x.s.r.vbr, y.s.r.vbr) << what;
  EXPECT_EQ(x.s.ird, y.s.ird) << what;
  EXPECT_EQ(x.s.irc, y.s.irc) << what;
  EXPECT_EQ(x.s.cycles, y.s.cycles) << what;
  EXPECT_EQ(x.s.instructions, y.s.instructions) << what;
  EXPECT_EQ(x.s.loop_mode, y.s.loop_mode) << what;
  EXPECT_EQ(x.halt, y.halt) << what;
  EXPECT_EQ(x.stopped, y.stopped) << what;
  EXPECT_TRUE(x.mem == y.mem) << what << ": memory differs";
}

TEST(M68kPathsAgree, RandomBlocksRunTheSameOnEveryPath) {
  uint64_t instructions = 0;
  int halted = 0, stopped = 0;
  for (Model m : {Model::MC68000, Model::MC68010}) {
    for (uint32_t seed = 1; seed <= kSeeds; ++seed) {
      Outcome fast = run(m, seed, Way::Fast);
      instructions += fast.s.instructions;
      halted += !fast.halt.empty();
      stopped += fast.stopped;
      for (Way w : {Way::OneAtATime, Way::AllOnTheBus, Way::Sliced, Way::WriteProtected}) {
        std::string what = std::string(m == Model::MC68010 ? "68010" : "68000") + " seed " +
                           std::to_string(seed) + ", " + name(w) + " against fast";
        expect_same(fast, run(m, seed, w), what);
        if (HasFailure()) return;
      }
    }
  }
  // The blocks did run: many instructions each, not a halt at once.
  EXPECT_GT(instructions, 2 * kSeeds * 2000u);
  EXPECT_LT(halted, int(kSeeds));
  std::printf("random blocks: %llu instructions, %d of %u halted (a double fault), %d stopped\n",
              (unsigned long long)instructions, halted, 2 * kSeeds, stopped);
}

}  // namespace
