// The 68000/68010 core. See m68k_cpu.h for the execution model and README.md for the design
// notes (prefetch queue, clock counting, group-0 faults and the 68010 format $8 frame).
#include "m68k_cpu.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <type_traits>

namespace m68k {

namespace {
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
Handler g_table[2][65536];
// Small, so that even a build without tail calls (sanitisers, -O0) stays within a SystemC
// thread stack (512 frames of ~150 bytes against 320 KB); 64 measurably cost ~4 %.
constexpr uint32_t kChainBudget = 512;
std::once_flag g_table_once;
// The one-word instructions a 68010 DBcc can run in loop mode (M68000 UM Appendix A): MOVE,
// the standard arithmetic/logic group, ADDX/SUBX/ABCD/SBCD/CMPM, the single-operand group and
// the memory shifts, with their memory operand at (An), (An)+ or -(An).
bool g_loopable[65536];
bool loopable(uint16_t op) {
  const int line = op >> 12, sz = (op >> 6) & 3, mode = (op >> 3) & 7;
  const bool mem = mode >= 2 && mode <= 4;
  switch (line) {
    case 0x1: case 0x2: case 0x3: {
      int dm = (op >> 6) & 7;
      return dm >= 2 && dm <= 4 && mode <= 4 && !(line == 1 && mode == 1);
    }
    case 0x4:
      switch ((op >> 8) & 0xF) {
        case 0x0: case 0x2: case 0x4: case 0x6: case 0xA: return sz != 3 && mem;  // NEGX CLR NEG NOT TST
        case 0x8: return sz == 0 && mem;                                            // NBCD
        default: return false;
      }
    case 0x8: case 0x9: case 0xC: case 0xD:
      if (sz == 3) return (line == 0x9 || line == 0xD) && mem;  // SUBA, ADDA
      if ((op & 0x100) && mode == 1) return line == 0x9 || line == 0xD || sz == 0;  // SUBX ADDX SBCD ABCD
      return mem;
    case 0xB:
      if ((op & 0x100) && sz != 3 && mode == 1) return true;  // CMPM
      return mem;  // CMP, CMPA, EOR
    case 0xE:
      return sz == 3 && !(op & 0x800) && mem;
    default:
      return false;
  }
}

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
}  // namespace

struct Exec {
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
    if (!instr) c.fault_pc_ = c.pc_ - 2 + (uint32_t)c.pc_adj_;
    throw Group0{};
  }
  [[noreturn]] static void bus_halt(Cpu& c, uint32_t addr) {
    c.halted_ = true;
    c.halt_pc_ = c.inst_pc_;
    c.halt_address_ = addr;
    std::snprintf(c.halt_text_, sizeof c.halt_text_, "bus halt at PC=0x%06X address=0x%06X",
                  c.inst_pc_ & 0xFFFFFF, addr & 0xFFFFFF);
    c.halt_reason_ = c.halt_text_;
    throw HaltSignal{};
  }

  static uint16_t slow_read(Cpu& c, uint32_t a, uint8_t fc, bool byte, bool instr) {
    BusAccess acc{a, fc, false, byte, c.cycles_};
    uint16_t data = 0;
    uint32_t wait = 0;
    BusResponse r = c.bus_.read(acc, data, wait);
    c.cycles_ += 4 + wait;
    if (r == BusResponse::BusError) fault(c, a, fc, false, instr, true);
    if (r == BusResponse::Halt) bus_halt(c, a);
    return data;
  }
  static void slow_write(Cpu& c, uint32_t a, uint8_t fc, bool byte, uint16_t v) {
    BusAccess acc{a, fc, true, byte, c.cycles_};
    uint32_t wait = 0;
    BusResponse r = c.bus_.write(acc, v, wait);
    c.cycles_ += 4 + wait;
    if (r == BusResponse::BusError) {
      c.fault_data_ = v;
      fault(c, a, fc, true, false, true);
    }
    if (r == BusResponse::Halt) bus_halt(c, a);
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

  // Physical accesses with an explicit function code (vectors, MOVES, reset); `addr` already
  // checked for alignment.
  static M68K_INLINE uint16_t rd16(Cpu& c, uint32_t addr, uint8_t fc, bool instr = false) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
    if (M68K_LIKELY(p.read != 0)) {
      c.cycles_ += p.clocks;
      return be16(host(p.read, a));
    }
    return slow_read(c, a, fc, false, instr);
  }
  static M68K_INLINE void wr16(Cpu& c, uint32_t addr, uint8_t fc, uint16_t v) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
    if (M68K_LIKELY(p.write != 0)) {
      c.cycles_ += p.clocks;
      put_be16(host(p.write, a), v);
      return;
    }
    slow_write(c, a, fc, false, v);
  }

  // Accesses in the current mode's space: the hot path. One table load through cur_pages_
  // (kept in step with the S bit); the function code is only worked out on the slow path.
  // K: 0 data, 1 program-space data (PC-relative operands), 2 instruction fetch.
  template <int K> static uint8_t cur_fc(const Cpu& c) { return K == 0 ? dfc(c) : pfc(c); }
  template <int K> static M68K_INLINE uint16_t crd16(Cpu& c, uint32_t addr) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (M68K_LIKELY(p.read != 0)) {
      c.cycles_ += p.clocks;
      return be16(host(p.read, a));
    }
    return slow_read(c, a, cur_fc<K>(c), false, K == 2);
  }
  template <int K> static M68K_INLINE uint8_t crd8(Cpu& c, uint32_t addr) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (M68K_LIKELY(p.read != 0)) {
      c.cycles_ += p.clocks;
      return *host(p.read, a);
    }
    return (uint8_t)slow_read(c, a, cur_fc<K>(c), true, false);
  }
  static M68K_INLINE void cwr16(Cpu& c, uint32_t addr, uint16_t v) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (M68K_LIKELY(p.write != 0)) {
      c.cycles_ += p.clocks;
      put_be16(host(p.write, a), v);
      return;
    }
    slow_write(c, a, dfc(c), false, v);
  }
  static M68K_INLINE void cwr8(Cpu& c, uint32_t addr, uint8_t v) {
    uint32_t a = addr & 0xFFFFFF;
    const Cpu::Page& p = c.cur_pages_[a >> 10];
    if (M68K_LIKELY(p.write != 0)) {
      c.cycles_ += p.clocks;
      *host(p.write, a) = v;
      return;
    }
    // The 68000 drives the byte on both halves of the data bus.
    slow_write(c, a, dfc(c), true, (uint16_t)(v << 8 | v));
  }
  // Instruction fetch: through the fetch window (the last code page used, keyed by the full
  // 32-bit address >> 10 so that no 24-bit masking is needed), else via fetch_miss().
  static M68K_INLINE uint16_t fetch16(Cpu& c, uint32_t addr) {
    if (M68K_LIKELY((addr >> 10) == c.fetch_page_)) {
      c.cycles_ += c.fetch_clocks_;
      return be16(host(c.fetch_bias_, addr));
    }
    return fetch_miss(c, addr);
  }
  static __attribute__((noinline)) uint16_t fetch_miss(Cpu& c, uint32_t addr) {
    if (c.loop_mode_) {
      // 68010 loop mode: the loop instruction, the DBcc and its displacement are held in the
      // chip, so these fetches make no bus cycle and take no clocks (the fetch window stays
      // closed while the loop runs, so every fetch comes here).
      uint32_t off = addr - c.loop_pc_;
      if (off < 6 && !(off & 1)) return c.loop_words_[off / 2];
      c.loop_mode_ = false;  // anything else (a platform moved the PC): fetch as usual
    }
    const Cpu::Page& p = c.cur_pages_[(addr & 0xFFFFFF) >> 10];
    if (p.read != 0) {
      c.fetch_page_ = addr >> 10;
      c.fetch_bias_ = p.read - (addr & 0xFF000000u);  // the high byte is not on the bus
      c.fetch_clocks_ = p.clocks;
    }
    return crd16<2>(c, addr);
  }

  // Data accesses of size S with the 68000's alignment rule, explicit function code.
  template <int S> static M68K_INLINE uint32_t read(Cpu& c, uint32_t addr, uint8_t fc) {
    if (S == 1) {
      uint32_t a = addr & 0xFFFFFF;
      const Cpu::Page& p = c.pages_[space_of(fc)][a >> 10];
      if (p.read != 0) {
        c.cycles_ += p.clocks;
        return *host(p.read, a);
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
      if (p.write != 0) {
        c.cycles_ += p.clocks;
        *host(p.write, a) = (uint8_t)v;
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

  static inline void idle(Cpu& c, int n) { c.cycles_ += n; }
  // Where the MC68010's timing (M68000 UM section 9) differs from the 68000's (section 8), the
  // handler asks; the tables are cited at each use.
  static inline bool m10(const Cpu& c) { return c.model_ == Model::MC68010; }

  // ------------------------------------------------------------------ prefetch queue
  static M68K_INLINE uint16_t ext(Cpu& c) {
    uint16_t w = c.irc_;
    c.irc_ = fetch16(c, c.pc_);
    c.pc_ += 2;
    return w;
  }
  static M68K_INLINE uint32_t ext32(Cpu& c) {
    uint32_t hi = ext(c);
    return hi << 16 | ext(c);
  }
  static M68K_INLINE void prefetch(Cpu& c) {
    c.ird_ = c.irc_;
    c.irc_ = fetch16(c, c.pc_);
    c.pc_ += 2;
  }
  // Refill the queue at a new PC (branches, jumps, exceptions).
  static M68K_INLINE void jump(Cpu& c, uint32_t target) { jump(c, target, c.pc_ - 2); }
  static M68K_INLINE void jump(Cpu& c, uint32_t target, uint32_t fault_pc) {
    if (target & 1) {
      c.fault_pc_ = fault_pc;
      fault(c, target, pfc(c), false, true, false);
    }
    c.pc_ = target;
    c.ird_ = fetch16(c, target);
    c.irc_ = fetch16(c, target + 2);
    c.pc_ = target + 4;
  }

  // ------------------------------------------------------------------ register writes
  // Every write to a data or address register goes through these: on the 68010 model they log
  // the old value so that a bus error can roll the instruction back (Cpu::snapshot()).
  static M68K_INLINE uint32_t& logged(Cpu& c, uint32_t& r) {
    if (c.restartable_ && M68K_LIKELY(c.undo_n_ < Cpu::kUndoLog)) c.undo_log_[c.undo_n_++] = {&r, r};
    return r;
  }
  static M68K_INLINE uint32_t& wd(Cpu& c, int reg) { return logged(c, c.r_.d[reg]); }
  static M68K_INLINE uint32_t& wa(Cpu& c, int reg) { return logged(c, c.r_.a[reg]); }

  // ------------------------------------------------------------------ status register
  static uint16_t sr(const Cpu& c) { return c.pack_sr(); }
  static uint8_t ccr(const Cpu& c) {
    return (uint8_t)(c.fx_ << 4 | c.fn_ << 3 | c.fz_ << 2 | c.fv_ << 1 | c.fc_);
  }
  static void set_ccr(Cpu& c, uint8_t v) {
    c.fx_ = (v >> 4) & 1;
    c.fn_ = (v >> 3) & 1;
    c.fz_ = (v >> 2) & 1;
    c.fv_ = (v >> 1) & 1;
    c.fc_ = v & 1;
  }
  static void set_supervisor(Cpu& c, bool s) {
    if (s == c.s_) return;
    if (s) {
      c.r_.usp = c.r_.a[7];
      wa(c, 7) = c.r_.ssp;
    } else {
      c.r_.ssp = c.r_.a[7];
      wa(c, 7) = c.r_.usp;
    }
    c.s_ = s;
    c.cur_pages_ = c.pages_[s ? 1 : 0];
    c.fetch_page_ = Cpu::kNoFetchPage;
  }
  static void set_sr(Cpu& c, uint16_t v) {
    c.limit_ = 0;  // the mask or T may have changed: back to the run loop's checks
    set_ccr(c, (uint8_t)v);
    c.t_ = (v >> 15) & 1;
    c.mask_ = (v >> 8) & 7;
    set_supervisor(c, (v >> 13) & 1);
  }
  static M68K_INLINE bool cond(const Cpu& c, int cc) {
    switch (cc) {
      case 0: return true;
      case 1: return false;
      case 2: return !c.fc_ && !c.fz_;
      case 3: return c.fc_ || c.fz_;
      case 4: return !c.fc_;
      case 5: return c.fc_;
      case 6: return !c.fz_;
      case 7: return c.fz_;
      case 8: return !c.fv_;
      case 9: return c.fv_;
      case 10: return !c.fn_;
      case 11: return c.fn_;
      case 12: return c.fn_ == c.fv_;
      case 13: return c.fn_ != c.fv_;
      case 14: return !c.fz_ && c.fn_ == c.fv_;
      default: return c.fz_ || c.fn_ != c.fv_;
    }
  }
  template <int S> static inline void nz(Cpu& c, uint32_t r) {
    c.fn_ = (r & sz_msb(S)) != 0;
    c.fz_ = (r & sz_mask(S)) == 0;
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
    c.t_ = false;
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
  static uint32_t next_pc(const Cpu& c) { return c.pc_ - 4; }
  static M68K_INLINE void illegal(Cpu& c, uint16_t) { exception(c, 4, c.pc_ - 4, 6); }
  static M68K_INLINE void line_a(Cpu& c, uint16_t) { exception(c, 10, c.pc_ - 4, 6); }
  static M68K_INLINE void line_f(Cpu& c, uint16_t) { exception(c, 11, c.pc_ - 4, 6); }
  static void privilege(Cpu& c) { exception(c, 8, c.pc_ - 4, 6); }
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
    c.pc_adj_ = mode == 4 ? (S == 4 ? 0 : 2) : (mode == 5 || mode == 6 || (mode == 7 && reg >= 2)) ? -2 : 0;
    switch (mode) {
      case 2: return c.r_.a[reg];
      case 3: {
        uint32_t a = c.r_.a[reg];
        wa(c, reg) += (S == 1 && reg == 7) ? 2 : step;
        // A long (An)+ operand that faults leaves An as it was.
        if (S == 4) c.post_undo_ = reg;
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
            uint32_t base = c.pc_ - 2;
            return base + (uint32_t)(int16_t)ext(c);
          }
          default: {
            idle(c, 2);
            uint32_t base = c.pc_ - 2;
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
        if (S == 4) c.post_undo_ = -1;
        return v;
      }
    }
  }
  template <int S> static inline void set_d(Cpu& c, int reg, uint32_t v) {
    if (S == 4) wd(c, reg) = v;
    else wd(c, reg) = (c.r_.d[reg] & ~sz_mask(S)) | (v & sz_mask(S));
  }

  // ------------------------------------------------------------------ arithmetic
  template <int S> static inline uint32_t add(Cpu& c, uint32_t s, uint32_t d, uint32_t x = 0) {
    uint64_t r64 = (uint64_t)(d & sz_mask(S)) + (s & sz_mask(S)) + x;
    uint32_t r = (uint32_t)r64 & sz_mask(S);
    c.fc_ = c.fx_ = (uint32_t)(r64 >> (8 * S)) & 1;
    c.fv_ = (((s ^ r) & (d ^ r)) & sz_msb(S)) != 0;
    c.fn_ = (r & sz_msb(S)) != 0;
    return r;
  }
  template <int S> static inline uint32_t sub(Cpu& c, uint32_t s, uint32_t d, uint32_t x = 0) {
    uint64_t r64 = (uint64_t)(d & sz_mask(S)) - (s & sz_mask(S)) - x;
    uint32_t r = (uint32_t)r64 & sz_mask(S);
    c.fc_ = c.fx_ = (uint32_t)(r64 >> (8 * S)) & 1;
    c.fv_ = (((s ^ d) & (r ^ d)) & sz_msb(S)) != 0;
    c.fn_ = (r & sz_msb(S)) != 0;
    return r;
  }
  template <int S> static inline void cmp(Cpu& c, uint32_t s, uint32_t d) {
    uint32_t x = c.fx_;
    uint32_t r = sub<S>(c, s, d);
    c.fx_ = x;
    c.fz_ = r == 0;
  }

  // ADD/SUB/AND/OR/CMP <ea>,Dn and Dn,<ea>; EOR Dn,<ea>. kind: 0 add, 1 sub, 2 and, 3 or, 4 eor
  template <int S, int K> static inline uint32_t alu(Cpu& c, uint32_t s, uint32_t d) {
    uint32_t r;
    switch (K) {
      case 0: r = add<S>(c, s, d); c.fz_ = r == 0; return r;
      case 1: r = sub<S>(c, s, d); c.fz_ = r == 0; return r;
      case 2: r = (s & d) & sz_mask(S); break;
      case 3: r = (s | d) & sz_mask(S); break;
      default: r = (s ^ d) & sz_mask(S); break;
    }
    logic_flags<S>(c, r);
    return r;
  }
  template <int S, int K, int M> static M68K_INLINE void alu_to_d(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int dn = (op >> 9) & 7;
    uint32_t s = src<S>(c, mode, reg);
    uint32_t r = alu<S, K>(c, s, c.r_.d[dn]);
    prefetch(c);
    if (S == 4) idle(c, (mode == 0 || mode == 1 || (mode == 7 && reg == 4)) ? 4 : 2);
    set_d<S>(c, dn, r);
  }
  template <int S, int K, int M> static M68K_INLINE void alu_to_ea(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int dn = (op >> 9) & 7;
    if (mode == 0) {  // EOR Dn,Dn
      uint32_t r = alu<S, K>(c, c.r_.d[dn], c.r_.d[reg]);
      prefetch(c);
      if (S == 4) idle(c, 4);
      set_d<S>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    uint32_t d = rd<S>(c, a);
    uint32_t r = alu<S, K>(c, c.r_.d[dn], d);
    prefetch(c);
    wr<S>(c, a, r);
  }
  template <int S, int M> static M68K_INLINE void cmp_to_d(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int dn = (op >> 9) & 7;
    uint32_t s = src<S>(c, mode, reg);
    cmp<S>(c, s, c.r_.d[dn]);
    prefetch(c);
    if (S == 4) idle(c, 2);
  }
  template <int S, int M> static M68K_INLINE void cmpa(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int an = (op >> 9) & 7;
    uint32_t s = (uint32_t)sext<S>(src<S>(c, mode, reg));
    cmp<4>(c, s, c.r_.a[an]);
    prefetch(c);
    idle(c, 2);
  }
  template <int S, bool Sub, int M> static M68K_INLINE void adda(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int an = (op >> 9) & 7;
    uint32_t s = (uint32_t)sext<S>(src<S>(c, mode, reg));
    prefetch(c);
    if (S == 2 || mode == 0 || mode == 1 || (mode == 7 && reg == 4)) idle(c, 4);
    else idle(c, 2);
    wa(c, an) = Sub ? c.r_.a[an] - s : c.r_.a[an] + s;
  }
  // ORI/ANDI/SUBI/ADDI/EORI/CMPI #imm,<ea>; K as alu plus 5 = cmp
  template <int S, int K, int M> static M68K_INLINE void alu_imm(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    uint32_t s = imm<S>(c);
    if (mode == 0) {
      // Long: 68000 14(3/0) for CMPI and 16(3/0) for the others; Table 9-8 (68010) 12(3/0)
      // and 14(3/0).
      if (K == 5) {
        cmp<S>(c, s, c.r_.d[reg]);
        prefetch(c);
        if (S == 4 && !m10(c)) idle(c, 2);
        return;
      }
      uint32_t r = alu<S, K>(c, s, c.r_.d[reg]);
      prefetch(c);
      if (S == 4) idle(c, m10(c) ? 2 : 4);
      set_d<S>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    uint32_t d = rd<S>(c, a);
    if (K == 5) {
      cmp<S>(c, s, d);
      prefetch(c);
      return;
    }
    uint32_t r = alu<S, K>(c, s, d);
    prefetch(c);
    wr<S>(c, a, r);
  }
  template <int S, bool Sub, int M> static M68K_INLINE void addq(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    uint32_t q = (op >> 9) & 7;
    if (q == 0) q = 8;
    if (mode == 1) {
      prefetch(c);
      idle(c, 4);
      wa(c, reg) = Sub ? c.r_.a[reg] - q : c.r_.a[reg] + q;
      return;
    }
    if (mode == 0) {
      uint32_t r = Sub ? sub<S>(c, q, c.r_.d[reg]) : add<S>(c, q, c.r_.d[reg]);
      c.fz_ = r == 0;
      prefetch(c);
      if (S == 4) idle(c, 4);
      set_d<S>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    uint32_t d = rd<S>(c, a);
    uint32_t r = Sub ? sub<S>(c, q, d) : add<S>(c, q, d);
    c.fz_ = r == 0;
    prefetch(c);
    wr<S>(c, a, r);
  }
  // ADDX/SUBX Dy,Dx and -(Ay),-(Ax)
  template <int S, bool Sub> static M68K_INLINE void addx(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    if (op & 8) {
      idle(c, 2);
      c.pc_adj_ = 2;
      uint32_t s, d;
      if (S == 4) {
        // Longs are read low word first, and An moves only once both words are in.
        s = read_long_down(c, ry);
        d = read_long_down(c, rx);
      } else {
        wa(c, ry) -= (S == 1 && ry == 7) ? 2 : S;
        s = rd<S>(c, c.r_.a[ry]);
        wa(c, rx) -= (S == 1 && rx == 7) ? 2 : S;
        d = rd<S>(c, c.r_.a[rx]);
      }
      uint32_t r = Sub ? sub<S>(c, s, d, c.fx_) : add<S>(c, s, d, c.fx_);
      if (r) c.fz_ = 0;
      prefetch(c);
      wr<S>(c, c.r_.a[rx], r);
      return;
    }
    uint32_t r = Sub ? sub<S>(c, c.r_.d[ry], c.r_.d[rx], c.fx_) : add<S>(c, c.r_.d[ry], c.r_.d[rx], c.fx_);
    if (r) c.fz_ = 0;
    prefetch(c);
    if (S == 4) idle(c, 4);
    set_d<S>(c, rx, r);
  }
  static uint32_t read_long_down(Cpu& c, int reg) {
    uint32_t a = c.r_.a[reg] - 4;
    if (a & 1) fault(c, a + 2, dfc(c), false, false, false);
    uint32_t lo = crd16<0>(c, a + 2);
    uint32_t hi = crd16<0>(c, a);
    wa(c, reg) = a;
    return hi << 16 | lo;
  }
  template <int S> static M68K_INLINE void cmpm(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    // Ay steps before its read (a long faults with Ay moved by 2), Ax only after its read.
    uint32_t as = c.r_.a[ry];
    uint32_t step_y = (S == 1 && ry == 7) ? 2 : S;
    c.pc_adj_ = 2;
    wa(c, ry) += S == 4 ? 2 : step_y;
    uint32_t s = rd<S>(c, as);
    if (S == 4) wa(c, ry) += 2;
    uint32_t ad = c.r_.a[rx];
    uint32_t d = rd<S>(c, ad);
    wa(c, rx) += (S == 1 && rx == 7) ? 2 : S;
    cmp<S>(c, s, d);
    prefetch(c);
  }
  // NEGX/CLR/NEG/NOT: K 0 negx, 1 clr, 2 neg, 3 not
  template <int S, int K> static uint32_t unary_op(Cpu& c, uint32_t d) {
    uint32_t r;
    switch (K) {
      case 0:
        r = sub<S>(c, d, 0, c.fx_);
        if (r) c.fz_ = 0;
        return r;
      case 1: r = 0; c.fn_ = 0; c.fz_ = 1; c.fv_ = c.fc_ = 0; return r;
      case 2: r = sub<S>(c, d, 0); c.fz_ = r == 0; return r;
      default: r = ~d & sz_mask(S); logic_flags<S>(c, r); return r;
    }
  }
  template <int S, int K, int M> static M68K_INLINE void unary(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    if (mode == 0) {
      uint32_t r = unary_op<S, K>(c, c.r_.d[reg]);
      prefetch(c);
      if (S == 4) idle(c, 2);
      set_d<S>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    if (K == 1 && m10(c)) {
      // Table 9-10: the 68010's CLR does not read its destination; the indexed mode takes the
      // nonfetching address calculation's two extra clocks.
      if (mode == 6) idle(c, 2);
      unary_op<S, K>(c, 0);
      prefetch(c);
      wr<S>(c, a, 0);
      return;
    }
    uint32_t d = rd<S>(c, a);
    uint32_t r = unary_op<S, K>(c, d);
    prefetch(c);
    wr<S>(c, a, r);
  }
  template <int S, int M> static M68K_INLINE void tst(Cpu& c, uint16_t op) {
    uint32_t v = src<S>(c, EA_MODE(M), ea_reg<M>(op));
    logic_flags<S>(c, v);
    prefetch(c);
  }
  static M68K_INLINE void tas(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    if (mode == 0) {
      uint32_t v = c.r_.d[reg];
      logic_flags<1>(c, v);
      prefetch(c);
      c.r_.d[reg] |= 0x80;
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    uint32_t v = rd<1>(c, a);
    logic_flags<1>(c, v);
    idle(c, 2);
    wr<1>(c, a, v | 0x80);
    prefetch(c);
  }

  // ------------------------------------------------------------------ moves
  // The flags a MOVE to memory shows if its write takes an address error. Byte and word: all
  // four set. Long (from the reference vectors): a memory source has set all four, from the low
  // word if the destination is (An), (An)+ or (xxx).l, else from the long; a register or
  // immediate source has not touched them for (An)/(An)+, has set all four for -(An) and
  // (xxx).w/.l, and N and Z only for (d16,An) and (d8,An,Xn). A write that completes sets them
  // all from the long.
  template <int S, int SM, int DM> static M68K_INLINE void move_flags_before_write(Cpu& c, uint32_t v) {
    if (S != 4) return logic_flags<S>(c, v);
    constexpr bool mem_src = SM >= 2 && SM != 11;
    constexpr bool simple_dst = DM == 2 || DM == 3;
    if (mem_src) {
      if (simple_dst || DM == 8) logic_flags<2>(c, v);
      else logic_flags<4>(c, v);
    } else if (DM == 4 || DM == 7 || DM == 8) {
      logic_flags<4>(c, v);
    } else if (!simple_dst) {
      nz<4>(c, v);
    }
  }
  // SM, DM: source and destination EA slots (the decoder instantiates each combination).
  template <int S, int SM, int DM> static M68K_INLINE void move(Cpu& c, uint16_t op) {
    constexpr int sm = EA_MODE(SM), dm = EA_MODE(DM);
    const int sr_ = ea_reg<SM>(op), dr = DM < 7 ? (op >> 9) & 7 : DM - 7;
    uint32_t v = src<S>(c, sm, sr_);
    if (dm == 0) {
      logic_flags<S>(c, v);
      prefetch(c);
      set_d<S>(c, dr, v);
      return;
    }
    if (dm == 1) {  // MOVEA
      prefetch(c);
      wa(c, dr) = (uint32_t)sext<S>(v);
      return;
    }
    uint32_t a;
    if (dm == 4) {  // -(An) destination: no extra internal clocks, prefetch comes first
      c.pc_adj_ = 0;
      if (S == 4) {
        // The long is written low word first; IRD keeps this opcode until the writes are done.
        move_flags_before_write<S, SM, DM>(c, v);
        uint16_t next = c.irc_;
        c.irc_ = fetch16(c, c.pc_);
        c.pc_ += 2;
        if (sm == 0 && m10(c)) idle(c, 2);  // Table 9-4: Dn,-(An) 14(1/2) (68000: 12(1/2))
        a = c.r_.a[dr] - 4;
        if (a & 1) fault(c, a + 2, dfc(c), true, false, false);
        cwr16(c, a + 2, (uint16_t)v);
        cwr16(c, a, (uint16_t)(v >> 16));
        wa(c, dr) = a;
        logic_flags<4>(c, v);
        c.ird_ = next;
        return;
      }
      logic_flags<S>(c, v);
      prefetch(c);
      wa(c, dr) -= (S == 1 && dr == 7) ? 2 : S;
      wr<S>(c, c.r_.a[dr], v);
      return;
    }
    if (dm == 3) {  // (An)+ destination: An moves only once the write is done
      a = c.r_.a[dr];
      c.pc_adj_ = 2;
      move_flags_before_write<S, SM, DM>(c, v);
      wr<S>(c, a, v);
      wa(c, dr) += (S == 1 && dr == 7) ? 2 : S;
      if (S == 4) logic_flags<4>(c, v);
      prefetch(c);
      return;
    }
    if (dm == 7 && dr == 1) {
      // (xxx).l: from memory, the write comes before the queue is refilled past the address's
      // low word; from a register, the refill comes first (a faulting write then stacks a PC
      // 2 further on, 4 clocks later), as the reference vectors show.
      uint32_t hi = ext(c);
      a = hi << 16 | c.irc_;
      c.pc_adj_ = 0;
      constexpr bool reg_src = SM <= 1;
      if (reg_src) {
        c.irc_ = fetch16(c, c.pc_);
        c.pc_ += 2;
      }
      move_flags_before_write<S, SM, DM>(c, v);
      wr<S>(c, a, v);
      if (S == 4) logic_flags<4>(c, v);
      if (!reg_src) {
        c.irc_ = fetch16(c, c.pc_);
        c.pc_ += 2;
      }
      prefetch(c);
      return;
    }
    a = ea_addr<S>(c, dm, dr);
    c.pc_adj_ += (dm == 7) ? 0 : 2;
    move_flags_before_write<S, SM, DM>(c, v);
    wr<S>(c, a, v);
    if (S == 4) logic_flags<4>(c, v);
    prefetch(c);
  }
  static M68K_INLINE void moveq(Cpu& c, uint16_t op) {
    uint32_t v = (uint32_t)(int8_t)op;
    logic_flags<4>(c, v);
    prefetch(c);
    wd(c, (op >> 9) & 7) = v;
  }
  template <int M> static M68K_INLINE void lea(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    uint32_t a = ea_addr<4>(c, mode, reg);
    if (mode == 6 || (mode == 7 && reg == 3)) idle(c, 2);
    prefetch(c);
    wa(c, (op >> 9) & 7) = a;
  }
  static M68K_INLINE void pea(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t a = ea_addr<4>(c, mode, reg);
    if (mode == 6 || (mode == 7 && reg == 3)) idle(c, 2);
    if (mode == 7 && reg < 2) {
      prefetch(c);
      push32(c, a);
    } else {
      push32(c, a);
      prefetch(c);
    }
  }
  static M68K_INLINE void exg(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    uint32_t* x;
    uint32_t* y;
    switch ((op >> 3) & 0x1F) {
      case 0x08: x = &wd(c, rx); y = &wd(c, ry); break;
      case 0x09: x = &wa(c, rx); y = &wa(c, ry); break;
      default: x = &wd(c, rx); y = &wa(c, ry); break;
    }
    std::swap(*x, *y);
    prefetch(c);
    idle(c, 2);
  }
  static M68K_INLINE void swap_(Cpu& c, uint16_t op) {
    uint32_t& d = wd(c, op & 7);
    d = d << 16 | d >> 16;
    logic_flags<4>(c, d);
    prefetch(c);
  }
  static M68K_INLINE void ext_w(Cpu& c, uint16_t op) {
    uint32_t& d = wd(c, op & 7);
    d = (d & 0xFFFF0000) | (uint16_t)(int8_t)d;
    logic_flags<2>(c, d);
    prefetch(c);
  }
  static M68K_INLINE void ext_l(Cpu& c, uint16_t op) {
    uint32_t& d = wd(c, op & 7);
    d = (uint32_t)(int16_t)d;
    logic_flags<4>(c, d);
    prefetch(c);
  }
  template <int S> static M68K_INLINE void movem_to_mem(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint16_t mask = ext(c);
    c.pc_adj_ = 2;
    if (mode == 4) {
      uint32_t a = c.r_.a[reg];
      // Predecrement order: A7..A0, D7..D0; mask bit 0 is A7.
      for (int i = 0; i < 16; i++) {
        if (!(mask & (1 << i))) continue;
        uint32_t v = i < 8 ? c.r_.a[7 - i] : c.r_.d[15 - i];
        a -= S;
        if (S == 4) {
          if (a & 1) fault(c, a + 2, dfc(c), true, false, false);
          wr<2>(c, a + 2, v & 0xFFFF);
          wr<2>(c, a, v >> 16);
        } else {
          wr<2>(c, a, v);
        }
      }
      wa(c, reg) = a;
      prefetch(c);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    c.pc_adj_ = 2;
    for (int i = 0; i < 16; i++) {
      if (!(mask & (1 << i))) continue;
      uint32_t v = i < 8 ? c.r_.d[i] : c.r_.a[i - 8];
      wr<S>(c, a, v);
      a += S;
    }
    prefetch(c);
  }
  template <int S> static M68K_INLINE void movem_to_reg(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint16_t mask = ext(c);
    uint32_t a = mode == 3 ? c.r_.a[reg] : ea_addr<S>(c, mode, reg);
    c.pc_adj_ = 2;
    const bool prog = mode == 7 && reg >= 2;
    for (int i = 0; i < 16; i++) {
      if (!(mask & (1 << i))) continue;
      uint32_t v = (uint32_t)sext<S>(prog ? rd<S, 1>(c, a) : rd<S>(c, a));
      if (i < 8) wd(c, i) = v;
      else wa(c, i - 8) = v;
      a += S;
    }
    if (prog) rd<2, 1>(c, a);  // the 68000 reads one word beyond the last register
    else rd<2>(c, a);
    if (mode == 3) wa(c, reg) = a;
    prefetch(c);
  }
  template <int S> static M68K_INLINE void movep(Cpu& c, uint16_t op) {
    int dn = (op >> 9) & 7, an = op & 7;
    uint32_t a = c.r_.a[an] + (uint32_t)(int16_t)ext(c);
    if (op & 0x80) {  // register to memory
      uint32_t v = c.r_.d[dn];
      for (int sh = 8 * S - 8; sh >= 0; sh -= 8, a += 2) wr<1>(c, a, (v >> sh) & 0xFF);
    } else {
      uint32_t v = 0;
      for (int i = 0; i < S; i++, a += 2) v = v << 8 | rd<1>(c, a);
      set_d<S>(c, dn, v);
    }
    prefetch(c);
  }

  // ------------------------------------------------------------------ SR/CCR/USP
  // MOVE from SR (privileged on the 68010) and MOVE from CCR (68010): the same bus cycles, a
  // read before the write of a memory destination included.
  template <bool FromSr>
  static M68K_INLINE void move_from_status(Cpu& c, uint16_t op) {
    if (FromSr && c.model_ == Model::MC68010) PRIV();
    int mode = (op >> 3) & 7, reg = op & 7;
    if (mode == 0) {
      prefetch(c);
      if (!m10(c)) idle(c, 2);  // Table 9-18: 4(1/0) on the 68010, 6(1/0) on the 68000
      set_d<2>(c, reg, FromSr ? sr(c) : ccr(c));
      return;
    }
    uint32_t a = ea_addr<2>(c, mode, reg);
    rd<2>(c, a);
    prefetch(c);
    wr<2>(c, a, FromSr ? sr(c) : ccr(c));
  }
  static M68K_INLINE void move_to_ccr(Cpu& c, uint16_t op) {
    uint32_t v = src<2>(c, (op >> 3) & 7, op & 7);
    set_ccr(c, (uint8_t)v);
    idle(c, 4);
    refill(c);
  }
  static M68K_INLINE void move_to_sr(Cpu& c, uint16_t op) {
    PRIV();
    uint32_t v = src<2>(c, (op >> 3) & 7, op & 7);
    set_sr(c, (uint16_t)v);
    idle(c, 4);
    refill(c);
  }
  // Two-word queue refill at the next instruction (after SR changes).
  static void refill(Cpu& c) {
    uint32_t next = c.pc_ - 2;
    c.ird_ = fetch16(c, next);
    c.irc_ = fetch16(c, next + 2);
    c.pc_ = next + 4;
  }
  // ANDI/ORI/EORI to CCR and SR: 20(3/0) on the 68000; the 68010 (Table 9-18, 16(2/0)) does
  // not refill behind the immediate word, since the refill that follows discards it.
  static M68K_INLINE uint16_t status_imm(Cpu& c) {
    if (!m10(c)) return ext(c);
    c.pc_ += 2;
    return c.irc_;
  }
  static M68K_INLINE void ccr_imm(Cpu& c, uint16_t op) {
    uint8_t v = (uint8_t)status_imm(c);
    uint8_t cc = ccr(c);
    switch (op) {
      case 0x003C: cc |= v; break;
      case 0x023C: cc &= v; break;
      default: cc ^= v; break;
    }
    set_ccr(c, cc & 0x1F);
    idle(c, 8);
    refill(c);
  }
  static M68K_INLINE void sr_imm(Cpu& c, uint16_t op) {
    PRIV();
    uint16_t v = status_imm(c);
    uint16_t s = sr(c);
    switch (op) {
      case 0x007C: s |= v; break;
      case 0x027C: s &= v; break;
      default: s ^= v; break;
    }
    set_sr(c, s);
    idle(c, 8);
    refill(c);
  }
  static M68K_INLINE void move_usp(Cpu& c, uint16_t op) {
    PRIV();
    prefetch(c);
    if (m10(c)) idle(c, 2);  // Table 9-18: 6(1/0) on the 68010, 4(1/0) on the 68000
    if (op & 8) wa(c, op & 7) = c.r_.usp;
    else c.r_.usp = c.r_.a[op & 7];
  }

  // ------------------------------------------------------------------ control flow
  template <int CC> static M68K_INLINE void bcc(Cpu& c, uint16_t op) {
    constexpr int cc = CC;
    int8_t d8 = (int8_t)op;
    uint32_t base = c.pc_ - 2;
    if (cc == 1) {  // BSR
      uint32_t target, ret;
      if (d8 == 0) {
        target = base + (uint32_t)(int16_t)c.irc_;
        ret = c.pc_;
      } else {
        target = base + (uint32_t)d8;
        ret = c.pc_ - 2;
      }
      idle(c, 2);
      push32(c, ret);
      jump(c, target, target);
      return;
    }
    if (cond(c, cc)) {
      uint32_t target = base + (d8 == 0 ? (uint32_t)(int16_t)c.irc_ : (uint32_t)d8);
      idle(c, 2);
      jump(c, target);
      return;
    }
    // Not taken: 8(1/0) and 12(2/0) on the 68000, Table 9-15: 6(1/0) and 10(2/0).
    idle(c, m10(c) ? 2 : 4);
    if (d8 == 0) ext(c);
    prefetch(c);
  }
  // DBcc. Table 9-15 (68010) against the 68000: condition true 10(2/0) (12(2/0)), counter
  // expired 16(3/0) (14(3/0)), loop continued 10(2/0) on both. On the 68010 a DBcc that
  // branches back by -4 to a loopable one-word instruction puts the pair in loop mode
  // (Appendix A): from the next iteration on, neither instruction is fetched again.
  template <int CC> static M68K_INLINE void dbcc(Cpu& c, uint16_t op) {
    constexpr int cc = CC;
    if (cond(c, cc)) {
      c.loop_mode_ = false;  // the fetches of the next instruction are real again
      idle(c, m10(c) ? 2 : 4);
      ext(c);
      prefetch(c);
      return;
    }
    uint32_t& d = wd(c, op & 7);
    uint16_t cnt = (uint16_t)(d - 1);
    idle(c, 2);
    if (cnt != 0xFFFF) {
      const int16_t disp = (int16_t)c.irc_;
      uint32_t target = c.pc_ - 2 + (uint32_t)disp;
      if (target & 1) jump(c, target, c.pc_);  // faults before the counter is written
      d = (d & 0xFFFF0000) | cnt;
      jump(c, target);
      if (disp == -4 && !c.loop_mode_ && m10(c) && !c.t_ && g_loopable[c.ird_]) enter_loop(c, target, disp);
      return;
    }
    d = (d & 0xFFFF0000) | cnt;
    c.loop_mode_ = false;
    if (m10(c)) idle(c, 2);
    fetch16(c, c.pc_ - 2);  // the microcode's discarded refetch of the displacement word
    ext(c);
    prefetch(c);
  }
  static void enter_loop(Cpu& c, uint32_t target, int16_t disp) {
    c.loop_pc_ = target;
    c.loop_words_[0] = c.ird_;
    c.loop_words_[1] = c.irc_;  // this DBcc
    c.loop_words_[2] = (uint16_t)disp;
    c.loop_mode_ = true;
    c.fetch_page_ = Cpu::kNoFetchPage;  // every fetch now goes through fetch_miss()
  }
  template <bool Jsr> static M68K_INLINE void jmp(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t target;
    uint32_t ret;
    switch (mode) {
      case 2: target = c.r_.a[reg]; ret = c.pc_ - 2; break;
      case 5: target = c.r_.a[reg] + (uint32_t)(int16_t)c.irc_; ret = c.pc_; idle(c, 2); break;
      case 6: target = index(c, c.r_.a[reg], c.irc_); ret = c.pc_; idle(c, 6); break;
      default:
        switch (reg) {
          case 0: target = (uint32_t)(int16_t)c.irc_; ret = c.pc_; idle(c, 2); break;
          case 1: {
            uint32_t hi = c.irc_;
            c.irc_ = fetch16(c, c.pc_);
            c.pc_ += 2;
            target = hi << 16 | c.irc_;
            ret = c.pc_;
            break;
          }
          case 2: target = c.pc_ - 2 + (uint32_t)(int16_t)c.irc_; ret = c.pc_; idle(c, 2); break;
          default: target = index(c, c.pc_ - 2, c.irc_); ret = c.pc_; idle(c, 6); break;
        }
    }
    // A faulting target is reported before anything is stacked.
    uint32_t fpc = Jsr ? (mode == 2 ? c.pc_ - 2 : c.pc_) : (mode == 7 && reg == 1 ? c.pc_ - 4 : c.pc_ - 2);
    if (target & 1) jump(c, target, fpc);
    if (Jsr) push32(c, ret);
    jump(c, target);
  }
  static M68K_INLINE void rts(Cpu& c, uint16_t) {
    uint32_t t = rd<4>(c, c.r_.a[7]);
    wa(c, 7) += 4;
    jump(c, t);
  }
  static M68K_INLINE void rtr(Cpu& c, uint16_t) {
    uint16_t cc = (uint16_t)rd<2>(c, c.r_.a[7]);
    uint32_t t = rd<4>(c, c.r_.a[7] + 2);
    wa(c, 7) += 6;
    set_ccr(c, cc & 0x1F);
    jump(c, t);
  }
  static void rte(Cpu& c, uint16_t);
  static M68K_INLINE void rtd(Cpu& c, uint16_t) {
    int16_t disp = (int16_t)c.irc_;
    uint32_t t = rd<4>(c, c.r_.a[7]);
    wa(c, 7) += 4 + (uint32_t)disp;
    jump(c, t);
  }
  static M68K_INLINE void link(Cpu& c, uint16_t op) {
    int reg = op & 7;
    uint32_t sp = c.r_.a[7] - 4;
    uint32_t v = c.r_.a[reg];
    wr<2>(c, sp, v >> 16);
    wr<2>(c, sp + 2, v & 0xFFFF);
    wa(c, 7) = sp;
    wa(c, reg) = sp;
    wa(c, 7) += (uint32_t)(int16_t)ext(c);
    prefetch(c);
  }
  static M68K_INLINE void unlk(Cpu& c, uint16_t op) {
    int reg = op & 7;
    c.pc_adj_ = 2;
    uint32_t v = rd<4>(c, c.r_.a[reg]);
    wa(c, 7) = c.r_.a[reg] + 4;
    wa(c, reg) = v;
    prefetch(c);
  }
  static M68K_INLINE void trap(Cpu& c, uint16_t op) { exception(c, 32 + (op & 15), c.pc_ - 2, 6); }
  static M68K_INLINE void trapv(Cpu& c, uint16_t) {
    if (c.fv_) {
      exception(c, 7, c.pc_ - 2, 6);
      return;
    }
    prefetch(c);
  }
  static M68K_INLINE void nop(Cpu& c, uint16_t) { prefetch(c); }
  static M68K_INLINE void reset_(Cpu& c, uint16_t) {
    PRIV();
    c.bus_.reset_devices(c.cycles_);
    idle(c, m10(c) ? 126 : 128);  // Table 9-18: 130(1/0); 68000: 132(1/0)
    prefetch(c);
  }
  static M68K_INLINE void stop(Cpu& c, uint16_t) {
    PRIV();
    uint16_t v = c.irc_;  // the immediate stays in IRC; PC stays at the next instruction
    set_sr(c, v);
    idle(c, 4);
    c.stopped_ = true;
  }
  static M68K_INLINE void chk(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    int16_t bound = (int16_t)src<2>(c, mode, reg);
    int16_t v = (int16_t)c.r_.d[(op >> 9) & 7];
    c.fz_ = v == 0;
    c.fv_ = c.fc_ = 0;
    c.fn_ = v < 0;
    // The microcode tests the upper bound first, hence the shorter path.
    if (v > bound) {
      exception(c, 6, c.pc_ - 2, 10);
      return;
    }
    if (v < 0) {
      // The microcode has subtracted the bound in 16 bits: a result that wrapped to positive
      // (Dn - bound overflowed) takes the shorter path, as if Dn were above the bound.
      exception(c, 6, c.pc_ - 2, (int16_t)(uint16_t)(v - bound) > 0 ? 10 : 12);
      return;
    }
    idle(c, m10(c) ? 4 : 6);  // no trap: Table 9-18 8(1/0)+, 68000 10(1/0)+
    prefetch(c);
  }
  template <int CC, int M> static M68K_INLINE void scc(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    bool t = cond(c, CC);
    if (mode == 0) {
      prefetch(c);
      if (t && !m10(c)) idle(c, 2);  // Table 9-9: 4(1/0) either way on the 68010
      set_d<1>(c, reg, t ? 0xFF : 0);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    rd<1>(c, a);
    prefetch(c);
    wr<1>(c, a, t ? 0xFF : 0);
  }

  // ------------------------------------------------------------------ multiply / divide
  template <bool Signed> static M68K_INLINE void mul(Cpu& c, uint16_t op) {
    uint16_t s = (uint16_t)src<2>(c, (op >> 3) & 7, op & 7);
    uint32_t& d = wd(c, (op >> 9) & 7);
    uint32_t r;
    int n;
    if (Signed) {
      r = (uint32_t)((int32_t)(int16_t)s * (int32_t)(int16_t)d);
      n = popcount16((uint16_t)(s ^ (s << 1)));
    } else {
      r = (uint32_t)s * (uint16_t)d;
      n = popcount16(s);
    }
    logic_flags<4>(c, r);
    prefetch(c);
    // 68000: 38 + 2n. Table 9-6 gives the 68010's MULU 40(1/0)+ and MULS 42(1/0)+ as maxima
    // with no formula, so the model takes them as the time.
    idle(c, m10(c) ? (Signed ? 38 : 36) : 34 + 2 * n);
    d = r;
  }
  // DIVU/DIVS by zero: the flags the microcode leaves (N and Z from the dividend's high word),
  // then the zero-divide exception (vector 5).
  static M68K_INLINE void divide_by_zero(Cpu& c, uint32_t d) {
    c.fv_ = 0; c.fc_ = 0;
    c.fn_ = (d >> 31) & 1;
    c.fz_ = (d >> 16) == 0;
    exception(c, 5, c.pc_ - 2, 8);
  }
  static M68K_INLINE void divu(Cpu& c, uint16_t op) {
    uint16_t s = (uint16_t)src<2>(c, (op >> 3) & 7, op & 7);
    uint32_t& d = wd(c, (op >> 9) & 7);
    if (s == 0) return divide_by_zero(c, d);
    uint32_t dividend = d;
    if ((dividend >> 16) >= s) {
      c.fv_ = 1; c.fc_ = 0; c.fn_ = 1; c.fz_ = 0;
      prefetch(c);
      idle(c, 6);
      return;
    }
    // Clock count of the shift-subtract microcode loop (J. Cwik's analysis).
    int mc = 38;
    uint32_t hd = (uint32_t)s << 16, x = dividend;
    for (int i = 0; i < 15; i++) {
      uint32_t t = x;
      x <<= 1;
      if ((int32_t)t < 0) {
        x -= hd;
      } else {
        mc += 2;
        if (x >= hd) {
          x -= hd;
          mc--;
        }
      }
    }
    uint32_t q = dividend / s, rem = dividend % s;
    d = rem << 16 | q;
    logic_flags<2>(c, q);
    prefetch(c);
    // Table 9-6 gives the 68010's DIVU as 108(1/0)+, a maximum with no formula: the model
    // takes it as the time (overflow ends early as on the 68000).
    idle(c, m10(c) ? 104 : mc * 2 - 4);
  }
  static M68K_INLINE void divs(Cpu& c, uint16_t op) {
    int16_t s = (int16_t)src<2>(c, (op >> 3) & 7, op & 7);
    uint32_t& d = wd(c, (op >> 9) & 7);
    if (s == 0) return divide_by_zero(c, d);
    int32_t dividend = (int32_t)d;
    int mc = 6;
    if (dividend < 0) mc++;
    uint32_t adend = dividend < 0 ? 0u - (uint32_t)dividend : (uint32_t)dividend;
    uint32_t asor = s < 0 ? (uint32_t)(-(int32_t)s) : (uint32_t)s;
    if ((adend >> 16) >= asor) {
      c.fv_ = 1; c.fc_ = 0; c.fn_ = 1; c.fz_ = 0;
      prefetch(c);
      idle(c, (mc + 2) * 2 - 4);
      return;
    }
    uint32_t aq = adend / asor;
    mc += 55;
    if (s >= 0) mc += dividend >= 0 ? -1 : 1;
    for (int i = 0; i < 15; i++) {
      if ((int16_t)aq >= 0) mc++;
      aq <<= 1;
    }
    int64_t q = (int64_t)dividend / s;
    int64_t rem = (int64_t)dividend % s;
    if (q > 32767 || q < -32768) {
      c.fv_ = 1; c.fc_ = 0; c.fn_ = 1; c.fz_ = 0;
      prefetch(c);
      idle(c, mc * 2 - 4);
      return;
    }
    d = ((uint32_t)rem & 0xFFFF) << 16 | ((uint32_t)q & 0xFFFF);
    logic_flags<2>(c, (uint32_t)q);
    prefetch(c);
    idle(c, m10(c) ? 118 : mc * 2 - 4);  // Table 9-6: DIVS 122(1/0)+ (maximum) on the 68010
  }

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
    c.fn_ = (r >> 7) & 1;
    if (r) c.fz_ = 0;
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
    c.fn_ = (r >> 7) & 1;
    if (r) c.fz_ = 0;
    return r;
  }
  template <bool Sub> static M68K_INLINE void bcd(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    if (op & 8) {
      idle(c, 2);
      c.pc_adj_ = 2;
      wa(c, ry) -= ry == 7 ? 2 : 1;
      uint32_t s = rd<1>(c, c.r_.a[ry]);
      wa(c, rx) -= rx == 7 ? 2 : 1;
      uint32_t d = rd<1>(c, c.r_.a[rx]);
      uint32_t r = Sub ? sbcd_op(c, s, d) : abcd_op(c, s, d);
      prefetch(c);
      wr<1>(c, c.r_.a[rx], r);
      return;
    }
    uint32_t r = Sub ? sbcd_op(c, c.r_.d[ry], c.r_.d[rx]) : abcd_op(c, c.r_.d[ry], c.r_.d[rx]);
    prefetch(c);
    idle(c, 2);
    set_d<1>(c, rx, r);
  }
  static M68K_INLINE void nbcd(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    if (mode == 0) {
      uint32_t r = sbcd_op(c, c.r_.d[reg], 0);
      prefetch(c);
      idle(c, 2);
      set_d<1>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    uint32_t d = rd<1>(c, a);
    uint32_t r = sbcd_op(c, d, 0);
    prefetch(c);
    wr<1>(c, a, r);
  }

  // ------------------------------------------------------------------ bit operations
  // K: 0 btst, 1 bchg, 2 bclr, 3 bset
  template <int K, bool Imm> static M68K_INLINE void bitop(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t bit = Imm ? ext(c) : c.r_.d[(op >> 9) & 7];
    if (mode == 0) {
      bit &= 31;
      uint32_t& d = wd(c, reg);
      c.fz_ = !((d >> bit) & 1);
      prefetch(c);
      switch (K) {
        case 0: idle(c, 2); break;
        case 1: d ^= 1u << bit; idle(c, bit >= 16 ? 4 : 2); break;
        case 2: d &= ~(1u << bit); idle(c, bit >= 16 ? 6 : 4); break;
        default: d |= 1u << bit; idle(c, bit >= 16 ? 4 : 2); break;
      }
      return;
    }
    bit &= 7;
    if (mode == 7 && reg == 4) {  // BTST Dn,#imm
      uint32_t v = ext(c) & 0xFF;
      c.fz_ = !((v >> bit) & 1);
      prefetch(c);
      idle(c, 2);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    uint32_t v = (mode == 7 && reg >= 2) ? rd<1, 1>(c, a) : rd<1>(c, a);
    c.fz_ = !((v >> bit) & 1);
    prefetch(c);
    switch (K) {
      case 0: return;
      case 1: v ^= 1u << bit; break;
      case 2: v &= ~(1u << bit); break;
      default: v |= 1u << bit; break;
    }
    wr<1>(c, a, v);
  }

  // ------------------------------------------------------------------ shifts and rotates
  // K: 0 as, 1 ls, 2 rox, 3 ro
  template <int S, int K, bool Left> static uint32_t shift(Cpu& c, uint32_t v, uint32_t n) {
    const uint32_t mask = sz_mask(S), msb = sz_msb(S);
    const int bits = 8 * S;
    v &= mask;
    c.fv_ = 0;
    if (n == 0) {
      c.fc_ = K == 2 ? c.fx_ : 0;
      nz<S>(c, v);
      return v;
    }
    switch (K) {
      case 0:
        if (Left) {
          // V: the sign bit changed at any point during the shift.
          uint32_t vbits = 0, r = v;
          uint32_t carry = 0;
          for (uint32_t i = 0; i < n; i++) {
            carry = (r & msb) != 0;
            r = (r << 1) & mask;
            vbits |= ((r & msb) != 0) != carry;
          }
          c.fv_ = vbits != 0;
          c.fc_ = c.fx_ = carry;
          v = r;
        } else {
          uint32_t sign = v & msb;
          uint32_t carry = 0;
          for (uint32_t i = 0; i < n; i++) {
            carry = v & 1;
            v = (v >> 1) | sign;
          }
          c.fc_ = c.fx_ = carry;
        }
        break;
      case 1:
        if (n > (uint32_t)bits) {
          v = 0;
          c.fc_ = c.fx_ = 0;
        } else if (Left) {
          c.fc_ = c.fx_ = (uint32_t)(((uint64_t)v << n) >> bits) & 1;
          v = (uint32_t)((uint64_t)v << n) & mask;
        } else {
          c.fc_ = c.fx_ = (uint32_t)(v >> (n - 1)) & 1;
          v = (uint32_t)((uint64_t)v >> n);
        }
        break;
      case 2: {
        uint32_t x = c.fx_;
        n %= (uint32_t)(bits + 1);
        for (uint32_t i = 0; i < n; i++) {
          if (Left) {
            uint32_t out = (v & msb) != 0;
            v = ((v << 1) | x) & mask;
            x = out;
          } else {
            uint32_t out = v & 1;
            v = (v >> 1) | (x ? msb : 0);
            x = out;
          }
        }
        c.fc_ = c.fx_ = x;
        break;
      }
      default: {
        uint32_t k = n % (uint32_t)bits;
        if (k) {
          v = Left ? ((v << k) | (v >> (bits - k))) & mask : ((v >> k) | (v << (bits - k))) & mask;
        }
        c.fc_ = Left ? (v & 1) : ((v & msb) != 0);
        break;
      }
    }
    nz<S>(c, v);
    return v;
  }
  template <int S, int K, bool Left> static M68K_INLINE void shift_reg(Cpu& c, uint16_t op) {
    int dn = op & 7, cnt = (op >> 9) & 7;
    uint32_t n = (op & 0x20) ? (c.r_.d[cnt] & 63) : (cnt ? (uint32_t)cnt : 8u);
    uint32_t r = shift<S, K, Left>(c, c.r_.d[dn], n);
    prefetch(c);
    idle(c, (S == 4 ? 4 : 2) + 2 * (int)n);
    set_d<S>(c, dn, r);
  }
  template <int K, bool Left> static M68K_INLINE void shift_mem(Cpu& c, uint16_t op) {
    uint32_t a = ea_addr<2>(c, (op >> 3) & 7, op & 7);
    uint32_t v = rd<2>(c, a);
    uint32_t r = shift<2, K, Left>(c, v, 1);
    prefetch(c);
    wr<2>(c, a, r);
  }

  // ------------------------------------------------------------------ 68010 additions
  static M68K_INLINE void movec(Cpu& c, uint16_t op) {
    PRIV();
    uint16_t w = ext(c);
    uint32_t& rn = (w & 0x8000) ? wa(c, (w >> 12) & 7) : wd(c, (w >> 12) & 7);
    uint16_t cr = w & 0xFFF;
    if (cr != 0x000 && cr != 0x001 && cr != 0x800 && cr != 0x801) {
      c.pc_ -= 2;  // illegal: report the MOVEC itself
      c.irc_ = w;
      illegal(c, op);
      return;
    }
    if (op & 1) {  // Rn -> control register
      switch (cr) {
        case 0x000: c.r_.sfc = rn & 7; break;
        case 0x001: c.r_.dfc = rn & 7; break;
        case 0x800: c.r_.usp = rn; break;
        default: c.r_.vbr = rn; break;
      }
      prefetch(c);
      idle(c, 2);
    } else {
      switch (cr) {
        case 0x000: rn = c.r_.sfc; break;
        case 0x001: rn = c.r_.dfc; break;
        case 0x800: rn = c.r_.usp; break;
        default: rn = c.r_.vbr; break;
      }
      prefetch(c);
      idle(c, 4);  // Table 9-18: MOVEC Cr,Rn 12(2/0); Rn,Cr 10(2/0)
    }
  }
  template <int S> static uint32_t read_fc(Cpu& c, uint32_t a, uint8_t fc) {
    if (pageable(fc)) return read<S>(c, a, fc);
    if (S != 1 && (a & 1)) fault(c, a, fc, false, false, false);
    if (S == 1) return slow_read(c, a & 0xFFFFFF, fc, true, false) & 0xFF;
    uint32_t v = slow_read(c, a & 0xFFFFFF, fc, false, false);
    if (S == 2) return v;
    return v << 16 | slow_read(c, (a + 2) & 0xFFFFFF, fc, false, false);
  }
  template <int S> static void write_fc(Cpu& c, uint32_t a, uint8_t fc, uint32_t v) {
    if (pageable(fc)) return write<S>(c, a, fc, v);
    if (S != 1 && (a & 1)) fault(c, a, fc, true, false, false);
    if (S == 1) return slow_write(c, a & 0xFFFFFF, fc, true, (uint16_t)((v & 0xFF) * 0x101));
    if (S == 4) {
      slow_write(c, a & 0xFFFFFF, fc, false, (uint16_t)(v >> 16));
      slow_write(c, (a + 2) & 0xFFFFFF, fc, false, (uint16_t)v);
      return;
    }
    slow_write(c, a & 0xFFFFFF, fc, false, (uint16_t)v);
  }
  template <int S> static M68K_INLINE void moves(Cpu& c, uint16_t op) {
    PRIV();
    uint16_t w = ext(c);
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t a = ea_addr<S>(c, mode, reg);
    uint32_t& rn = (w & 0x8000) ? wa(c, (w >> 12) & 7) : wd(c, (w >> 12) & 7);
    if (w & 0x800) {  // register to memory
      uint32_t v = rn;
      if (mode == 3 || mode == 4) {
        if ((int)((w >> 12) & 7) == reg && (w & 0x8000)) v = c.r_.a[reg];
      }
      write_fc<S>(c, a, c.r_.dfc, v);
      idle(c, 2);
    } else {
      uint32_t v = read_fc<S>(c, a, c.r_.sfc);
      if (w & 0x8000) rn = (uint32_t)sext<S>(v);
      else set_d<S>(c, (w >> 12) & 7, v);
      idle(c, 2);
    }
    prefetch(c);
  }
  static M68K_INLINE void bkpt(Cpu& c, uint16_t op) {
    if (!c.bus_.breakpoint_acknowledge(op & 7, c.cycles_)) {
      illegal(c, op);
      return;
    }
    idle(c, 4);
    prefetch(c);
  }

  // ------------------------------------------------------------------ group 0 / interrupts
  static void take_interrupt(Cpu& c, int level);
  static void group0(Cpu& c);
  static void build_table(Model m, Handler* t);
  template <bool Restartable> static void start_instruction(Cpu& c);
  // Every table entry is chain<handler>: the handler (inlined where the compiler likes), then
  // the next instruction is dispatched from here as a tail call, so each handler has its own
  // indirect jump (better predicted than one shared dispatch site) and the run loop is entered
  // once per burst. The burst ends when cycles_ reaches limit_ (see run_loop) or after
  // budget_ instructions, which bounds the stack should the tail call not be optimised
  // (unoptimised builds).
  template <Handler H> static M68K_INLINE void chain(Cpu& c, uint16_t op) {
    H(c, op);
    c.instructions_++;
    if (M68K_LIKELY(c.cycles_ < c.limit_) && M68K_LIKELY(--c.budget_ != 0)) {
      c.inst_pc_ = c.pc_ - 4;
      c.pc_adj_ = 0;
      c.post_undo_ = -1;
      if (c.restartable_) c.snapshot();
      const uint16_t next = c.ird_;
      return c.table_[next](c, next);
    }
  }
  template <bool Restartable> static void run_loop(Cpu& c, uint64_t target);
};

void Exec::rte(Cpu& c, uint16_t) {
  PRIV();
  uint32_t sp = c.r_.a[7];
  uint16_t nsr = (uint16_t)rd<2>(c, sp);
  uint32_t npc = rd<4>(c, sp + 2);
  if (c.model_ == Model::MC68010) {
    uint16_t fmt = (uint16_t)rd<2>(c, sp + 6);
    switch (fmt >> 12) {
      case 0x0:
        wa(c, 7) = sp + 8;
        break;
      case 0x8: {
        // Internal words (frame word 13 on): magic 0x4D38, then the faulted instruction's
        // address; the instruction restarts from its first word (README.md).
        uint16_t magic = (uint16_t)rd<2>(c, sp + 2 * 13);
        if (magic != 0x4D38) {
          wa(c, 7) = sp;
          exception(c, 14, c.pc_ - 4, 4);
          return;
        }
        uint32_t restart = rd<2>(c, sp + 2 * 14) << 16 | rd<2>(c, sp + 2 * 15);
        npc = restart;
        wa(c, 7) = sp + 58;
        break;
      }
      default:
        exception(c, 14, c.pc_ - 4, 4);
        return;
    }
  } else {
    wa(c, 7) = sp + 6;
  }
  set_sr(c, nsr);
  jump(c, npc);
}

void Exec::take_interrupt(Cpu& c, int level) {
  uint16_t old = sr(c);
  bool was_stopped = c.stopped_;
  c.stopped_ = false;
  c.loop_mode_ = false;
  set_supervisor(c, true);
  c.t_ = false;
  c.mask_ = level;
  uint32_t wait = 0;
  idle(c, 6);
  int vec = c.bus_.interrupt_acknowledge(level, c.cycles_, wait);
  c.cycles_ += 4 + wait;
  if (vec == Bus::kAutovector) vec = 24 + level;
  else if (vec == Bus::kSpurious) vec = 24;
  idle(c, 2);
  uint32_t pc = c.pc_ - 4;
  if (was_stopped) pc = c.pc_;  // STOP leaves PC at its immediate word
  if (c.model_ == Model::MC68010) push16(c, (uint16_t)(vec * 4));
  wa(c, 7) -= 6;
  wr<2>(c, c.r_.a[7] + 4, pc & 0xFFFF);
  wr<2>(c, c.r_.a[7], old);
  wr<2>(c, c.r_.a[7] + 2, pc >> 16);
  uint32_t target = read<4>(c, vbr(c) + (uint32_t)vec * 4, FC_SUPERVISOR_DATA);
  jump(c, target);
}

// Builds the frame for the fault recorded in c.fault_*: the 68000 7-word group-0 frame, or the
// 68010 29-word format $8 frame (bus and address error alike).
void Exec::group0(Cpu& c) {
  if (c.in_group0_) {
    c.halted_ = true;
    c.halt_pc_ = c.inst_pc_;
    c.halt_address_ = c.fault_addr_;
    std::snprintf(c.halt_text_, sizeof c.halt_text_, "double bus fault at PC=0x%06X address=0x%06X",
                  c.inst_pc_ & 0xFFFFFF, c.fault_addr_ & 0xFFFFFF);
    c.halt_reason_ = c.halt_text_;
    return;
  }
  c.in_group0_ = true;
  int vec = c.fault_berr_ ? 2 : 3;
  if (c.model_ == Model::MC68010) {
    // Roll the instruction back to its start so that RTE can rerun it.
    for (uint32_t i = c.undo_n_; i-- > 0;) *c.undo_log_[i].reg = c.undo_log_[i].old;
    c.undo_n_ = 0;
    c.r_.usp = c.undo_.usp;
    uint16_t old = c.inst_sr();
    c.s_ = (old >> 13) & 1;  // registers above are in the instruction's own mode
    c.cur_pages_ = c.pages_[c.s_ ? 1 : 0];
    c.fetch_page_ = Cpu::kNoFetchPage;
    set_sr(c, old);
    set_supervisor(c, true);
    c.t_ = false;
    c.loop_mode_ = false;
    idle(c, 8);
    uint16_t ssw = (uint16_t)((c.fault_write_ ? 0 : 0x100) | (c.fault_instr_ ? 0x2000 : 0x1000) |
                              (c.fault_fc_ & 7));
    uint16_t frame[29] = {};
    frame[0] = old;
    frame[1] = (uint16_t)(c.inst_pc_ >> 16);
    frame[2] = (uint16_t)c.inst_pc_;
    frame[3] = (uint16_t)(0x8000 | vec * 4);
    frame[4] = ssw;
    frame[5] = (uint16_t)(c.fault_addr_ >> 16);
    frame[6] = (uint16_t)c.fault_addr_;
    frame[8] = c.fault_data_;
    frame[12] = c.ird_;
    frame[13] = 0x4D38;
    frame[14] = (uint16_t)(c.inst_pc_ >> 16);
    frame[15] = (uint16_t)c.inst_pc_;
    uint32_t sp = c.r_.a[7] - 58;
    for (int i = 28; i >= 0; i--) wr<2>(c, sp + 2 * i, frame[i]);
    wa(c, 7) = sp;
    uint32_t target = read<4>(c, vbr(c) + vec * 4, FC_SUPERVISOR_DATA);
    jump(c, target);
  } else {
    if (c.post_undo_ >= 0 && !c.fault_berr_) wa(c, c.post_undo_) -= 4;
    uint16_t old = sr(c);
    set_supervisor(c, true);
    c.t_ = false;
    idle(c, 12);  // the aborted bus cycle still takes its 4 clocks
    uint16_t ssw = (uint16_t)((c.ird_ & 0xFFE0) | (c.fault_write_ ? 0 : 0x10) |
                              (c.fault_fc_ & 7));
    uint32_t pc = c.fault_pc_;
    uint32_t sp = c.r_.a[7] - 14;
    wr<2>(c, sp + 12, pc & 0xFFFF);
    wr<2>(c, sp + 8, old);
    wr<2>(c, sp + 10, pc >> 16);
    wr<2>(c, sp + 6, c.ird_);
    wr<2>(c, sp + 4, c.fault_addr_ & 0xFFFF);
    wr<2>(c, sp + 0, ssw);
    wr<2>(c, sp + 2, c.fault_addr_ >> 16);
    wa(c, 7) = sp;
    idle(c, 2);
    uint32_t target = read<4>(c, vbr(c) + vec * 4, FC_SUPERVISOR_DATA);
    jump(c, target);
  }
  c.in_group0_ = false;
}

// ---------------------------------------------------------------------- decoder
namespace {
// Effective-address classes as bit sets over the 12 mode slots (0-6, then 7.0-7.4).
enum : uint16_t {
  EA_DN = 1 << 0, EA_AN = 1 << 1, EA_IND = 1 << 2, EA_POST = 1 << 3, EA_PRE = 1 << 4,
  EA_D16 = 1 << 5, EA_IDX = 1 << 6, EA_ABSW = 1 << 7, EA_ABSL = 1 << 8, EA_PC16 = 1 << 9,
  EA_PCIDX = 1 << 10, EA_IMM = 1 << 11,
  EA_ALL = 0xFFF,
  EA_DATA = EA_ALL & ~EA_AN,
  EA_MEM = EA_ALL & ~(EA_DN | EA_AN),
  EA_CTRL = EA_IND | EA_D16 | EA_IDX | EA_ABSW | EA_ABSL | EA_PC16 | EA_PCIDX,
  EA_ALT = EA_DN | EA_AN | EA_IND | EA_POST | EA_PRE | EA_D16 | EA_IDX | EA_ABSW | EA_ABSL,
  EA_DALT = EA_ALT & ~EA_AN,
  EA_MALT = EA_ALT & ~(EA_DN | EA_AN),
};
bool ea_ok(uint16_t op, uint16_t cls) {
  int mode = (op >> 3) & 7, reg = op & 7;
  int slot = mode < 7 ? mode : (reg <= 4 ? 7 + reg : -1);
  return slot >= 0 && (cls >> slot) & 1;
}
}  // namespace

// by_slot<Cls>(slot, f): f(integral_constant<M>) for the slot M of the opcode, instantiated only
// for the slots in the class Cls; any other slot decodes to the illegal instruction.
int slot_of(uint16_t op) {
  int mode = (op >> 3) & 7, reg = op & 7;
  return mode < 7 ? mode : (reg <= 4 ? 7 + reg : -1);
}
template <uint16_t Cls, int M = 0, typename F> Handler by_slot(int slot, F f) {
  if constexpr (M > 11) {
    (void)slot;
    (void)f;
    return &Exec::chain<&Exec::illegal>;
  } else {
    if constexpr (((Cls >> M) & 1) != 0) {
      if (slot == M) return f(std::integral_constant<int, M>{});
    }
    return by_slot<Cls, M + 1>(slot, f);
  }
}
// by_n<N>(n, f): f(integral_constant<I>) for I = n (condition codes).
template <int N, int I = 0, typename F> Handler by_n(int n, F f) {
  if constexpr (I >= N) {
    (void)n;
    (void)f;
    return &Exec::chain<&Exec::illegal>;
  } else {
    if (n == I) return f(std::integral_constant<int, I>{});
    return by_n<N, I + 1>(n, f);
  }
}
#define BY_EA(cls, ...)                                  \
  by_slot<cls>(slot_of(op), [&](auto m_) -> Handler {    \
    constexpr int M = decltype(m_)::value;               \
    return __VA_ARGS__;                                  \
  })
#define BY_CC(...)                                       \
  by_n<16>((op >> 8) & 15, [&](auto cc_) -> Handler {    \
    constexpr int CC = decltype(cc_)::value;             \
    return __VA_ARGS__;                                  \
  })

#define SIZED(tmpl, ...)                                                            \
  (sz == 0 ? &Exec::chain<&Exec::tmpl<1, ##__VA_ARGS__>> : sz == 1 ? &Exec::chain<&Exec::tmpl<2, ##__VA_ARGS__>> \
                                                     : &Exec::chain<&Exec::tmpl<4, ##__VA_ARGS__>>)

static Handler decode(uint16_t op, Model m) {
  const bool m10 = m == Model::MC68010;
  const int line = op >> 12;
  const int sz = (op >> 6) & 3;
  const int mode = (op >> 3) & 7;
  switch (line) {
    case 0x0: {
      if (op == 0x003C || op == 0x023C || op == 0x0A3C) return &Exec::chain<&Exec::ccr_imm>;
      if (op == 0x007C || op == 0x027C || op == 0x0A7C) return &Exec::chain<&Exec::sr_imm>;
      if (op & 0x100) {
        if (mode == 1) return sz == 0 ? &Exec::chain<&Exec::movep<2>> : sz == 1 ? &Exec::chain<&Exec::movep<4>>
                            : sz == 2 ? &Exec::chain<&Exec::movep<2>> : &Exec::chain<&Exec::movep<4>>;
        int k = sz;
        if (k == 0 ? !ea_ok(op, EA_DATA) : !ea_ok(op, EA_DALT)) return &Exec::chain<&Exec::illegal>;
        switch (k) {
          case 0: return &Exec::chain<&Exec::bitop<0, false>>;
          case 1: return &Exec::chain<&Exec::bitop<1, false>>;
          case 2: return &Exec::chain<&Exec::bitop<2, false>>;
          default: return &Exec::chain<&Exec::bitop<3, false>>;
        }
      }
      int kind = (op >> 9) & 7;
      if (kind == 4) {  // static bit ops
        if (sz == 0 ? !ea_ok(op, EA_DATA & ~EA_IMM) : !ea_ok(op, EA_DALT)) return &Exec::chain<&Exec::illegal>;
        switch (sz) {
          case 0: return &Exec::chain<&Exec::bitop<0, true>>;
          case 1: return &Exec::chain<&Exec::bitop<1, true>>;
          case 2: return &Exec::chain<&Exec::bitop<2, true>>;
          default: return &Exec::chain<&Exec::bitop<3, true>>;
        }
      }
      if (kind == 7) {
        if (m10 && sz != 3 && ea_ok(op, EA_MALT)) return SIZED(moves);
        return &Exec::chain<&Exec::illegal>;
      }
      if (sz == 3) return &Exec::chain<&Exec::illegal>;
      switch (kind) {
        case 0: return BY_EA(EA_DALT, SIZED(alu_imm, 3, M));
        case 1: return BY_EA(EA_DALT, SIZED(alu_imm, 2, M));
        case 2: return BY_EA(EA_DALT, SIZED(alu_imm, 1, M));
        case 3: return BY_EA(EA_DALT, SIZED(alu_imm, 0, M));
        case 5: return BY_EA(EA_DALT, SIZED(alu_imm, 4, M));
        case 6: return BY_EA(EA_DALT, SIZED(alu_imm, 5, M));
        default: return &Exec::chain<&Exec::illegal>;
      }
    }
    case 0x1: case 0x2: case 0x3: {
      int dm = (op >> 6) & 7, dr = (op >> 9) & 7;
      int dslot = dm < 7 ? dm : (dr <= 1 ? 7 + dr : -1);
      if (line == 1 && (dm == 1 || mode == 1)) return &Exec::chain<&Exec::illegal>;
      return BY_EA(EA_ALL, by_slot<EA_ALT>(dslot, [&](auto d_) -> Handler {
        constexpr int DM = decltype(d_)::value;
        return line == 1 ? &Exec::chain<&Exec::move<1, M, DM>> : line == 3 ? &Exec::chain<&Exec::move<2, M, DM>>
                                                              : &Exec::chain<&Exec::move<4, M, DM>>;
      }));
    }
    case 0x4: {
      if (op & 0x100) {
        if (sz == 3) return BY_EA(EA_CTRL, &Exec::chain<&Exec::lea<M>>);
        if (sz == 2) return ea_ok(op, EA_DATA) ? &Exec::chain<&Exec::chk> : &Exec::chain<&Exec::illegal>;
        return &Exec::chain<&Exec::illegal>;
      }
      switch ((op >> 8) & 0xF) {
        case 0x0:
          if (sz == 3) return ea_ok(op, EA_DALT) ? &Exec::chain<&Exec::move_from_status<true>> : &Exec::chain<&Exec::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 0, M));
        case 0x2:
          if (sz == 3) return m10 && ea_ok(op, EA_DALT) ? &Exec::chain<&Exec::move_from_status<false>> : &Exec::chain<&Exec::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 1, M));
        case 0x4:
          if (sz == 3) return ea_ok(op, EA_DATA) ? &Exec::chain<&Exec::move_to_ccr> : &Exec::chain<&Exec::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 2, M));
        case 0x6:
          if (sz == 3) return ea_ok(op, EA_DATA) ? &Exec::chain<&Exec::move_to_sr> : &Exec::chain<&Exec::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 3, M));
        case 0x8:
          switch (sz) {
            case 0: return ea_ok(op, EA_DALT) ? &Exec::chain<&Exec::nbcd> : &Exec::chain<&Exec::illegal>;
            case 1:
              if (mode == 0) return &Exec::chain<&Exec::swap_>;
              if (mode == 1 && m10) return &Exec::chain<&Exec::bkpt>;
              return ea_ok(op, EA_CTRL) ? &Exec::chain<&Exec::pea> : &Exec::chain<&Exec::illegal>;
            case 2:
              if (mode == 0) return &Exec::chain<&Exec::ext_w>;
              return ea_ok(op, EA_CTRL | EA_PRE) && !ea_ok(op, EA_PC16 | EA_PCIDX)
                         ? &Exec::chain<&Exec::movem_to_mem<2>> : &Exec::chain<&Exec::illegal>;
            default:
              if (mode == 0) return &Exec::chain<&Exec::ext_l>;
              return ea_ok(op, EA_CTRL | EA_PRE) && !ea_ok(op, EA_PC16 | EA_PCIDX)
                         ? &Exec::chain<&Exec::movem_to_mem<4>> : &Exec::chain<&Exec::illegal>;
          }
        case 0xA:
          if (op == 0x4AFC) return &Exec::chain<&Exec::illegal>;
          if (sz == 3) return ea_ok(op, EA_DALT) ? &Exec::chain<&Exec::tas> : &Exec::chain<&Exec::illegal>;
          return BY_EA(EA_DALT, SIZED(tst, M));
        case 0xC:
          if (sz == 2) return ea_ok(op, EA_CTRL | EA_POST) ? &Exec::chain<&Exec::movem_to_reg<2>> : &Exec::chain<&Exec::illegal>;
          if (sz == 3) return ea_ok(op, EA_CTRL | EA_POST) ? &Exec::chain<&Exec::movem_to_reg<4>> : &Exec::chain<&Exec::illegal>;
          return &Exec::chain<&Exec::illegal>;
        case 0xE:
          if (sz == 1) {
            switch ((op >> 3) & 7) {
              case 0: case 1: return &Exec::chain<&Exec::trap>;
              case 2: return &Exec::chain<&Exec::link>;
              case 3: return &Exec::chain<&Exec::unlk>;
              case 4: case 5: return &Exec::chain<&Exec::move_usp>;
              case 6:
                switch (op & 7) {
                  case 0: return &Exec::chain<&Exec::reset_>;
                  case 1: return &Exec::chain<&Exec::nop>;
                  case 2: return &Exec::chain<&Exec::stop>;
                  case 3: return &Exec::chain<&Exec::rte>;
                  case 4: return m10 ? &Exec::chain<&Exec::rtd> : &Exec::chain<&Exec::illegal>;
                  case 5: return &Exec::chain<&Exec::rts>;
                  case 6: return &Exec::chain<&Exec::trapv>;
                  default: return &Exec::chain<&Exec::rtr>;
                }
              default:
                if (m10 && (op == 0x4E7A || op == 0x4E7B)) return &Exec::chain<&Exec::movec>;
                return &Exec::chain<&Exec::illegal>;
            }
          }
          if (sz == 2) return ea_ok(op, EA_CTRL) ? &Exec::chain<&Exec::jmp<true>> : &Exec::chain<&Exec::illegal>;
          if (sz == 3) return ea_ok(op, EA_CTRL) ? &Exec::chain<&Exec::jmp<false>> : &Exec::chain<&Exec::illegal>;
          return &Exec::chain<&Exec::illegal>;
        default:
          return &Exec::chain<&Exec::illegal>;
      }
    }
    case 0x5:
      if (sz == 3) {
        if (mode == 1) return BY_CC(&Exec::chain<&Exec::dbcc<CC>>);
        return BY_CC(BY_EA(EA_DALT, &Exec::chain<&Exec::scc<CC, M>>));
      }
      if (sz == 0 && mode == 1) return &Exec::chain<&Exec::illegal>;
      return (op & 0x100) ? BY_EA(EA_ALT, SIZED(addq, true, M)) : BY_EA(EA_ALT, SIZED(addq, false, M));
    case 0x6:
      return BY_CC(&Exec::chain<&Exec::bcc<CC>>);
    case 0x7:
      return (op & 0x100) ? &Exec::chain<&Exec::illegal> : &Exec::chain<&Exec::moveq>;
    case 0x8: case 0xC: {
      bool is_and = line == 0xC;
      if (sz == 3) {
        if (!ea_ok(op, EA_DATA)) return &Exec::chain<&Exec::illegal>;
        if (is_and) return (op & 0x100) ? &Exec::chain<&Exec::mul<true>> : &Exec::chain<&Exec::mul<false>>;
        return (op & 0x100) ? &Exec::chain<&Exec::divs> : &Exec::chain<&Exec::divu>;
      }
      if (op & 0x100) {
        if (mode == 0 || mode == 1) {
          if (sz == 0) return is_and ? &Exec::chain<&Exec::bcd<false>> : &Exec::chain<&Exec::bcd<true>>;
          if (is_and && (op & 0x1F8) == 0x140) return &Exec::chain<&Exec::exg>;
          if (is_and && (op & 0x1F8) == 0x148) return &Exec::chain<&Exec::exg>;
          if (is_and && (op & 0x1F8) == 0x188) return &Exec::chain<&Exec::exg>;
          return &Exec::chain<&Exec::illegal>;
        }
        return is_and ? BY_EA(EA_MALT, SIZED(alu_to_ea, 2, M)) : BY_EA(EA_MALT, SIZED(alu_to_ea, 3, M));
      }
      return is_and ? BY_EA(EA_DATA, SIZED(alu_to_d, 2, M)) : BY_EA(EA_DATA, SIZED(alu_to_d, 3, M));
    }
    case 0x9: case 0xD: {
      bool sub = line == 0x9;
      if (sz == 3) {
        if (op & 0x100) return sub ? BY_EA(EA_ALL, &Exec::chain<&Exec::adda<4, true, M>>) : BY_EA(EA_ALL, &Exec::chain<&Exec::adda<4, false, M>>);
        return sub ? BY_EA(EA_ALL, &Exec::chain<&Exec::adda<2, true, M>>) : BY_EA(EA_ALL, &Exec::chain<&Exec::adda<2, false, M>>);
      }
      if (op & 0x100) {
        if (mode == 0 || mode == 1) return sub ? SIZED(addx, true) : SIZED(addx, false);
        return sub ? BY_EA(EA_MALT, SIZED(alu_to_ea, 1, M)) : BY_EA(EA_MALT, SIZED(alu_to_ea, 0, M));
      }
      if (sz == 0 && mode == 1) return &Exec::chain<&Exec::illegal>;
      return sub ? BY_EA(EA_ALL, SIZED(alu_to_d, 1, M)) : BY_EA(EA_ALL, SIZED(alu_to_d, 0, M));
    }
    case 0xA:
      return &Exec::chain<&Exec::line_a>;
    case 0xB:
      if (sz == 3) {
        return (op & 0x100) ? BY_EA(EA_ALL, &Exec::chain<&Exec::cmpa<4, M>>) : BY_EA(EA_ALL, &Exec::chain<&Exec::cmpa<2, M>>);
      }
      if (op & 0x100) {
        if (mode == 1) return SIZED(cmpm);
        return BY_EA(EA_DALT, SIZED(alu_to_ea, 4, M));
      }
      if (sz == 0 && mode == 1) return &Exec::chain<&Exec::illegal>;
      return BY_EA(EA_ALL, SIZED(cmp_to_d, M));
    case 0xE: {
      if (sz == 3) {
        if (op & 0x800) return &Exec::chain<&Exec::illegal>;
        if (!ea_ok(op, EA_MALT)) return &Exec::chain<&Exec::illegal>;
        bool left = op & 0x100;
        switch ((op >> 9) & 3) {
          case 0: return left ? &Exec::chain<&Exec::shift_mem<0, true>> : &Exec::chain<&Exec::shift_mem<0, false>>;
          case 1: return left ? &Exec::chain<&Exec::shift_mem<1, true>> : &Exec::chain<&Exec::shift_mem<1, false>>;
          case 2: return left ? &Exec::chain<&Exec::shift_mem<2, true>> : &Exec::chain<&Exec::shift_mem<2, false>>;
          default: return left ? &Exec::chain<&Exec::shift_mem<3, true>> : &Exec::chain<&Exec::shift_mem<3, false>>;
        }
      }
      bool left = op & 0x100;
      switch ((op >> 3) & 3) {
        case 0: return left ? SIZED(shift_reg, 0, true) : SIZED(shift_reg, 0, false);
        case 1: return left ? SIZED(shift_reg, 1, true) : SIZED(shift_reg, 1, false);
        case 2: return left ? SIZED(shift_reg, 2, true) : SIZED(shift_reg, 2, false);
        default: return left ? SIZED(shift_reg, 3, true) : SIZED(shift_reg, 3, false);
      }
    }
    default:
      return &Exec::chain<&Exec::line_f>;
  }
}

void Exec::build_table(Model m, Handler* t) {
  for (uint32_t op = 0; op < 65536; op++) t[op] = decode((uint16_t)op, m);
}

// ---------------------------------------------------------------------- run loop
// Two loops: the outer one handles everything that is rare (trace, interrupts, STOP, the
// per-instruction tracer, yield) one instruction at a time; when none applies it runs a burst
// in the inner loop, which only executes instructions until cycles_ reaches limit_. Whatever
// can make the outer checks true during a burst (set_ipl, request_yield, an SR write, STOP,
// set_tracer) sets limit_ to 0, so the burst ends after the current instruction.
template <bool Restartable> M68K_INLINE void Exec::start_instruction(Cpu& c) {
  c.inst_pc_ = c.pc_ - 4;
  c.pc_adj_ = 0;
  c.post_undo_ = -1;
  if (Restartable) c.snapshot();
}

template <bool Restartable> void Exec::run_loop(Cpu& c, uint64_t target) {
  const Handler* table = g_table[Restartable ? 1 : 0];
  c.table_ = table;
  c.restartable_ = Restartable;
  for (;;) {
    try {
      while (c.cycles_ < target && !c.yield_) {
        if (c.trace_pending_) {
          c.trace_pending_ = false;
          c.inst_pc_ = c.pc_ - 4;
          if (Restartable) c.snapshot();
          exception(c, 9, c.pc_ - 4, 6);
          continue;
        }
        if (c.nmi_pending_ || c.ipl_ > c.mask_) {
          int level = c.ipl_;
          c.nmi_pending_ = false;
          c.inst_pc_ = c.pc_ - 4;
          if (Restartable) c.snapshot();
          take_interrupt(c, level);
          continue;
        }
        if (c.stopped_) {
          c.cycles_ = target;
          return;
        }
        if (c.t_ || c.tracer_) {
          start_instruction<Restartable>(c);
          if (c.tracer_) c.tracer_(c.inst_pc_, c.cycles_);
          const bool trace = c.t_;
          const uint16_t op = c.ird_;
          c.limit_ = 0;  // one instruction, no chaining
          table[op](c, op);
          c.trace_pending_ = trace;
          continue;
        }
        c.limit_ = target;
        c.budget_ = kChainBudget;
        start_instruction<Restartable>(c);
        const uint16_t op = c.ird_;
        table[op](c, op);
      }
      return;
    } catch (const Group0&) {
      c.instructions_++;
      try {
        group0(c);
      } catch (const Group0&) {
        c.in_group0_ = true;
        group0(c);  // reports the double fault
      } catch (const HaltSignal&) {
      }
      c.in_group0_ = false;
      if (c.halted_) return;
    } catch (const HaltSignal&) {
      return;
    }
  }
}

// ---------------------------------------------------------------------- Cpu
Cpu::Cpu(Bus& bus, Model model) : bus_(bus), model_(model) {
  std::call_once(g_table_once, [] {
    Exec::build_table(Model::MC68000, g_table[0]);
    Exec::build_table(Model::MC68010, g_table[1]);
    for (uint32_t op = 0; op < 65536; op++) g_loopable[op] = loopable((uint16_t)op);
  });
  r_.sr = 0x2700;
  unpack_sr(r_.sr);
}

void Cpu::map_fast(Space space, uint32_t base, uint32_t size, uint8_t* host, bool writable,
                   uint32_t wait_states) {
  for (uint32_t off = 0; off < size; off += 1024) {
    uint32_t page = ((base + off) & 0xFFFFFF) >> 10;
    Page& p = pages_[(int)space][page];
    // Bias: host address of guest address 0 through this page (0 is reserved for "unmapped";
    // a host block that would give 0 stays on the Bus path, which is slower but exact).
    uintptr_t bias = (uintptr_t)(host + off) - ((uintptr_t)page << 10);
    p.read = bias;
    p.write = writable ? bias : 0;
    p.clocks = 4 + wait_states;
  }
  fetch_page_ = kNoFetchPage;
}

void Cpu::unmap_fast(Space space, uint32_t base, uint32_t size) {
  for (uint32_t off = 0; off < size; off += 1024) {
    pages_[(int)space][((base + off) & 0xFFFFFF) >> 10] = Page{};
  }
  fetch_page_ = kNoFetchPage;
}

void Cpu::unmap_all_fast() {
  for (auto& sp : pages_)
    for (auto& p : sp) p = Page{};
  fetch_page_ = kNoFetchPage;
}

uint16_t Cpu::pack_sr() const {
  return (uint16_t)((t_ ? 0x8000 : 0) | (s_ ? 0x2000 : 0) | mask_ << 8 | Exec::ccr(*this));
}

void Cpu::unpack_sr(uint16_t sr) {
  Exec::set_ccr(*this, (uint8_t)sr);
  t_ = (sr >> 15) & 1;
  mask_ = (sr >> 8) & 7;
  s_ = (sr >> 13) & 1;
  cur_pages_ = pages_[s_ ? 1 : 0];
  fetch_page_ = kNoFetchPage;
}

void Cpu::sync_in() {
  // a[7] is authoritative for the mode r_.sr names; the other stack pointer lives in usp/ssp.
  unpack_sr(r_.sr);
  if (r_.pc != synced_pc_) {
    // The platform moved the PC: refill the queue from memory without clocks.
    loop_mode_ = false;
    uint64_t saved = cycles_;
    try {
      Exec::jump(*this, r_.pc);
    } catch (...) {
    }
    cycles_ = saved;
  }
}

void Cpu::sync_out() {
  r_.sr = pack_sr();
  if (s_) r_.ssp = r_.a[7];
  else r_.usp = r_.a[7];
  r_.pc = pc_ - 4;
  synced_pc_ = r_.pc;
}

void Cpu::load_prefetch(uint16_t ird, uint16_t irc) {
  ird_ = ird;
  irc_ = irc;
  trace_pending_ = false;  // a fresh instruction boundary
  loop_mode_ = false;
  pc_ = r_.pc + 4;
  synced_pc_ = r_.pc;
}

void Cpu::reset() {
  halted_ = stopped_ = false;
  loop_mode_ = false;
  unpack_sr(0x2700);
  t_ = false;
  r_.vbr = 0;
  uint64_t before = cycles_;
  try {
    uint32_t ssp = Exec::read<4>(*this, 0, FC_SUPERVISOR_PROGRAM);
    uint32_t pc = Exec::read<4>(*this, 4, FC_SUPERVISOR_PROGRAM);
    r_.a[7] = ssp;
    r_.ssp = ssp;
    Exec::jump(*this, pc);
  } catch (...) {
    halted_ = true;
    halt_reason_ = "bus fault while fetching the reset vectors";
  }
  cycles_ = before + 40 + (cycles_ - before - 24);
  sync_out();
}

uint64_t Cpu::run_until(uint64_t cycle) {
  yield_ = false;
  if (halted_) return cycles_;
  sync_in();
  if (model_ == Model::MC68010) Exec::run_loop<true>(*this, cycle);
  else Exec::run_loop<false>(*this, cycle);
  sync_out();
  return cycles_;
}

void Cpu::set_ipl(int level) {
  limit_ = 0;  // re-check interrupts after the current instruction
  if (level == 7 && ipl_ != 7) nmi_pending_ = true;
  ipl_ = level;
}

}  // namespace m68k
