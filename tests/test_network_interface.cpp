// The Alewife-style network interface: DMA gather and storeback move exactly the bytes the
// descriptor names (in both DMA modes), malformed commands get defined error codes and send
// nothing, the receive interrupt follows the input queue, and DMA steals memory cycles.
#include "test_centrenet_support.h"

using namespace tb_test;
using testbed::SharedMemoryPort;

// libsystemc wants an sc_main; gtest_main provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

namespace {
std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7 + (i >> 8));
  return v;
}
}  // namespace

// dma-anywhere: three odd-sized, odd-addressed pieces of RAM gathered behind two operands;
// the receiver stores a slice of the message back into its RAM, touching nothing else.
TEST(NetworkInterface, GatherAndStorebackMoveExactlyTheDescribedBytes) {
  NetworkConfig cfg = NetworkConfig::single_node(2);
  cfg.ni.mode = DmaMode::kAnywhere;
  Rig rig(cfg);
  auto src = pattern(0x10000, 3);
  std::memcpy(rig.mem(B(0, 0)).data(), src.data(), src.size());
  std::memset(rig.mem(B(0, 1)).data(), 0xEE, 0x10000);
  const std::vector<std::pair<uint32_t, uint32_t>> pairs = {{0x1001, 37}, {0x2000, 256}, {0x7FFF, 1}};
  std::vector<uint8_t> expect;  // the message: header, operands, then the pieces
  for (uint32_t w : {make_header(B(0, 1), 0x1234), 0xCAFEF00Du, 0x00000002u})
    for (int s = 24; s >= 0; s -= 8) expect.push_back(uint8_t(w >> s));
  for (auto [a, l] : pairs) expect.insert(expect.end(), src.begin() + a, src.begin() + a + l);
  rig.thread([&] {
    Host& tx = rig.host(B(0, 0));
    EXPECT_EQ(tx.reg(TB_NET_MODE_OFF), 1u);
    EXPECT_EQ(tx.send(B(0, 1), 0x1234, {0xCAFEF00D, 2}, pairs), kOk);
    Host& rx = rig.host(B(0, 1));
    rx.wait_message();
    EXPECT_EQ(rx.reg(TB_NET_IN_LEN_OFF), expect.size());
    for (unsigned w = 0; w < kWindowWords; ++w) {  // the window shows the first 64 bytes
      uint32_t v = 0;
      for (unsigned b = 0; b < 4; ++b) v = v << 8 | expect[4 * w + b];
      EXPECT_EQ(rx.win(w), v) << "window word " << w;
    }
    rx.set(TB_NET_SB_ADDR_OFF, 0x4003);
    rx.set(TB_NET_SB_OFFSET_OFF, 5);
    rx.set(TB_NET_SB_LEN_OFF, uint32_t(expect.size() - 5));
    EXPECT_EQ(rx.rxcmd(rxcmd::kStoreback), kOk);
    EXPECT_TRUE(rx.reg(TB_NET_STATUS_OFF) & status::kStorebackBusy);
    EXPECT_EQ(rx.rxcmd(rxcmd::kPop), kBusy);  // the head is pinned while DMA runs
    rx.wait_storeback();
    EXPECT_EQ(rx.reg(TB_NET_IN_COUNT_OFF), 1u);
    EXPECT_EQ(rx.rxcmd(rxcmd::kPop), kOk);
    EXPECT_EQ(rx.reg(TB_NET_IN_COUNT_OFF), 0u);
  });
  sc_core::sc_start(sc_time(10, SC_MS));
  const uint8_t* m = rig.mem(B(0, 1)).data();
  for (size_t i = 0; i < 0x10000; ++i) {
    bool inside = i >= 0x4003 && i < 0x4003 + expect.size() - 5;
    ASSERT_EQ(m[i], inside ? expect[5 + (i - 0x4003)] : 0xEE) << "byte 0x" << std::hex << i;
  }
  const NiStats& s = rig.ni(B(0, 0)).stats();
  EXPECT_EQ(s.dma_ram_words, 19u + 128u + 1u);  // per piece: ceil(len / 2) bus words
  EXPECT_EQ(s.bytes_sent, expect.size());
  EXPECT_EQ(rig.ni(B(0, 1)).stats().storeback_bytes, expect.size() - 5);
}

// 1994 mode: DMA reaches only the controller's buffer memory. Software copies into the buffer
// (here: the host writes it over the bus), the NI gathers from it and stores back into the
// receiver's buffer; RAM addresses are refused.
TEST(NetworkInterface, Mode1994DmaReachesOnlyTheBufferMemory) {
  NetworkConfig cfg = NetworkConfig::single_node(2);
  Rig rig(cfg);
  auto data = pattern(1000, 9);
  rig.thread([&] {
    Host& tx = rig.host(B(0, 0));
    Host& rx = rig.host(B(0, 1));
    EXPECT_EQ(tx.reg(TB_NET_MODE_OFF), 0u);
    for (size_t i = 0; i < data.size(); i += 2) {
      uint8_t w[2] = {data[i], data[i + 1]};
      tx.access(true, kBuf + 0x100 + uint32_t(i), w, 2);
    }
    EXPECT_EQ(tx.send(B(0, 1), 1, {}, {{0x1000, 16}}), kDmaRange);  // RAM: not in 1994
    EXPECT_EQ(tx.send(B(0, 1), 1, {}, {{kBuf + 0x7FF0, 32}}), kDmaRange);  // runs off the buffer
    EXPECT_EQ(tx.send(B(0, 1), 1, {}, {{kBuf + 0x100, 1000}}), kOk);
    rx.wait_message();
    rx.set(TB_NET_SB_ADDR_OFF, 0x2000);
    rx.set(TB_NET_SB_OFFSET_OFF, 4);
    rx.set(TB_NET_SB_LEN_OFF, 1000);
    EXPECT_EQ(rx.rxcmd(rxcmd::kStorebackPop), kDmaRange);
    rx.set(TB_NET_SB_ADDR_OFF, kBuf + 0x7000);
    EXPECT_EQ(rx.rxcmd(rxcmd::kStorebackPop), kOk);
    rx.wait_storeback();
    EXPECT_EQ(rx.reg(TB_NET_IN_COUNT_OFF), 0u);
    for (size_t i = 0; i < data.size(); i += 4)
      EXPECT_EQ(rx.r32(kBuf + 0x7000 + uint32_t(i)), uint32_t(data[i]) << 24 | uint32_t(data[i + 1]) << 16 |
                                                        uint32_t(data[i + 2]) << 8 | data[i + 3]);
  });
  sc_core::sc_start(sc_time(10, SC_MS));
  EXPECT_EQ(rig.ni(B(0, 0)).stats().dma_ram_words, 0u);
  EXPECT_EQ(rig.ni(B(0, 0)).stats().dma_buffer_words, 500u);
  EXPECT_EQ(rig.ni(B(0, 0)).stats().errors[kDmaRange], 2u);
}

// Every malformed command gets its own code, nothing reaches the bus, and each is counted.
TEST(NetworkInterface, MalformedCommandsGetDefinedErrorsAndSendNothing) {
  NetworkConfig cfg = NetworkConfig::single_node(6);
  cfg.ni.mode = DmaMode::kAnywhere;
  cfg.ni.max_message_bytes = 1024;
  cfg.ni.input_queue_bytes = 1024;
  Rig rig(cfg, 0x10000);
  rig.thread([&] {
    Host& h = rig.host(B(0, 2));
    h.set(TB_NET_OUT_DESC_OFF, make_header(B(0, 3), 0));
    h.set(TB_NET_LAUNCH_OFF, make_launch(10, 3));  // 1 + 10 + 2 * 3 = 17 words > 16
    EXPECT_EQ(h.reg(TB_NET_ERROR_OFF), kDescTooLong);
    EXPECT_EQ(h.send(B(0, 3), 0, {}, {{0x100, 0}}), kZeroLength);
    EXPECT_EQ(h.send(B(0, 3), 0, {}, {{0xFFF0, 0x20}}), kDmaRange);         // past the 64 KB of RAM
    EXPECT_EQ(h.send(B(0, 3), 0, {}, {{0xFFFFFF, 2}}), kDmaRange);          // past the address space
    EXPECT_EQ(h.send(B(0, 3), 0, {}, {{kNet + 0x40, 4}}), kDmaRange);       // the NI's own registers
    EXPECT_EQ(h.send(B(0, 6), 0, {}), kBadDest);                            // slot not populated
    EXPECT_EQ(h.send(B(1, 0), 0, {}), kBadDest);                            // no node 1
    EXPECT_EQ(h.send(B(0xFF, 0), 0, {}), kBadDest);                         // half a broadcast
    EXPECT_EQ(h.send(B(0, 3), 0, {}, {{0, 600}, {0x1000, 600}}), kMsgTooLong);
    h.set(TB_NET_LAUNCH_OFF, 0x00010000);
    EXPECT_EQ(h.reg(TB_NET_ERROR_OFF), kBadCommand);
    EXPECT_EQ(h.rxcmd(7), kBadCommand);
    EXPECT_EQ(h.rxcmd(rxcmd::kPop), kInEmpty);
    EXPECT_TRUE(h.reg(TB_NET_STATUS_OFF) & status::kError);
    EXPECT_EQ((h.reg(TB_NET_STATUS_OFF) >> 8) & 0xFF, kInEmpty);
    h.set(TB_NET_ERROR_OFF, 0);
    EXPECT_EQ(h.reg(TB_NET_ERROR_OFF), kOk);
    EXPECT_FALSE(h.reg(TB_NET_STATUS_OFF) & status::kError);
    h.set(TB_NET_STATUS_OFF, 1);  // read-only: a bus error, and a code
    EXPECT_EQ(h.last, tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(h.reg(TB_NET_ERROR_OFF), kBadAccess);
    h.r32(kNet + 0x80);  // a hole in the register file
    EXPECT_EQ(h.last, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Storeback errors, with a message waiting.
    Host& o = rig.host(B(0, 4));
    EXPECT_EQ(o.send(B(0, 2), 0, {1, 2}), kOk);
    h.wait_message();
    h.set(TB_NET_SB_ADDR_OFF, 0x100);
    h.set(TB_NET_SB_OFFSET_OFF, 4);
    h.set(TB_NET_SB_LEN_OFF, 0);
    EXPECT_EQ(h.rxcmd(rxcmd::kStoreback), kZeroLength);
    h.set(TB_NET_SB_LEN_OFF, 9);  // 4 + 9 > 12 bytes of message
    EXPECT_EQ(h.rxcmd(rxcmd::kStoreback), kSbRange);
    h.set(TB_NET_SB_LEN_OFF, 8);
    h.set(TB_NET_SB_ADDR_OFF, 0xFFFC);
    EXPECT_EQ(h.rxcmd(rxcmd::kStoreback), kDmaRange);
    EXPECT_EQ(h.reg(TB_NET_IN_COUNT_OFF), 1u);  // nothing was consumed
    // OUT_FULL and BUSY: launch twice in a row (the first is still gathering), then fill the queue.
    EXPECT_EQ(h.send(B(0, 5), 0, {}, {{0, 512}}), kOk);
    EXPECT_EQ(h.send(B(0, 5), 0, {}, {{0, 512}}), kBusy);
  });
  rig.thread([&] {
    // A board whose output queue holds one message and whose receiver never drains.
    Host& f = rig.host(B(0, 0));
    sc_core::wait(sc_time(1, SC_MS));
    unsigned ok = 0, full = 0;
    for (unsigned k = 0; k < 40; ++k) {
      uint32_t e = f.send(B(0, 1), 0, {k});
      ok += e == kOk;
      full += e == kOutFull;
      sc_core::wait(sc_time(20, SC_US));  // ample time for the bus to take what it can
    }
    EXPECT_EQ(ok + full, 40u);
    EXPECT_GT(full, 0u);
    EXPECT_EQ(f.reg(TB_NET_OUT_FREE_OFF), 0u);
    EXPECT_TRUE(f.reg(TB_NET_STATUS_OFF) & status::kOutputFull);
  });
  sc_core::sc_start(sc_time(5, SC_MS));
  const NiStats& s = rig.ni(B(0, 2)).stats();
  EXPECT_EQ(s.launches, 1u);
  EXPECT_EQ(s.errors[kDmaRange], 4u);
  EXPECT_EQ(s.errors[kBadDest], 3u);
  EXPECT_EQ(s.errors[kBadCommand], 2u);
  EXPECT_EQ(s.errors[kBadAccess], 2u);
  EXPECT_EQ(rig.ni(B(0, 3)).stats().messages_received, 0u);
  // 8 input slots at board 1 + 2 in board 0's output queue; everything else was refused.
  EXPECT_EQ(rig.ni(B(0, 1)).stats().messages_received, 8u);
  EXPECT_EQ(rig.ni(B(0, 0)).stats().launches, 10u);
  EXPECT_EQ(rig.ni(B(0, 0)).stats().errors[kOutFull], 30u);
}

// The receive interrupt is level-sensitive: raised while a message waits and RXIE is set.
TEST(NetworkInterface, ReceiveInterruptFollowsTheInputQueue) {
  NetworkConfig cfg = NetworkConfig::single_node(2);
  Rig rig(cfg);
  NetworkInterface& ni = rig.ni(B(0, 1));
  std::vector<std::pair<bool, sc_time>> edges;  // the callback output sees every change
  ni.irq_line().connect([&](bool l) { edges.emplace_back(l, sc_core::sc_time_stamp()); });
  rig.thread([&] {
    Host& rx = rig.host(B(0, 1));
    rx.set(TB_NET_CTRL_OFF, 1);
    EXPECT_EQ(rig.host(B(0, 0)).send(B(0, 1), 0, {5}), kOk);
    EXPECT_FALSE(ni.irq.read());
    sc_core::wait(ni.irq.posedge_event());
    EXPECT_EQ(rx.reg(TB_NET_IN_COUNT_OFF), 1u);
    EXPECT_EQ(rx.rxcmd(rxcmd::kPop), kOk);
    sc_core::wait(ni.irq.negedge_event());
    rx.set(TB_NET_CTRL_OFF, 0);
    EXPECT_EQ(rig.host(B(0, 0)).send(B(0, 1), 0, {6}), kOk);
    rx.wait_message();
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_FALSE(ni.irq.read());  // masked
    rx.set(TB_NET_CTRL_OFF, 1);
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_TRUE(ni.irq.read());
  });
  sc_core::sc_start(sc_time(1, SC_MS));
  EXPECT_TRUE(ni.irq.read());
  ASSERT_EQ(edges.size(), 3u);
  EXPECT_TRUE(edges[0].first);
  EXPECT_FALSE(edges[1].first);
  EXPECT_TRUE(edges[2].first);
  EXPECT_LE(edges[0].second, edges[1].second);
  EXPECT_LT(edges[1].second, edges[2].second);
}

// DMA into RAM holds the board's memory port: a CPU claiming it meanwhile waits, and the time
// DMA held it is exactly its words at ram_word_time (Memory has no latency of its own here).
TEST(NetworkInterface, DmaStealsMemoryCyclesFromTheCpu) {
  NetworkConfig cfg = NetworkConfig::single_node(2);
  cfg.ni.mode = DmaMode::kAnywhere;
  Rig rig(cfg);
  SharedMemoryPort port;
  rig.ni(B(0, 0)).set_memory_port(&port);
  sc_time cpu_done;
  rig.thread([&] {
    EXPECT_EQ(rig.host(B(0, 0)).send(B(0, 1), 0, {}, {{0, 2048}}), kOk);
    sc_core::wait(sc_time(10, SC_NS));
    // The CPU wants 100 bus cycles of 400 ns while DMA runs 1024 word cycles of 400 ns.
    for (int i = 0; i < 100; ++i) {
      sc_time start = port.claim(SharedMemoryPort::kCpu, sc_core::sc_time_stamp(), sc_time(400, SC_NS));
      sc_core::wait(start - sc_core::sc_time_stamp() + sc_time(400, SC_NS));
    }
    cpu_done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start(sc_time(5, SC_MS));
  const NiStats& s = rig.ni(B(0, 0)).stats();
  EXPECT_EQ(s.dma_ram_words, 1024u);
  EXPECT_EQ(s.dma_ram_time, sc_time(400.0 * 1024, SC_NS));
  EXPECT_GT(port.stats(SharedMemoryPort::kCpu).waited, sc_time(100, SC_US));
  // Alone, the CPU would finish at 40 us; sharing the port with DMA it takes far longer.
  EXPECT_GT(cpu_done, sc_time(80, SC_US));
  EXPECT_EQ(rig.ni(B(0, 1)).stats().bytes_received, 4u + 2048u);
}
