// The Centrenet bus: per-pair delivery order, no loss under back-pressure, round-robin
// fairness at saturation, and throughput that follows the configured rate.
#include "test_centrenet_support.h"

#include <iostream>
#include <map>

using namespace tb_test;

// libsystemc wants an sc_main; gtest_main provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

// Every board sends a numbered stream to every other board through small input queues:
// each receiver sees each sender's stream complete and in order.
TEST(CentrenetBus, DeliversInOrderBetweenEveryPair) {
  NetworkConfig cfg = NetworkConfig::single_node(6);
  cfg.ni.input_queue_messages = 2;
  Rig rig(cfg);
  constexpr unsigned kPerPair = 12;
  std::map<std::pair<unsigned, unsigned>, std::vector<uint32_t>> got;  // (src, dst) -> seqs
  for (unsigned s = 0; s < 6; ++s)
    rig.thread([&, s] {
      for (unsigned k = 0; k < kPerPair; ++k)
        for (unsigned d = 0; d < 6; ++d)
          if (d != s) rig.host(B(0, s)).send_blocking(B(0, d), 7, {s, k});
    });
  for (unsigned d = 0; d < 6; ++d)
    rig.thread([&, d] {
      Host& h = rig.host(B(0, d));
      for (unsigned n = 0; n < 5 * kPerPair; ++n) {
        h.wait_message();
        uint32_t src = h.reg(TB_NET_IN_SRC_OFF);
        EXPECT_EQ(h.win(1), src & 0xFF);  // operand 0 names the sender
        got[{src & 0xFF, d}].push_back(h.win(2));
        EXPECT_EQ(h.rxcmd(rxcmd::kPop), kOk);
      }
    });
  sc_core::sc_start(sc_time(100, SC_MS));
  ASSERT_EQ(got.size(), 30u);
  for (auto& [pair, seqs] : got) {
    ASSERT_EQ(seqs.size(), kPerPair) << pair.first << "->" << pair.second;
    for (unsigned k = 0; k < kPerPair; ++k) EXPECT_EQ(seqs[k], k) << pair.first << "->" << pair.second;
  }
}

// Five senders flood one receiver whose input queue holds one message and which drains
// slowly: every message arrives, the senders were held back, and the wait was counted.
TEST(CentrenetBus, LosesNothingUnderBackPressure) {
  NetworkConfig cfg = NetworkConfig::single_node(6);
  cfg.ni.input_queue_messages = 1;
  Rig rig(cfg);
  constexpr unsigned kEach = 20;
  unsigned received = 0;
  std::vector<uint32_t> next(6, 0);
  for (unsigned s = 1; s < 6; ++s)
    rig.thread([&, s] {
      for (unsigned k = 0; k < kEach; ++k) rig.host(B(0, s)).send_blocking(B(0, 0), 1, {s, k});
    });
  rig.thread([&] {
    Host& h = rig.host(B(0, 0));
    for (unsigned n = 0; n < 5 * kEach; ++n) {
      h.wait_message();
      sc_core::wait(sc_time(50, SC_US));  // a slow consumer
      uint32_t s = h.win(1);
      EXPECT_EQ(h.win(2), next[s]++);
      EXPECT_EQ(h.rxcmd(rxcmd::kPop), kOk);
      ++received;
    }
  });
  sc_core::sc_start(sc_time(50, SC_MS));
  EXPECT_EQ(received, 5 * kEach);
  const BusStats& st = rig.net->bus(0).stats();
  EXPECT_EQ(st.frames, 5 * kEach);
  uint64_t bp_frames = 0;
  sc_time bp_time;
  for (unsigned s = 1; s < 6; ++s) {
    EXPECT_EQ(rig.ni(B(0, s)).stats().messages_sent, kEach);
    bp_frames += st.ports[s].backpressure_frames;
    bp_time += st.ports[s].backpressure_time;
  }
  EXPECT_GT(bp_frames, 5 * kEach / 2);
  // The consumer took 50 us per message: nearly all of that was spent by senders waiting.
  EXPECT_GT(bp_time, sc_time(50.0 * 5 * kEach, SC_US));
  EXPECT_EQ(rig.ni(B(0, 0)).stats().messages_received, 5 * kEach);
}

// Sixteen boards all sending as fast as they can: the bus is saturated and round-robin
// gives every board the same share.
TEST(CentrenetBus, SixteenBoardsShareASaturatedBusFairly) {
  NetworkConfig cfg = NetworkConfig::single_node(16);
  cfg.ni.output_queue_messages = 4;
  Rig rig(cfg);
  bool stop = false;
  for (unsigned s = 0; s < 16; ++s) {
    rig.thread([&, s] {
      Host& h = rig.host(B(0, s));
      for (uint32_t k = 0; !stop; ++k) h.send_blocking(B(0, (s + 1 + k % 15) % 16), 2, {s, k, 0, 0, 0, 0, 0});
    });
    rig.thread([&, s] {
      Host& h = rig.host(B(0, s));
      for (;;) {
        h.wait_message(sc_time(500, SC_NS));
        while (h.reg(TB_NET_IN_COUNT_OFF)) h.rxcmd(rxcmd::kPop);
      }
    });
  }
  rig.thread([&] {  // stop launching a little early so every sender's loop ends cleanly
    sc_core::wait(sc_time(19, SC_MS));
    stop = true;
  });
  sc_core::sc_start(sc_time(19, SC_MS));
  const BusStats st = rig.net->bus(0).stats();  // at saturation, before the senders stop
  const double util = rig.net->bus(0).utilisation();
  sc_core::sc_start(sc_time(1, SC_MS));
  uint64_t lo = UINT64_MAX, hi = 0;
  for (unsigned s = 0; s < 16; ++s) {
    lo = std::min(lo, st.ports[s].frames_sent);
    hi = std::max(hi, st.ports[s].frames_sent);
  }
  double mean = double(st.frames) / 16;
  EXPECT_GT(mean, 100.0);
  EXPECT_LE(double(hi - lo), 0.01 * mean + 1) << "min " << lo << " max " << hi;
  std::cout << "frames per board: min " << lo << " max " << hi << " mean " << mean << "\n";
  EXPECT_GT(util, 0.99);
}

namespace {
// One board streams `count` messages of `bytes` DMA data from its buffer memory to another,
// which stores each one back into its buffer and pops it. Returns the payload rate seen at
// the receiver in steady state (bytes per second between the first and the last arrival).
double measured_rate(double bus_rate, unsigned bytes, unsigned count) {
  NetworkConfig cfg = NetworkConfig::single_node(2);
  cfg.bus.rate_bytes_per_s = bus_rate;
  Rig rig(cfg);
  std::vector<sc_time> arrivals;
  rig.ni(B(0, 1)).on_receive([&](const Frame&) { arrivals.push_back(sc_core::sc_time_stamp()); });
  rig.thread([&] {
    for (unsigned k = 0; k < count; ++k) rig.host(B(0, 0)).send_blocking(B(0, 1), 3, {k}, {{kBuf, bytes}});
  });
  rig.thread([&] {
    Host& h = rig.host(B(0, 1));
    for (unsigned k = 0; k < count; ++k) {
      h.wait_message();
      EXPECT_EQ(h.win(1), k);
      h.set(TB_NET_SB_ADDR_OFF, kBuf);
      h.set(TB_NET_SB_OFFSET_OFF, 8);
      h.set(TB_NET_SB_LEN_OFF, bytes);
      EXPECT_EQ(h.rxcmd(rxcmd::kStorebackPop), kOk);
      h.wait_storeback();
    }
  });
  sc_core::sc_start(sc_time(1, sc_core::SC_SEC));
  EXPECT_EQ(arrivals.size(), count);
  if (arrivals.size() < 2) return 0;
  return double(count - 1) * (bytes + 8) / (arrivals.back() - arrivals.front()).to_seconds();
}
}  // namespace

TEST(CentrenetBus, LargeTransfersRunAtTheConfiguredRate) {
  double r = measured_rate(10e6, 4096, 40);
  std::cout << "measured " << r / 1e6 << " MB/s of 4 KB messages on a 10 MB/s bus\n";
  EXPECT_NEAR(r, 10e6, 0.05 * 10e6) << "measured " << r / 1e6 << " MB/s";
  EXPECT_LT(r, 10e6);  // framing and per-frame overhead cost something
}

TEST(CentrenetBus, ThroughputFollowsASlowerConfiguredRate) {
  double r = measured_rate(4e6, 4096, 20);
  EXPECT_NEAR(r, 4e6, 0.05 * 4e6) << "measured " << r / 1e6 << " MB/s";
}

// Two boards launch at the same instant: one is granted at once, the other waits exactly one
// transfer, and the statistics say so (queueing delay per port, bus busy time, utilisation).
TEST(CentrenetBus, QueueingDelayIsTheTimeSpentWaitingForTheBus) {
  NetworkConfig cfg = NetworkConfig::single_node(3);
  Rig rig(cfg, 0x1000);
  rig.thread([&] { EXPECT_EQ(rig.host(B(0, 0)).send(B(0, 2), 0, {1, 2}), kOk); });
  rig.thread([&] { EXPECT_EQ(rig.host(B(0, 1)).send(B(0, 2), 0, {3, 4}), kOk); });
  sc_core::sc_start(sc_time(100, SC_US));
  const BusStats& st = rig.net->bus(0).stats();
  sc_time t = rig.net->bus(0).transfer_time(12);
  EXPECT_EQ(st.frames, 2u);
  EXPECT_EQ(st.busy_time, 2 * t);
  EXPECT_EQ(st.ports[0].queue_delay_total + st.ports[1].queue_delay_total, t);
  EXPECT_EQ(std::max(st.ports[0].queue_delay_max, st.ports[1].queue_delay_max), t);
  EXPECT_EQ(st.ports[2].frames_received, 2u);
  EXPECT_EQ(st.ports[2].bytes_received, 24u);
  EXPECT_DOUBLE_EQ(rig.net->bus(0).utilisation(), 2 * t.to_seconds() / 100e-6);
}
