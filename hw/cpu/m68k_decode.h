// Decoding helpers shared by the instruction families' decoders (m68k_ops_*.cpp): the
// effective-address classes and the templates that instantiate a handler for each EA slot or
// condition code an opcode allows. SIZED() names the family's own struct as Self.
#pragma once
#include "m68k_exec.h"

namespace m68k {
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
inline bool ea_ok(uint16_t op, uint16_t cls) {
  int mode = (op >> 3) & 7, reg = op & 7;
  int slot = mode < 7 ? mode : (reg <= 4 ? 7 + reg : -1);
  return slot >= 0 && (cls >> slot) & 1;
}

// by_slot<Cls>(slot, f): f(integral_constant<M>) for the slot M of the opcode, instantiated only
// for the slots in the class Cls; any other slot decodes to the illegal instruction.
inline int slot_of(uint16_t op) {
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
// The opcode fields every family's decoder reads (the macros below expect `op` and `f`).
struct OpFields {
  OpFields(uint16_t op, Model m)
      : m10(m == Model::MC68010), line(op >> 12), sz((op >> 6) & 3), mode((op >> 3) & 7) {}
  const bool m10;
  const int line, sz, mode;
};

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

#define SIZED(tmpl, ...)                                                                    \
  (f.sz == 0   ? &Exec::chain<&Self::tmpl<1, ##__VA_ARGS__>>                                  \
   : f.sz == 1 ? &Exec::chain<&Self::tmpl<2, ##__VA_ARGS__>>                                  \
               : &Exec::chain<&Self::tmpl<4, ##__VA_ARGS__>>)

}  // namespace m68k
