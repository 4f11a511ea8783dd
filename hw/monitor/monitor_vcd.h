// VCD tracing of the monitor's signals, written from the engine's changes (so a lazily
// evaluated monitor still traces every clock exactly). Off unless MonitorConfig::vcd_path is set.
// Signals (scope "monitor"): smi<k>_level, smi<k>_lost, smi<k>_event (each word written, kept or
// lost), smi<k>_marker; bus_src, bus_ts, bus_data (the monitoring-bus words as they land in the
// MMI); mmi_level, mmi_stalling, mmi_stall. Open waveforms/monitor.gtkw on the file.
// A path ending in ".fst" writes GTKWave's compact FST instead (a VCD beside it, converted with
// vcd2fst when the run ends). The size is reported on stderr after 10 ms, 100 ms, 1 s and 10 s of simulated time
// (MB per simulated second so far: an estimate before a long run fills the disk) and at every doubling
// past 64 MB.
#pragma once
#include "monitor_params.h"
#include "monitor_probe.h"

#include <cstdio>
#include <string>
#include <vector>

namespace testbed::monitor {

class MonitorVcd : public MonitorObserver {
 public:
  // Throws std::runtime_error naming the path if it cannot be written.
  MonitorVcd(const std::string& path, const MonitorParams& p, uint64_t clock_period_ps);
  ~MonitorVcd() override;
  MonitorVcd(const MonitorVcd&) = delete;
  MonitorVcd& operator=(const MonitorVcd&) = delete;

  void smi_write(unsigned smi, uint64_t clock, uint16_t word, bool kept) override;
  void smi_level(unsigned smi, uint64_t clock, unsigned level) override;
  void smi_lost(unsigned smi, uint64_t clock, uint32_t lost) override;
  void smi_marker(unsigned smi, uint64_t clock, uint16_t marker) override;
  void bus_word(unsigned smi, uint64_t clock, bool is_ts, uint16_t word) override;
  void mmi_level(uint64_t clock, unsigned level) override;
  void mmi_stall(uint64_t clock, bool stalling, uint64_t stall_clocks) override;

 private:
  struct Var { std::string id; unsigned width; };
  unsigned add(const std::string& name, unsigned width);
  void change(unsigned var, uint64_t clock, uint64_t value);

  void report(uint64_t t_ps);
  std::FILE* f_;
  std::string path_, vcd_path_;  // vcd_path_ != path_: converted to FST at the end
  uint64_t bytes_ = 0, next_report_bytes_ = 64ull << 20;
  uint64_t next_rate_ps_ = 10'000'000'000ull;  // 10 ms, 100 ms, 1 s, 10 s simulated
  uint64_t period_ps_;
  uint64_t last_time_ = ~0ull;
  std::vector<Var> vars_;
  std::vector<unsigned> smi_level_, smi_lost_, smi_event_, smi_marker_;
  unsigned bus_src_ = 0, bus_ts_ = 0, bus_data_ = 0, mmi_level_ = 0, mmi_stalling_ = 0, mmi_stall_ = 0;
  std::string header_;
};

}  // namespace testbed::monitor
