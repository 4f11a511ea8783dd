#include "centrenet_config.h"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace testbed::centrenet {

const char* to_string(DmaMode m) { return m == DmaMode::k1994 ? "1994" : "dma-anywhere"; }

DmaMode dma_mode_from_string(const std::string& s) {
  if (s == "1994") return DmaMode::k1994;
  if (s == "dma-anywhere") return DmaMode::kAnywhere;
  throw std::invalid_argument("centrenet: ni.mode '" + s + "' is neither '1994' nor 'dma-anywhere'");
}

NetworkConfig NetworkConfig::single_node(unsigned boards) {
  NetworkConfig c;
  c.nodes = {NodeConfig{-1, boards}};
  return c;
}

NetworkConfig NetworkConfig::tree(unsigned count, unsigned boards_per_node, unsigned fanout) {
  if (fanout == 0) throw std::invalid_argument("centrenet: tree fanout must be at least 1");
  NetworkConfig c;
  c.nodes.clear();
  for (unsigned i = 0; i < count; ++i)
    c.nodes.push_back(NodeConfig{i == 0 ? -1 : int((i - 1) / fanout), boards_per_node});
  return c;
}

namespace {
[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("centrenet config: " + what); }
}  // namespace

void NetworkConfig::validate() const {
  if (nodes.empty()) bad("nodes is empty");
  if (nodes.size() > kMaxNodes) bad("more than 255 nodes");
  unsigned roots = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    std::string who = "nodes[" + std::to_string(i) + "]";
    if (n.boards > kMaxBoardsPerNode) bad(who + ".boards = " + std::to_string(n.boards) + " exceeds 16");
    if (n.parent < 0) {
      ++roots;
    } else if (size_t(n.parent) >= nodes.size() || size_t(n.parent) == i) {
      bad(who + ".parent = " + std::to_string(n.parent) + " names no other node");
    }
  }
  if (roots != 1) bad("the tree needs exactly one root (parent -1), found " + std::to_string(roots));
  // Every node must reach the root (no cycles).
  for (size_t i = 0; i < nodes.size(); ++i) {
    int p = int(i);
    for (size_t steps = 0; nodes[size_t(p)].parent >= 0; ++steps) {
      if (steps > nodes.size()) bad("nodes[" + std::to_string(i) + "] is on a parent cycle");
      p = nodes[size_t(p)].parent;
    }
  }
  if (!(bus.rate_bytes_per_s > 0)) bad("bus.rate_bytes_per_s must be positive");
  if (!(fibre.rate_bytes_per_s > 0)) bad("fibre.rate_bytes_per_s must be positive");
  if (fibre.buffer_frames == 0) bad("fibre.buffer_frames must be at least 1");
  if (ni.input_queue_messages == 0) bad("ni.input_queue_messages must be at least 1");
  if (ni.output_queue_messages == 0) bad("ni.output_queue_messages must be at least 1");
  if (ni.max_message_bytes < 4) bad("ni.max_message_bytes must hold the header word (>= 4)");
  if (ni.input_queue_bytes < ni.max_message_bytes)
    bad("ni.input_queue_bytes (" + std::to_string(ni.input_queue_bytes) +
        ") must hold one message of ni.max_message_bytes (" + std::to_string(ni.max_message_bytes) + ")");
  if (ni.dma_burst_bytes == 0 || ni.dma_burst_bytes % 2) bad("ni.dma_burst_bytes must be a positive even number");
}

namespace {
double number(const std::string& key, const std::string& v, double lo, double hi) {
  errno = 0;
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || errno != 0 || !(d >= lo && d <= hi))
    bad(key + " = '" + v + "' is not a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return d;
}
unsigned whole(const std::string& key, const std::string& v, unsigned lo, unsigned hi) {
  double d = number(key, v, lo, hi);
  if (d != double(unsigned(d))) bad(key + " = '" + v + "' is not a whole number");
  return unsigned(d);
}
sc_core::sc_time ns(const std::string& key, const std::string& v) {
  return sc_core::sc_time(number(key, v, 0, 1e12), sc_core::SC_NS);
}
}  // namespace

void NetworkConfig::set(const std::string& key, const std::string& value) {
  const std::string& k = key;
  const std::string& v = value;
  if (k == "nodes") {
    nodes.resize(whole(k, v, 1, kMaxNodes), NodeConfig{0, 6});
    if (nodes[0].parent >= 0) nodes[0].parent = -1;
  } else if (k.rfind("node.", 0) == 0) {
    size_t dot = k.find('.', 5);
    if (dot == std::string::npos) bad("unknown key '" + k + "'");
    unsigned i = whole(k, k.substr(5, dot - 5), 0, kMaxNodes - 1);
    if (i >= nodes.size()) bad(k + ": there are only " + std::to_string(nodes.size()) + " nodes (set 'nodes' first)");
    std::string field = k.substr(dot + 1);
    if (field == "parent") nodes[i].parent = v == "-1" ? -1 : int(whole(k, v, 0, kMaxNodes - 1));
    else if (field == "boards") nodes[i].boards = whole(k, v, 0, kMaxBoardsPerNode);
    else bad("unknown key '" + k + "'");
  } else if (k == "bus.rate") bus.rate_bytes_per_s = number(k, v, 1, 1e12);
  else if (k == "bus.frame_overhead_ns") bus.frame_overhead = ns(k, v);
  else if (k == "bus.frame_header_bytes") bus.frame_header_bytes = whole(k, v, 0, 65536);
  else if (k == "fibre.rate") fibre.rate_bytes_per_s = number(k, v, 1, 1e12);
  else if (k == "fibre.hop_latency_ns") fibre.hop_latency = ns(k, v);
  else if (k == "fibre.frame_overhead_ns") fibre.frame_overhead = ns(k, v);
  else if (k == "fibre.frame_header_bytes") fibre.frame_header_bytes = whole(k, v, 0, 65536);
  else if (k == "fibre.buffer_frames") fibre.buffer_frames = whole(k, v, 1, 1u << 20);
  else if (k == "ni.mode") ni.mode = dma_mode_from_string(v);
  else if (k == "ni.input_queue_messages") ni.input_queue_messages = whole(k, v, 1, 1u << 20);
  else if (k == "ni.input_queue_bytes") ni.input_queue_bytes = whole(k, v, 4, 1u << 30);
  else if (k == "ni.output_queue_messages") ni.output_queue_messages = whole(k, v, 1, 1u << 20);
  else if (k == "ni.max_message_bytes") ni.max_message_bytes = whole(k, v, 4, 1u << 30);
  else if (k == "ni.ram_word_ns") ni.ram_word_time = ns(k, v);
  else if (k == "ni.buffer_word_ns") ni.buffer_word_time = ns(k, v);
  else if (k == "ni.dma_burst_bytes") ni.dma_burst_bytes = whole(k, v, 2, 1u << 20);
  else if (k == "vcd") vcd_file = v;
  else bad("unknown key '" + k + "'");
}

}  // namespace testbed::centrenet
