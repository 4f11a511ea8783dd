// Opcode line E: the shifts and rotates (ASL, ASR, LSL, LSR, ROXL, ROXR, ROL, ROR), on data
// registers and on memory words.
#include "m68k_decode.h"

namespace m68k {

struct ShiftOps : Exec {
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
    set_d_last<S>(c, dn, r);
  }
  template <int K, bool Left> static M68K_INLINE void shift_mem(Cpu& c, uint16_t op) {
    uint32_t a = ea_addr<2>(c, (op >> 3) & 7, op & 7);
    uint32_t v = rd<2>(c, a);
    uint32_t r = shift<2, K, Left>(c, v, 1);
    prefetch(c);
    wr<2>(c, a, r);
  }
};

namespace {
using Self = ShiftOps;
}  // namespace

Handler decode_shift_ops(uint16_t op, Model m) {
  const OpFields f(op, m);
  switch (f.line) {
    case 0xE: {
      if (f.sz == 3) {
        if (op & 0x800) return &Exec::chain<&Self::illegal>;
        if (!ea_ok(op, EA_MALT)) return &Exec::chain<&Self::illegal>;
        bool left = op & 0x100;
        switch ((op >> 9) & 3) {
          case 0: return left ? &Exec::chain<&Self::shift_mem<0, true>> : &Exec::chain<&Self::shift_mem<0, false>>;
          case 1: return left ? &Exec::chain<&Self::shift_mem<1, true>> : &Exec::chain<&Self::shift_mem<1, false>>;
          case 2: return left ? &Exec::chain<&Self::shift_mem<2, true>> : &Exec::chain<&Self::shift_mem<2, false>>;
          default: return left ? &Exec::chain<&Self::shift_mem<3, true>> : &Exec::chain<&Self::shift_mem<3, false>>;
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
      return &Exec::chain<&Exec::illegal>;
  }
}

}  // namespace m68k
