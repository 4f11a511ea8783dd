// The whole monitor through TLM-2.0: five temporally decoupled slave initiators write events
// (with bursts that overflow), a master initiator drains the MMI with move.l reads into the word
// stream, the host decoder turns it back into events. Decoded events + lost == every event the
// probe saw written, each with its exact time stamp; no access is late; VCD tracing works.
// (One TEST: SystemC elaborates once per process.)
#include <gtest/gtest.h>

#include "monitor.h"
#include "monitor_decoder.h"
#include "tlm_payload.h"

#include <testbed/memory_map.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <tuple>

// libsystemc wants an sc_main; gtest_main provides main() and the test calls sc_start.
int sc_main(int, char**) { return 1; }

using namespace sc_core;
using namespace testbed::monitor;
namespace dec = testbed::monitor_decoder;

namespace {

struct Initiator : sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  tlm_utils::tlm_quantumkeeper qk;
  Initiator(sc_module_name n) : sc_module(n), socket("socket") { qk.reset(); }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload p;
    testbed::set_access(p, cmd, addr, data, len);
    sc_time d = qk.get_local_time();
    socket->b_transport(p, d);
    qk.set(d);
    if (qk.need_sync()) qk.sync();
    return p.get_response_status();
  }
  uint32_t read(uint64_t addr, unsigned len) {
    uint8_t b[4] = {};
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, addr, b, len), tlm::TLM_OK_RESPONSE) << name() << " read " << addr;
    uint32_t v = 0;
    for (unsigned i = 0; i < len; ++i) v = v << 8 | b[i];
    return v;
  }
};

struct Slave : Initiator {
  SC_HAS_PROCESS(Slave);
  unsigned board;
  sc_time period;
  bool done = false;
  uint32_t lost = 0;
  Slave(sc_module_name n, unsigned b, sc_time per) : Initiator(n), board(b), period(per) { SC_THREAD(run); }
  void run() {
    std::mt19937_64 rng(board);
    for (int i = 0; i < 6000; ++i) {
      uint8_t w[2] = {uint8_t((board << 4) | (i >> 8 & 0x3)), uint8_t(i)};
      EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, TB_MON_BASE + TB_MON_SMI_EVENT_OFF, w, 2), tlm::TLM_OK_RESPONSE);
      // Mostly sparse, sometimes a burst at the SMI's full rate (2 clocks) that overflows it.
      bool burst = (i / 1500) % 2 == 1 && board <= 2;
      qk.inc(period * double(burst ? 1 : 200 + rng() % 400));
    }
    qk.inc(period * 4e5);  // let the poller drain the SMIs
    qk.sync();
    lost = read(TB_MON_BASE + TB_MON_SMI_LOST_OFF, 4);
    EXPECT_EQ(read(TB_MON_BASE + TB_MON_SMI_LEVEL_OFF, 2), 0u) << name();
    done = true;
  }
};

struct Master : Initiator {
  SC_HAS_PROCESS(Master);
  std::vector<Slave*> slaves;
  std::vector<uint8_t> stream;  // big-endian u32 per read, as the firmware sends it to the host
  uint64_t last_read_clock = ~0ull;
  sc_time period;
  Master(sc_module_name n, sc_time per) : Initiator(n), period(per) { SC_THREAD(run); }
  void run() {
    for (;;) {
      uint32_t v = read(TB_MON_BASE + TB_MON_MMI_DATA_HI_OFF, 4);  // move.l DATA_HI:DATA_LO
      last_read_clock = (sc_time_stamp() + qk.get_local_time()).value() / period.value();
      for (int b = 3; b >= 0; --b) stream.push_back(uint8_t(v >> (8 * b)));
      qk.inc(period * 37.0);
      bool all_done = std::all_of(slaves.begin(), slaves.end(), [](Slave* s) { return s->done; });
      if (all_done && (read(TB_MON_BASE + TB_MON_MMI_STATUS_OFF, 2) & 2)) break;
    }
    // Illegal accesses are refused, not ignored.
    uint8_t b[4] = {};
    EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, TB_MON_BASE, b, 2), tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, TB_MON_BASE + 1, b, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, TB_MON_BASE + 0xC, b, 2), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    sc_stop();
  }
};

// Sleeps on the monitor's "MMI has data" event and checks, with debug reads, that data is there.
// (Unless the master popped it in the same clock.)
struct Watcher : sc_module {
  SC_HAS_PROCESS(Watcher);
  Monitor& mon;
  Master& master;
  uint64_t wakeups = 0, empty_wakeups = 0;
  Watcher(sc_module_name n, Monitor& m, Master& ma) : sc_module(n), mon(m), master(ma) { SC_THREAD(run); }
  void run() {
    for (;;) {
      wait(mon.mmi_data_event());
      uint64_t c = sc_time_stamp().value() / mon.config().clock_period.value();
      ++wakeups;
      if (mon.engine().mmi_level(c) == 0 && master.last_read_clock != c) ++empty_wakeups;
    }
  }
};

}  // namespace

TEST(MonitorTlm, DecodedPlusLostEqualsEveryEventWritten) {
  MonitorConfig cfg;
  cfg.params.tick_div = 1;  // 6.5536 ms between wraps: dozens of wraps in this run
  cfg.vcd_path = testing::TempDir() + "monitor_tlm.vcd";
  Monitor mon("monitor", cfg);
  RecordingProbe probe;
  mon.set_probe(&probe);
  std::vector<std::unique_ptr<Slave>> slaves;
  Master master("master", cfg.clock_period);
  for (unsigned k = 1; k <= 5; ++k) {
    slaves.push_back(std::make_unique<Slave>(("slave" + std::to_string(k)).c_str(), k, cfg.clock_period));
    slaves.back()->socket.bind(mon.smi(k).socket);
    slaves.back()->qk.set_global_quantum(sc_time(10, SC_US));
    master.slaves.push_back(slaves.back().get());
  }
  master.socket.bind(mon.mmi().socket);
  Watcher watcher("watcher", mon, master);
  sc_start();
  mon.catch_up();

  dec::Options opt;
  opt.tick_ps = 100000;  // 1 clock
  dec::Result r = dec::decode_bytes(master.stream, opt);
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t lost = 0;
  for (auto& s : slaves) lost += s->lost;
  EXPECT_GT(lost, 0u);
  EXPECT_GT(r.markers, 10u);
  EXPECT_EQ(r.events_excluding_markers() + lost, probe.records.size());
  EXPECT_EQ(lost, probe.lost());
  EXPECT_EQ(mon.engine().late_accesses(), 0u);
  EXPECT_EQ(mon.bad_accesses(), 3u);
  // Every decoded event is a written one, with its exact time stamp (tick_div = 1: the clock).
  std::vector<std::tuple<unsigned, uint64_t, uint16_t>> want, got;
  for (auto& p : probe.records)
    if (p.kept) want.emplace_back(p.smi, p.clock, p.word);
  for (auto& e : r.events)
    if (!e.marker) got.emplace_back(e.board, e.ticks, e.word);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_TRUE(want == got);
  std::ifstream vcd(cfg.vcd_path);
  std::stringstream ss;
  ss << vcd.rdbuf();
  for (const char* sig : {"smi1_level", "smi2_lost", "bus_src", "bus_ts", "bus_data", "mmi_level", "mmi_stall"})
    EXPECT_NE(ss.str().find(sig), std::string::npos) << sig;
  EXPECT_GT(ss.str().size(), 100000u);
  EXPECT_GT(watcher.wakeups, 100u);
  EXPECT_EQ(watcher.empty_wakeups, 0u);
}
