#include "cycle_profile.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace testbed {

void CycleProfile::write(std::ostream& os) const {
  for (int s = 1; s >= 0; --s) {
    std::vector<uint32_t> pcs;
    pcs.reserve(by_pc_[s].size());
    for (auto& kv : by_pc_[s]) pcs.push_back(kv.first);
    std::sort(pcs.begin(), pcs.end());
    char line[64];
    for (uint32_t pc : pcs) {
      const Count& c = by_pc_[s].at(pc);
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
