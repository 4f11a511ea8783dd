// A run's idle time is measurable: the clocks a core spends stopped (STOP, waiting for an
// interrupt: TOS's idle loop) are counted apart from the clocks it works, through run_until,
// a platform's sleep() and a speculative restore alike. Table 9's busy shares rest on it
// (sw/analysis/testbed_analysis/balance.py).
#include <gtest/gtest.h>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using m68k::Cpu;

constexpr uint32_t kMemSize = 64 * 1024;

// All of RAM is on the fast path: the bus answers nothing that matters here.
class Ram : public m68k::Bus, public M68kTestRam {
 public:
  Ram() : M68kTestRam(kMemSize) {}
  m68k::BusResponse read(const m68k::BusAccess&, uint16_t& d, uint32_t&) override {
    d = 0xFFFF;
    return m68k::BusResponse::Ok;
  }
  m68k::BusResponse write(const m68k::BusAccess&, uint16_t, uint32_t&) override { return m68k::BusResponse::Ok; }
};

// 1000 rounds of a counting loop, then STOP with every interrupt masked (it never wakes).
struct Machine {
  Ram b;
  Cpu c{b, m68k::Model::MC68010};
  Machine() {
    b.put32(0, 0x8000);
    b.put32(4, 0x1000);
    b.code(0x1000, {0x303C, 0x03E7,   // move.w #999,d0
                    0x51C8, 0xFFFE,   // loop: dbra d0,loop
                    0x4E72, 0x2700,   // stop #$2700
                    0x60FA});         // bra.s (never reached)
    c.map_fast(m68k::Space::Supervisor, 0, kMemSize, b.mem.data(), true);
    c.reset();
  }
};

TEST(M68kStoppedCycles, TheClocksAStopWaitsAreCountedApartFromTheWork) {
  Machine m;
  m.c.run_until(100000);
  ASSERT_TRUE(m.c.stopped());
  uint64_t busy = m.c.cycles() - m.c.stopped_cycles();
  EXPECT_EQ(m.c.cycles(), 100000u);
  EXPECT_GT(busy, 1000u * 10);  // the loop's thousand rounds were work
  EXPECT_LT(busy, 100000u / 2);
  // Waiting longer adds only stopped clocks.
  m.c.run_until(250000);
  EXPECT_EQ(m.c.cycles() - m.c.stopped_cycles(), busy);
  // A platform that sleeps the core outside run_until counts it the same way.
  m.c.sleep(5000);
  EXPECT_EQ(m.c.cycles(), 255000u);
  EXPECT_EQ(m.c.cycles() - m.c.stopped_cycles(), busy);
  // A stall (the bus taken by DMA) is not idle time: the core would have worked.
  m.c.stall(700);
  EXPECT_EQ(m.c.cycles() - m.c.stopped_cycles(), busy + 700);
}

TEST(M68kStoppedCycles, ARestoredStateRepeatsTheCount) {
  Machine m;
  m.c.run_until(1000);
  ASSERT_FALSE(m.c.stopped());
  Cpu::State before;
  m.c.save(before);
  m.c.run_until(80000);
  uint64_t first = m.c.stopped_cycles();
  EXPECT_GT(first, 0u);
  m.c.restore(before);
  EXPECT_EQ(m.c.stopped_cycles(), 0u);
  m.c.run_until(80000);
  EXPECT_EQ(m.c.stopped_cycles(), first);
}

}  // namespace
