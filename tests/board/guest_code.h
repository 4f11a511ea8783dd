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

// Reset vectors (SSP 0x1000, PC 0x400) and at 0x400: moveq #0,d0; 1: addq.l #1,d0; bra.s 1b.
// D0 counts loop iterations; the core's instruction count grows by two per iteration.
inline void load_counting_loop(testbed::Board& b) {
  poke32(b, 0, 0x1000);
  poke32(b, 4, 0x400);
  poke_code(b, 0x400, {0x7000, 0x5280, 0x60FC});
}

}  // namespace testbed_test
