// Slices of a verilated model's packed ports: an integral port (CData .. QData) or a VlWide
// (over 64 bits) read or written w bits at bit lo. Shared by the test benches (rtl/tb) and the
// co-simulation adapter (monitor_pins_tlm.h), which drive the same per-SMI packed ports.
#pragma once
#include <cstdint>
#include <type_traits>

namespace tbrtl {

namespace bits {
template <class T>
uint32_t get(const T& v, unsigned lo, unsigned w) {
  if constexpr (std::is_integral_v<T>) {
    return uint32_t((uint64_t(v) >> lo) & ((uint64_t(1) << w) - 1));
  } else {  // VlWide
    uint64_t x = v[lo / 32] >> (lo % 32);
    if (lo % 32 + w > 32) x |= uint64_t(v[lo / 32 + 1]) << (32 - lo % 32);
    return uint32_t(x & ((uint64_t(1) << w) - 1));
  }
}
template <class T>
void set(T& v, unsigned lo, unsigned w, uint32_t x) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t m = ((uint64_t(1) << w) - 1) << lo;
    v = T((uint64_t(v) & ~m) | ((uint64_t(x) << lo) & m));
  } else {
    for (unsigned b = 0; b < w; ++b) {
      unsigned i = lo + b;
      v[i / 32] = (v[i / 32] & ~(1u << (i % 32))) | ((x >> b & 1u) << (i % 32));
    }
  }
}
}  // namespace bits

}  // namespace tbrtl
