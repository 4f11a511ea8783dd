#include "cycle_profile.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace testbed {

void CycleProfile::write(std::ostream& os) const {
  for (int s = 1; s >= 0; --s) {
    std::vector<std::pair<uint32_t, Count>> rows(by_pc_[s].begin(), by_pc_[s].end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    char line[64];
    for (auto& [pc, c] : rows) {
      std::snprintf(line, sizeof line, "%06X %c %llu %llu\n", unsigned(pc), s ? 'S' : 'U',
                    (unsigned long long)c.cycles, (unsigned long long)c.count);
      os << line;
    }
  }
}

uint64_t CycleProfile::cycles() const {
  uint64_t n = 0;
  for (auto& m : by_pc_)
    for (auto& kv : m) n += kv.second.cycles;
  return n;
}

}  // namespace testbed
