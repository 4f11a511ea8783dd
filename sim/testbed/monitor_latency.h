// How late the monitoring hardware delivers: for every event a CPU wrote and the SMI kept, the
// clocks from the write to its event word landing in the MMI FIFO (queueing in the SMI plus the
// two monitoring-bus words). Sits in front of any other observer (the VCD tracer) and forwards.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "monitor_probe.h"
#include "state_archive.h"  // hw/bus

namespace testbed {

class MonitorLatency : public monitor::MonitorObserver {
 public:
  struct Stats {
    uint64_t count = 0, sum = 0, min = UINT64_MAX, max = 0;
    double mean() const { return count ? double(sum) / double(count) : 0.0; }
  };

  MonitorLatency(unsigned n_smi, monitor::MonitorObserver* next) : fifo_(n_smi + 1), stats_(n_smi + 1), next_(next) {}

  const Stats& stats(unsigned smi) const { return stats_[smi]; }

  void smi_write(unsigned smi, uint64_t clock, uint16_t word, bool kept) override {
    if (kept) fifo_[smi].push_back({clock, false});
    if (next_) next_->smi_write(smi, clock, word, kept);
  }
  void smi_marker(unsigned smi, uint64_t clock, uint16_t marker) override {
    fifo_[smi].push_back({clock, true});
    if (next_) next_->smi_marker(smi, clock, marker);
  }
  void bus_word(unsigned smi, uint64_t clock, bool is_ts, uint16_t word) override {
    if (!is_ts && !fifo_[smi].empty()) {
      Entry e = fifo_[smi].front();
      fifo_[smi].pop_front();
      if (!e.marker) {
        Stats& s = stats_[smi];
        uint64_t d = clock - e.clock;
        ++s.count;
        s.sum += d;
        s.min = std::min(s.min, d);
        s.max = std::max(s.max, d);
      }
    }
    if (next_) next_->bus_word(smi, clock, is_ts, word);
  }
  void smi_level(unsigned smi, uint64_t clock, unsigned level) override {
    if (next_) next_->smi_level(smi, clock, level);
  }
  void smi_lost(unsigned smi, uint64_t clock, uint32_t lost) override {
    if (next_) next_->smi_lost(smi, clock, lost);
  }
  void mmi_level(uint64_t clock, unsigned level) override {
    if (next_) next_->mmi_level(clock, level);
  }
  void mmi_stall(uint64_t clock, bool stalling, uint64_t stall_clocks) override {
    if (next_) next_->mmi_stall(clock, stalling, stall_clocks);
  }
  void state(StateArchive& a) {
    a.section("monitor latency").expect("SMIs", uint64_t(fifo_.size()));
    for (auto& q : fifo_) {
      uint64_t n = q.size();
      a.io(n);
      if (a.loading()) q.assign(size_t(n), Entry{});
      for (Entry& e : q) a.io(e.clock).io(e.marker);
    }
    for (Stats& s : stats_) a.io(s.count).io(s.sum).io(s.min).io(s.max);
  }

 private:
  struct Entry {
    uint64_t clock = 0;
    bool marker = false;
  };
  std::vector<std::deque<Entry>> fifo_;
  std::vector<Stats> stats_;
  monitor::MonitorObserver* next_;
};

}  // namespace testbed
