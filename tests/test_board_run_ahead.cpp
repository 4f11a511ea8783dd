// Exact mode's run-ahead (issue #36): a board whose runs meet no device access and no rollback
// runs ahead across several quanta per run (up to SpeculativeEngine::kMaxQuanta), so that a run
// handed to the pool carries more work than the hand-over costs; a board that touches a device
// keeps one quantum per run, and a rollback takes a wide board back to one quantum.
#include "board.h"
#include "board/guest_code.h"
#include "board_tlm_harness.h"

#include <testbed/memory_map.h>

#include <cstdio>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_MS;
using sc_core::SC_US;

namespace {

BoardConfig config() {
  BoardConfig c;
  c.ram_bytes = 16 * 1024;
  return c;
}

// 1: tst.w TIMER_STATUS; bra.s 1b -- a device access per iteration (the timer is never
// started, so no interrupt).
void load_device_loop(Board& b) {
  load_at_reset(b, {0x4A79, uint16_t(TB_TIMER_STATUS >> 16), uint16_t(TB_TIMER_STATUS & 0xFFFF), 0x60F8});
}

struct Bench {
  Board busy{"busy", config()};
  Board toucher{"toucher", config()};
  Board rolled{"rolled", config()};
  Harness h{"h"};
  Bench() {
    CpuTiming t;  // exact, at the default 1 ms quantum
    t.threads = 2;
    t.apply();
    t.apply(busy);
    t.apply(toucher);
    t.apply(rolled);
    load_counting_loop(busy);
    load_device_loop(toucher);
    load_counting_loop(rolled);
  }
};

struct Counts {
  uint64_t chunks, widened, rollbacks, instructions;
};

Counts counts(Board& b) {
  const CpuInitiator& c = b.cpu();
  return {c.chunks(), c.speculation().runs_widened(), c.rollbacks(), b.cpu().core().instructions()};
}

Bench& bench() {
  static Bench b;  // SystemC elaborates once per process; the modules outlive the test
  return b;
}

TEST(BoardRunAhead, ABusyBoardRunsAheadAcrossQuantaABoardTouchingADeviceDoesNotAndARollbackNarrowsIt) {
  Bench& b = bench();
  Counts busy0{}, busy1{}, touch0{}, touch1{}, rolled0{}, rolled1{}, rolled2{};
  b.h.run([&] {
    sc_core::wait(sc_time(50, SC_MS));  // every board has settled into its loop and its width
    busy0 = counts(b.busy);
    touch0 = counts(b.toucher);
    rolled0 = counts(b.rolled);
    sc_core::wait(sc_time(160, SC_MS));
    busy1 = counts(b.busy);
    touch1 = counts(b.toucher);
    rolled1 = counts(b.rolled);
    // An interrupt level (masked: the loop runs at IPL 7) reaches `rolled` while it is ahead.
    b.rolled.cpu().set_ipl(1);
    sc_core::wait(sc_time(160, SC_MS));
    rolled2 = counts(b.rolled);
  });
  auto show = [](const char* n, const Counts& a, const Counts& z) {
    std::printf("%-22s %5llu chunks %5llu widened %3llu rollbacks %9llu instructions in 160 ms\n", n,
                (unsigned long long)(z.chunks - a.chunks), (unsigned long long)(z.widened - a.widened),
                (unsigned long long)(z.rollbacks - a.rollbacks), (unsigned long long)(z.instructions - a.instructions));
  };
  show("busy", busy0, busy1);
  show("toucher", touch0, touch1);
  show("rolled, undisturbed", rolled0, rolled1);
  show("rolled, after the IPL", rolled1, rolled2);
  // 160 quanta: a busy board runs them in runs of 16.
  EXPECT_LE(busy1.chunks - busy0.chunks, 160u / 16 + 2);
  EXPECT_GE(busy1.widened - busy0.widened, 160u / 16 - 1);
  EXPECT_GT(busy1.instructions - busy0.instructions, 100000u);
  // A board that touches a device at every iteration never widens: a chunk per quantum or more.
  EXPECT_EQ(touch1.widened - touch0.widened, 0u);
  EXPECT_GE(touch1.chunks - touch0.chunks, 160u);
  EXPECT_GT(touch1.instructions - touch0.instructions, 1000u);
  // The IPL change in its past rolls `rolled` back; it restarts at one quantum and widens again
  // (1, 2, 4, 8 quanta before it is at 16): more runs than in the same time undisturbed.
  EXPECT_EQ(rolled1.rollbacks - rolled0.rollbacks, 0u);
  EXPECT_EQ(rolled2.rollbacks - rolled1.rollbacks, 1u);
  EXPECT_GT(rolled2.chunks - rolled1.chunks, rolled1.chunks - rolled0.chunks);
  // The same work as the undisturbed board.
  EXPECT_EQ(rolled1.instructions - rolled0.instructions, busy1.instructions - busy0.instructions);
}

}  // namespace
