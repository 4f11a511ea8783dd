// What the board's exact mode needs of the core (hw/board/cpu_initiator.h): a state saved at an
// instruction boundary and restored repeats the run exactly; write protection sends the writes
// to a protected fast page to the Bus, and allow_writes() lets them through again; a run left
// by an exception from a Bus callback is usable again after restore().
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using m68k::Bus;
using m68k::BusAccess;
using m68k::BusResponse;
using m68k::Cpu;
using m68k::Model;
using m68k::Space;

constexpr uint32_t kMemSize = 64 * 1024;

struct Abandon {};

// All of RAM on the fast path; the writes that reach the bus are those to protected pages. The
// bus journals nothing itself: it lets the page through and does the write, like the board.
class JournalBus : public Bus, public M68kTestRam {
 public:
  JournalBus() : M68kTestRam(kMemSize) {}
  Cpu* cpu = nullptr;
  int slow_writes = 0;
  int throw_at = -1;  // the slow write that throws Abandon instead

  BusResponse read(const BusAccess&, uint16_t& d, uint32_t&) override {
    d = 0xFFFF;
    return BusResponse::Ok;
  }
  BusResponse write(const BusAccess& a, uint16_t d, uint32_t& wait) override {
    if (slow_writes++ == throw_at) throw Abandon{};
    Space sp = m68k::fc_is_supervisor(a.fc) ? Space::Supervisor : Space::User;
    uint8_t* host = cpu->fast_host(sp, a.address);
    EXPECT_NE(host, nullptr);
    cpu->allow_writes(sp, a.address);
    unsigned off = a.address % 1024;
    if (a.byte) {
      host[off] = uint8_t(d);
    } else {
      host[off] = uint8_t(d >> 8);
      host[off + 1] = uint8_t(d);
    }
    wait = cpu->fast_wait_states(sp, a.address);
    return BusResponse::Ok;
  }
};

// A loop that fills 0x4000..0x4FFF with a counter, over and over (four pages written).
void load_program(JournalBus& b) {
  b.put32(0, 0x8000);
  b.put32(4, 0x1000);
  b.code(0x1000, {0x7000,                  // moveq #0,d0
                  0x41F9, 0x0000, 0x4000,  // lea $4000,a0
                  0x5280,                  // loop: addq.l #1,d0
                  0x20C0,                  // move.l d0,(a0)+
                  0xB1FC, 0x0000, 0x5000,  // cmpa.l #$5000,a0
                  0x66F4,                  // bne.s loop
                  0x41F9, 0x0000, 0x4000,  // lea $4000,a0
                  0x60EC});                // bra.s loop
}

// The bus, the core on it and the program in RAM, all of it mapped fast (not yet reset).
struct Machine {
  JournalBus b;
  Cpu c{b, Model::MC68010};
  explicit Machine(uint32_t wait_states = 0) {
    b.cpu = &c;
    load_program(b);
    c.map_fast(Space::Supervisor, 0, kMemSize, b.mem.data(), true, wait_states);
  }
};

struct Outcome {
  Cpu::State state;
  std::vector<uint8_t> mem;
};

Outcome outcome(const Cpu& c, const JournalBus& b) {
  Outcome o;
  c.save(o.state);
  o.mem = b.mem;
  return o;
}

void expect_same(const Outcome& x, const Outcome& y) {
  EXPECT_EQ(0, std::memcmp(&x.state.r, &y.state.r, sizeof x.state.r));
  EXPECT_EQ(x.state.cycles, y.state.cycles);
  EXPECT_EQ(x.state.instructions, y.state.instructions);
  EXPECT_EQ(x.state.pc, y.state.pc);
  EXPECT_EQ(x.state.ird, y.state.ird);
  EXPECT_EQ(x.state.irc, y.state.irc);
  EXPECT_TRUE(x.mem == y.mem);
}

void protect_all(Cpu& c) {
  for (uint32_t a = 0; a < kMemSize; a += 1024) c.protect_writes(Space::Supervisor, a);
}

TEST(M68kSpeculation, RestoreRepeatsTheRunExactly) {
  Machine m;
  JournalBus& b = m.b;
  Cpu& c = m.c;
  c.reset();
  c.run_until(5000);
  protect_all(c);
  Cpu::State saved;
  c.save(saved);
  std::vector<uint8_t> mem_saved = b.mem;

  c.run_until(60000);
  Outcome first = outcome(c, b);
  // Each written page reaches the bus once, then stays on the fast path.
  EXPECT_EQ(b.slow_writes, 4);
  EXPECT_GT(first.state.cycles, saved.cycles + 50000);

  b.mem = mem_saved;
  c.restore(saved);
  protect_all(c);
  b.slow_writes = 0;
  c.run_until(60000);
  expect_same(first, outcome(c, b));
  EXPECT_EQ(b.slow_writes, 4);
}

TEST(M68kSpeculation, ARunLeftByAnExceptionIsUsableAfterRestore) {
  Machine straight;
  straight.c.reset();
  straight.c.run_until(3000);
  protect_all(straight.c);
  straight.c.run_until(40000);
  Outcome want = outcome(straight.c, straight.b);

  Machine m;
  JournalBus& b = m.b;
  Cpu& c = m.c;
  c.reset();
  c.run_until(3000);
  protect_all(c);
  Cpu::State saved;
  c.save(saved);
  std::vector<uint8_t> mem_saved = b.mem;
  b.throw_at = 2;  // the third page's first write, inside a MOVE.L
  EXPECT_THROW(c.run_until(40000), Abandon);
  b.throw_at = -1;
  b.mem = mem_saved;
  c.restore(saved);
  protect_all(c);
  c.run_until(40000);
  expect_same(want, outcome(c, b));
}

TEST(M68kSpeculation, ProtectedPagesSendWritesToTheBus) {
  Machine m(2);
  JournalBus& b = m.b;
  Cpu& c = m.c;
  EXPECT_TRUE(c.protect_writes(Space::Supervisor, 0x4000));
  EXPECT_FALSE(c.protect_writes(Space::Supervisor, 0x4000));  // already protected
  EXPECT_EQ(c.fast_host(Space::Supervisor, 0x4123), b.mem.data() + 0x4000);
  EXPECT_EQ(c.fast_host(Space::User, 0x4000), nullptr);
  EXPECT_EQ(c.fast_wait_states(Space::Supervisor, 0x4000), 2u);
  c.reset();
  c.run_until(2000);
  EXPECT_EQ(b.slow_writes, 1);
  EXPECT_NE(b.get32(0x4000), 0u);
}

}  // namespace
