// Command-line numbers for the tools without CLI11: parsed whole (no trailing characters: "5x"
// is refused, not read as 5), finite, and in range, or the tool stops with exit status 2 (bad
// input) and a message naming the option and the value.
#pragma once
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace testbed::tool_args {

[[noreturn]] inline void refuse(const std::string& tool, const std::string& message) {
  std::cerr << tool << ": " << message << " (" << tool << " --help)\n";
  std::exit(2);
}

inline double number(const std::string& tool, const std::string& what, const std::string& v, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || errno == ERANGE || !std::isfinite(d) || d < lo || d > hi)
  {
    std::ostringstream m;
    m << what << " '" << v << "': expected a number from " << lo << " to " << hi;
    refuse(tool, m.str());
  }
  return d;
}

// base 0: decimal, 0x hex or 0 octal, as strtoull.
inline uint64_t whole(const std::string& tool, const std::string& what, const std::string& v, uint64_t lo,
                      uint64_t hi, int base = 10) {
  char* end = nullptr;
  errno = 0;
  bool sign = !v.empty() && (v[0] == '-' || v[0] == '+');
  unsigned long long n = v.empty() || sign ? 0 : std::strtoull(v.c_str(), &end, base);
  if (v.empty() || sign || !end || *end || errno == ERANGE || n < lo || n > hi)
    refuse(tool, what + " '" + v + "': expected a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  return n;
}

}  // namespace testbed::tool_args
