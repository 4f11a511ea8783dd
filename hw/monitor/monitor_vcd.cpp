#include "monitor_vcd.h"

#include "output_errors.h"
#include "replayed_output.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace testbed::monitor {

namespace {
unsigned bits_for(unsigned max_value) {
  unsigned b = 1;
  while ((1ull << b) <= max_value) ++b;
  return b;
}
std::string vcd_id(unsigned n) {
  std::string s;
  do {
    s += char('!' + n % 94);
    n /= 94;
  } while (n);
  return s;
}
}  // namespace

unsigned MonitorVcd::add(const std::string& name, unsigned width) {
  Var v{vcd_id(unsigned(vars_.size())), width};
  header_ += "$var wire " + std::to_string(width) + " " + v.id + " " + name +
             (width > 1 ? " [" + std::to_string(width - 1) + ":0]" : "") + " $end\n";
  vars_.push_back(v);
  return unsigned(vars_.size() - 1);
}

namespace {
bool ends_with_fst(const std::string& p) { return p.size() > 4 && p.compare(p.size() - 4, 4, ".fst") == 0; }
}  // namespace

MonitorVcd::MonitorVcd(const std::string& path, const MonitorParams& p, uint64_t clock_period_ps)
    : f_(nullptr), path_(path), vcd_path_(ends_with_fst(path) ? path + ".vcd" : path), period_ps_(clock_period_ps) {
  f_ = output::open_replayed(vcd_path_, "w");
  if (!f_) throw std::runtime_error("monitor VCD: cannot write " + vcd_path_);
  for (unsigned k = 1; k <= p.n_smi; ++k) {
    std::string s = "smi" + std::to_string(k) + "_";
    smi_level_.push_back(add(s + "level", bits_for(p.smi_depth)));
    smi_lost_.push_back(add(s + "lost", 32));
    smi_event_.push_back(add(s + "event", 16));
    smi_marker_.push_back(add(s + "marker", 16));
  }
  bus_src_ = add("bus_src", 4);
  bus_ts_ = add("bus_ts", 16);
  bus_data_ = add("bus_data", 16);
  mmi_level_ = add("mmi_level", bits_for(p.mmi_depth));
  mmi_stalling_ = add("mmi_stalling", 1);
  mmi_stall_ = add("mmi_stall", 32);
  std::fprintf(f_, "$comment Testbed monitor (hw/monitor), one clock = %llu ps $end\n$timescale 1ps $end\n"
               "$scope module monitor $end\n%s$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n",
               (unsigned long long)period_ps_, header_.c_str());
  // Event words, markers and bus words are unknown until the first one (0 would read as the
  // event OVERFLOW through the translate filter); levels and counters start at 0.
  std::vector<bool> unknown(vars_.size(), false);
  for (auto* list : {&smi_event_, &smi_marker_})
    for (unsigned i : *list) unknown[i] = true;
  unknown[bus_src_] = unknown[bus_ts_] = unknown[bus_data_] = true;
  for (size_t i = 0; i < vars_.size(); ++i) {
    const Var& v = vars_[i];
    if (v.width == 1) std::fprintf(f_, "0%s\n", v.id.c_str());
    else std::fprintf(f_, unknown[i] ? "bx %s\n" : "b0 %s\n", v.id.c_str());
  }
  std::fprintf(f_, "$end\n");
  last_time_ = 0;
}

MonitorVcd::~MonitorVcd() {
  // A failed write (full disk) is recorded for the tool to report (output_errors.h).
  bool written = output::close(f_, vcd_path_);
  if (written && vcd_path_ != path_) {
    std::string cmd = "vcd2fst '" + vcd_path_ + "' '" + path_ + "' >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) std::remove(vcd_path_.c_str());
    else std::cerr << "monitor VCD: vcd2fst (gtkwave) failed: the VCD stays in " << vcd_path_ << "\n";
  }
}

void MonitorVcd::report(uint64_t t_ps) {
  double mb = double(bytes_) / 1e6, s = double(t_ps) * 1e-12;
  if (t_ps >= next_rate_ps_ && next_rate_ps_) {
    next_rate_ps_ = next_rate_ps_ < 10'000'000'000'000ull ? next_rate_ps_ * 10 : 0;
    char b[160];
    std::snprintf(b, sizeof b, "%.1f MB after %.0f ms simulated: about %.1f MB per simulated second so far", mb, s * 1e3,
                  mb / s);
    std::cerr << "monitor VCD: " << path_ << ": " << b << "\n";
  }
  if (bytes_ >= next_report_bytes_) {
    next_report_bytes_ *= 2;
    std::cerr << "monitor VCD: " << path_ << ": " << uint64_t(mb) << " MB at " << uint64_t(s * 1e3)
              << " ms simulated" << (vcd_path_ == path_ ? " (a path ending in .fst writes FST)" : "") << "\n";
  }
}

void MonitorVcd::change(unsigned var, uint64_t clock, uint64_t value) {
  uint64_t t = clock * period_ps_;
  if (t < last_time_) t = last_time_;  // the engine reports in clock order; never go back
  if (t != last_time_) {
    int n = std::fprintf(f_, "#%llu\n", (unsigned long long)t);
    bytes_ += n > 0 ? unsigned(n) : 0;
    last_time_ = t;
    if ((next_rate_ps_ && t >= next_rate_ps_) || bytes_ >= next_report_bytes_) report(t);
  }
  const Var& v = vars_[var];
  if (v.width == 1) {
    std::fprintf(f_, "%u%s\n", unsigned(value & 1), v.id.c_str());
    return;
  }
  char buf[70];
  int n = 0;
  bool started = false;
  for (int b = int(v.width) - 1; b >= 0; --b) {
    bool bit = (value >> b) & 1;
    if (bit) started = true;
    if (started) buf[n++] = bit ? '1' : '0';
  }
  if (!n) buf[n++] = '0';
  buf[n] = 0;
  int w = std::fprintf(f_, "b%s %s\n", buf, v.id.c_str());
  bytes_ += w > 0 ? unsigned(w) : 0;
}

void MonitorVcd::smi_write(unsigned smi, uint64_t clock, uint16_t word, bool) { change(smi_event_[smi - 1], clock, word); }
void MonitorVcd::smi_level(unsigned smi, uint64_t clock, unsigned level) { change(smi_level_[smi - 1], clock, level); }
void MonitorVcd::smi_lost(unsigned smi, uint64_t clock, uint32_t lost) { change(smi_lost_[smi - 1], clock, lost); }
void MonitorVcd::smi_marker(unsigned smi, uint64_t clock, uint16_t m) { change(smi_marker_[smi - 1], clock, m); }
void MonitorVcd::bus_word(unsigned smi, uint64_t clock, bool is_ts, uint16_t word) {
  change(bus_src_, clock, smi);
  change(is_ts ? bus_ts_ : bus_data_, clock, word);
}
void MonitorVcd::mmi_level(uint64_t clock, unsigned level) { change(mmi_level_, clock, level); }
void MonitorVcd::mmi_stall(uint64_t clock, bool stalling, uint64_t stall_clocks) {
  change(mmi_stalling_, clock, stalling);
  change(mmi_stall_, clock, stall_clocks);
}

}  // namespace testbed::monitor
