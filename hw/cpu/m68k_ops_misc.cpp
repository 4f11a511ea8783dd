// Opcode line 4, the miscellaneous group: NEGX, CLR, NEG, NOT, TST, TAS, NBCD, CHK, LEA, PEA,
// SWAP, EXT, MOVEM, MOVE to/from SR and CCR, MOVE USP, JMP, JSR, RTS, RTR, RTE, RTD, LINK,
// UNLK, TRAP, TRAPV, NOP, RESET, STOP, and the 68010's MOVEC and BKPT.
#include "m68k_decode.h"

namespace m68k {

struct MiscOps : Exec {
  // ------------------------------------------------------------------ arithmetic
  // NEGX/CLR/NEG/NOT: K 0 negx, 1 clr, 2 neg, 3 not
  template <int S, int K> static uint32_t unary_op(Cpu& c, uint32_t d) {
    uint32_t r;
    switch (K) {
      case 0:
        r = sub<S>(c, d, 0, c.fx_);
        c.z_ |= r;
        return r;
      case 1: r = 0; c.n_ = 0; c.z_ = 0; c.fv_ = c.fc_ = 0; return r;
      case 2: r = sub<S>(c, d, 0); c.z_ = r; return r;
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
      set_d_last<S>(c, reg, r);
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
  template <int M> static M68K_INLINE void lea(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    uint32_t a = ea_addr<4>(c, mode, reg);
    if (mode == 6 || (mode == 7 && reg == 3)) idle(c, 2);
    prefetch(c);
    wa_last(c, (op >> 9) & 7) = a;
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
  static M68K_INLINE void swap_(Cpu& c, uint16_t op) {
    uint32_t& d = wd(c, op & 7);
    d = d << 16 | d >> 16;
    logic_flags<4>(c, d);
    prefetch(c);
  }
  static M68K_INLINE void ext_w(Cpu& c, uint16_t op) {
    uint32_t& d = wd(c, op & 7);
    d = merge<2>(d, (uint16_t)(int8_t)d);
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
    c.inst_.pc_adj = 2;
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
    c.inst_.pc_adj = 2;
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
    c.inst_.pc_adj = 2;
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
      set_d_last<2>(c, reg, FromSr ? sr(c) : ccr(c));
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
  static M68K_INLINE void move_usp(Cpu& c, uint16_t op) {
    PRIV();
    prefetch(c);
    if (m10(c)) idle(c, 2);  // Table 9-18: 6(1/0) on the 68010, 4(1/0) on the 68000
    if (op & 8) wa(c, op & 7) = c.r_.usp;
    else logged(c, c.r_.usp) = c.r_.a[op & 7];
  }

  // ------------------------------------------------------------------ control flow
  template <bool Jsr> static M68K_INLINE void jmp(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    uint32_t target;
    uint32_t ret;
    switch (mode) {
      case 2: target = c.r_.a[reg]; ret = HOT_PC(c) - 2; break;
      case 5: target = c.r_.a[reg] + (uint32_t)(int16_t)c.irc_; ret = HOT_PC(c); idle(c, 2); break;
      case 6: target = index(c, c.r_.a[reg], c.irc_); ret = HOT_PC(c); idle(c, 6); break;
      default:
        switch (reg) {
          case 0: target = (uint32_t)(int16_t)c.irc_; ret = HOT_PC(c); idle(c, 2); break;
          case 1: {
            uint32_t hi = c.irc_;
            c.irc_ = fetch16(c, HOT_PC(c));
            HOT_PC(c) += 2;
            target = hi << 16 | c.irc_;
            ret = HOT_PC(c);
            break;
          }
          case 2: target = HOT_PC(c) - 2 + (uint32_t)(int16_t)c.irc_; ret = HOT_PC(c); idle(c, 2); break;
          default: target = index(c, HOT_PC(c) - 2, c.irc_); ret = HOT_PC(c); idle(c, 6); break;
        }
    }
    // A faulting target is reported before anything is stacked.
    uint32_t fpc = Jsr ? (mode == 2 ? HOT_PC(c) - 2 : HOT_PC(c)) : (mode == 7 && reg == 1 ? HOT_PC(c) - 4 : HOT_PC(c) - 2);
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
    c.inst_.pc_adj = 2;
    uint32_t v = rd<4>(c, c.r_.a[reg]);
    wa(c, 7) = c.r_.a[reg] + 4;
    wa(c, reg) = v;
    prefetch(c);
  }
  static M68K_INLINE void trap(Cpu& c, uint16_t op) { exception(c, 32 + (op & 15), HOT_PC(c) - 2, 6); }
  static M68K_INLINE void trapv(Cpu& c, uint16_t) {
    if (c.fv_) {
      exception(c, 7, HOT_PC(c) - 2, 6);
      return;
    }
    prefetch(c);
  }
  static M68K_INLINE void nop(Cpu& c, uint16_t) { prefetch(c); }
  static M68K_INLINE void reset_(Cpu& c, uint16_t) {
    PRIV();
    call_out(c, [&] { c.bus_.reset_devices(c.cycles_); });
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
    logic_flags<2>(c, (uint16_t)v);
    // The microcode tests the upper bound first, hence the shorter path.
    if (v > bound) {
      exception(c, 6, HOT_PC(c) - 2, 10);
      return;
    }
    if (v < 0) {
      // The microcode has subtracted the bound in 16 bits: a result that wrapped to positive
      // (Dn - bound overflowed) takes the shorter path, as if Dn were above the bound.
      exception(c, 6, HOT_PC(c) - 2, (int16_t)(uint16_t)(v - bound) > 0 ? 10 : 12);
      return;
    }
    idle(c, m10(c) ? 4 : 6);  // no trap: Table 9-18 8(1/0)+, 68000 10(1/0)+
    prefetch(c);
  }

  // ------------------------------------------------------------------ BCD
  static M68K_INLINE void nbcd(Cpu& c, uint16_t op) {
    int mode = (op >> 3) & 7, reg = op & 7;
    if (mode == 0) {
      uint32_t r = sbcd_op(c, c.r_.d[reg], 0);
      prefetch(c);
      idle(c, 2);
      set_d_last<1>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    uint32_t d = rd<1>(c, a);
    uint32_t r = sbcd_op(c, d, 0);
    prefetch(c);
    wr<1>(c, a, r);
  }

  // ------------------------------------------------------------------ 68010 additions
  static M68K_INLINE void movec(Cpu& c, uint16_t op) {
    PRIV();
    uint16_t w = ext(c);
    uint32_t& rn = (w & 0x8000) ? wa(c, (w >> 12) & 7) : wd(c, (w >> 12) & 7);
    uint16_t cr = w & 0xFFF;
    if (cr != 0x000 && cr != 0x001 && cr != 0x800 && cr != 0x801) {
      HOT_PC(c) -= 2;  // illegal: report the MOVEC itself
      c.irc_ = w;
      illegal(c, op);
      return;
    }
    if (op & 1) {  // Rn -> control register
      switch (cr) {
        case 0x000: c.r_.sfc = rn & 7; break;
        case 0x001: c.r_.dfc = rn & 7; break;
        case 0x800: logged(c, c.r_.usp) = rn; break;
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
  static M68K_INLINE void bkpt(Cpu& c, uint16_t op) {
    if (!call_out(c, [&] { return c.bus_.breakpoint_acknowledge(op & 7, c.cycles_); })) {
      illegal(c, op);
      return;
    }
    idle(c, 4);
    prefetch(c);
  }
};

namespace {
using Self = MiscOps;
}  // namespace

Handler decode_misc_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0x4: {
      if (op & 0x100) {
        if (f.sz == 3) return BY_EA(EA_CTRL, &Exec::chain<&Self::lea<M>>);
        if (f.sz == 2) return ea_ok(op, EA_DATA) ? &Exec::chain<&Self::chk> : &Exec::chain<&Self::illegal>;
        return &Exec::chain<&Self::illegal>;
      }
      switch ((op >> 8) & 0xF) {
        case 0x0:
          if (f.sz == 3) return ea_ok(op, EA_DALT) ? &Exec::chain<&Self::move_from_status<true>> : &Exec::chain<&Self::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 0, M));
        case 0x2:
          if (f.sz == 3) return f.m10 && ea_ok(op, EA_DALT) ? &Exec::chain<&Self::move_from_status<false>> : &Exec::chain<&Self::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 1, M));
        case 0x4:
          if (f.sz == 3) return ea_ok(op, EA_DATA) ? &Exec::chain<&Self::move_to_ccr> : &Exec::chain<&Self::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 2, M));
        case 0x6:
          if (f.sz == 3) return ea_ok(op, EA_DATA) ? &Exec::chain<&Self::move_to_sr> : &Exec::chain<&Self::illegal>;
          return BY_EA(EA_DALT, SIZED(unary, 3, M));
        case 0x8:
          switch (f.sz) {
            case 0: return ea_ok(op, EA_DALT) ? &Exec::chain<&Self::nbcd> : &Exec::chain<&Self::illegal>;
            case 1:
              if (f.mode == 0) return &Exec::chain<&Self::swap_>;
              if (f.mode == 1 && f.m10) return &Exec::chain<&Self::bkpt>;
              return ea_ok(op, EA_CTRL) ? &Exec::chain<&Self::pea> : &Exec::chain<&Self::illegal>;
            case 2:
              if (f.mode == 0) return &Exec::chain<&Self::ext_w>;
              return ea_ok(op, EA_CTRL | EA_PRE) && !ea_ok(op, EA_PC16 | EA_PCIDX)
                         ? &Exec::chain<&Self::movem_to_mem<2>> : &Exec::chain<&Self::illegal>;
            default:
              if (f.mode == 0) return &Exec::chain<&Self::ext_l>;
              return ea_ok(op, EA_CTRL | EA_PRE) && !ea_ok(op, EA_PC16 | EA_PCIDX)
                         ? &Exec::chain<&Self::movem_to_mem<4>> : &Exec::chain<&Self::illegal>;
          }
        case 0xA:
          if (op == 0x4AFC) return &Exec::chain<&Self::illegal>;
          if (f.sz == 3) return ea_ok(op, EA_DALT) ? &Exec::chain<&Self::tas> : &Exec::chain<&Self::illegal>;
          return BY_EA(EA_DALT, SIZED(tst, M));
        case 0xC:
          if (f.sz == 2) return ea_ok(op, EA_CTRL | EA_POST) ? &Exec::chain<&Self::movem_to_reg<2>> : &Exec::chain<&Self::illegal>;
          if (f.sz == 3) return ea_ok(op, EA_CTRL | EA_POST) ? &Exec::chain<&Self::movem_to_reg<4>> : &Exec::chain<&Self::illegal>;
          return &Exec::chain<&Self::illegal>;
        case 0xE:
          if (f.sz == 1) {
            switch ((op >> 3) & 7) {
              case 0: case 1: return &Exec::chain<&Self::trap>;
              case 2: return &Exec::chain<&Self::link>;
              case 3: return &Exec::chain<&Self::unlk>;
              case 4: case 5: return &Exec::chain<&Self::move_usp>;
              case 6:
                switch (op & 7) {
                  case 0: return &Exec::chain<&Self::reset_>;
                  case 1: return &Exec::chain<&Self::nop>;
                  case 2: return &Exec::chain<&Self::stop>;
                  case 3: return &Exec::chain<&Self::rte>;
                  case 4: return f.m10 ? &Exec::chain<&Self::rtd> : &Exec::chain<&Self::illegal>;
                  case 5: return &Exec::chain<&Self::rts>;
                  case 6: return &Exec::chain<&Self::trapv>;
                  default: return &Exec::chain<&Self::rtr>;
                }
              default:
                if (f.m10 && (op == 0x4E7A || op == 0x4E7B)) return &Exec::chain<&Self::movec>;
                return &Exec::chain<&Self::illegal>;
            }
          }
          if (f.sz == 2) return ea_ok(op, EA_CTRL) ? &Exec::chain<&Self::jmp<true>> : &Exec::chain<&Self::illegal>;
          if (f.sz == 3) return ea_ok(op, EA_CTRL) ? &Exec::chain<&Self::jmp<false>> : &Exec::chain<&Self::illegal>;
          return &Exec::chain<&Self::illegal>;
        default:
          return &Exec::chain<&Self::illegal>;
      }
    }
    default:
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
