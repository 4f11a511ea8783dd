// Idle costs nothing: a CPU in STOP (TOS's idle) sleeps until its interrupt lines change. While
// other processes keep the kernel busy at every quantum -- a busy board and a process due every
// 10 us -- a stopped board neither synchronises nor runs a chunk, in exact mode and without it.
#include "board.h"
#include "board/guest_code.h"
#include "board_tlm_harness.h"

#include <cstdio>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_US;
using sc_core::SC_MS;

namespace {

BoardConfig config() {
  BoardConfig c;
  c.ram_bytes = 16 * 1024;
  return c;
}

// stop #0x2700 (every interrupt masked: the CPU never wakes).
void load_stop(Board& b) { load_at_reset(b, {0x4E72, 0x2700}); }

struct Bench {
  Board busy{"busy", config()};
  Board stopped_exact{"stopped_exact", config()};
  Board stopped{"stopped", config()};
  Harness h{"h"};
  Bench() {
    CpuTiming not_exact;
    not_exact.exact = false;
    not_exact.apply(stopped);
    tlm::tlm_global_quantum::instance().set(sc_time(10, SC_US));
    load_counting_loop(busy);
    load_stop(stopped_exact);
    load_stop(stopped);
  }
};

struct Counts {
  uint64_t syncs, chunks, instructions;
};

Counts counts(Board& b) {
  return {b.cpu().syncs(), b.cpu().chunks(), b.cpu().core().instructions()};
}

Bench& bench() {
  static Bench b;  // SystemC elaborates once per process; the modules outlive the test
  return b;
}

TEST(BoardIdle, AStoppedCpuNeitherSynchronisesNorRunsWhileOthersAreBusy) {
  Bench& b = bench();
  Counts busy0{}, exact0{}, plain0{}, busy1{}, exact1{}, plain1{};
  b.h.run([&] {
    sc_core::wait(sc_time(1, SC_MS));  // boot: every CPU has reached its STOP or its loop
    busy0 = counts(b.busy);
    exact0 = counts(b.stopped_exact);
    plain0 = counts(b.stopped);
    for (int i = 0; i < 1000; ++i) sc_core::wait(sc_time(10, SC_US));  // something due every quantum
    busy1 = counts(b.busy);
    exact1 = counts(b.stopped_exact);
    plain1 = counts(b.stopped);
  });
  auto show = [](const char* n, const Counts& a, const Counts& z) {
    std::printf("%-14s %6llu syncs %6llu chunks %8llu instructions in 10 ms\n", n,
                (unsigned long long)(z.syncs - a.syncs), (unsigned long long)(z.chunks - a.chunks),
                (unsigned long long)(z.instructions - a.instructions));
  };
  show("busy", busy0, busy1);
  show("stopped_exact", exact0, exact1);
  show("stopped", plain0, plain1);
  EXPECT_TRUE(b.stopped_exact.cpu().core().stopped());
  EXPECT_TRUE(b.stopped.cpu().core().stopped());
  // The busy board shows that the window was busy: it ran and synchronised.
  EXPECT_GT(busy1.instructions - busy0.instructions, 10000u);
  EXPECT_GE(busy1.syncs - busy0.syncs, 10u);
  // The stopped ones did no host work for it.
  EXPECT_EQ(exact1.syncs - exact0.syncs, 0u);
  EXPECT_EQ(exact1.chunks - exact0.chunks, 0u);
  EXPECT_EQ(exact1.instructions - exact0.instructions, 0u);
  EXPECT_EQ(plain1.syncs - plain0.syncs, 0u);
  EXPECT_EQ(plain1.chunks - plain0.chunks, 0u);
  EXPECT_EQ(plain1.instructions - plain0.instructions, 0u);
}

}  // namespace
