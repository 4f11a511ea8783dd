// RamJournal's state in a snapshot, apart from ram_journal.cpp so that the journal (which the
// speculation pool's tests build without SystemC) does not need StateArchive.
#include "board_state.h"
#include "ram_journal.h"

namespace testbed {

void RamJournal::state(StateArchive& a, const HostBlocks& blocks) {
  a.section("ram journal");
  uint64_t n = n_;
  a.io(n);
  if (a.loading()) {
    if (n > (uint64_t(1) << (TB_ADDRESS_BITS - 10))) throw StateError("snapshot: ram journal: " + std::to_string(n) + " pages");
    journal_.resize(size_t(n));
    n_ = size_t(n);
  }
  for (size_t i = 0; i < n_; ++i) {
    blocks.io(a, journal_[i].host);
    a.raw(journal_[i].old, TB_PAGE_SIZE);
  }
  a.io(writable_).io(protected_[0]).io(protected_[1]).io(pages_);
}

}  // namespace testbed
