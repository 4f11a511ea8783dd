// Big-endian guest RAM for the CPU tests' buses: the helpers that place code and data.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

struct M68kTestRam {
  explicit M68kTestRam(uint32_t size) : mem(size, 0) {}
  std::vector<uint8_t> mem;

  void put16(uint32_t a, uint16_t v) {
    mem[a] = (uint8_t)(v >> 8);
    mem[a + 1] = (uint8_t)v;
  }
  void put32(uint32_t a, uint32_t v) {
    put16(a, (uint16_t)(v >> 16));
    put16(a + 2, (uint16_t)v);
  }
  uint16_t get16(uint32_t a) const { return (uint16_t)(mem[a] << 8 | mem[a + 1]); }
  uint32_t get32(uint32_t a) const { return (uint32_t)get16(a) << 16 | get16(a + 2); }
  // Writes a program of 16-bit words at `a`.
  void code(uint32_t a, std::initializer_list<uint16_t> words) {
    for (uint16_t w : words) {
      put16(a, w);
      a += 2;
    }
  }
};
