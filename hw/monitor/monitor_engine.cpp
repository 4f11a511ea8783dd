#include "monitor_engine.h"

#include <testbed/events.h>
#include <testbed/register_tables.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace testbed::monitor {

namespace {
constexpr size_t kMaxQueued = size_t(1) << 20;  // per SMI; beyond it the engine catches up
}

MonitorEngine::MonitorEngine(const MonitorParams& p) : p_(p), gc_{p.tick_div} {
  p_.validate();
  smi_.resize(p_.n_smi);
  for (auto& m : smi_) m.fifo.assign(p_.smi_depth, 0);
  mmi_.assign(p_.mmi_depth, 0);
}

MonitorEngine::Smi& MonitorEngine::smi(unsigned k) {
  if (k < 1 || k > p_.n_smi)
    throw std::out_of_range("monitor: SMI " + std::to_string(k) + " does not exist (1.." +
                            std::to_string(p_.n_smi) + ")");
  return smi_[k - 1];
}

uint64_t MonitorEngine::lost_total() const {
  uint64_t n = 0;
  for (auto& m : smi_) n += m.lost;
  return n;
}

uint64_t MonitorEngine::sync(uint64_t clock) {
  if (clock + 1 < next_) {
    ++late_;
    clock = next_ - 1;
  }
  advance_to(clock);
  return clock;
}

void MonitorEngine::advance_to(uint64_t target) {
  if (target == kNever) throw std::out_of_range("monitor: advance_to(kNever)");
  while (next_ <= target) {
    uint64_t c = gc_.next_wrap(next_);
    for (auto& m : smi_) {
      c = std::min(c, m.marker_due);
      if (!m.queued.empty()) c = std::min(c, m.queued.front().first);
    }
    c = std::min({c, push_ts_at_, push_ev_at_, s_});
    if (c > target) break;
    process_clock(c, target);
    next_ = c + 1;
  }
  next_ = std::max(next_, target + 1);
}

void MonitorEngine::smi_push(unsigned k, uint64_t c, uint32_t entry) {
  Smi& m = smi_[k - 1];
  m.fifo[(m.head + m.count) % p_.smi_depth] = entry;
  ++m.count;
  if (obs_) obs_->smi_level(k, c, m.count);
}

// One marker per call: a wrap marker first, then a filter marker (the FIFO takes one entry in
// step 2 and one in step 4).
void MonitorEngine::try_marker(unsigned k, uint64_t c) {
  Smi& m = smi_[k - 1];
  if (!waits(m) || m.count >= p_.smi_depth) return;
  uint16_t marker;
  if (m.marker_pending) {
    marker = uint16_t(EV_WRAP_MARKER_VALUE | (gc_.wraps(c) & 0xFF));
    m.marker_pending = false;
  } else {
    marker = uint16_t(EV_FILTER_MARKER_VALUE | m.filter.generation());
    m.fmarker_pending = false;
  }
  smi_push(k, c, uint32_t(gc_.ts(c)) << 16 | marker);
  // The other kind may still wait: step 2 of the next clock tries it.
  m.marker_due = waits(m) ? c + 1 : kNever;
  if (obs_) obs_->smi_marker(k, c, marker);
}

void MonitorEngine::mmi_push(uint64_t c, unsigned src, uint16_t word) {
  // The poller checked for two free entries when it popped, so this never finds the FIFO full.
  mmi_[(mmi_head_ + mmi_count_) % p_.mmi_depth] = uint32_t(src) << 16 | word;
  ++mmi_count_;
  if (obs_) obs_->mmi_level(c, mmi_count_);
}

void MonitorEngine::process_clock(uint64_t c, uint64_t target) {
  // 1. Tick (analytic) and wrap.
  if (c > 0 && c % gc_.wrap_period() == 0)
    for (auto& m : smi_) m.marker_pending = true;
  // 2. Wrap markers that find room.
  for (unsigned k = 1; k <= p_.n_smi; ++k) {
    Smi& m = smi_[k - 1];
    if (m.marker_due == c) m.marker_due = kNever;
    size_t before = m.count;
    try_marker(k, c);
    if (m.count != before) m.step2_marker = c;
  }
  // 3. The poller: due pushes, then a slot if one starts now.
  if (push_ts_at_ == c) {
    mmi_push(c, push_src_, push_ts_);
    if (obs_) obs_->bus_word(push_src_, c, true, push_ts_);
    push_ts_at_ = kNever;
  }
  if (push_ev_at_ == c) {
    mmi_push(c, push_src_, push_ev_);
    if (obs_) obs_->bus_word(push_src_, c, false, push_ev_);
    push_ev_at_ = kNever;
  }
  if (s_ == c) {
    if (p_.mmi_depth - mmi_count_ < 2) {
      // Only a master read frees entries, and reads come after this advance: the stall lasts
      // at least to `target`.
      if (!stalling_ && obs_) obs_->mmi_stall(c, true, stall_clocks_);
      stalling_ = true;
      stall_clocks_ += target - c + 1;
      s_ = target + 1;
    } else {
      if (stalling_ && obs_) obs_->mmi_stall(c, false, stall_clocks_);
      stalling_ = false;
      Smi& m = smi_[k_ - 1];
      if (m.count == 0) {
        bool all_empty = true;
        uint64_t limit = std::min(target, gc_.next_wrap(c + 1) - 1);
        for (auto& o : smi_) {
          all_empty = all_empty && o.count == 0;
          if (!o.queued.empty()) limit = std::min(limit, o.queued.front().first);
          if (o.marker_due != kNever) limit = std::min(limit, o.marker_due - 1);
        }
        // A run of empty slots: nothing fills an SMI before `limit` (a wrap marker or a CPU
        // write), so every slot starting in [c, limit] finds its SMI empty.
        uint64_t n = all_empty ? (limit - c) / p_.empty_clocks + 1 : 1;
        k_ = unsigned((k_ - 1 + n % p_.n_smi) % p_.n_smi) + 1;
        s_ = c + n * p_.empty_clocks;
      } else {
        uint32_t e = m.fifo[m.head];
        m.head = (m.head + 1) % p_.smi_depth;
        --m.count;
        if (obs_) obs_->smi_level(k_, c, m.count);
        if (waits(m)) m.marker_due = c + 1;
        push_src_ = k_;
        push_ts_ = uint16_t(e >> 16);
        push_ev_ = uint16_t(e);
        push_ts_at_ = c + p_.word_clocks;
        push_ev_at_ = c + 2ull * p_.word_clocks;
        s_ = push_ev_at_;
        k_ = next_k(k_);
      }
    }
  }
  // 4. CPU writes queued for this clock.
  for (unsigned k = 1; k <= p_.n_smi; ++k) {
    auto& q = smi_[k - 1].queued;
    while (!q.empty() && q.front().first == c) {
      apply_write(k, c, q.front().second);
      q.pop_front();
    }
  }
}

void MonitorEngine::apply_write(unsigned k, uint64_t c, uint16_t word) {
  Smi& m = smi_[k - 1];
  if (m.step2_marker != c) try_marker(k, c);
  if (!m.filter.offer(word, gc_.ticks(c))) {
    ++writes_;
    if (obs_) obs_->smi_write(k, c, word, false);
    if (probe_) probe_->on_filtered(k, c, word);
    return;
  }
  // A marker still waiting keeps its place ahead of later events: the event is lost.
  bool kept = !waits(m) && m.count < p_.smi_depth;
  if (kept) {
    smi_push(k, c, uint32_t(gc_.ts(c)) << 16 | word);
  } else {
    ++m.lost;
    if (obs_) obs_->smi_lost(k, c, m.lost);
  }
  ++writes_;
  if (obs_) obs_->smi_write(k, c, word, kept);
  if (probe_) probe_->on_event(k, c, word, kept);
}

uint64_t MonitorEngine::write_event(unsigned k, uint64_t clock, uint16_t word) {
  Smi& m = smi(k);
  uint64_t accepted = clock;
  if (m.last_write != kNever && accepted < m.last_write + p_.write_gap) accepted = m.last_write + p_.write_gap;
  uint64_t c = accepted;
  if (c + 1 < next_) {
    ++late_;
    c = next_ - 1;
  }
  m.last_write = c;
  if (c >= next_) {
    if (m.queued.size() >= kMaxQueued) advance_to(m.queued.front().first);
    m.queued.emplace_back(c, word);
  } else {
    apply_write(k, c, word);
  }
  return accepted;
}

uint16_t MonitorEngine::smi_status(unsigned k, uint64_t clock) {
  Smi& m = smi(k);
  sync(clock);
  bool full = m.count + (m.marker_pending ? 1u : 0u) + (m.fmarker_pending ? 1u : 0u) >= p_.smi_depth;
  using S = regs::mon::SMI_STATUS;
  return uint16_t((full ? S::FULL::mask : 0) | (m.count == 0 ? S::EMPTY::mask : 0));
}

uint16_t MonitorEngine::smi_level(unsigned k, uint64_t clock) {
  Smi& m = smi(k);
  sync(clock);
  return uint16_t(m.count);
}

uint32_t MonitorEngine::smi_lost(unsigned k, uint64_t clock) {
  Smi& m = smi(k);
  sync(clock);
  return m.lost;
}

uint16_t MonitorEngine::mmi_data_hi(uint64_t clock) {
  uint64_t c = sync(clock);
  if (mmi_count_ == 0) {
    hold_hi_ = kDataHiEmpty;
    hold_lo_ = 0;
  } else {
    uint32_t e = mmi_[mmi_head_];
    mmi_head_ = (mmi_head_ + 1) % p_.mmi_depth;
    --mmi_count_;
    hold_hi_ = uint16_t(e >> 16);
    hold_lo_ = uint16_t(e);
    if (obs_) obs_->mmi_level(c, mmi_count_);
  }
  return hold_hi_;
}

uint32_t MonitorEngine::mmi_peek(uint64_t clock) {
  sync(clock);
  if (mmi_count_ == 0) return uint32_t(kDataHiEmpty) << 16;
  return mmi_[mmi_head_];
}

uint16_t MonitorEngine::mmi_data_lo(uint64_t clock) {
  sync(clock);
  return hold_lo_;
}

uint16_t MonitorEngine::mmi_status(uint64_t clock) {
  sync(clock);
  using S = regs::mon::MMI_STATUS;
  return uint16_t((mmi_count_ == p_.mmi_depth ? S::FULL::mask : 0) | (mmi_count_ == 0 ? S::EMPTY::mask : 0));
}

uint16_t MonitorEngine::mmi_level(uint64_t clock) {
  sync(clock);
  return uint16_t(mmi_count_);
}

uint32_t MonitorEngine::mmi_stall(uint64_t clock) {
  sync(clock);
  return uint32_t(stall_clocks_);
}

bool MonitorEngine::mmi_filter_write(unsigned off, uint16_t v, uint64_t clock) {
  uint64_t c = sync(clock);
  if (off == regs::mon::FLT_SEL::offset) {
    flt_sel_ = uint16_t(v & regs::mon::FLT_SEL::SMI::mask);
    return true;
  }
  if (flt_sel_ < 1 || flt_sel_ > p_.n_smi) {
    ++filter_refused_;
    return false;
  }
  Smi& m = smi_[flt_sel_ - 1];
  if (!m.filter.write(off, v, gc_.ticks(c))) {
    ++filter_refused_;
    return false;
  }
  // The stream shows the change: a filter marker enters in step 2 of the next clock with room.
  m.fmarker_pending = true;
  m.marker_due = std::min(m.marker_due, c + 1);
  return true;
}

bool MonitorEngine::mmi_filter_read(unsigned off, uint64_t clock, uint32_t& v) {
  uint64_t c = sync(clock);
  v = 0;
  if (off == regs::mon::FLT_SEL::offset) {
    v = flt_sel_;
    return true;
  }
  SmiFilter probe_regs;
  bool exists = probe_regs.read(off, 0, v);
  v = 0;
  if (!exists) return false;
  if (flt_sel_ >= 1 && flt_sel_ <= p_.n_smi) smi_[flt_sel_ - 1].filter.read(off, gc_.ticks(c), v);
  return true;
}

uint64_t MonitorEngine::next_mmi_push() const {
  if (push_ts_at_ != kNever) return push_ts_at_;
  if (push_ev_at_ != kNever) return push_ev_at_;
  if (stalling_) return kNever;  // only a read ends it
  bool work = false;
  uint64_t first_write = kNever;
  for (auto& m : smi_) {
    work = work || m.count > 0;
    if (!m.queued.empty()) first_write = std::min(first_write, m.queued.front().first);
    first_write = std::min(first_write, m.marker_due);
  }
  // Not a push yet, but the earliest clock from which one can be predicted.
  if (work) return std::max(s_, next_);
  return std::max(std::min(first_write, gc_.next_wrap(next_)), next_);
}

}  // namespace testbed::monitor
