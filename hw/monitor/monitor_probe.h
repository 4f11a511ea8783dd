// The monitor probe and observer: hooks the engine calls as the modelled hardware acts.
// Both are null by default; a disabled hook costs one pointer test.
#pragma once
#include <cstdint>
#include <vector>

namespace testbed::monitor {

// Every CPU event write as the SMI takes it: clock (step 4), SMI, word, kept or lost.
class MonitorProbe {
 public:
  virtual ~MonitorProbe() = default;
  virtual void on_event(unsigned smi, uint64_t clock, uint16_t word, bool kept) = 0;
  // A word the SMI's filter dropped by the master's choice (neither kept nor lost).
  virtual void on_filtered(unsigned /*smi*/, uint64_t /*clock*/, uint16_t /*word*/) {}
};

struct ProbeRecord {
  uint64_t clock;
  unsigned smi;
  uint16_t word;
  bool kept;
};

// Keeps every record in memory (tests, short runs).
class RecordingProbe : public MonitorProbe {
 public:
  void on_event(unsigned smi, uint64_t clock, uint16_t word, bool kept) override {
    records.push_back({clock, smi, word, kept});
  }
  void on_filtered(unsigned smi, uint64_t, uint16_t) override {
    if (filtered.size() <= smi) filtered.resize(smi + 1, 0);
    ++filtered[smi];
  }
  uint64_t kept() const { uint64_t n = 0; for (auto& r : records) n += r.kept; return n; }
  uint64_t lost() const { return records.size() - kept(); }
  std::vector<ProbeRecord> records;    // every word the SMI filters passed (kept or lost)
  std::vector<uint64_t> filtered;      // per SMI: words its filter dropped (neither kept nor lost)
};

// Every observable change, in non-decreasing clock order (the VCD tracer implements it).
class MonitorObserver {
 public:
  virtual ~MonitorObserver() = default;
  virtual void smi_write(unsigned smi, uint64_t clock, uint16_t word, bool kept) = 0;
  virtual void smi_level(unsigned smi, uint64_t clock, unsigned level) = 0;
  virtual void smi_lost(unsigned smi, uint64_t clock, uint32_t lost) = 0;
  virtual void smi_marker(unsigned smi, uint64_t clock, uint16_t marker) = 0;
  // A monitoring-bus word landing in the MMI FIFO: the time stamp (is_ts) or the event.
  virtual void bus_word(unsigned smi, uint64_t clock, bool is_ts, uint16_t word) = 0;
  virtual void mmi_level(uint64_t clock, unsigned level) = 0;
  // Stalling starts (stalling=true) or ends; stall_clocks is the counter at that clock.
  virtual void mmi_stall(uint64_t clock, bool stalling, uint64_t stall_clocks) = 0;
};

}  // namespace testbed::monitor
