// Opcode lines 1-3 and 7: MOVE and MOVEA of bytes, words and longs, and MOVEQ.
#include "m68k_decode.h"

namespace m68k {

struct MoveOps : Exec {
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
      set_d_last<S>(c, dr, v);
      return;
    }
    if (dm == 1) {  // MOVEA
      prefetch(c);
      wa_last(c, dr) = (uint32_t)sext<S>(v);
      return;
    }
    uint32_t a;
    if (dm == 4) {  // -(An) destination: no extra internal clocks, prefetch comes first
      c.inst_.pc_adj = 0;
      if (S == 4) {
        // The long is written low word first; IRD keeps this opcode until the writes are done.
        move_flags_before_write<S, SM, DM>(c, v);
        uint16_t next = c.irc_;
        c.irc_ = fetch16(c, HOT_PC(c));
        HOT_PC(c) += 2;
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
      c.inst_.pc_adj = 2;
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
      c.inst_.pc_adj = 0;
      constexpr bool reg_src = SM <= 1;
      if (reg_src) {
        c.irc_ = fetch16(c, HOT_PC(c));
        HOT_PC(c) += 2;
      }
      move_flags_before_write<S, SM, DM>(c, v);
      wr<S>(c, a, v);
      if (S == 4) logic_flags<4>(c, v);
      if (!reg_src) {
        c.irc_ = fetch16(c, HOT_PC(c));
        HOT_PC(c) += 2;
      }
      prefetch(c);
      return;
    }
    a = ea_addr<S>(c, dm, dr);
    c.inst_.pc_adj += (dm == 7) ? 0 : 2;
    move_flags_before_write<S, SM, DM>(c, v);
    wr<S>(c, a, v);
    if (S == 4) logic_flags<4>(c, v);
    prefetch(c);
  }
  static M68K_INLINE void moveq(Cpu& c, uint16_t op) {
    uint32_t v = (uint32_t)(int8_t)op;
    logic_flags<4>(c, v);
    prefetch(c);
    wd_last(c, (op >> 9) & 7) = v;
  }
};

namespace {
using Self = MoveOps;
}  // namespace

Handler decode_move_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0x1: case 0x2: case 0x3: {
      int dm = (op >> 6) & 7, dr = (op >> 9) & 7;
      int dslot = dm < 7 ? dm : (dr <= 1 ? 7 + dr : -1);
      if (f.line == 1 && (dm == 1 || f.mode == 1)) return &Exec::chain<&Self::illegal>;
      return BY_EA(EA_ALL, by_slot<EA_ALT>(dslot, [&](auto d_) -> Handler {
        constexpr int DM = decltype(d_)::value;
        return f.line == 1 ? &Exec::chain<&Self::move<1, M, DM>> : f.line == 3 ? &Exec::chain<&Self::move<2, M, DM>>
                                                              : &Exec::chain<&Self::move<4, M, DM>>;
      }));
    }
    case 0x7:
      return (op & 0x100) ? &Exec::chain<&Self::illegal> : &Exec::chain<&Self::moveq>;
    default:
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
