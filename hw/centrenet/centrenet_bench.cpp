// centrenet-bench: simulated Centrenet frames per host second on a saturated 16-board bus.
//
// Sixteen network interfaces on one node, each driven by a stand-in CPU (a TLM initiator that
// writes the descriptor and LAUNCH and pops arrivals on the receive interrupt), every board
// sending short messages round the others as fast as its output queue allows.
// Usage: centrenet-bench [simulated-ms]   (default 200). Last line: frames/s <value>.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tool_args.h"

#include "centrenet_network.h"
#include "tlm_payload.h"
#include "version.h"

using namespace sc_core;
using namespace testbed::centrenet;

namespace {

struct Driver : sc_module {
  tlm_utils::simple_initiator_socket<Driver> socket;
  NetworkInterface& ni;
  unsigned self, boards;

  Driver(sc_module_name n, NetworkInterface& ni_, unsigned self_, unsigned boards_)
      : sc_module(n), socket("socket"), ni(ni_), self(self_), boards(boards_) {
    socket.bind(ni.target);
    SC_HAS_PROCESS(Driver);
    SC_THREAD(sender);
    SC_THREAD(receiver);
  }
  void rw(bool write, uint32_t off, uint32_t& v) {
    uint8_t b[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
    tlm::tlm_generic_payload g;
    testbed::set_access(g, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, TB_NET_BASE + off, b, 4);
    sc_time d = SC_ZERO_TIME;
    socket->b_transport(g, d);
    if (!g.is_response_ok()) {
      std::cerr << name() << ": bus error at NET+0x" << std::hex << off << "\n";
      std::exit(2);
    }
    v = uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
  }
  void set(uint32_t off, uint32_t v) { rw(true, off, v); }
  uint32_t get(uint32_t off) {
    uint32_t v = 0;
    rw(false, off, v);
    return v;
  }
  void sender() {
    for (uint32_t k = 0;; ++k) {
      uint8_t dst = uint8_t((self + 1 + k % (boards - 1)) % boards);
      set(TB_NET_OUT_DESC_OFF, make_header(BoardAddress{0, dst}, 1));
      for (unsigned w = 1; w < 8; ++w) set(TB_NET_OUT_DESC_OFF + 4 * w, k + w);
      for (;;) {
        set(TB_NET_LAUNCH_OFF, make_launch(7, 0));
        uint32_t e = get(TB_NET_ERROR_OFF);
        if (e == kOk) break;
        if (e != kOutFull && e != kBusy) {
          std::cerr << name() << ": launch failed: " << net_error_name(e) << "\n";
          std::exit(2);
        }
        wait(10, SC_US);  // poll: a board gets the bus once per round of 16 frames
      }
    }
  }
  void receiver() {
    set(TB_NET_CTRL_OFF, 1);
    for (;;) {
      if (!ni.irq.read()) wait(ni.irq.posedge_event());
      while (get(TB_NET_IN_COUNT_OFF)) set(TB_NET_RXCMD_OFF, 2);
      wait(SC_ZERO_TIME);  // let the interrupt line follow the emptied queue
    }
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "centrenet-bench")) return 0;
  namespace ta = testbed::tool_args;
  if (argc > 1 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")) {
    std::cout << "usage: centrenet-bench [simulated-ms]\n"
                 "  sixteen boards on one Centrenet bus sending to each other; simulated-ms 0.001..1e6 (default 200)\n";
    return 0;
  }
  if (argc > 2) ta::refuse("centrenet-bench", "at most one argument");
  double ms = argc > 1 ? ta::number("centrenet-bench", "simulated-ms", argv[1], 0.001, 1e6) : 200.0;
  sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
  NetworkConfig cfg = NetworkConfig::single_node(16);
  cfg.ni.output_queue_messages = 4;
  CentrenetNetwork net("net", cfg);
  std::vector<std::unique_ptr<Driver>> drivers;
  for (unsigned s = 0; s < 16; ++s) {
    NetworkInterface& ni = net.ni(BoardAddress{0, uint8_t(s)});
    ni.irq_line().leave_open("no board: the driver waits on the NI's `irq` signal");
    drivers.push_back(std::make_unique<Driver>(("cpu" + std::to_string(s)).c_str(), ni, s, 16));
  }
  auto t0 = std::chrono::steady_clock::now();
  sc_start(sc_time(ms, SC_MS));
  double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const BusStats& st = net.bus(0).stats();
  uint64_t lo = UINT64_MAX, hi = 0;
  for (unsigned s = 0; s < 16; ++s) {
    lo = std::min(lo, st.ports[s].frames_sent);
    hi = std::max(hi, st.ports[s].frames_sent);
  }
  std::cout << "simulated " << ms << " ms in " << host << " s host\n";
  std::cout << "bus frames " << st.frames << ", utilisation " << 100.0 * net.bus(0).utilisation()
            << "%, frames per board min " << lo << " max " << hi << "\n";
  std::cout << "payload throughput " << double(st.bytes) / (ms / 1e3) / 1e6 << " MB/s (bus rate "
            << cfg.bus.rate_bytes_per_s / 1e6 << " MB/s)\n";
  std::cout << "frames/s " << double(st.frames) / host << "\n";
  return 0;
}
