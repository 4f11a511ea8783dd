// The one reader of the monitor's settings in a machine file (testbed.toml [monitor]).
#include "config.h"
#include "monitor.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace testbed::monitor {

void MonitorConfig::read(const Config& cfg, double clock_hz, unsigned smis) {
  Config mc = cfg.section("monitor");
  const std::string& source = cfg.source_name();
  MonitorParams& p = params;
  p.n_smi = unsigned(mc.get_int("smis", smis, 1, 15));
  double tick_us = mc.get_double("tick_us", 1.0, 0.0001, 1e6);
  clock_period = sc_core::sc_time(1.0 / clock_hz, sc_core::SC_SEC);
  double div = tick_us * 1e-6 * clock_hz;
  if (std::abs(div - std::round(div)) > 1e-9 || div < 1)
    throw ConfigError(source + ": monitor.tick_us = " + std::to_string(tick_us) +
                      " is not a whole number (>= 1) of monitor clocks at the CPU clock");
  p.tick_div = unsigned(std::lround(div));
  p.smi_depth = unsigned(mc.get_int("smi_depth", 1024, 1, 65535));
  p.mmi_depth = unsigned(mc.get_int("mmi_depth", 512, 2, 65535));
  double poll_us = mc.get_double("poll_period_us", 36.0, 0.001, 1e6);
  // The report's figure is per SMI with all busy: a round of n_smi pairs = 2*n_smi words.
  double word = poll_us * 1e-6 * clock_hz / (2.0 * p.n_smi);
  if (word < 1) throw ConfigError(source + ": monitor.poll_period_us is shorter than one clock per bus word");
  p.word_clocks = unsigned(std::lround(word));
  p.empty_clocks = unsigned(mc.get_int("empty_clocks", p.word_clocks, 1, 1 << 20));
  p.write_gap = unsigned(mc.get_int("write_gap_clocks", 2, 1, 1 << 20));
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(source + ": " + e.what());
  }
}

}  // namespace testbed::monitor
