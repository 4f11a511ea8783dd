// An independent C++ reference of hw/monitor/MONITOR_SPEC.md, written straight from its
// "Per-clock order" list with plain containers (no shortcuts, one clock at a time).
#pragma once
#include "monitor_model.h"

#include <testbed/events.h>

#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tbrtl {

class RefMonitor : public Model {
 public:
  explicit RefMonitor(const Params& p) : p_(p), smi_(p.n_smi) {}
  std::string name() const override { return "reference"; }

  void clock(const ClockOps& ops, ClockOut& out) override {
    out = ClockOut{};
    // The reference predates the event filter (compared with the TLM engine instead).
    if (ops.mmi_write >= 0) throw std::logic_error("reference: no event filter (filter register write)");
    // 1. Tick.
    if (t_ > 0 && t_ % p_.tick_div == 0) {
      ts_ = uint16_t(ts_ + 1);
      if (ts_ == 0) {
        ++wraps_;
        for (auto& s : smi_) s.marker_pending = true;
      }
    }
    // 2. Wrap markers.
    for (auto& s : smi_) try_marker(s);
    // 3. MMI poller: due pushes, then a slot.
    while (!inflight_.empty() && inflight_.front().at == t_) {
      if (mmi_.size() >= p_.mmi_depth) throw std::logic_error("reference: MMI push into a full FIFO");
      mmi_.push_back({inflight_.front().src, inflight_.front().word});
      inflight_.pop_front();
    }
    if (t_ == s_) {
      if (p_.mmi_depth - mmi_.size() < 2) {
        s_ = t_ + 1;
        ++stall_;
      } else if (smi_[k_ - 1].fifo.empty()) {
        s_ = t_ + p_.empty_clocks;
        k_ = k_ % p_.n_smi + 1;
      } else {
        auto [T, E] = smi_[k_ - 1].fifo.front();
        smi_[k_ - 1].fifo.pop_front();
        inflight_.push_back({t_ + p_.word_clocks, uint8_t(k_), T});
        inflight_.push_back({t_ + 2 * p_.word_clocks, uint8_t(k_), E});
        s_ = t_ + 2 * p_.word_clocks;
        k_ = k_ % p_.n_smi + 1;
      }
    }
    // 4. CPU event writes (held ones first become due when write_gap has passed).
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      Smi& s = smi_[i];
      if (ops.write_start >> i & 1) {
        if (s.writing) throw std::logic_error("reference: new write while one is held");
        s.writing = true;
        s.word = ops.word[i];
      }
      if (!s.writing) continue;
      if (s.last_write >= 0 && int64_t(t_) - s.last_write < int64_t(p_.write_gap)) continue;
      s.writing = false;
      s.last_write = int64_t(t_);
      out.accepted |= uint16_t(1u << i);
      try_marker(s);
      if (s.fifo.size() >= p_.smi_depth) ++s.lost;
      else s.fifo.push_back({ts_, s.word});
    }
    // Reads see the state after step 4; the master's read is step 5.
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      const Smi& s = smi_[i];
      switch (ops.smi_read[i]) {
        case kSmiStatus:  // FULL: the next event would be lost (a pending marker takes a slot first)
          out.smi_read[i] = (s.fifo.size() + s.marker_pending >= p_.smi_depth) | (s.fifo.empty() << 1);
          break;
        case kSmiLevel: out.smi_read[i] = uint32_t(s.fifo.size()); break;
        case kSmiLost: out.smi_read[i] = s.lost; break;
        case kSmiLostLo: out.smi_read[i] = s.lost & 0xFFFF; break;
        default: break;
      }
    }
    switch (ops.mmi_read) {
      case kMmiDataHi:
        if (mmi_.empty()) {
          hold_ = 0;
          out.mmi_read = 0x8000;
        } else {
          out.mmi_read = mmi_.front().first;
          hold_ = mmi_.front().second;
          mmi_.pop_front();
        }
        if (ops.mmi_long) out.mmi_read = out.mmi_read << 16 | hold_;
        break;
      case kMmiDataLo: out.mmi_read = hold_; break;
      case kMmiStatus: out.mmi_read = (mmi_.size() >= p_.mmi_depth) | (mmi_.empty() << 1); break;
      case kMmiLevel: out.mmi_read = uint32_t(mmi_.size()); break;
      case kMmiStall: out.mmi_read = stall_; break;
      case kMmiStallLo: out.mmi_read = stall_ & 0xFFFF; break;
      default: break;
    }
    ++t_;
  }

  Observed observe() override {
    Observed o;
    o.ts = ts_;
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      o.smi_level[i] = uint32_t(smi_[i].fifo.size());
      o.smi_lost[i] = smi_[i].lost;
    }
    o.mmi_level = uint32_t(mmi_.size());
    o.stall_clocks = stall_;
    return o;
  }

 private:
  struct Smi {
    std::deque<std::pair<uint16_t, uint16_t>> fifo;  // {time stamp, event}
    bool marker_pending = false;
    uint32_t lost = 0;
    int64_t last_write = -1;
    bool writing = false;
    uint16_t word = 0;
  };
  struct Push {
    uint64_t at;
    uint8_t src;
    uint16_t word;
  };

  void try_marker(Smi& s) {
    if (s.marker_pending && s.fifo.size() < p_.smi_depth) {
      s.fifo.push_back({ts_, uint16_t(EV_WRAP_MARKER_VALUE | (wraps_ & 0xFF))});
      s.marker_pending = false;
    }
  }

  Params p_;
  uint64_t t_ = 0;
  uint16_t ts_ = 0;
  uint64_t wraps_ = 0;
  std::vector<Smi> smi_;
  std::deque<std::pair<uint8_t, uint16_t>> mmi_;  // {source, word}
  std::deque<Push> inflight_;
  unsigned k_ = 1;
  uint64_t s_ = 0;
  uint32_t stall_ = 0;
  uint16_t hold_ = 0;
};

}  // namespace tbrtl
