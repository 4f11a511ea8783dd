// The fibre tree: routing by (node, slot), latency growing with the hops crossed, broadcast
// reaching every board once, configuration errors named, and bus signals in a VCD.
#include "test_centrenet_support.h"

#include <fstream>
#include <sstream>

using namespace tb_test;

// libsystemc wants an sc_main; gtest_main provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

// A chain of four nodes: a message from (0,0) to (k,1) crosses k fibre links. Each extra hop
// adds one more bus transfer, one link serialisation and the link's latency, and nothing else.
TEST(CentrenetTree, LatencyGrowsWithEveryHop) {
  NetworkConfig cfg = NetworkConfig::tree(4, 3, 1);
  cfg.fibre.hop_latency = sc_time(5, SC_US);
  Rig rig(cfg);
  std::vector<sc_time> latency(4);
  for (unsigned k = 0; k < 4; ++k)
    rig.ni(B(k, 1)).on_receive([&, k](const Frame& f) { latency[k] = sc_core::sc_time_stamp() - f.posted; });
  rig.thread([&] {
    for (unsigned k = 0; k < 4; ++k) {
      rig.host(B(0, 0)).send_blocking(B(k, 1), 9, {k, 1, 2});
      rig.host(B(k, 1)).wait_message();
      EXPECT_EQ(rig.host(B(k, 1)).reg(TB_NET_IN_SRC_OFF), 0x0000u);
      EXPECT_EQ(rig.host(B(k, 1)).win(1), k);
    }
  });
  sc_core::sc_start(sc_time(10, SC_MS));
  const size_t bytes = 16;  // header + 3 operands
  sc_time bus = rig.net->bus(0).transfer_time(bytes);
  sc_time link = rig.net->uplink(1)->serialise_time(bytes) + cfg.fibre.hop_latency;
  EXPECT_EQ(latency[0], bus);
  for (unsigned k = 1; k < 4; ++k) {
    EXPECT_GT(latency[k], latency[k - 1]);
    EXPECT_EQ(latency[k] - latency[k - 1], bus + link) << "hop " << k;
    EXPECT_EQ(rig.net->hops(B(0, 0), B(k, 1)), k);
  }
}

// A balanced tree of seven nodes (fanout 2): a message between two leaves under different
// children of the root crosses four links, and arrives intact.
TEST(CentrenetTree, RoutesBetweenLeavesThroughTheRoot) {
  NetworkConfig cfg = NetworkConfig::tree(7, 16, 2);
  Rig rig(cfg, 0x1000);
  EXPECT_EQ(rig.net->hops(B(3, 15), B(6, 0)), 4u);
  EXPECT_EQ(rig.net->hops(B(3, 15), B(4, 0)), 2u);
  rig.thread([&] {
    rig.host(B(3, 15)).send_blocking(B(6, 0), 0x55, {0xDEADBEEF});
    rig.host(B(6, 0)).wait_message();
    EXPECT_EQ(rig.host(B(6, 0)).win(0), make_header(B(6, 0), 0x55));
    EXPECT_EQ(rig.host(B(6, 0)).win(1), 0xDEADBEEFu);
    EXPECT_EQ(rig.host(B(6, 0)).reg(TB_NET_IN_SRC_OFF), 0x030Fu);
  });
  sc_core::sc_start(sc_time(10, SC_MS));
  EXPECT_EQ(rig.ni(B(6, 0)).stats().messages_received, 1u);
  // It went up from node 3 to 1 to 0, then down 0 to 2 to 6; node 4 and 5 saw nothing.
  EXPECT_EQ(rig.net->uplink(3)->up_stats().frames, 1u);
  EXPECT_EQ(rig.net->uplink(1)->up_stats().frames, 1u);
  EXPECT_EQ(rig.net->uplink(2)->down_stats().frames, 1u);
  EXPECT_EQ(rig.net->uplink(6)->down_stats().frames, 1u);
  EXPECT_EQ(rig.net->uplink(4)->down_stats().frames, 0u);
  EXPECT_EQ(rig.net->bus(5).stats().frames, 0u);
}

// Back-pressure crosses a link: a slow receiver on node 1 and a one-frame fibre buffer hold
// back three senders on node 0; every message still arrives, in order per sender.
TEST(CentrenetTree, BackPressurePropagatesAcrossALinkWithoutLoss) {
  NetworkConfig cfg = NetworkConfig::tree(2, 3, 1);
  cfg.fibre.buffer_frames = 1;
  cfg.ni.input_queue_messages = 1;
  Rig rig(cfg, 0x1000);
  constexpr unsigned kEach = 10;
  std::vector<uint32_t> next(3, 0);
  unsigned received = 0;
  for (unsigned s = 0; s < 3; ++s)
    rig.thread([&, s] {
      for (unsigned k = 0; k < kEach; ++k) rig.host(B(0, s)).send_blocking(B(1, 0), 4, {s, k});
    });
  rig.thread([&] {
    Host& h = rig.host(B(1, 0));
    for (unsigned n = 0; n < 3 * kEach; ++n) {
      h.wait_message();
      sc_core::wait(sc_time(20, SC_US));
      uint32_t s = h.win(1);
      ASSERT_LT(s, 3u);
      EXPECT_EQ(h.win(2), next[s]++);
      EXPECT_EQ(h.rxcmd(rxcmd::kPop), kOk);
      ++received;
    }
  });
  sc_core::sc_start(sc_time(10, SC_MS));
  EXPECT_EQ(received, 3 * kEach);
  const BusStats& b0 = rig.net->bus(0).stats();
  const BusStats& b1 = rig.net->bus(1).stats();
  uint64_t held = 0;
  for (unsigned s = 0; s < 3; ++s) held += b0.ports[s].backpressure_frames;
  EXPECT_GT(held, 0u);                                                    // the link was full
  EXPECT_GT(b1.ports[CentrenetNetwork::kUplinkPort].backpressure_frames, 0u);  // the receiver was full
  EXPECT_EQ(rig.net->uplink(1)->down_stats().frames, 3 * kEach);
}

// TOS's advert token: a broadcast reaches every other board of the tree exactly once.
TEST(CentrenetTree, BroadcastReachesEveryOtherBoardOnce) {
  NetworkConfig cfg = NetworkConfig::tree(5, 4, 2);
  Rig rig(cfg, 0x1000);
  std::vector<unsigned> count(rig.addrs.size(), 0);
  for (size_t i = 0; i < rig.addrs.size(); ++i)
    rig.ni(rig.addrs[i]).on_receive([&, i](const Frame& f) {
      EXPECT_TRUE(f.dst.is_broadcast());
      ++count[i];
    });
  rig.thread([&] { EXPECT_EQ(rig.host(B(3, 2)).send(kBroadcast, 0xAD, {42}), kOk); });
  sc_core::sc_start(sc_time(10, SC_MS));
  for (size_t i = 0; i < rig.addrs.size(); ++i)
    EXPECT_EQ(count[i], rig.addrs[i] == B(3, 2) ? 0u : 1u) << rig.addrs[i].str();
}

TEST(CentrenetTree, BadConfigurationsAreRefusedByName) {
  auto error_of = [](const NetworkConfig& c) {
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  NetworkConfig c = NetworkConfig::single_node(17);
  EXPECT_NE(error_of(c).find("nodes[0].boards = 17"), std::string::npos) << error_of(c);
  c = NetworkConfig::tree(3, 2, 1);
  c.nodes[0].parent = 2;
  EXPECT_NE(error_of(c).find("root"), std::string::npos) << error_of(c);
  c = NetworkConfig::tree(3, 2, 1);
  c.nodes[1].parent = 7;
  EXPECT_NE(error_of(c).find("nodes[1].parent"), std::string::npos) << error_of(c);
  c = NetworkConfig::single_node();
  c.bus.rate_bytes_per_s = 0;
  EXPECT_NE(error_of(c).find("bus.rate_bytes_per_s"), std::string::npos);
  c = NetworkConfig::single_node();
  c.ni.input_queue_bytes = 100;
  EXPECT_NE(error_of(c).find("ni.input_queue_bytes"), std::string::npos);
  EXPECT_EQ(error_of(NetworkConfig::tree(200, 16, 3)), "");
  EXPECT_THROW(dma_mode_from_string("1995"), std::invalid_argument);
  EXPECT_EQ(dma_mode_from_string("dma-anywhere"), DmaMode::kAnywhere);
}

// The testbed's configuration file hands settings over by name.
TEST(CentrenetTree, SettingsByNameBuildATreeAndRefuseNonsense) {
  NetworkConfig c = NetworkConfig::single_node();
  c.set("nodes", "3");
  c.set("node.0.boards", "16");
  c.set("node.2.parent", "1");
  c.set("node.2.boards", "4");
  c.set("bus.rate", "20e6");
  c.set("fibre.hop_latency_ns", "1500");
  c.set("ni.mode", "dma-anywhere");
  EXPECT_NO_THROW(c.validate());
  EXPECT_EQ(c.nodes[1].parent, 0);
  EXPECT_EQ(c.nodes[2].parent, 1);
  EXPECT_EQ(c.nodes[0].boards, 16u);
  EXPECT_EQ(c.bus.rate_bytes_per_s, 20e6);
  EXPECT_EQ(c.fibre.hop_latency, sc_time(1500, SC_NS));
  EXPECT_EQ(c.ni.mode, DmaMode::kAnywhere);
  auto error_of = [&](const char* k, const char* v) {
    try {
      c.set(k, v);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("bus.speed", "1").find("bus.speed"), std::string::npos);
  EXPECT_NE(error_of("bus.rate", "fast").find("bus.rate"), std::string::npos);
  EXPECT_NE(error_of("node.0.boards", "17").find("node.0.boards"), std::string::npos);
  EXPECT_NE(error_of("node.5.boards", "2").find("only 3 nodes"), std::string::npos);
  EXPECT_NE(error_of("ni.mode", "1995").find("1995"), std::string::npos);
}

TEST(CentrenetTree, TracesBusOwnerFrameAndBusyToVcd) {
  NetworkConfig cfg = NetworkConfig::single_node(3);
  cfg.vcd_file = "centrenet_trace_test.vcd";
  std::remove(cfg.vcd_file.c_str());
  {
    Rig rig(cfg, 0x1000);
    rig.thread([&] { rig.host(B(0, 2)).send_blocking(B(0, 0), 1, {1}); });
    sc_core::sc_start(sc_time(1, SC_MS));
    std::ostringstream report;
    rig.net->report(report);
    EXPECT_NE(report.str().find("net.bus0: frames 1"), std::string::npos) << report.str();
  }
  std::ifstream f(cfg.vcd_file);
  std::stringstream vcd;
  vcd << f.rdbuf();
  EXPECT_NE(vcd.str().find("owner"), std::string::npos);
  EXPECT_NE(vcd.str().find("busy"), std::string::npos);
  EXPECT_NE(vcd.str().find("frame"), std::string::npos);
}
