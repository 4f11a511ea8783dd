// Test rig for the Centrenet tests: a network, a RAM (testbed::Memory) per board bound to the
// board's NI DMA socket, and a Host per board: a TLM initiator that stands in for the CPU and
// reads/writes the NI registers. Scenarios run as SystemC threads spawned before sc_start.
// Each test elaborates its own model, so each runs in its own process (ctest does that via
// gtest_discover_tests; run the binary by hand with --gtest_filter=One.Test).
#pragma once
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "centrenet_network.h"
#include "memory.h"
#include "tlm_payload.h"

namespace tb_test {

using namespace testbed::centrenet;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::SC_MS;

inline constexpr uint32_t kNet = TB_NET_BASE;
inline constexpr uint32_t kBuf = TB_NET_BASE + TB_NET_BUFFER_OFF;

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> socket;
  tlm::tlm_response_status last = tlm::TLM_OK_RESPONSE;
  explicit Host(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}

  void access(bool write, uint32_t addr, uint8_t* d, unsigned len) {
    tlm::tlm_generic_payload g;
    testbed::set_access(g, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, d, len);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(g, delay);
    last = g.get_response_status();
  }
  // A 68010 MOVE.L: high word, then low word.
  void w32(uint32_t addr, uint32_t v) {
    uint8_t hi[2] = {uint8_t(v >> 24), uint8_t(v >> 16)}, lo[2] = {uint8_t(v >> 8), uint8_t(v)};
    access(true, addr, hi, 2);
    if (last != tlm::TLM_OK_RESPONSE) return;
    access(true, addr + 2, lo, 2);
  }
  uint32_t r32(uint32_t addr) {
    uint8_t b[4] = {0, 0, 0, 0};
    access(false, addr, b, 4);
    return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
  }
  uint32_t reg(uint32_t off) { return r32(kNet + off); }
  void set(uint32_t off, uint32_t v) { w32(kNet + off, v); }

  // Fill the descriptor and launch; returns the ERROR register (the launch's result).
  uint32_t send(BoardAddress dst, uint16_t tag, const std::vector<uint32_t>& ops,
                const std::vector<std::pair<uint32_t, uint32_t>>& pairs = {}) {
    unsigned w = 0;
    set(TB_NET_OUT_DESC_OFF + 4 * w++, make_header(dst, tag));
    for (uint32_t o : ops) set(TB_NET_OUT_DESC_OFF + 4 * w++, o);
    for (auto [a, l] : pairs) {
      set(TB_NET_OUT_DESC_OFF + 4 * w++, a);
      set(TB_NET_OUT_DESC_OFF + 4 * w++, l);
    }
    set(TB_NET_LAUNCH_OFF, make_launch(unsigned(ops.size()), unsigned(pairs.size())));
    return reg(TB_NET_ERROR_OFF);
  }
  // Launch, retrying while the output queue is full or the previous launch is gathering.
  void send_blocking(BoardAddress dst, uint16_t tag, const std::vector<uint32_t>& ops,
                     const std::vector<std::pair<uint32_t, uint32_t>>& pairs = {},
                     sc_time poll = sc_time(1, SC_US)) {
    for (;;) {
      uint32_t e = send(dst, tag, ops, pairs);
      if (e == kOk) return;
      ASSERT_TRUE(e == kOutFull || e == kBusy) << "launch failed: " << net_error_name(e);
      sc_core::wait(poll);
    }
  }
  // Wait until the input queue is not empty (polling; the IRQ tests use the pin).
  void wait_message(sc_time poll = sc_time(1, SC_US)) {
    while (!(reg(TB_NET_STATUS_OFF) & status::kInputPending)) sc_core::wait(poll);
  }
  uint32_t win(unsigned word) { return reg(TB_NET_IN_WIN_OFF + 4 * word); }
  uint32_t rxcmd(uint32_t cmd) {
    set(TB_NET_RXCMD_OFF, cmd);
    return reg(TB_NET_ERROR_OFF);
  }
  void wait_storeback(sc_time poll = sc_time(1, SC_US)) {
    while (reg(TB_NET_STATUS_OFF) & status::kStorebackBusy) sc_core::wait(poll);
  }
};

struct Rig {
  std::unique_ptr<CentrenetNetwork> net;
  std::vector<std::unique_ptr<testbed::Memory>> ram;
  std::vector<std::unique_ptr<Host>> hosts;
  std::vector<BoardAddress> addrs;

  explicit Rig(const NetworkConfig& cfg, uint64_t ram_bytes = 0x10000) {
    net = std::make_unique<CentrenetNetwork>("net", cfg);
    addrs = net->boards();
    for (BoardAddress a : addrs) {
      std::string s = std::to_string(a.node) + "_" + std::to_string(a.slot);
      ram.push_back(std::make_unique<testbed::Memory>(("ram_" + s).c_str(), ram_bytes));
      hosts.push_back(std::make_unique<Host>(("host_" + s).c_str()));
      NetworkInterface& ni = net->ni(a);
      ni.dma.bind(ram.back()->socket);
      hosts.back()->socket.bind(ni.target);
      ni.irq_line().leave_open("no board: the hosts poll the NI or watch its `irq` signal");
    }
  }
  size_t index(BoardAddress a) const {
    for (size_t i = 0; i < addrs.size(); ++i)
      if (addrs[i] == a) return i;
    throw std::out_of_range("no board " + a.str());
  }
  Host& host(BoardAddress a) { return *hosts[index(a)]; }
  testbed::Memory& mem(BoardAddress a) { return *ram[index(a)]; }
  NetworkInterface& ni(BoardAddress a) { return net->ni(a); }
  void thread(std::function<void()> f) { sc_core::sc_spawn(std::move(f)); }
};

inline BoardAddress B(unsigned node, unsigned slot) { return BoardAddress{uint8_t(node), uint8_t(slot)}; }

}  // namespace tb_test
