// Opcode line 0: the immediate arithmetic and logic (ORI, ANDI, SUBI, ADDI, EORI, CMPI, also
// to CCR and SR), the bit operations (BTST, BCHG, BCLR, BSET), MOVEP and the 68010's MOVES.
#include "m68k_decode.h"

namespace m68k {

struct ImmediateBitOps : Exec {
  // ------------------------------------------------------------------ arithmetic
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
      set_d_last<S>(c, reg, r);
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

  // ------------------------------------------------------------------ moves
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
  // ANDI/ORI/EORI to CCR and SR: 20(3/0) on the 68000; the 68010 (Table 9-18, 16(2/0)) does
  // not refill behind the immediate word, since the refill that follows discards it.
  static M68K_INLINE uint16_t status_imm(Cpu& c) {
    if (!m10(c)) return ext(c);
    HOT_PC(c) += 2;  // past a word it does not fetch
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

  // ------------------------------------------------------------------ bit operations
  // K: 0 btst, 1 bchg, 2 bclr, 3 bset
  template <int K, bool Imm> static M68K_INLINE void bitop(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t bit = Imm ? ext(c) : c.r_.d[(op >> 9) & 7];
    if (mode == 0) {
      bit &= 31;
      uint32_t& d = wd(c, reg);
      c.z_ = (d >> bit) & 1;
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
      c.z_ = (v >> bit) & 1;
      prefetch(c);
      idle(c, 2);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    uint32_t v = (mode == 7 && reg >= 2) ? rd<1, 1>(c, a) : rd<1>(c, a);
    c.z_ = (v >> bit) & 1;
    prefetch(c);
    switch (K) {
      case 0: return;
      case 1: v ^= 1u << bit; break;
      case 2: v &= ~(1u << bit); break;
      default: v |= 1u << bit; break;
    }
    wr<1>(c, a, v);
  }

  // ------------------------------------------------------------------ 68010 additions
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
};

namespace {
using Self = ImmediateBitOps;
}  // namespace

Handler decode_immediate_bit_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0x0: {
      if (op == 0x003C || op == 0x023C || op == 0x0A3C) return &Exec::chain<&Self::ccr_imm>;
      if (op == 0x007C || op == 0x027C || op == 0x0A7C) return &Exec::chain<&Self::sr_imm>;
      if (op & 0x100) {
        if (f.mode == 1) return f.sz == 0 ? &Exec::chain<&Self::movep<2>> : f.sz == 1 ? &Exec::chain<&Self::movep<4>>
                            : f.sz == 2 ? &Exec::chain<&Self::movep<2>> : &Exec::chain<&Self::movep<4>>;
        int k = f.sz;
        if (k == 0 ? !ea_ok(op, EA_DATA) : !ea_ok(op, EA_DALT)) return &Exec::chain<&Self::illegal>;
        switch (k) {
          case 0: return &Exec::chain<&Self::bitop<0, false>>;
          case 1: return &Exec::chain<&Self::bitop<1, false>>;
          case 2: return &Exec::chain<&Self::bitop<2, false>>;
          default: return &Exec::chain<&Self::bitop<3, false>>;
        }
      }
      int kind = (op >> 9) & 7;
      if (kind == 4) {  // static bit ops
        if (f.sz == 0 ? !ea_ok(op, EA_DATA & ~EA_IMM) : !ea_ok(op, EA_DALT)) return &Exec::chain<&Self::illegal>;
        switch (f.sz) {
          case 0: return &Exec::chain<&Self::bitop<0, true>>;
          case 1: return &Exec::chain<&Self::bitop<1, true>>;
          case 2: return &Exec::chain<&Self::bitop<2, true>>;
          default: return &Exec::chain<&Self::bitop<3, true>>;
        }
      }
      if (kind == 7) {
        if (f.m10 && f.sz != 3 && ea_ok(op, EA_MALT)) return SIZED(moves);
        return &Exec::chain<&Self::illegal>;
      }
      if (f.sz == 3) return &Exec::chain<&Self::illegal>;
      switch (kind) {
        case 0: return BY_EA(EA_DALT, SIZED(alu_imm, 3, M));
        case 1: return BY_EA(EA_DALT, SIZED(alu_imm, 2, M));
        case 2: return BY_EA(EA_DALT, SIZED(alu_imm, 1, M));
        case 3: return BY_EA(EA_DALT, SIZED(alu_imm, 0, M));
        case 5: return BY_EA(EA_DALT, SIZED(alu_imm, 4, M));
        case 6: return BY_EA(EA_DALT, SIZED(alu_imm, 5, M));
        default: return &Exec::chain<&Self::illegal>;
      }
    }
    default:
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
