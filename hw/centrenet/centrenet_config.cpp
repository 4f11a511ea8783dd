#include "centrenet_config.h"

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

}  // namespace testbed::centrenet
