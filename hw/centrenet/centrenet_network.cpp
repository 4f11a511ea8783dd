#include "centrenet_network.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

using namespace sc_core;

namespace testbed::centrenet {

CentrenetNetwork::CentrenetNetwork(sc_module_name name, const NetworkConfig& cfg) : sc_module(name), cfg_(cfg) {
  cfg_.validate();
  const size_t n = cfg_.nodes.size();
  children_.resize(n);
  for (unsigned i = 0; i < n; ++i)
    if (cfg_.nodes[i].parent >= 0) children_[size_t(cfg_.nodes[i].parent)].push_back(i);
  for (unsigned i = 0; i < n; ++i) {
    unsigned ports = kUplinkPort + 1 + unsigned(children_[i].size());
    buses_.push_back(std::make_unique<CentrenetBus>(("bus" + std::to_string(i)).c_str(), i, ports, cfg_.bus));
    buses_.back()->set_router([this, i](BoardAddress a) { return route(i, a); });
  }
  links_.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    int par = cfg_.nodes[i].parent;
    if (par < 0) continue;
    const auto& sib = children_[size_t(par)];
    unsigned idx = unsigned(std::find(sib.begin(), sib.end(), i) - sib.begin());
    links_[i] = std::make_unique<FibreLink>(("link" + std::to_string(i)).c_str(), cfg_.fibre, *buses_[size_t(par)],
                                            kUplinkPort + 1 + idx, *buses_[i], kUplinkPort);
  }
  nis_.resize(n);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned s = 0; s < cfg_.nodes[i].boards; ++s) {
      BoardAddress a{uint8_t(i), uint8_t(s)};
      std::string nm = "ni_" + std::to_string(i) + "_" + std::to_string(s);
      nis_[i].push_back(std::make_unique<NetworkInterface>(nm.c_str(), a, cfg_.ni, *buses_[i], s,
                                                           [this](BoardAddress d) { return exists(d); }));
    }
  if (!cfg_.vcd_file.empty()) {
    std::string base = cfg_.vcd_file;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
    vcd_ = sc_create_vcd_trace_file(base.c_str());
    add_to_trace(vcd_);
  }
}

CentrenetNetwork::~CentrenetNetwork() {
  if (vcd_) sc_close_vcd_trace_file(vcd_);
}

bool CentrenetNetwork::exists(BoardAddress a) const {
  return a.node < cfg_.nodes.size() && a.slot < cfg_.nodes[a.node].boards;
}

std::vector<BoardAddress> CentrenetNetwork::boards() const {
  std::vector<BoardAddress> v;
  for (unsigned i = 0; i < cfg_.nodes.size(); ++i)
    for (unsigned s = 0; s < cfg_.nodes[i].boards; ++s) v.push_back(BoardAddress{uint8_t(i), uint8_t(s)});
  return v;
}

NetworkInterface& CentrenetNetwork::ni(BoardAddress a) {
  if (!exists(a)) throw std::out_of_range(std::string(name()) + ": no board at " + a.str());
  return *nis_[a.node][a.slot];
}

int CentrenetNetwork::route(unsigned at, BoardAddress dst) const {
  if (!exists(dst)) return -1;
  if (dst.node == at) return dst.slot;
  // Walk up from the destination: meeting `at` means it lies below the child we came from.
  unsigned prev = dst.node;
  for (int cur = cfg_.nodes[dst.node].parent; cur >= 0; prev = unsigned(cur), cur = cfg_.nodes[size_t(cur)].parent) {
    if (unsigned(cur) == at) {
      const auto& ch = children_[at];
      return int(kUplinkPort + 1 + (std::find(ch.begin(), ch.end(), prev) - ch.begin()));
    }
  }
  return int(kUplinkPort);
}

unsigned CentrenetNetwork::hops(BoardAddress a, BoardAddress b) const {
  auto depth = [&](unsigned x) {
    unsigned d = 0;
    for (int p = cfg_.nodes[x].parent; p >= 0; p = cfg_.nodes[size_t(p)].parent) ++d;
    return d;
  };
  unsigned x = a.node, y = b.node, h = 0;
  unsigned dx = depth(x), dy = depth(y);
  for (; dx > dy; --dx, ++h) x = unsigned(cfg_.nodes[x].parent);
  for (; dy > dx; --dy, ++h) y = unsigned(cfg_.nodes[y].parent);
  while (x != y) {
    x = unsigned(cfg_.nodes[x].parent);
    y = unsigned(cfg_.nodes[y].parent);
    h += 2;
  }
  return h;
}

void CentrenetNetwork::add_to_trace(sc_trace_file* tf) {
  for (auto& b : buses_) b->add_to_trace(tf);
  for (auto& node : nis_)
    for (auto& ni : node) sc_core::sc_trace(tf, ni->in_queue, std::string(ni->name()) + ".in_queue");
}

void CentrenetNetwork::report(std::ostream& os) const {
  auto us = [](sc_time t) { return t.to_seconds() * 1e6; };
  double now = sc_time_stamp().to_seconds();
  os << std::fixed << std::setprecision(3);
  os << "centrenet statistics at " << now * 1e3 << " ms\n";
  for (const auto& b : buses_) {
    const BusStats& s = b->stats();
    os << b->name() << ": frames " << s.frames << " bytes " << s.bytes << " utilisation "
       << 100.0 * b->utilisation() << "%\n";
    for (unsigned p = 0; p < b->port_count(); ++p) {
      const PortStats& ps = s.ports[p];
      if (b->port_label(p).empty()) continue;
      os << "  " << std::setw(12) << b->port_label(p) << " sent " << ps.frames_sent << "/" << ps.bytes_sent
         << "B recv " << ps.frames_received << "/" << ps.bytes_received << "B queue mean "
         << (ps.frames_sent ? us(ps.queue_delay_total) / double(ps.frames_sent) : 0.0) << "us max "
         << us(ps.queue_delay_max) << "us backpressure " << ps.backpressure_frames << " frames "
         << us(ps.backpressure_time) << "us\n";
    }
  }
  for (const auto& l : links_) {
    if (!l) continue;
    for (int d = 0; d < 2; ++d) {
      const LinkDirectionStats& s = d ? l->up_stats() : l->down_stats();
      os << l->name() << (d ? ".up" : ".down") << ": frames " << s.frames << " bytes " << s.bytes
         << " utilisation " << (now > 0 ? 100.0 * s.busy_time.to_seconds() / now : 0.0) << "%\n";
    }
  }
  for (const auto& node : nis_)
    for (const auto& ni : node) {
      const NiStats& s = ni->stats();
      os << ni->name() << ": launches " << s.launches << " sent " << s.messages_sent << " recv "
         << s.messages_received << " storebacks " << s.storebacks << " dma words ram " << s.dma_ram_words
         << " buffer " << s.dma_buffer_words;
      for (unsigned e = 1; e < kErrorCodes; ++e)
        if (s.errors[e]) os << " " << net_error_name(e) << " " << s.errors[e];
      os << "\n";
    }
}

void CentrenetNetwork::state(StateArchive& a) {
  a.section(name()).expect("nodes", cfg_.nodes.size());
  for (const NodeConfig& n : cfg_.nodes) a.expect("parent", n.parent).expect("boards", n.boards);
  for (auto& b : buses_) b->state(a);
  for (auto& l : links_)
    if (l) l->state(a);
  for (auto& node : nis_)
    for (auto& ni : node) ni->state(a);
}

bool CentrenetNetwork::at_rest() const {
  for (const auto& b : buses_)
    if (!b->at_rest()) return false;
  for (const auto& l : links_)
    if (l && !l->at_rest()) return false;
  for (const auto& node : nis_)
    for (const auto& ni : node)
      if (!ni->at_rest()) return false;
  return true;
}

}  // namespace testbed::centrenet
