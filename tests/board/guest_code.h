// Tiny hand-assembled 68010 programs for board tests that need a running CPU but not a
// cross-compiled image: written straight into a Board's RAM before sc_start().
#pragma once
#include "board.h"

#include <cstdint>
#include <initializer_list>

namespace testbed_test {

inline void poke16(testbed::Board& b, uint32_t addr, uint16_t v) {
  b.ram().data()[addr] = uint8_t(v >> 8);
  b.ram().data()[addr + 1] = uint8_t(v);
}
inline void poke32(testbed::Board& b, uint32_t addr, uint32_t v) {
  poke16(b, addr, uint16_t(v >> 16));
  poke16(b, addr + 2, uint16_t(v));
}
inline void poke_code(testbed::Board& b, uint32_t addr, std::initializer_list<uint16_t> words) {
  for (uint16_t w : words) poke16(b, addr, w), addr += 2;
}

// Where load_at_reset puts the supervisor stack and the code: past the vector table (0x400
// bytes), so a test may add a vector of its own, and its own code elsewhere.
constexpr uint32_t kResetSsp = 0x1000;
constexpr uint32_t kResetPc = 0x400;

// Reset vectors (SSP kResetSsp, PC kResetPc) and `code` at kResetPc: the board runs it from reset.
inline void load_at_reset(testbed::Board& b, std::initializer_list<uint16_t> code) {
  poke32(b, 0, kResetSsp);
  poke32(b, 4, kResetPc);
  poke_code(b, kResetPc, code);
}

// moveq #0,d0; 1: addq.l #1,d0; bra.s 1b. D0 counts loop iterations; the core's instruction
// count grows by two per iteration.
inline void load_counting_loop(testbed::Board& b) { load_at_reset(b, {0x7000, 0x5280, 0x60FC}); }

}  // namespace testbed_test
