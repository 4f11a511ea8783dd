// Opcode lines 8, 9, B, C and D: OR, SUB, CMP, EOR, AND, ADD (and their address forms ADDA,
// SUBA, CMPA), ADDX, SUBX, CMPM, MULU, MULS, DIVU, DIVS, ABCD, SBCD and EXG.
#include "m68k_decode.h"

namespace m68k {

struct ArithLogicOps : Exec {
  // ------------------------------------------------------------------ arithmetic
  template <int S, int K, int M> static M68K_INLINE void alu_to_d(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int dn = (op >> 9) & 7;
    uint32_t s = src<S>(c, mode, reg);
    uint32_t r = alu<S, K>(c, s, c.r_.d[dn]);
    prefetch(c);
    if (S == 4) idle(c, (mode == 0 || mode == 1 || (mode == 7 && reg == 4)) ? 4 : 2);
    set_d_last<S>(c, dn, r);
  }
  template <int S, int K, int M> static M68K_INLINE void alu_to_ea(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    const int dn = (op >> 9) & 7;
    if (mode == 0) {  // EOR Dn,Dn
      uint32_t r = alu<S, K>(c, c.r_.d[dn], c.r_.d[reg]);
      prefetch(c);
      if (S == 4) idle(c, 4);
      set_d_last<S>(c, reg, r);
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
    wa_last(c, an) = Sub ? c.r_.a[an] - s : c.r_.a[an] + s;
  }
  // ADDX/SUBX Dy,Dx and -(Ay),-(Ax)
  template <int S, bool Sub> static M68K_INLINE void addx(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    if (op & 8) {
      idle(c, 2);
      c.inst_.pc_adj = 2;
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
      c.z_ |= r;
      prefetch(c);
      wr<S>(c, c.r_.a[rx], r);
      return;
    }
    uint32_t r = Sub ? sub<S>(c, c.r_.d[ry], c.r_.d[rx], c.fx_) : add<S>(c, c.r_.d[ry], c.r_.d[rx], c.fx_);
    c.z_ |= r;
    prefetch(c);
    if (S == 4) idle(c, 4);
    set_d_last<S>(c, rx, r);
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
    c.inst_.pc_adj = 2;
    wa(c, ry) += S == 4 ? 2 : step_y;
    uint32_t s = rd<S>(c, as);
    if (S == 4) wa(c, ry) += 2;
    uint32_t ad = c.r_.a[rx];
    uint32_t d = rd<S>(c, ad);
    wa(c, rx) += (S == 1 && rx == 7) ? 2 : S;
    cmp<S>(c, s, d);
    prefetch(c);
  }

  // ------------------------------------------------------------------ moves
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
    c.n_ = d;
    c.z_ = d >> 16;
    exception(c, 5, HOT_PC(c) - 2, 8);
  }
  static M68K_INLINE void divu(Cpu& c, uint16_t op) {
    uint16_t s = (uint16_t)src<2>(c, (op >> 3) & 7, op & 7);
    uint32_t& d = wd(c, (op >> 9) & 7);
    if (s == 0) return divide_by_zero(c, d);
    uint32_t dividend = d;
    if ((dividend >> 16) >= s) {
      c.fv_ = 1; c.fc_ = 0; c.n_ = 0x80000000u; c.z_ = 1;
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
      c.fv_ = 1; c.fc_ = 0; c.n_ = 0x80000000u; c.z_ = 1;
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
      c.fv_ = 1; c.fc_ = 0; c.n_ = 0x80000000u; c.z_ = 1;
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
  template <bool Sub> static M68K_INLINE void bcd(Cpu& c, uint16_t op) {
    int rx = (op >> 9) & 7, ry = op & 7;
    if (op & 8) {
      idle(c, 2);
      c.inst_.pc_adj = 2;
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
    set_d_last<1>(c, rx, r);
  }
};

namespace {
using Self = ArithLogicOps;
}  // namespace

Handler decode_arith_logic_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0x8: case 0xC: {
      bool is_and = f.line == 0xC;
      if (f.sz == 3) {
        if (!ea_ok(op, EA_DATA)) return &Exec::chain<&Self::illegal>;
        if (is_and) return (op & 0x100) ? &Exec::chain<&Self::mul<true>> : &Exec::chain<&Self::mul<false>>;
        return (op & 0x100) ? &Exec::chain<&Self::divs> : &Exec::chain<&Self::divu>;
      }
      if (op & 0x100) {
        if (f.mode == 0 || f.mode == 1) {
          if (f.sz == 0) return is_and ? &Exec::chain<&Self::bcd<false>> : &Exec::chain<&Self::bcd<true>>;
          if (is_and && (op & 0x1F8) == 0x140) return &Exec::chain<&Self::exg>;
          if (is_and && (op & 0x1F8) == 0x148) return &Exec::chain<&Self::exg>;
          if (is_and && (op & 0x1F8) == 0x188) return &Exec::chain<&Self::exg>;
          return &Exec::chain<&Self::illegal>;
        }
        return is_and ? BY_EA(EA_MALT, SIZED(alu_to_ea, 2, M)) : BY_EA(EA_MALT, SIZED(alu_to_ea, 3, M));
      }
      return is_and ? BY_EA(EA_DATA, SIZED(alu_to_d, 2, M)) : BY_EA(EA_DATA, SIZED(alu_to_d, 3, M));
    }
    case 0x9: case 0xD: {
      bool sub = f.line == 0x9;
      if (f.sz == 3) {
        if (op & 0x100) return sub ? BY_EA(EA_ALL, &Exec::chain<&Self::adda<4, true, M>>) : BY_EA(EA_ALL, &Exec::chain<&Self::adda<4, false, M>>);
        return sub ? BY_EA(EA_ALL, &Exec::chain<&Self::adda<2, true, M>>) : BY_EA(EA_ALL, &Exec::chain<&Self::adda<2, false, M>>);
      }
      if (op & 0x100) {
        if (f.mode == 0 || f.mode == 1) return sub ? SIZED(addx, true) : SIZED(addx, false);
        return sub ? BY_EA(EA_MALT, SIZED(alu_to_ea, 1, M)) : BY_EA(EA_MALT, SIZED(alu_to_ea, 0, M));
      }
      if (f.sz == 0 && f.mode == 1) return &Exec::chain<&Self::illegal>;
      return sub ? BY_EA(EA_ALL, SIZED(alu_to_d, 1, M)) : BY_EA(EA_ALL, SIZED(alu_to_d, 0, M));
    }
    case 0xB:
      if (f.sz == 3) {
        return (op & 0x100) ? BY_EA(EA_ALL, &Exec::chain<&Self::cmpa<4, M>>) : BY_EA(EA_ALL, &Exec::chain<&Self::cmpa<2, M>>);
      }
      if (op & 0x100) {
        if (f.mode == 1) return SIZED(cmpm);
        return BY_EA(EA_DALT, SIZED(alu_to_ea, 4, M));
      }
      if (f.sz == 0 && f.mode == 1) return &Exec::chain<&Self::illegal>;
      return BY_EA(EA_ALL, SIZED(cmp_to_d, M));
    default:
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
