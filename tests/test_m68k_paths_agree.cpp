// The random-block differential: blocks of random words run as code (with their exceptions,
// faults, STOPs and mode changes) give the same machine whichever way the core runs them. The
// fast path (host pointers, the fetch, read and write windows, chained handlers) is compared with
// the Bus for every access, with one instruction at a time (a debugger's break check), with the
// run cut into slices, with every page write-protected (the journal's path), and with the core
// saved and restored at every instruction (each one's first fetch on the slow path): registers,
// prefetch queue, clocks, instruction count, halt and stop state and every byte of memory. Any
// faster way of running instructions (issue #64) has to leave this equal.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "m68k_cpu.h"
#include "m68k_ways.h"

namespace {

using namespace m68k;
using namespace m68k_ways;

constexpr uint32_t kMemSize = 64 * 1024;
constexpr uint32_t kPage = ShuffledRam::kPage;
constexpr uint32_t kBlock = 0x1000, kBlockBytes = 0x1000;  // the random code
constexpr uint32_t kHandler = 0x800;                        // every exception vector's target
constexpr uint64_t kRunCycles = 100000;
constexpr uint32_t kSeeds = 150;  // per model

// RAM (m68k_ways.h): 64 KB in shuffled frames; page 0 (the vectors and the handler) ignores
// writes, so that random code cannot take the harness away.
struct RamBus : ShuffledRam {
  explicit RamBus(uint32_t seed) : ShuffledRam(kMemSize, seed, kPage) {}
};

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

Outcome run(Model m, uint32_t seed, Way way) {
  RamBus b(seed);
  load(b, m, seed);
  b.to_frames();
  Cpu c(b, m);
  b.prepare(c, way);
  c.reset();
  const bool never = false;
  m68k_ways::run(c, way, kRunCycles, never);
  return outcome(c, b);
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
      for (Way w : kOtherWays) {
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
