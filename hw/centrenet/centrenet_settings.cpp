// The one reader of the Centrenet settings in a machine file (testbed.toml [centrenet]).
#include "centrenet_config.h"
#include "config.h"

namespace testbed::centrenet {

void NetworkConfig::read(const testbed::Config& cfg) {
  using sc_core::sc_time;
  using sc_core::SC_US;
  Config cn = cfg.section("centrenet");
  bus.rate_bytes_per_s = cn.get_double("rate_mb_s", bus.rate_bytes_per_s / 1e6, 0.001, 10000.0) * 1e6;
  bus.frame_overhead = sc_time(cn.get_double("frame_overhead_us", bus.frame_overhead.to_seconds() * 1e6, 0.0, 1e6), SC_US);
  bus.frame_header_bytes = unsigned(cn.get_int("frame_header_bytes", bus.frame_header_bytes, 0, 4096));
  fibre.rate_bytes_per_s = cn.get_double("fibre_rate_mb_s", fibre.rate_bytes_per_s / 1e6, 0.001, 10000.0) * 1e6;
  fibre.hop_latency = sc_time(cn.get_double("hop_latency_us", fibre.hop_latency.to_seconds() * 1e6, 0.0, 1e6), SC_US);
  ni.mode = dma_mode_from_string(cn.get_choice("dma", to_string(ni.mode), {"1994", "dma-anywhere"}));
  ni.input_queue_messages = unsigned(cn.get_int("input_queue_messages", ni.input_queue_messages, 1, 4096));
}

}  // namespace testbed::centrenet
