// The core's hot state (the PC, the clock count, the burst's budget) lives in host registers
// while it runs (hw/cpu/m68k_hot_regs.h). What is outside the core must not be able to tell:
// a Bus callback in the middle of an access sees the core's clocks and instruction count as they
// are and may change them (a stall), and run_until() and reset() leave their caller's
// callee-saved registers as the ABI says, although the core takes three of them.
#include <gtest/gtest.h>

#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace {

using m68k::Cpu;

constexpr uint32_t kMemSize = 64 * 1024;
constexpr uint32_t kDevice = 0x20000;  // not mapped fast: every access is a Bus call

// RAM on the fast path; the device's writes are recorded with what the core says at that moment.
class Board : public m68k::Bus, public M68kTestRam {
 public:
  Board() : M68kTestRam(kMemSize) {}
  struct Seen {
    uint64_t access_cycle, cpu_cycles, cpu_instructions;
  };
  Cpu* cpu = nullptr;
  std::vector<Seen> seen;
  uint64_t stall_every = 0;  // stall the core 100 clocks on every n-th device write (0: never)

  m68k::BusResponse read(const m68k::BusAccess&, uint16_t& d, uint32_t&) override {
    d = 0;
    return m68k::BusResponse::Ok;
  }
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t, uint32_t&) override {
    if (a.address != kDevice) return m68k::BusResponse::BusError;
    seen.push_back({a.cycle, cpu->cycles(), cpu->instructions()});
    if (stall_every && seen.size() % stall_every == 0) cpu->stall(100);
    return m68k::BusResponse::Ok;
  }
};

struct Machine {
  Board b;
  Cpu c{b, m68k::Model::MC68010};
  explicit Machine(uint64_t stall_every = 0) {
    b.cpu = &c;
    b.stall_every = stall_every;
    b.put32(0, 0x8000);
    b.put32(4, 0x1000);
    b.code(0x1000, {0x33C0, 0x0002, 0x0000,  // loop: move.w d0,$20000
                    0x5240,                  //       addq.w #1,d0
                    0x60F6});                //       bra.s loop
    c.map_fast(m68k::Space::Supervisor, 0, kMemSize, b.mem.data(), true);
    c.reset();
  }
};

TEST(M68kHotRegs, ABusCallbackSeesTheClocksAndInstructionsOfTheAccess) {
  Machine m;
  m.c.run_until(20000);
  ASSERT_GT(m.b.seen.size(), 100u);
  for (size_t i = 0; i < m.b.seen.size(); i++) {
    const auto& s = m.b.seen[i];
    // The access is stamped with the core's clock count when it starts; the core says the same.
    ASSERT_EQ(s.cpu_cycles, s.access_cycle) << "write " << i;
    // The MOVE of round i runs after the 3 instructions of each round before it.
    ASSERT_EQ(s.cpu_instructions, 3 * i) << "write " << i;
  }
}

TEST(M68kHotRegs, AStallDuringAnAccessIsCounted) {
  Machine plain, stalled(4);
  plain.c.run_until(20000);
  stalled.c.run_until(20000);
  ASSERT_GT(stalled.b.seen.size(), 100u);
  // The k-th write comes 100 clocks later for every stall before it, and nothing else moves.
  for (size_t i = 0; i < stalled.b.seen.size(); i++) {
    const uint64_t stalls = i / 4;
    ASSERT_EQ(stalled.b.seen[i].access_cycle, plain.b.seen[i].access_cycle + 100 * stalls) << "write " << i;
    ASSERT_EQ(stalled.b.seen[i].cpu_instructions, plain.b.seen[i].cpu_instructions) << "write " << i;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// Calls fn() with r13, r14 and r15 (callee-saved in the System V ABI) holding known values and
// returns what they hold when it returns.
struct Marked {
  uint64_t r13, r14, r15;
};
constexpr uint64_t kMark13 = 0x1313131313131313u, kMark14 = 0x1414141414141414u, kMark15 = 0x1515151515151515u;
__attribute__((noinline)) Marked call_with_marked_registers(void (*fn)()) {
  Marked out{};
  register Marked* po asm("r12") = &out;
  asm volatile(
      "movabs %[m13], %%r13\n\t"
      "movabs %[m14], %%r14\n\t"
      "movabs %[m15], %%r15\n\t"
      "lea -128(%%rsp), %%rsp\n\t"  // past the red zone, which this function may be using
      "push %%rbp\n\t"
      "mov %%rsp, %%rbp\n\t"
      "and $-16, %%rsp\n\t"
      "call *%[fn]\n\t"
      "mov %%rbp, %%rsp\n\t"
      "pop %%rbp\n\t"
      "lea 128(%%rsp), %%rsp\n\t"
      "mov %%r13, 0(%[po])\n\t"
      "mov %%r14, 8(%[po])\n\t"
      "mov %%r15, 16(%[po])\n\t"
      :
      : [fn] "b"(fn), [po] "r"(po), [m13] "i"(kMark13), [m14] "i"(kMark14), [m15] "i"(kMark15)
      : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r13", "r14", "r15", "memory", "cc",
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
        "xmm12", "xmm13", "xmm14", "xmm15");
  return out;
}

Machine* g_machine = nullptr;
void run_machine() { g_machine->c.run_until(g_machine->c.cycles() + 5000); }
void reset_machine() { g_machine->c.reset(); }

TEST(M68kHotRegs, RunUntilAndResetKeepTheCallersRegisters) {
  Machine m;
  g_machine = &m;
  for (void (*fn)() : {&run_machine, &reset_machine, &run_machine}) {
    const Marked after = call_with_marked_registers(fn);
    EXPECT_EQ(after.r13, kMark13);
    EXPECT_EQ(after.r14, kMark14);
    EXPECT_EQ(after.r15, kMark15);
  }
  EXPECT_GT(m.b.seen.size(), 10u);  // the core ran between the calls
  g_machine = nullptr;
}
#endif

}  // namespace
