// Exact mode's memory: the RAM pages a speculative run writes are kept as they were before its
// first write to each, so that a rollback can put them back. Pages the fast path maps writable
// are mapped read-only instead ("protected"); the first write of an epoch to one comes here,
// which copies the page, lets later writes through the fast path, and does the write. A commit
// protects them again and forgets the copies. No SystemC: a board's own state only.
#pragma once
#include "m68k_cpu.h"

#include <testbed/memory_map.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace testbed {

class StateArchive;
class HostBlocks;

class RamJournal {
 public:
  explicit RamJournal(m68k::Cpu& cpu) : cpu_(cpu) {}
  // At the start of exact mode: every page the core maps writable is protected.
  void start();
  // The fast path maps [first, end) writable in `space`: protected instead.
  void mapped(m68k::Space space, uint64_t first, uint64_t end);
  // A mapping of [first, last] goes: so does its protection (a page mapped again read-only, an
  // MMU page turned read-only, must not be let through by write()).
  void unmapped(uint64_t first, uint64_t last);
  // A write the core could not do from its fast table: true if it was the first write of the
  // epoch to a protected page, now journaled and done (`wait`: the page's wait states).
  bool write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait);
  // A commit: the epoch's copies are dropped and the pages it let through are protected again.
  void commit();
  // A rollback: every page the epoch wrote is as it was at the commit.
  void undo();
  uint64_t pages() const { return pages_; }
  // Its state in a snapshot (ram_journal_state.cpp: the journal itself stays free of SystemC).
  void state(StateArchive& a, const HostBlocks& blocks);

 private:
  struct Page {
    uint8_t* host;
    uint8_t old[TB_PAGE_SIZE];
  };
  m68k::Cpu& cpu_;
  std::vector<Page> journal_;
  size_t n_ = 0;
  std::vector<std::pair<m68k::Space, uint32_t>> writable_;  // pages let through this epoch
  std::vector<uint8_t> protected_[2];  // per page: mapped writable by DMI, protected by us
  uint64_t pages_ = 0;
};

}  // namespace testbed
