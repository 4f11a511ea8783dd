// What a board's state in a snapshot needs beyond StateArchive (hw/bus/state_archive.h): host
// addresses that point into the board's memories (the core's fast page table, exact mode's
// journal) named as (memory, offset), since a restored board's memories are elsewhere; and the
// core's State.
#pragma once
#include "state_archive.h"  // hw/bus

#include "m68k_cpu.h"

#include <cstdint>
#include <string>
#include <vector>

namespace testbed {

class HostBlocks {
 public:
  // A board memory (RAM, boot ROM), in the order every board adds them.
  void add(uint8_t* base, uint64_t size) { blocks_.push_back({base, size}); }
  // Saves or restores `p`, a pointer into one of the blocks or nullptr.
  void io(StateArchive& a, uint8_t*& p) const {
    uint32_t block = kNone;
    uint64_t offset = 0;
    if (!a.loading() && p) {
      for (uint32_t i = 0; i < blocks_.size() && block == kNone; ++i)
        if (p >= blocks_[i].base && p < blocks_[i].base + blocks_[i].size) {
          block = i;
          offset = uint64_t(p - blocks_[i].base);
        }
      if (block == kNone) throw StateError("snapshot: a host address outside the board's memories (a fast page of a device?)");
    }
    a.io(block).io(offset);
    if (!a.loading()) return;
    if (block == kNone) {
      p = nullptr;
      return;
    }
    if (block >= blocks_.size() || offset >= blocks_[block].size)
      throw StateError("snapshot: a host address past the board's memories (memory " + std::to_string(block) + ")");
    p = blocks_[block].base + offset;
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Block {
    uint8_t* base;
    uint64_t size;
  };
  std::vector<Block> blocks_;
};

// The core's State; `halt_text` keeps the halt reason a restored State points at.
inline void cpu_state_io(StateArchive& a, m68k::Cpu::State& s, std::string& halt_text) {
  m68k::Registers& r = s.r;
  a.io(r.d).io(r.a).io(r.usp).io(r.ssp).io(r.pc).io(r.sr).io(r.vbr).io(r.sfc).io(r.dfc);
  a.io(s.pc).io(s.synced_pc).io(s.ird).io(s.irc).io(s.cycles).io(s.instructions).io(s.user_exits);
  a.io(s.stopped_cycles).io(s.budget).io(s.ipl).io(s.nmi_pending).io(s.stopped).io(s.halted).io(s.trace_pending);
  a.io(s.loop_mode).io(s.loop_pc).io(s.loop_words).io(s.halt_pc).io(s.halt_address);
  if (!a.loading()) halt_text = s.halt_reason ? s.halt_reason : "";
  a.io(halt_text);
  if (a.loading()) s.halt_reason = halt_text.c_str();
}

}  // namespace testbed
