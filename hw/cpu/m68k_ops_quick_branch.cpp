// Opcode lines 5 and 6: ADDQ, SUBQ, Scc, DBcc (with the 68010's loop mode), Bcc, BRA, BSR.
#include "m68k_decode.h"

namespace m68k {

struct QuickBranchOps : Exec {
  // ------------------------------------------------------------------ arithmetic
  template <int S, bool Sub, int M> static M68K_INLINE void addq(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    uint32_t q = (op >> 9) & 7;
    if (q == 0) q = 8;
    if (mode == 1) {
      prefetch(c);
      idle(c, 4);
      wa_last(c, reg) = Sub ? c.r_.a[reg] - q : c.r_.a[reg] + q;
      return;
    }
    if (mode == 0) {
      uint32_t r = Sub ? sub<S>(c, q, c.r_.d[reg]) : add<S>(c, q, c.r_.d[reg]);
      c.z_ = r;
      prefetch(c);
      if (S == 4) idle(c, 4);
      set_d_last<S>(c, reg, r);
      return;
    }
    uint32_t a = ea_addr<S>(c, mode, reg);
    uint32_t d = rd<S>(c, a);
    uint32_t r = Sub ? sub<S>(c, q, d) : add<S>(c, q, d);
    c.z_ = r;
    prefetch(c);
    wr<S>(c, a, r);
  }

  // ------------------------------------------------------------------ control flow
  template <int CC> static M68K_INLINE void bcc(Cpu& c, uint16_t op) {
    constexpr int cc = CC;
    int8_t d8 = (int8_t)op;
    uint32_t base = HOT_PC(c) - 2;
    if (cc == 1) {  // BSR
      uint32_t target, ret;
      if (d8 == 0) {
        target = base + (uint32_t)(int16_t)c.irc_;
        ret = HOT_PC(c);
      } else {
        target = base + (uint32_t)d8;
        ret = HOT_PC(c) - 2;
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
      uint32_t target = HOT_PC(c) - 2 + (uint32_t)disp;
      if (target & 1) jump(c, target, HOT_PC(c));  // faults before the counter is written
      d = merge<2>(d, cnt);
      jump(c, target);
      if (disp == -4 && !c.loop_mode_ && m10(c) && !c.t_ && g_loopable[c.ird_]) enter_loop(c, target, disp);
      return;
    }
    d = merge<2>(d, cnt);
    c.loop_mode_ = false;
    if (m10(c)) idle(c, 2);
    fetch16(c, HOT_PC(c) - 2);  // the microcode's discarded refetch of the displacement word
    ext(c);
    prefetch(c);
  }
  static void enter_loop(Cpu& c, uint32_t target, int16_t disp) {
    c.loop_pc_ = target;
    c.loop_words_[0] = c.ird_;
    c.loop_words_[1] = c.irc_;  // this DBcc
    c.loop_words_[2] = (uint16_t)disp;
    c.loop_mode_ = true;
    c.shut_fetch();  // every fetch now goes through fetch_miss()
  }
  template <int CC, int M> static M68K_INLINE void scc(Cpu& c, uint16_t op) {
    constexpr int mode = EA_MODE(M);
    const int reg = ea_reg<M>(op);
    bool t = cond(c, CC);
    if (mode == 0) {
      prefetch(c);
      if (t && !m10(c)) idle(c, 2);  // Table 9-9: 4(1/0) either way on the 68010
      set_d_last<1>(c, reg, t ? 0xFF : 0);
      return;
    }
    uint32_t a = ea_addr<1>(c, mode, reg);
    rd<1>(c, a);
    prefetch(c);
    wr<1>(c, a, t ? 0xFF : 0);
  }
};

namespace {
using Self = QuickBranchOps;
}  // namespace

Handler decode_quick_branch_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0x5:
      if (f.sz == 3) {
        if (f.mode == 1) return BY_CC(&Exec::chain<&Self::dbcc<CC>>);
        return BY_CC(BY_EA(EA_DALT, &Exec::chain<&Self::scc<CC, M>>));
      }
      if (f.sz == 0 && f.mode == 1) return &Exec::chain<&Self::illegal>;
      return (op & 0x100) ? BY_EA(EA_ALT, SIZED(addq, true, M)) : BY_EA(EA_ALT, SIZED(addq, false, M));
    case 0x6:
      return BY_CC(&Exec::chain<&Self::bcc<CC>>);
    default:
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
