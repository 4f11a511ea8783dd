// Cycles by instruction address: where a board's CPU spends its time over a whole run, small
// enough to keep for any run length (an instruction trace of a minute's run would be gigabytes).
// `tos-profile --cycles FILE` sums it by the kernel's functions and the programs' user mode.
//
// An instruction's cycles are those until the next instruction starts, so the exception
// processing of an interrupt or a trap goes to the instruction before it, and a STOP's wait for
// an interrupt to the STOP (TOS's idle loop). In exact mode the records come through the
// CommitLog: what a rollback undoes is never counted.
#pragma once
#include <array>
#include <cstdint>
#include <ostream>
#include <unordered_map>

namespace testbed {

class CycleProfile {
 public:
  CycleProfile() = default;
  CycleProfile(const CycleProfile&) = delete;  // the cache points into this object's maps
  CycleProfile& operator=(const CycleProfile&) = delete;
  void instruction(uint32_t pc, bool supervisor, uint64_t cycle) {
    if (have_prev_) {  // committed instructions come in order: the cycle only grows
      Count& c = count(prev_pc_, prev_s_);
      c.cycles += cycle - prev_cycle_;
      ++c.count;
    }
    have_prev_ = true;
    prev_pc_ = pc;
    prev_s_ = supervisor;
    prev_cycle_ = cycle;
  }
  // One line an address: "pc S|U cycles instructions" (pc in hex), by mode then address; the
  // last instruction, whose end the profile never saw, is not in it.
  void write(std::ostream& os) const;
  uint64_t cycles() const;

 private:
  struct Count {
    uint64_t cycles = 0, count = 0;
  };
  // The address's counts, through a direct-mapped cache of the map's entries (a loop finds its
  // instructions there instead of hashing each one; the map's nodes never move).
  Count& count(uint32_t pc, bool supervisor) {
    const uint64_t key = uint64_t(pc) << 1 | uint64_t(supervisor);
    Slot& e = cache_[(pc >> 1) & (kSlots - 1)];
    if (e.key != key) e = Slot{key, &by_pc_[supervisor ? 1 : 0][pc]};
    return *e.count;
  }
  std::unordered_map<uint32_t, Count> by_pc_[2];  // [0] user mode, [1] supervisor
  static constexpr size_t kSlots = 4096;
  struct Slot {
    uint64_t key = ~uint64_t(0);  // no address's key
    Count* count = nullptr;
  };
  std::array<Slot, kSlots> cache_{};
  bool have_prev_ = false, prev_s_ = false;
  uint32_t prev_pc_ = 0;
  uint64_t prev_cycle_ = 0;
};

}  // namespace testbed
