#include "ram_journal.h"

#include <algorithm>
#include <cstring>

namespace testbed {

void RamJournal::start() {
  for (auto& p : protected_) p.assign(size_t(1) << (TB_ADDRESS_BITS - 10), 0);
  for (int sp = 0; sp < 2; ++sp)
    for (uint32_t pg = 0; pg < protected_[sp].size(); ++pg)
      if (cpu_.protect_writes(m68k::Space(sp), pg * TB_PAGE_SIZE)) protected_[sp][pg] = 1;
}

void RamJournal::mapped(m68k::Space space, uint64_t first, uint64_t end) {
  for (uint64_t pg = first; pg < end; pg += TB_PAGE_SIZE) protected_[int(space)][pg / TB_PAGE_SIZE] = 1;
}

void RamJournal::unmapped(uint64_t first, uint64_t last) {
  for (auto& p : protected_)
    if (!p.empty()) std::fill(p.begin() + long(first / TB_PAGE_SIZE), p.begin() + long(last / TB_PAGE_SIZE) + 1, 0);
}

bool RamJournal::write(const m68k::BusAccess& a, uint16_t data, uint32_t& wait) {
  m68k::Space sp = m68k::fc_is_supervisor(a.fc) ? m68k::Space::Supervisor : m68k::Space::User;
  uint32_t address = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  uint32_t page = address / TB_PAGE_SIZE;
  if (!protected_[int(sp)][page]) return false;
  uint8_t* host = cpu_.fast_host(sp, address);
  protected_[int(sp)][page] = 0;
  if (!host) return false;
  bool have = false;
  for (size_t i = 0; i < n_ && !have; ++i) have = journal_[i].host == host;
  if (!have) {
    if (n_ == journal_.size()) journal_.emplace_back();
    journal_[n_].host = host;
    std::memcpy(journal_[n_].old, host, TB_PAGE_SIZE);
    ++n_;
    ++pages_;
  }
  cpu_.allow_writes(sp, address);
  writable_.emplace_back(sp, page * TB_PAGE_SIZE);
  unsigned off = address % TB_PAGE_SIZE;
  if (a.byte) {
    host[off] = uint8_t(data);
  } else {
    host[off] = uint8_t(data >> 8);
    host[off + 1] = uint8_t(data);
  }
  wait = cpu_.fast_wait_states(sp, address);
  return true;
}

void RamJournal::commit() {
  for (auto& w : writable_)
    if (cpu_.protect_writes(w.first, w.second)) protected_[int(w.first)][w.second / TB_PAGE_SIZE] = 1;
  writable_.clear();
  n_ = 0;
}

void RamJournal::undo() {
  for (size_t i = n_; i-- > 0;) std::memcpy(journal_[i].host, journal_[i].old, TB_PAGE_SIZE);
}

}  // namespace testbed
