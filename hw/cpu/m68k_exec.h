// The core's execution engine, private to hw/cpu: what every instruction family needs (bus
// cycles, the prefetch queue, register writes and the 68010 undo log, the status register,
// exceptions, effective addresses, the shared arithmetic and the dispatch chain). The run loop,
// the exception frames and the decoder table are in m68k_cpu.cpp; the instruction handlers are
// in one file per family, m68k_ops_*.cpp, each a struct derived from Exec with the decoder of
// its opcode lines.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <type_traits>

#include "m68k_cpu.h"
#include "m68k_hot_regs.h"

namespace m68k {

// Thrown from inside an instruction to abandon it when a bus cycle faults (address error, bus
// error) or the bus asks the CPU to halt; the run loop then builds the group-0 frame. Faults are
// rare, so the zero-cost path is the one that matters.
struct Group0 {};
struct HaltSignal {};

using Handler = void (*)(Cpu&, uint16_t);
// The per-access helpers are the inner loop; the compiler's inlining budget runs out before them.
#define M68K_INLINE inline __attribute__((always_inline))
#define M68K_LIKELY(x) __builtin_expect(!!(x), 1)
#define M68K_UNLIKELY(x) __builtin_expect(!!(x), 0)
// The one-word instructions a 68010 DBcc can run in loop mode (m68k_cpu.cpp).
extern bool g_loopable[65536];

inline uint32_t sz_mask(int s) { return s == 1 ? 0xFFu : s == 2 ? 0xFFFFu : 0xFFFFFFFFu; }
inline uint32_t sz_msb(int s) { return s == 1 ? 0x80u : s == 2 ? 0x8000u : 0x80000000u; }
// Without -mpopcnt __builtin_popcount is a libgcc call; MULU/MULS need it on every multiply.
inline int popcount16(uint16_t v) {
  uint32_t x = v;
  x = x - ((x >> 1) & 0x5555);
  x = (x & 0x3333) + ((x >> 2) & 0x3333);
  x = (x + (x >> 4)) & 0x0F0F;
  return (int)((x + (x >> 8)) & 0x1F);
}
template <int S> inline int32_t sext(uint32_t v) {
  if (S == 1) return (int8_t)v;
  if (S == 2) return (int16_t)v;
  return (int32_t)v;
}
// Handlers are specialised on the EA "slot" of their operand (M: 0-6 are modes 0-6, 7-11 are
// mode 7 with register 0-4), so that the mode switch of ea_addr()/src() folds away.
#define EA_MODE(M) ((M) < 7 ? (M) : 7)
template <int M> inline int ea_reg(uint16_t op) { return M < 7 ? (op & 7) : M - 7; }

// A call to a slow path that, seen from the handler, clobbers no general register: on x86-64
// it goes through m68k_slow_call (m68k_slow_call.S), which keeps them all but RAX. GCC then
// gives the handlers no callee-saved registers to push and pop on every instruction (about 15%
// of the reference workload's time). The handlers may still hold nothing in SSE or x87
// registers across it (the clobbers say so) and must not use the red zone, which the call's
// return address overwrites (-mno-red-zone, CMakeLists.txt). A C++ exception thrown below it
// (a bus error) unwinds through it by its CFI.
#if defined(__x86_64__) && !defined(M68K_PLAIN_SLOW_CALLS)
#define M68K_SLOW_CALL_ASM 1
extern "C" void m68k_slow_call();
static M68K_INLINE uintptr_t slow_call(void* fn, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3,
                                       uintptr_t a4) {
  register uintptr_t r8 asm("r8") = a4;
  uintptr_t rax = (uintptr_t)fn;
#define M68K_SLOW_CALL_CLOBBERS                                                                        \
  "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",      \
      "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7"
#if M68K_HOT_REGS
  // The slow path runs the core too and moves its hot state: to GCC a global register variable
  // is neither memory nor clobbered by an asm that does not say so, and without these operands a
  // handler went on from a copy of the clock count it took before the call.
  asm volatile("call m68k_slow_call"
               : "+a"(rax), "+r"(m68k_hot_pc), "+r"(m68k_hot_cycles), "+r"(m68k_hot_budget)
               : "D"(a0), "S"(a1), "d"(a2), "c"(a3), "r"(r8)
               : M68K_SLOW_CALL_CLOBBERS);
#else
  asm volatile("call m68k_slow_call"
               : "+a"(rax)
               : "D"(a0), "S"(a1), "d"(a2), "c"(a3), "r"(r8)
               : M68K_SLOW_CALL_CLOBBERS);
#endif
#undef M68K_SLOW_CALL_CLOBBERS
  return rax;
}
#else
#define M68K_SLOW_CALL_ASM 0
#endif

struct Exec {
  // ------------------------------------------------------------------ hot state (m68k_hot_regs.h)
  static M68K_INLINE void spill(Cpu& c) {
#if M68K_HOT_REGS
    c.pc_ = m68k_hot_pc;
    c.cycles_ = m68k_hot_cycles;
    c.budget_ = m68k_hot_budget;
#else
    (void)c;
#endif
  }
  static M68K_INLINE void fill(Cpu& c) {
#if M68K_HOT_REGS
    m68k_hot_pc = c.pc_;
    m68k_hot_cycles = c.cycles_;
    m68k_hot_budget = c.budget_;
#else
    (void)c;
#endif
  }
  // The run loop, for its scope: the hot state filled from Cpu at its start and spilled back at
  // its end. Not when a foreign exception leaves it (a Bus callback that threw, see
  // Cpu::restore()): the state was spilled before that call out, and the callback may have
  // restored Cpu's members before throwing.
  struct Running {
    Cpu& c;
    const int in_flight = std::uncaught_exceptions();
    explicit Running(Cpu& cpu) : c(cpu) { fill(c); }
    ~Running() {
      if (std::uncaught_exceptions() == in_flight) spill(c);
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
  };
  // A call out of the core (the Bus, the debugger's break check, the tracer): what `f` calls sees
  // Cpu's members as they are and may change them (a stall). No destructor does the fill: a
  // cleanup would give the handler an exception table, and a fault thrown through its inline asm
  // calls (slow_call), which that table does not list, would then end the process. A foreign
  // exception out of `f` abandons the core anyway.
  template <class F> static M68K_INLINE auto call_out(Cpu& c, F&& f) {
    spill(c);
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      fill(c);
    } else {
      auto r = f();
      fill(c);
      return r;
    }
  }
  static M68K_INLINE void begin_instruction(Cpu& c) {
    // Cpu::Inst{pc} (which also does what Cpu::snapshot() does), as one 8-byte store: GCC
    // writes the constant half and the address apart.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t inst = uint32_t(HOT_PC(c) - 4);
    std::memcpy(&c.inst_, &inst, sizeof inst);
#else
    c.inst_ = Cpu::Inst{HOT_PC(c) - 4};
#endif
  }

  // ------------------------------------------------------------------ bus cycles
  static uint8_t dfc(const Cpu& c) { return c.s_ ? FC_SUPERVISOR_DATA : FC_USER_DATA; }
  static uint8_t pfc(const Cpu& c) { return c.s_ ? FC_SUPERVISOR_PROGRAM : FC_USER_PROGRAM; }
  [[noreturn]] static void fault(Cpu& c, uint32_t addr, uint8_t fc, bool write, bool instr,
                                 bool berr) {
    c.fault_addr_ = addr;
    c.fault_fc_ = fc;
    c.fault_write_ = write;
    c.fault_instr_ = instr;
    c.fault_berr_ = berr;
    if (!instr) c.fault_pc_ = HOT_PC(c) - 2 + (uint32_t)c.inst_.pc_adj;
    throw Group0{};
  }
  [[noreturn]] static void bus_halt(Cpu& c, uint32_t addr) {
    c.halted_ = true;
    c.halt_pc_ = c.inst_.pc;
    c.halt_address_ = addr;
    std::snprintf(c.halt_text_, sizeof c.halt_text_, "bus halt at PC=0x%06X address=0x%06X",
                  c.inst_.pc & 0xFFFFFF, addr & 0xFFFFFF);
    c.halt_reason_ = c.halt_text_;
    throw HaltSignal{};
  }
  // The slow paths (a bus cycle the fast table cannot do, a fetch outside the fetch window),
  // called through slow_call(): the C++ functions, then the inline wrappers the handlers use.
  static __attribute__((noinline)) uint16_t slow_read_body(Cpu& c, uint32_t a, uint8_t fc, bool byte,
                                                           bool instr) {
    uint16_t data = 0;
    uint32_t wait = 0;
    const BusResponse r = call_out(c, [&] { return c.bus_.read(BusAccess{a, fc, false, byte, c.cycles_}, data, wait); });
    HOT_CYCLES(c) += 4 + wait;
    if (r == BusResponse::BusError) fault(c, a, fc, false, instr, true);
    if (r == BusResponse::Halt) bus_halt(c, a);
    return data;
  }
  static __attribute__((noinline)) void slow_write_body(Cpu& c, uint32_t a, uint8_t fc, bool byte,
                                                        uint16_t v) {
    uint32_t wait = 0;
    const BusResponse r = call_out(c, [&] { return c.bus_.write(BusAccess{a, fc, true, byte, c.cycles_}, v, wait); });
    HOT_CYCLES(c) += 4 + wait;
    if (r == BusResponse::BusError) {
      c.fault_data_ = v;
      fault(c, a, fc, true, false, true);
    }
    if (r == BusResponse::Halt) bus_halt(c, a);
  }
  static M68K_INLINE uint16_t slow_read(Cpu& c, uint32_t a, uint8_t fc, bool byte, bool instr) {
#if M68K_SLOW_CALL_ASM
    return (uint16_t)slow_call((void*)&slow_read_body, (uintptr_t)&c, a, fc, byte, instr);
#else
    return slow_read_body(c, a, fc, byte, instr);
#endif
  }
  static M68K_INLINE void slow_write(Cpu& c, uint32_t a, uint8_t fc, bool byte, uint16_t v) {
#if M68K_SLOW_CALL_ASM
    slow_call((void*)&slow_write_body, (uintptr_t)&c, a, fc, byte, v);
#else
    slow_write_body(c, a, fc, byte, v);
#endif
  }
  static int space_of(uint8_t fc) { return (fc >> 2) & 1; }
  static bool pageable(uint8_t fc) { return fc == 1 || fc == 2 || fc == 5 || fc == 6; }
  // A page entry holds the host address of guest address 0 as seen through that page (host
  // pointer minus the page's guest base), so the access needs no offset-within-page masking.
  static M68K_INLINE uint8_t* host(uintptr_t bias, uint32_t a) { return (uint8_t*)(bias + a); }
  static M68K_INLINE uint16_t be16(const uint8_t* h) {
    uint16_t v;
    std::memcpy(&v, h, 2);
    return __builtin_bswap16(v);
  }
  static M68K_INLINE void put_be16(uint8_t* h, uint16_t v) {
    v = __builtin_bswap16(v);
    std::memcpy(h, &v, 2);
  }
  // Each access loads the entry's host bias once, before adding to cycles_: a uint64_t store that
  // the compiler must otherwise assume may change the entry, and so load it again.
  // Physical accesses with an explicit function code (vectors, MOVES, reset); `addr` already
  // checked for alignment.
  static M68K_INLINE uint16_t rd16(Cpu& c, uint32_t addr, uint8_t fc, bool instr = false) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
    if (const uintptr_t b = p.read; M68K_LIKELY(b != 0)) {
      HOT_CYCLES(c) += p.clocks;
      return be16(host(b, a));
    }
    return slow_read(c, a, fc, false, instr);
  }
  static M68K_INLINE void wr16(Cpu& c, uint32_t addr, uint8_t fc, uint16_t v) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
    if (const uintptr_t b = p.write; M68K_LIKELY(b != 0)) {
      HOT_CYCLES(c) += p.clocks;
      put_be16(host(b, a), v);
      return;
    }
    slow_write(c, a, fc, false, v);
  }
  // Accesses in the current mode's space: the hot path. One table load through cur_pages_
  // (kept in step with the S bit); the function code is only worked out on the slow path.
  // K: 0 data, 1 program-space data (PC-relative operands), 2 instruction fetch.
  template <int K> static uint8_t cur_fc(const Cpu& c) { return K == 0 ? dfc(c) : pfc(c); }
  template <int K> static M68K_INLINE uint16_t crd16(Cpu& c, uint32_t addr) {
    if (K != 2 && M68K_LIKELY((addr >> 10) == c.read_page_)) {
      HOT_CYCLES(c) += c.read_clocks_;
      return be16(host(c.read_bias_, addr));
    }
    const uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (const uintptr_t b = p.read; M68K_LIKELY(b != 0)) {
      if (K != 2) {
        c.read_page_ = addr >> 10;
        c.read_bias_ = b - (addr & 0xFF000000u);
        c.read_clocks_ = p.clocks;
      }
      HOT_CYCLES(c) += p.clocks;
      return be16(host(b, a));
    }
    return slow_read(c, a, cur_fc<K>(c), false, K == 2);
  }
  template <int K> static M68K_INLINE uint8_t crd8(Cpu& c, uint32_t addr) {
    if (M68K_LIKELY((addr >> 10) == c.read_page_)) {
      HOT_CYCLES(c) += c.read_clocks_;
      return *host(c.read_bias_, addr);
    }
    const uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (const uintptr_t b = p.read; M68K_LIKELY(b != 0)) {
      c.read_page_ = addr >> 10;
      c.read_bias_ = b - (addr & 0xFF000000u);
      c.read_clocks_ = p.clocks;
      HOT_CYCLES(c) += p.clocks;
      return *host(b, a);
    }
    return (uint8_t)slow_read(c, a, cur_fc<K>(c), true, false);
  }
  static M68K_INLINE void cwr16(Cpu& c, uint32_t addr, uint16_t v) {
    if (M68K_LIKELY((addr >> 10) == c.write_page_)) {
      HOT_CYCLES(c) += c.write_clocks_;
      put_be16(host(c.write_bias_, addr), v);
      return;
    }
    const uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (const uintptr_t b = p.write; M68K_LIKELY(b != 0)) {
      c.write_page_ = addr >> 10;
      c.write_bias_ = b - (addr & 0xFF000000u);
      c.write_clocks_ = p.clocks;
      HOT_CYCLES(c) += p.clocks;
      put_be16(host(b, a), v);
      return;
    }
    slow_write(c, a, dfc(c), false, v);
  }
  static M68K_INLINE void cwr8(Cpu& c, uint32_t addr, uint8_t v) {
    if (M68K_LIKELY((addr >> 10) == c.write_page_)) {
      HOT_CYCLES(c) += c.write_clocks_;
      *host(c.write_bias_, addr) = v;
      return;
    }
    const uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (const uintptr_t b = p.write; M68K_LIKELY(b != 0)) {
      c.write_page_ = addr >> 10;
      c.write_bias_ = b - (addr & 0xFF000000u);
      c.write_clocks_ = p.clocks;
      HOT_CYCLES(c) += p.clocks;
      *host(b, a) = v;
      return;
    }
    // The 68000 drives the byte on both halves of the data bus.
    slow_write(c, a, dfc(c), true, (uint16_t)(v << 8 | v));
  }
  // Instruction fetch: through the fetch window (the last code page used, keyed by the full
  // 32-bit address >> 10 so that no 24-bit masking is needed; only its end is tested, see
  // Cpu::fetch_end_), at the window's clocks, else via fetch_miss().
  static M68K_INLINE uint16_t fetch16(Cpu& c, uint32_t addr) {
    if (M68K_LIKELY(addr < c.fetch_end_)) {
      HOT_CYCLES(c) += c.fetch_clocks_;
      return be16(host(c.fetch_bias_, addr));
    }
    return fetch_miss(c, addr);
  }
  static M68K_INLINE uint16_t fetch_miss(Cpu& c, uint32_t addr) {
#if M68K_SLOW_CALL_ASM
    return (uint16_t)slow_call((void*)&fetch_miss_body, (uintptr_t)&c, addr, 0, 0, 0);
#else
    return fetch_miss_body(c, addr);
#endif
  }
  static __attribute__((noinline)) uint16_t fetch_miss_body(Cpu& c, uint32_t addr) {
    if (c.loop_mode_) {
      // 68010 loop mode: the loop instruction, the DBcc and its displacement are held in the
      // chip, so these fetches make no bus cycle and take no clocks (the fetch window stays
      // closed while the loop runs, so every fetch comes here).
      uint32_t off = addr - c.loop_pc_;
      if (off < 6 && !(off & 1)) return c.loop_words_[off / 2];
      c.loop_mode_ = false;  // anything else (a platform moved the PC): fetch as usual
    }
    const Cpu::Page& p = c.cur_pages_[(addr & 0xFFFFFF) >> 10];
    if (p.read != 0) open_fetch(c, addr, p);
    else c.shut_fetch();  // a fetch on the Bus: the window must not serve the addresses after it
    return crd16<2>(c, addr);
  }
  static M68K_INLINE void open_fetch(Cpu& c, uint32_t addr, const Cpu::Page& p) {
    c.fetch_page_ = addr >> 10;
    c.fetch_end_ = (addr >> 10 << 10) + 1024;  // 0 for the top page: its fetches all miss
    c.fetch_bias_ = p.read - (addr & 0xFF000000u);  // the high byte is not on the bus
    c.fetch_clocks_ = p.clocks;
  }
  // Data accesses of size S with the 68000's alignment rule, explicit function code.
  template <int S> static M68K_INLINE uint32_t read(Cpu& c, uint32_t addr, uint8_t fc) {
    if (S == 1) {
      uint32_t a = addr & 0xFFFFFF;
      const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
      if (const uintptr_t b = p.read; b != 0) {
        HOT_CYCLES(c) += p.clocks;
        return *host(b, a);
      }
      return (uint8_t)slow_read(c, a, fc, true, false);
    }
    if (addr & 1) fault(c, addr, fc, false, false, false);
    if (S == 2) return rd16(c, addr, fc);
    uint32_t hi = rd16(c, addr, fc);
    return hi << 16 | rd16(c, addr + 2, fc);
  }
  template <int S> static M68K_INLINE void write(Cpu& c, uint32_t addr, uint8_t fc, uint32_t v) {
    if (S == 1) {
      uint32_t a = addr & 0xFFFFFF;
      const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
      if (const uintptr_t b = p.write; b != 0) {
        HOT_CYCLES(c) += p.clocks;
        *host(b, a) = (uint8_t)v;
        return;
      }
      return slow_write(c, a, fc, true, (uint16_t)((v & 0xFF) * 0x101));
    }
    if (addr & 1) fault(c, addr, fc, true, false, false);
    if (S == 2) return wr16(c, addr, fc, (uint16_t)v);
    wr16(c, addr, fc, (uint16_t)(v >> 16));
    wr16(c, addr + 2, fc, (uint16_t)v);
  }
  // The same in the current mode's space (K as for crd16).
  template <int S, int K = 0> static M68K_INLINE uint32_t rd(Cpu& c, uint32_t addr) {
    if (S == 1) return crd8<K>(c, addr);
    if (M68K_UNLIKELY(addr & 1)) fault(c, addr, cur_fc<K>(c), false, false, false);
    if (S == 2) return crd16<K>(c, addr);
    uint32_t hi = crd16<K>(c, addr);
    return hi << 16 | crd16<K>(c, addr + 2);
  }
  template <int S> static M68K_INLINE void wr(Cpu& c, uint32_t addr, uint32_t v) {
    if (S == 1) return cwr8(c, addr, (uint8_t)v);
    if (M68K_UNLIKELY(addr & 1)) fault(c, addr, dfc(c), true, false, false);
    if (S == 2) return cwr16(c, addr, (uint16_t)v);
    cwr16(c, addr, (uint16_t)(v >> 16));
    cwr16(c, addr + 2, (uint16_t)v);
  }
  static inline void idle([[maybe_unused]] Cpu& c, int n) { HOT_CYCLES(c) += n; }
  // Where the MC68010's timing (M68000 UM section 9) differs from the 68000's (section 8), the
  // handler asks; the tables are cited at each use.
  static inline bool m10(const Cpu& c) { return c.model_ == Model::MC68010; }

  // ------------------------------------------------------------------ prefetch queue
  static M68K_INLINE uint16_t ext(Cpu& c) {
    uint16_t w = c.irc_;
    c.irc_ = fetch16(c, HOT_PC(c));
    HOT_PC(c) += 2;
    return w;
  }
  static M68K_INLINE uint32_t ext32(Cpu& c) {
    uint32_t hi = ext(c);
    return hi << 16 | ext(c);
  }
  static M68K_INLINE void prefetch(Cpu& c) {
    c.ird_ = c.irc_;
    c.irc_ = fetch16(c, HOT_PC(c));
    HOT_PC(c) += 2;
  }
  // Refill the queue at a new PC (branches, jumps, exceptions).
  static M68K_INLINE void jump(Cpu& c, uint32_t target) { jump(c, target, HOT_PC(c) - 2); }
  static M68K_INLINE void jump(Cpu& c, uint32_t target, uint32_t fault_pc) {
    if (target & 1) {
      c.fault_pc_ = fault_pc;
      fault(c, target, pfc(c), false, true, false);
    }
    // A branch to another code page opens the fetch window here rather than in fetch_miss()
    // (a call through the slow path): calls and returns between pages are frequent.
    HOT_PC(c) = target;
    if (M68K_UNLIKELY((target >> 10) != c.fetch_page_)) {
      const Cpu::Page& p = c.cur_pages_[(target & 0xFFFFFF) >> 10];
      if (p.read != 0 && !c.loop_mode_) open_fetch(c, target, p);
      else c.shut_fetch();
    }
    // Both words from the fetch window with one host load when it holds them (the window is now
    // target's page or closed, so the end test is enough, as in fetch16): nothing happens
    // between the two fetches, so clocks, IRD, IRC and the prefetch address end as the two
    // fetches leave them.
    if (M68K_LIKELY(target + 2 < c.fetch_end_)) {
      uint32_t v;
      std::memcpy(&v, host(c.fetch_bias_, target), 4);
      v = __builtin_bswap32(v);
      HOT_CYCLES(c) += 2 * c.fetch_clocks_;
      c.ird_ = (uint16_t)(v >> 16);
      c.irc_ = (uint16_t)v;
      HOT_PC(c) = target + 4;
      return;
    }
    c.ird_ = fetch16(c, target);
    c.irc_ = fetch16(c, target + 2);
    HOT_PC(c) = target + 4;
  }

  // ------------------------------------------------------------------ register writes
  // Every write to a data or address register goes through these, and the rare writes of USP,
  // S, T and the mask through logged(): on the 68010 model they log the old value so that a bus
  // error can roll the instruction back (Cpu::snapshot()).
  static M68K_INLINE uint32_t& logged(Cpu& c, uint32_t& r) {
    if (M68K_LIKELY(c.inst_.undo_n < c.undo_cap_)) c.undo_log_[c.inst_.undo_n++] = {&r, r};
    return r;
  }
  static M68K_INLINE uint32_t& wd(Cpu& c, int reg) { return logged(c, c.r_.d[reg]); }
  static M68K_INLINE uint32_t& wa(Cpu& c, int reg) { return logged(c, c.r_.a[reg]); }
  // The instruction's last register write, after its last bus cycle (the prefetch): nothing can
  // fault after it, so it needs no undo entry. Only for a write that ends the handler.
  static M68K_INLINE uint32_t& wd_last(Cpu& c, int reg) { return c.r_.d[reg]; }
  static M68K_INLINE uint32_t& wa_last(Cpu& c, int reg) { return c.r_.a[reg]; }

  // ------------------------------------------------------------------ status register
  static uint16_t sr(const Cpu& c) { return c.pack_sr(); }
  static uint8_t ccr(const Cpu& c) {
    return (uint8_t)c.ccr_bits();
  }
  static void set_ccr(Cpu& c, uint8_t v) {
    c.fx_ = (v >> 4) & 1;
    c.n_ = (uint32_t)(v & 8) << 28;
    c.z_ = (~v >> 2) & 1;
    c.fv_ = (v >> 1) & 1;
    c.fc_ = v & 1;
  }
  static void set_supervisor(Cpu& c, bool s) {
    if ((uint32_t)s == c.s_) return;
    if (s) {
      ++c.user_exits_;
      logged(c, c.r_.usp) = c.r_.a[7];
      wa(c, 7) = c.r_.ssp;
    } else {
      c.r_.ssp = c.r_.a[7];
      wa(c, 7) = c.r_.usp;
    }
    logged(c, c.s_) = s;
    c.cur_pages_ = c.pages_[s ? 1 : 0];
    c.close_windows();
  }
  static void set_sr(Cpu& c, uint16_t v) {
    c.limit_ = 0;  // the mask or T may have changed: back to the run loop's checks
    set_ccr(c, (uint8_t)v);
    logged(c, c.t_) = (v >> kSrTraceShift) & 1;
    logged(c, c.mask_) = (v >> kSrIntMaskShift) & 7;
    set_supervisor(c, (v >> kSrSupervisorShift) & 1);
  }
  static M68K_INLINE bool cond(const Cpu& c, int cc) {
    switch (cc) {
      case 0: return true;
      case 1: return false;
      case 2: return !c.fc_ && c.z_;
      case 3: return c.fc_ || !c.z_;
      case 4: return !c.fc_;
      case 5: return c.fc_;
      case 6: return c.z_ != 0;
      case 7: return c.z_ == 0;
      case 8: return !c.fv_;
      case 9: return c.fv_;
      case 10: return (int32_t)c.n_ >= 0;
      case 11: return (int32_t)c.n_ < 0;
      case 12: return c.n_ >> 31 == c.fv_;
      case 13: return c.n_ >> 31 != c.fv_;
      case 14: return c.z_ && c.n_ >> 31 == c.fv_;
      default: return !c.z_ || c.n_ >> 31 != c.fv_;
    }
  }
  // N and Z of a result of size S: the result sign-extended, in both (Cpu::n_, Cpu::z_).
  template <int S> static M68K_INLINE void nz(Cpu& c, uint32_t r) {
    c.n_ = c.z_ = (uint32_t)sext<S>(r);
  }
  template <int S> static inline void logic_flags(Cpu& c, uint32_t r) {
    nz<S>(c, r);
    c.fv_ = c.fc_ = 0;
  }

  // ------------------------------------------------------------------ exceptions
  static uint32_t vbr(const Cpu& c) { return c.model_ == Model::MC68010 ? c.r_.vbr : 0; }
  static void push16(Cpu& c, uint16_t v) {
    wa(c, 7) -= 2;
    wr<2>(c, c.r_.a[7], v);
  }
  static void push32(Cpu& c, uint32_t v) {
    wa(c, 7) -= 4;
    wr<2>(c, c.r_.a[7] + 2, v & 0xFFFF);
    wr<2>(c, c.r_.a[7], v >> 16);
  }
  // Group 1/2 exception: stacks (68010: format $0 word) PC and SR, then vectors.
  static void exception(Cpu& c, int vec, uint32_t pc_push, int idle_clocks) {
    uint16_t old = sr(c);
    set_supervisor(c, true);
    logged(c, c.t_) = 0;
    c.loop_mode_ = false;
    idle(c, idle_clocks);
    if (c.model_ == Model::MC68010) push16(c, (uint16_t)(vec * 4));
    wa(c, 7) -= 6;
    wr<2>(c, c.r_.a[7] + 4, pc_push & 0xFFFF);
    wr<2>(c, c.r_.a[7], old);
    wr<2>(c, c.r_.a[7] + 2, pc_push >> 16);
    uint32_t target = read<4>(c, vbr(c) + vec * 4, FC_SUPERVISOR_DATA);
    jump(c, target);
  }
  static uint32_t next_pc([[maybe_unused]] const Cpu& c) { return HOT_PC(c) - 4; }
  static M68K_INLINE void illegal(Cpu& c, uint16_t) { exception(c, 4, HOT_PC(c) - 4, 6); }
  static M68K_INLINE void line_a(Cpu& c, uint16_t) { exception(c, 10, HOT_PC(c) - 4, 6); }
  static M68K_INLINE void line_f(Cpu& c, uint16_t) { exception(c, 11, HOT_PC(c) - 4, 6); }
  static void privilege(Cpu& c) { exception(c, 8, HOT_PC(c) - 4, 6); }
#define PRIV()            \
  if (!c.s_) {            \
    privilege(c);         \
    return;               \
  }

  // ------------------------------------------------------------------ effective addresses
  static M68K_INLINE uint32_t index(Cpu& c, uint32_t base, uint16_t w) {
    uint32_t x = (w & 0x8000) ? c.r_.a[(w >> 12) & 7] : c.r_.d[(w >> 12) & 7];
    if (!(w & 0x800)) x = (uint32_t)(int16_t)x;
    return base + x + (uint32_t)(int8_t)w;
  }
  // Address of a memory operand (modes 2..7.3), with (An)+/-(An) side effects and the
  // internal clocks of -(An) and the indexed modes.
  template <int S> static M68K_INLINE uint32_t ea_addr(Cpu& c, int mode, int reg) {
    constexpr uint32_t step = S;
    // Where the microcode's PC stands when the operand cycle faults (68000 group-0 frames).
    c.inst_.pc_adj = mode == 4 ? (S == 4 ? 0 : 2) : (mode == 5 || mode == 6 || (mode == 7 && reg >= 2)) ? -2 : 0;
    switch (mode) {
      case 2: return c.r_.a[reg];
      case 3: {
        uint32_t a = c.r_.a[reg];
        wa(c, reg) += (S == 1 && reg == 7) ? 2 : step;
        // A long (An)+ operand that faults leaves An as it was.
        if (S == 4) c.inst_.post_undo = reg + 1;
        return a;
      }
      case 4:
        idle(c, 2);
        wa(c, reg) -= (S == 1 && reg == 7) ? 2 : step;
        return c.r_.a[reg];
      case 5: return c.r_.a[reg] + (uint32_t)(int16_t)ext(c);
      case 6:
        idle(c, 2);
        return index(c, c.r_.a[reg], ext(c));
      default:
        switch (reg) {
          case 0: return (uint32_t)(int16_t)ext(c);
          case 1: return ext32(c);
          case 2: {
            uint32_t base = HOT_PC(c) - 2;
            return base + (uint32_t)(int16_t)ext(c);
          }
          default: {
            idle(c, 2);
            uint32_t base = HOT_PC(c) - 2;
            return index(c, base, ext(c));
          }
        }
    }
  }
  template <int S> static M68K_INLINE uint32_t imm(Cpu& c) {
    if (S == 1) return ext(c) & 0xFF;
    if (S == 2) return ext(c);
    return ext32(c);
  }
  // Source operand of any mode.
  template <int S> static M68K_INLINE uint32_t src(Cpu& c, int mode, int reg) {
    switch (mode) {
      case 0: return c.r_.d[reg] & sz_mask(S);
      case 1: return c.r_.a[reg] & sz_mask(S);
      case 7:
        if (reg == 4) return imm<S>(c);
        [[fallthrough]];
      default: {
        uint32_t a = ea_addr<S>(c, mode, reg);
        if (mode == 7 && reg >= 2) return rd<S, 1>(c, a);
        uint32_t v = rd<S>(c, a);
        if (S == 4) c.inst_.post_undo = 0;
        return v;
      }
    }
  }
  // The low S bytes of `v` into `old`, as a value the compiler cannot narrow to a byte or word
  // store: the next instruction reads the whole register, and a 32-bit load of a location a
  // narrower store has just written cannot be forwarded from it (it waits for the store to
  // reach the cache; on this workload's insertion sort that wait was a fifth of the time).
  template <int S> static M68K_INLINE uint32_t merge(uint32_t old, uint32_t v) {
    asm("" : "+r"(old));
    return (old & ~sz_mask(S)) | (v & sz_mask(S));
  }
  template <int S> static inline void set_d(Cpu& c, int reg, uint32_t v) {
    if (S == 4) wd(c, reg) = v;
    else wd(c, reg) = merge<S>(c.r_.d[reg], v);
  }
  template <int S> static M68K_INLINE void set_d_last(Cpu& c, int reg, uint32_t v) {
    if (S == 4) wd_last(c, reg) = v;
    else wd_last(c, reg) = merge<S>(c.r_.d[reg], v);
  }

  // ------------------------------------------------------------------ arithmetic
  template <int S> static inline uint32_t add(Cpu& c, uint32_t s, uint32_t d, uint32_t x = 0) {
    uint64_t r64 = (uint64_t)(d & sz_mask(S)) + (s & sz_mask(S)) + x;
    uint32_t r = (uint32_t)r64 & sz_mask(S);
    c.fc_ = c.fx_ = (uint32_t)(r64 >> (8 * S)) & 1;
    c.fv_ = (((s ^ r) & (d ^ r)) & sz_msb(S)) != 0;
    c.n_ = (uint32_t)sext<S>(r);
    return r;
  }
  // SetX false: CMP, which leaves X as it was.
  template <int S, bool SetX = true> static inline uint32_t sub(Cpu& c, uint32_t s, uint32_t d, uint32_t x = 0) {
    uint64_t r64 = (uint64_t)(d & sz_mask(S)) - (s & sz_mask(S)) - x;
    uint32_t r = (uint32_t)r64 & sz_mask(S);
    c.fc_ = (uint32_t)(r64 >> (8 * S)) & 1;
    if (SetX) c.fx_ = c.fc_;
    c.fv_ = (((s ^ d) & (r ^ d)) & sz_msb(S)) != 0;
    c.n_ = (uint32_t)sext<S>(r);
    return r;
  }
  template <int S> static inline void cmp(Cpu& c, uint32_t s, uint32_t d) {
    c.z_ = sub<S, false>(c, s, d);
  }
  // ADD/SUB/AND/OR/CMP <ea>,Dn and Dn,<ea>; EOR Dn,<ea>. kind: 0 add, 1 sub, 2 and, 3 or, 4 eor
  template <int S, int K> static inline uint32_t alu(Cpu& c, uint32_t s, uint32_t d) {
    uint32_t r;
    switch (K) {
      case 0: r = add<S>(c, s, d); c.z_ = r; return r;
      case 1: r = sub<S>(c, s, d); c.z_ = r; return r;
      case 2: r = (s & d) & sz_mask(S); break;
      case 3: r = (s | d) & sz_mask(S); break;
      default: r = (s ^ d) & sz_mask(S); break;
    }
    logic_flags<S>(c, r);
    return r;
  }

  // ------------------------------------------------------------------ SR/CCR/USP
  // Two-word queue refill at the next instruction (after SR changes).
  static void refill(Cpu& c) {
    uint32_t next = HOT_PC(c) - 2;
    c.ird_ = fetch16(c, next);
    c.irc_ = fetch16(c, next + 2);
    HOT_PC(c) = next + 4;
  }

  // ------------------------------------------------------------------ control flow
  static void rte(Cpu& c, uint16_t);

  // ------------------------------------------------------------------ BCD
  static uint32_t abcd_op(Cpu& c, uint32_t s, uint32_t d) {
    uint32_t r = (s & 15) + (d & 15) + c.fx_;
    uint32_t v = ~((s & 0xFF) + (d & 0xFF) + c.fx_);  // V is undefined: binary vs BCD sum
    if (r > 9) r += 6;
    r += (s & 0xF0) + (d & 0xF0);
    // The high digit is corrected (and carries) when it is above 9; a low digit left above 9
    // by invalid BCD (0x9A-0x9F) does not make it carry, as the reference vectors show.
    uint32_t carry = r > 0x9F ? 1u : 0u;
    if (carry) r -= 0xA0;
    c.fc_ = c.fx_ = carry;
    c.fv_ = (v & r & 0x80) != 0;
    r &= 0xFF;
    c.n_ = (uint32_t)sext<1>(r);
    c.z_ |= r;  // cleared by a non-zero result, else left as it was
    return r;
  }
  static uint32_t sbcd_op(Cpu& c, uint32_t s, uint32_t d) {
    uint32_t bin = (d & 0xFF) - (s & 0xFF) - c.fx_;
    uint32_t r = bin;
    uint32_t lo = (d & 15) - (s & 15) - c.fx_;
    if (lo & 0x10) r -= 6;
    uint32_t carry = (bin & 0x100) ? 1u : 0u;
    if (carry) r -= 0x60;
    if ((r & 0x100) && !carry) {}  // covered below
    c.fc_ = c.fx_ = ((bin & 0x100) || (r & 0x100)) ? 1 : 0;
    c.fv_ = (bin & ~r & 0x80) != 0;
    r &= 0xFF;
    c.n_ = (uint32_t)sext<1>(r);
    c.z_ |= r;  // cleared by a non-zero result, else left as it was
    return r;
  }

  // ------------------------------------------------------------------ group 0 / interrupts
  static void take_interrupt(Cpu& c, int level);
  static void group0(Cpu& c);
  static void build_table(Model m, Handler* t);
  // 68010 table entry of the opcodes that read the CCR before writing it: saves the CCR for a
  // bus-error rollback (Cpu::save_ccr), then runs the handler.
  static void save_ccr(Cpu& c, uint16_t op) {
    c.save_ccr();
    return c.inner_table_[op](c, op);
  }
  // Every table entry is chain<handler>: the handler (inlined where the compiler likes), then
  // the next instruction is dispatched from here as a tail call, so each handler has its own
  // indirect jump (better predicted than one shared dispatch site) and the run loop is entered
  // once per burst. The burst ends when cycles_ reaches limit_ (see run_loop) or after
  // budget_ instructions, which bounds the stack should the tail call not be optimised
  // (unoptimised builds).
  // Instructions are counted by the budget (Cpu::instructions()), not one by one here.
  static M68K_INLINE bool budget_left([[maybe_unused]] Cpu& c) {
#if M68K_HOT_REGS
    asm goto("subl $1, %0\n\tjz %l[spent]" : "+r"(m68k_hot_budget) : : "cc" : spent);
    return true;
  spent:
    return false;
#else
    return --HOT_BUDGET(c) != 0;
#endif
  }
  template <Handler H> static M68K_INLINE void chain(Cpu& c, uint16_t op) {
    H(c, op);
    if (M68K_LIKELY(budget_left(c)) && M68K_LIKELY(HOT_CYCLES(c) < c.limit_)) {
      begin_instruction(c);
      const uint16_t next = c.ird_;
      return c.table_[next](c, next);
    }
  }
  template <bool Restartable> static void run_loop(Cpu& c, uint64_t target);
  // Adds the instructions of the burst that just ended and re-arms the budget.
  static M68K_INLINE void count_burst(Cpu& c) {
    c.instructions_ += Cpu::kChainBudget - HOT_BUDGET(c);
    HOT_BUDGET(c) = Cpu::kChainBudget;
  }
};

// The decoders of the instruction families, one per group of opcode lines; each returns the
// handler (a chain<> entry) for an opcode of its lines, or the illegal instruction.
Handler decode_immediate_bit_ops(uint16_t op, Model m);  // line 0, m68k_ops_immediate_bit.cpp
Handler decode_move_ops(uint16_t op, Model m);  // lines 1-3 and 7, m68k_ops_move.cpp
Handler decode_misc_ops(uint16_t op, Model m);  // line 4, m68k_ops_misc.cpp
Handler decode_quick_branch_ops(uint16_t op, Model m);  // lines 5 and 6, m68k_ops_quick_branch.cpp
Handler decode_arith_logic_ops(uint16_t op, Model m);  // lines 8, 9, B, C and D, m68k_ops_arith_logic.cpp
Handler decode_shift_ops(uint16_t op, Model m);  // line E, m68k_ops_shift.cpp

}  // namespace m68k
