// Timer, real-time clock and interrupt controller over TLM without a CPU: the interval and its
// reload, the interrupt line through the controller to the IPL, autovector acknowledge, and the
// register latching of 32-bit values.
#include <testbed/memory_map.h>

#include "address_decoder.h"
#include "board_tlm_harness.h"
#include "interrupt_controller.h"
#include "timer.h"

#include <vector>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_US;
using sc_core::SC_MS;

namespace {

struct Bench {
  TestInitiator cpu{"cpu"};
  AddressDecoder decoder{"decoder", {{"TIMER", TB_TIMER_BASE, TB_TIMER_SIZE}, {"INTC", TB_INTC_BASE, TB_INTC_SIZE}}};
  Timer timer{"timer", 1000000, sc_time(0.1, SC_US)};
  InterruptController intc{"intc"};
  Harness h{"h"};
  std::vector<std::pair<sc_time, int>> ipl_changes;
  Bench() {
    cpu.socket.bind(decoder.target);
    decoder.port("TIMER").bind(timer.socket);
    decoder.port("INTC").bind(intc.socket);
    timer.irq_line().connect([this](bool l) { intc.set_line(IrqSource::Timer, l); });
    intc.on_ipl_change([this](int l) { ipl_changes.emplace_back(sc_core::sc_time_stamp(), l); });
  }
  void stop() {
    cpu.wr(TB_TIMER_CTRL, 0, 2);
    cpu.wr(TB_TIMER_STATUS, 1, 2);
    cpu.wr(TB_INTC_ENABLE, 0, 2);
    ipl_changes.clear();
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

TEST(Timer, PeriodicTwentyMillisecondSliceRaisesIpl6AtEachExpiry) {
  Bench& b = bench();
  b.h.run([&] {
    b.stop();
    b.cpu.wr(TB_INTC_ENABLE, 1, 2);
    b.cpu.wr32(TB_TIMER_RELOAD, 20000);  // 20 ms at 1 MHz
    sc_time start = sc_core::sc_time_stamp();
    b.cpu.wr(TB_TIMER_CTRL, 7, 2);       // enable, periodic, irq
    EXPECT_EQ(b.cpu.delay, sc_time(0.1, SC_US)) << "register access latency";
    wait(sc_time(10, SC_MS));
    uint32_t count = b.cpu.rd32(TB_TIMER_COUNT);
    EXPECT_EQ(count, 10000u) << "read 10 ms later, also 100 ns into its access";
    EXPECT_TRUE(b.ipl_changes.empty());
    wait(sc_time(10, SC_MS));
    EXPECT_TRUE(b.ipl_changes.empty()) << "the interval starts at the write's local time (+100 ns)";
    wait(sc_time(1, SC_US));
    ASSERT_EQ(b.ipl_changes.size(), 1u);
    EXPECT_EQ(b.ipl_changes[0].first, start + sc_time(20000.1, SC_US));
    EXPECT_EQ(b.ipl_changes[0].second, TB_IRQ_TIMER);
    EXPECT_EQ(b.cpu.rd(TB_INTC_IPL, 2), uint32_t(TB_IRQ_TIMER));
    EXPECT_EQ(b.cpu.rd(TB_INTC_PENDING, 2), 1u);
    EXPECT_TRUE(b.intc.acknowledge(TB_IRQ_TIMER));
    EXPECT_FALSE(b.intc.acknowledge(TB_IRQ_TIMER - 1)) << "no source at that level: spurious";
    b.cpu.wr(TB_TIMER_STATUS, 1, 2);  // the handler acknowledges the timer
    EXPECT_EQ(b.cpu.rd(TB_INTC_IPL, 2), 0u);
    wait(sc_time(40, SC_MS));
    ASSERT_EQ(b.ipl_changes.size(), 3u) << "raise at 20, lower, raise at 40 ms; at 60 ms still raised";
    EXPECT_EQ(b.ipl_changes[2].first, start + sc_time(40000.1, SC_US));
    EXPECT_EQ(b.cpu.rd32(TB_TIMER_EXPIRIES) >= 3, true);
  });
}

TEST(Timer, OneShotStopsAndMaskedSourceDoesNotReachTheCpu) {
  Bench& b = bench();
  b.h.run([&] {
    b.stop();
    uint32_t before = b.cpu.rd32(TB_TIMER_EXPIRIES);
    b.cpu.wr32(TB_TIMER_RELOAD, 500);
    b.cpu.wr(TB_TIMER_CTRL, 5, 2);  // enable + irq, one-shot; INTC enable is off
    wait(sc_time(2, SC_MS));
    EXPECT_EQ(b.cpu.rd(TB_TIMER_STATUS, 2), 1u);
    EXPECT_EQ(b.cpu.rd(TB_TIMER_CTRL, 2) & 1, 0u) << "one-shot clears ENABLE";
    EXPECT_EQ(b.cpu.rd32(TB_TIMER_EXPIRIES), before + 1);
    EXPECT_EQ(b.cpu.rd(TB_INTC_PENDING, 2), 1u);
    EXPECT_EQ(b.cpu.rd(TB_INTC_IPL, 2), 0u);
    EXPECT_TRUE(b.ipl_changes.empty());
    b.cpu.wr(TB_INTC_ENABLE, 1, 2);
    EXPECT_EQ(b.cpu.rd(TB_INTC_IPL, 2), uint32_t(TB_IRQ_TIMER));
  });
}

TEST(Timer, RealTimeClockCountsSimulatedTimeAndLatchesMicroseconds) {
  Bench& b = bench();
  b.h.run([&] {
    b.stop();
    b.cpu.wr32(TB_TIMER_RTC_SEC, 1000);
    wait(sc_time(2500, SC_MS));
    uint32_t sec = b.cpu.rd32(TB_TIMER_RTC_SEC);
    wait(sc_time(300, SC_MS));  // the latched microseconds belong to the seconds read
    uint32_t usec = b.cpu.rd32(TB_TIMER_RTC_USEC);
    EXPECT_EQ(sec, 1002u);
    EXPECT_NEAR(double(usec), 500000.0, 2.0);
    EXPECT_EQ(b.cpu.rd32(TB_TIMER_TICK_HZ), 1000000u);
  });
}

TEST(Intc, LevelsComeFromTheMemoryMapAndHighestWins) {
  Bench& b = bench();
  b.h.run([&] {
    b.stop();
    EXPECT_EQ(b.cpu.rd(TB_INTC_LEVEL0 + 2 * unsigned(IrqSource::Serial0), 2), uint32_t(TB_IRQ_SERIAL0));
    EXPECT_EQ(b.cpu.rd(TB_INTC_LEVEL0 + 2 * unsigned(IrqSource::Net), 2), uint32_t(TB_IRQ_NET));
    b.cpu.wr(TB_INTC_ENABLE, 0x1F, 2);
    b.intc.set_line(IrqSource::Mon, true);
    EXPECT_EQ(b.intc.ipl(), TB_IRQ_MON);
    b.intc.set_line(IrqSource::Net, true);
    EXPECT_EQ(b.intc.ipl(), TB_IRQ_NET);
    b.intc.set_line(IrqSource::Net, false);
    EXPECT_EQ(b.intc.ipl(), TB_IRQ_MON);
    b.intc.set_line(IrqSource::Mon, false);
    EXPECT_EQ(b.intc.ipl(), 0);
    uint32_t v = 0;
    EXPECT_EQ(b.cpu.access(true, TB_INTC_PENDING, v, 2), tlm::TLM_COMMAND_ERROR_RESPONSE) << "read-only";
  });
}

}  // namespace
