// Co-simulation: the verilated monitor RTL (clocked on demand) behind a TLM-to-pin adapter
// (rtl/monitor/monitor_pins_tlm.h) and the SystemC/TLM monitor model (hw/monitor) receive the same
// bus cycles from the same SystemC initiators (five slave CPUs, the master); every read value
// and the clock every access completes at (write wait states included) must be equal.
#include "monitor_pins_tlm.h"

#include "monitor.h"
#include "tlm_payload.h"

#include <gtest/gtest.h>
#include <testbed/events.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <string>
#include <vector>

// libsystemc wants an sc_main; gtest_main provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

struct Rng {  // splitmix64
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
};

struct Op {
  uint64_t clock;     // not before this clock
  bool write;
  unsigned addr, len;
  uint16_t word;
};

// One bus cycle per op, in order, from an SC_THREAD; records value and completion clock.
struct Cpu : sc_core::sc_module {
  SC_HAS_PROCESS(Cpu);
  tlm_utils::simple_initiator_socket<Cpu> socket;
  std::vector<Op> ops;
  sc_time offset;  // the master issues 10 ns into its clock, after the slaves' writes
  bool pins;       // the target is the RTL adapter (returns at the next clock)
  std::vector<std::string> log;
  Cpu(sc_core::sc_module_name n, std::vector<Op> o, sc_time off, bool to_pins)
      : sc_module(n), socket("socket"), ops(std::move(o)), offset(off), pins(to_pins) {
    SC_THREAD(run);
  }
  void run() {
    const sc_time period(100, SC_NS);
    for (const Op& op : ops) {
      sc_time at = double(op.clock) * period + offset;
      if (at > sc_core::sc_time_stamp()) wait(at - sc_core::sc_time_stamp());
      std::array<unsigned char, 4> d{uint8_t(op.word >> 8), uint8_t(op.word), 0, 0};
      tlm::tlm_generic_payload p;
      testbed::set_access(p, op.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, op.addr, d.data(), op.len);
      sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(p, delay);
      wait(delay);
      // A bus cycle ends at the start of the next clock: the adapter returns there, the TLM
      // model at the (accepted) clock of the access; then the initiator's own offset again.
      wait(pins ? offset : period);
      uint32_t v = op.len == 4 ? uint32_t(d[0]) << 24 | d[1] << 16 | d[2] << 8 | d[3] : uint32_t(d[0]) << 8 | d[1];
      log.push_back(std::to_string(sc_core::sc_time_stamp().value() / period.value()) + (op.write ? " w " : " r ") +
                    std::to_string(op.addr) + " " + std::to_string(p.get_response_status()) + " " +
                    (op.write ? std::string() : std::to_string(v)));
    }
  }
};

std::vector<Op> slave_ops(Rng& r, uint64_t clocks) {
  std::vector<Op> v;
  uint64_t c = 0;
  unsigned mode = 0, left = 0;
  while (c < clocks) {
    if (left == 0) mode = r.below(3), left = 200 + r.below(4000);
    --left;
    unsigned x = r.below(100);
    if (mode == 2 || (mode == 1 && x < 10)) {
      uint16_t w = uint16_t(r.next());
      if ((w & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE) w ^= 0x100;
      v.push_back({c, true, 0, 2, w});
    } else if (x < 20) {
      static const unsigned regs[][2] = {{2, 2}, {4, 2}, {8, 2}, {0xA, 2}, {8, 4}};
      auto& g = regs[r.below(5)];
      v.push_back({c, false, g[0], g[1], 0});
    }
    ++c;
  }
  return v;
}

std::vector<Op> master_ops(Rng& r, uint64_t clocks) {
  std::vector<Op> v;
  unsigned mode = 0, left = 0;
  for (uint64_t c = 0; c < clocks; ++c) {
    if (left == 0) mode = r.below(3), left = 20000 + r.below(30000);  // a stall fills the MMI in ~18000
    --left;
    unsigned x = r.below(100);
    if (mode == 0 || (mode == 1 && x < 5)) {
      if (x < 50) {
        v.push_back({c, false, 0, 4, 0});
      } else {
        v.push_back({c, false, 0, 2, 0});
        v.push_back({c + 1, false, 2, 2, 0});
        ++c;
      }
    } else if (x < 10) {
      static const unsigned regs[][2] = {{4, 2}, {6, 2}, {8, 2}, {0xA, 2}, {8, 4}};
      auto& g = regs[r.below(5)];
      v.push_back({c, false, g[0], g[1], 0});
    }
  }
  return v;
}

TEST(RtlCosim, PinLevelRtlAnswersEveryBusCycleLikeTheTlmModel) {
  const uint64_t clocks = 150000;
  Rng r{2024};
  std::vector<std::vector<Op>> scripts;
  for (unsigned k = 0; k < 5; ++k) scripts.push_back(slave_ops(r, clocks));
  scripts.push_back(master_ops(r, clocks));

  testbed::monitor::MonitorConfig cfg;
  testbed::monitor::Monitor tlm("tlm", cfg);
  tbrtl::MonitorPins pins("pins");
  std::vector<std::unique_ptr<Cpu>> a, b;
  for (unsigned k = 0; k < 6; ++k) {
    sc_time off = k == 5 ? sc_time(10, SC_NS) : sc_core::SC_ZERO_TIME;
    a.push_back(std::make_unique<Cpu>(("tlm_cpu" + std::to_string(k)).c_str(), scripts[k], off, false));
    b.push_back(std::make_unique<Cpu>(("rtl_cpu" + std::to_string(k)).c_str(), scripts[k], off, true));
    if (k < 5) {
      a[k]->socket.bind(tlm.smi(k + 1).socket);
      b[k]->socket.bind(*pins.smi[k]);
    } else {
      a[k]->socket.bind(tlm.mmi().socket);
      b[k]->socket.bind(pins.mmi);
    }
  }
  // Ends just after clock N's edge (N * 100 + 50 ns), where the TLM engine, which counts a clock
  // from its start, and the RTL, clocked at its edge, have both run clocks 0..N.
  const uint64_t n = clocks + 100000;
  sc_core::sc_start(sc_time(double(n) * 100 + 60, SC_NS));
  tlm.catch_up();
  // The adapter clocks the RTL on demand: caught up at the end, it has clocked every edge of the
  // run and its MMI stalled as long as the TLM model's.
  EXPECT_EQ(pins.stall_clocks(), tlm.engine().stall_clocks());
  EXPECT_EQ(pins.clocks(), n + 1);
  uint64_t total = 0;
  for (unsigned k = 0; k < 6; ++k) {
    SCOPED_TRACE(k < 5 ? "SMI " + std::to_string(k + 1) : std::string("master"));
    ASSERT_EQ(a[k]->log.size(), scripts[k].size());
    ASSERT_EQ(b[k]->log.size(), scripts[k].size());
    for (size_t i = 0; i < a[k]->log.size(); ++i) ASSERT_EQ(b[k]->log[i], a[k]->log[i]) << "op " << i;
    total += a[k]->log.size();
  }
  EXPECT_EQ(tlm.engine().late_accesses(), 0u);
  EXPECT_GT(tlm.engine().lost_total(), 0u);
  EXPECT_GT(tlm.engine().stall_clocks(), 0u);
  std::printf("%llu bus cycles compared, %llu events lost, %llu stall clocks\n", (unsigned long long)total,
              (unsigned long long)tlm.engine().lost_total(), (unsigned long long)tlm.engine().stall_clocks());
}

}  // namespace
