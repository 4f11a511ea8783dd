// When the CPU synchronises with the kernel outside exact mode (`cpu.exact = false`, the
// decoupled engine): at quantum boundaries while other processes have something to do, and only
// every max lead (1 ms) while nothing else is pending -- with the same guest progress per
// simulated time either way (running ahead is invisible). In exact mode a busy board runs ahead
// across several quanta instead (test_board_run_ahead.cpp).
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

struct Bench {
  Board board{"board", [] {
                BoardConfig c;
                c.ram_bytes = 16 * 1024;
                return c;
              }()};
  Harness h{"h"};
  Bench() {
    CpuTiming decoupled;
    decoupled.exact = false;
    decoupled.apply(board);
    tlm::tlm_global_quantum::instance().set(sc_time(10, SC_US));
    load_counting_loop(board);
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

struct Window {
  uint64_t syncs, instructions;
};

// Runs `body` for 10 ms of simulated time from a whole millisecond; the CPU's counts over it.
Window measure(const std::function<void()>& body) {
  Bench& b = bench();
  Window w{};
  b.h.run([&] {
    // Start on a millisecond boundary, with the CPU synchronised there.
    wait(sc_time(1, SC_MS) - sc_time(uint64_t(sc_core::sc_time_stamp().value() % sc_time(1, SC_MS).value()), sc_core::SC_PS));
    uint64_t s0 = b.board.cpu().syncs();
    uint64_t i0 = b.board.cpu().core().instructions();
    body();
    w.syncs = b.board.cpu().syncs() - s0;
    w.instructions = b.board.cpu().core().instructions() - i0;
  });
  return w;
}

TEST(BoardSync, AloneTheCpuSyncsOncePerMaxLeadAndOtherwiseAtEachQuantum) {
  Window alone = measure([] { sc_core::wait(sc_time(10, SC_MS)); });
  Window busy = measure([] {
    for (int i = 0; i < 1000; ++i) sc_core::wait(sc_time(10, SC_US));  // something due every quantum
  });
  std::printf("alone: %llu syncs, %llu instructions; busy: %llu syncs, %llu instructions\n",
              (unsigned long long)alone.syncs, (unsigned long long)alone.instructions,
              (unsigned long long)busy.syncs, (unsigned long long)busy.instructions);
  EXPECT_LE(alone.syncs, 12u) << "nothing else pending: one sync per millisecond of lead";
  EXPECT_GE(busy.syncs, 990u) << "another process due every quantum: a sync at each boundary";
  EXPECT_LE(busy.syncs, 1010u);
  // The guest cannot tell: the same work per simulated time (the CPU's lead at the window's
  // edges differs by at most a quantum: ~100 clocks, a dozen loop instructions).
  EXPECT_GT(alone.instructions, 10000u);
  EXPECT_NEAR(double(alone.instructions), double(busy.instructions), 20.0);
}

}  // namespace
