// Interrupts from outside the board (the Centrenet NI, the monitor) arrive from other processes,
// here through an sc_signal and a method forwarding it to Board::set_irq. Not exact
// (cpu.exact = false), the CPU cannot see them while it runs ahead, so the bound is: taken at
// the first instruction after the CPU's next synchronisation, which is at most one quantum
// after the line changed -- and when the line changes at the very time the CPU synchronises, in
// the same time step (the CPU lets processes woken at that time run first) rather than a
// quantum later. Exact (the default), the CPU rolls back and takes each one at its time.
#include <testbed/memory_map.h>

#include "board.h"
#include "board/guest_code.h"
#include "board_tlm_harness.h"

#include <cstdlib>
#include <memory>
#include <vector>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

namespace {

const sc_time kQuantum(100, SC_US);

// An sc_signal forwarded by a method to the board's NET line, one delta later (the case of a device
// whose line is a signal).
struct Forwarder : sc_core::sc_module {
  SC_HAS_PROCESS(Forwarder);
  sc_core::sc_signal<bool> line;
  Board& board;
  Forwarder(sc_core::sc_module_name n, Board& b) : sc_module(n), board(b) {
    SC_METHOD(forward);
    sensitive << line;
    dont_initialize();
  }
  void forward() { board.set_irq(IrqSource::Net, line.read()); }
};

// Enables the NET source, lowers the mask and spins on `bra.s *` (10 clocks: every chunk ends
// on the same phase of the clock); the level-4 autovector handler writes 1 to SIMCTL EXIT.
void load_wait_for_net_irq(Board& b) {
  load_at_reset(b, {0x33FC, 1u << unsigned(IrqSource::Net), TB_INTC_ENABLE >> 16, TB_INTC_ENABLE & 0xFFFF, 0x46FC,
                    0x2000, 0x60FE});
  poke32(b, 4 * (24 + TB_IRQ_NET), 0x500);
  poke_code(b, 0x500, {0x23FC, 0x0000, 0x0001, TB_SIMCTL_EXIT >> 16, TB_SIMCTL_EXIT & 0xFFFF, 0x60FE});
}

struct Case {
  const char* name;
  long offset_ns;  // when the line rises, from the time the CPUs synchronise next
  std::unique_ptr<Board> board;
  std::unique_ptr<Forwarder> fwd;
  sc_time raise, taken;
};

struct Bench : sc_core::sc_module {
  SC_HAS_PROCESS(Bench);
  std::vector<Case> cases;
  sc_time sync_time;      // a synchronisation of all the CPUs, read from their local time
  bool same_phase = true;
  Harness h{"h"};
  explicit Bench(bool exact) : sc_module("bench") {
    tlm::tlm_global_quantum::instance().set(kQuantum);
    const std::pair<const char*, long> offsets[] = {
        {"just before", -100}, {"at", 0}, {"just after", 100}, {"mid-quantum after", 50000}};
    for (auto& [name, off] : offsets) {
      Case c;
      c.name = name;
      c.offset_ns = off;
      BoardConfig cfg;
      cfg.id = uint16_t(1 + cases.size());
      cfg.master = false;
      cfg.ram_bytes = 16 * 1024;
      std::string n = "b" + std::to_string(cases.size());
      c.board = std::make_unique<Board>(n.c_str(), cfg);
      CpuTiming timing;
      timing.exact = exact;
      timing.apply(*c.board);
      c.fwd = std::make_unique<Forwarder>((n + "_irq").c_str(), *c.board);
      load_wait_for_net_irq(*c.board);
      size_t i = cases.size();
      c.board->on_exit([this, i](Board& b) { cases[i].taken = b.result().time; });
      cases.push_back(std::move(c));
    }
    SC_THREAD(raiser);
  }
  // Mid-quantum every CPU waits for the kernel at the end of its chunk: its local time is the
  // time of its next synchronisation (the quantum boundary plus the instruction crossing it).
  void raiser() {
    wait(sc_time(450, SC_US));
    sync_time = cases[0].board->cpu().local_time();
    for (auto& c : cases) same_phase = same_phase && c.board->cpu().local_time() == sync_time;
    for (auto& c : cases) {
      sc_time d(double(std::labs(c.offset_ns)), SC_NS);
      c.raise = c.offset_ns < 0 ? sync_time - d : sync_time + d;
      wait(c.raise - sc_core::sc_time_stamp());
      c.fwd->line.write(true);
    }
  }
};
// One machine per process (ctest runs each test in its own).
Bench& bench(bool exact) {
  static Bench b(exact);
  return b;
}

TEST(BoardIrq, ExternalInterruptIsTakenAtTheCpusNextSynchronisationAtTheLatest) {
  Bench& b = bench(false);
  b.h.run([&] { wait(sc_time(1, sc_core::SC_MS)); });
  ASSERT_TRUE(b.same_phase) << "the boards run the same code and should synchronise together";
  ASSERT_GT(b.sync_time, sc_time(500, SC_US));
  ASSERT_LT(b.sync_time, sc_time(501, SC_US));
  // Taking the interrupt (exception processing) and the handler's MOVE.L to SIMCTL: ~8 us.
  const sc_time handler(12, SC_US);
  for (const Case& c : b.cases) {
    ASSERT_TRUE(c.board->simctl().exited()) << c.name << ": the interrupt was never taken";
    sc_time latency = c.taken - c.raise;
    if (c.offset_ns <= 0) {
      // Up to and including the synchronisation time itself: taken right there.
      EXPECT_LE(latency, handler) << "line rising " << c.name << " the CPU's synchronisation";
    } else {
      // After it: the CPU is already running ahead and sees it at its next synchronisation.
      EXPECT_GE(c.taken, b.sync_time + kQuantum) << c.name;
      EXPECT_LE(c.taken, b.sync_time + kQuantum + handler) << c.name;
      EXPECT_LE(latency, kQuantum + handler) << c.name;
    }
  }
}

// Exact: whenever the line rises -- before, at, just after or long after a synchronisation --
// the CPU takes the interrupt within the time it takes to process it and run the handler's
// store, as if it had never run ahead.
TEST(BoardIrq, ExactModeTakesExternalInterruptsAtTheirOwnTime) {
  Bench& b = bench(true);
  b.h.run([&] { wait(sc_time(1, sc_core::SC_MS)); });
  const sc_time handler(12, SC_US);
  for (const Case& c : b.cases) {
    ASSERT_TRUE(c.board->simctl().exited()) << c.name << ": the interrupt was never taken";
    EXPECT_GE(c.taken, c.raise) << c.name;
    EXPECT_LE(c.taken - c.raise, handler) << "line rising " << c.name << " the synchronisation";
    // After the synchronisation the CPU has run on: it must have been taken back. (Before or
    // at it, the boundary it waits at is the first after the change: no rollback needed.)
    if (c.offset_ns > 0) EXPECT_GT(c.board->cpu().rollbacks(), 0u) << c.name << ": the CPU ran ahead";
    else EXPECT_EQ(c.board->cpu().rollbacks(), 0u) << c.name;
  }
}

}  // namespace
