// A whole Centrenet: one bus per node, a fibre link from every node but the root to its
// parent, and a network interface in every populated board slot, built from a NetworkConfig.
//
// Bus ports at a node: 0..15 are board slots (slot = port), 16 is the link to the parent
// (non-root nodes), then one port per child link in node order. Routing is by board address:
// a frame for this node goes to the slot's port; for a node in the subtree of a child, to that
// child's link; otherwise up to the parent. Broadcasts flood every port but the one they came
// from, so they reach every board of the tree once.
#pragma once
#include <systemc>

#include <memory>
#include <ostream>
#include <vector>

#include "centrenet_bus.h"
#include "centrenet_config.h"
#include "fibre_link.h"
#include "network_interface.h"

namespace testbed::centrenet {

class CentrenetNetwork : public sc_core::sc_module {
 public:
  static constexpr unsigned kUplinkPort = NetworkConfig::kMaxBoardsPerNode;

  // Validates the configuration (std::invalid_argument naming the problem).
  CentrenetNetwork(sc_core::sc_module_name name, const NetworkConfig& cfg);
  ~CentrenetNetwork() override;

  const NetworkConfig& config() const { return cfg_; }
  bool exists(BoardAddress a) const;
  std::vector<BoardAddress> boards() const;
  NetworkInterface& ni(BoardAddress a);  // std::out_of_range naming the address
  CentrenetBus& bus(unsigned node) { return *buses_.at(node); }
  FibreLink* uplink(unsigned node) { return links_.at(node).get(); }  // nullptr for the root
  unsigned hops(BoardAddress a, BoardAddress b) const;                // fibre links crossed

  // Add every bus's owner/frame/busy signals to a trace file (also done for cfg.vcd_file).
  void add_to_trace(sc_core::sc_trace_file* tf);
  // Statistics: per bus, per port (board or link), per link direction, per interface.
  void report(std::ostream& os) const;

  // Snapshots (hw/bus/state_archive.h): every bus, link and interface, in that order; the tree
  // must be the one saved. at_rest: every one of them waits where it resumes from. (The network
  // itself holds nothing that changes while it runs.)
  void state(StateArchive& a);
  bool at_rest() const;

 private:
  int route(unsigned at, BoardAddress dst) const;

  NetworkConfig cfg_;
  std::vector<std::vector<unsigned>> children_;
  std::vector<std::unique_ptr<CentrenetBus>> buses_;
  std::vector<std::unique_ptr<FibreLink>> links_;  // indexed by child node
  std::vector<std::vector<std::unique_ptr<NetworkInterface>>> nis_;
  sc_core::sc_trace_file* vcd_ = nullptr;
};

}  // namespace testbed::centrenet
