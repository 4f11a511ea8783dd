// monitor-bench: host speed of the monitor model. Five slave initiators write events to their
// SMIs at full rate (one every write_gap clocks), temporally decoupled; a master initiator drains
// the MMI with move.l reads. Prints the counts and, last, events handled by the SMIs per host
// second: `events/s <value>`.
// Usage: monitor-bench [simulated_ms=100] [master_read_clocks=10] [quantum_us=10]
#include "monitor.h"
#include "tlm_payload.h"

#include <testbed/memory_map.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tool_args.h"
#include "version.h"

using namespace sc_core;
using namespace testbed::monitor;

namespace {
struct Initiator : sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  tlm_utils::tlm_quantumkeeper qk;
  tlm::tlm_generic_payload p;
  uint8_t buf[4] = {};
  explicit Initiator(sc_module_name n) : sc_module(n), socket("socket") {
    qk.reset();
  }
  void access(tlm::tlm_command cmd, uint64_t addr, unsigned len) {
    testbed::set_access(p, cmd, addr, buf, len);
    sc_time d = qk.get_local_time();
    socket->b_transport(p, d);
    if (p.get_response_status() != tlm::TLM_OK_RESPONSE) {
      std::fprintf(stderr, "monitor-bench: %s: access to 0x%06llX failed\n", name(), (unsigned long long)addr);
      std::exit(1);
    }
    qk.set(d);
    if (qk.need_sync()) qk.sync();
  }
};

struct Slave : Initiator {
  SC_HAS_PROCESS(Slave);
  sc_time end, gap;
  Slave(sc_module_name n, sc_time e, sc_time g) : Initiator(n), end(e), gap(g) { SC_THREAD(run); }
  void run() {
    for (uint16_t i = 0; sc_time_stamp() + qk.get_local_time() < end; ++i) {
      buf[0] = uint8_t(i >> 8 & 0x3F);
      buf[1] = uint8_t(i);
      access(tlm::TLM_WRITE_COMMAND, TB_MON_BASE + TB_MON_SMI_EVENT_OFF, 2);
      qk.inc(gap);
    }
    qk.sync();
  }
};

struct Master : Initiator {
  SC_HAS_PROCESS(Master);
  sc_time end, every;
  uint64_t words = 0, empty = 0;
  Master(sc_module_name n, sc_time e, sc_time ev) : Initiator(n), end(e), every(ev) { SC_THREAD(run); }
  void run() {
    while (sc_time_stamp() + qk.get_local_time() < end) {
      access(tlm::TLM_READ_COMMAND, TB_MON_BASE + TB_MON_MMI_DATA_HI_OFF, 4);
      if (buf[0] & 0x80) ++empty;
      else ++words;
      qk.inc(every);
    }
    qk.sync();
  }
};
}  // namespace

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "monitor-bench")) return 0;
  namespace ta = testbed::tool_args;
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: monitor-bench [simulated_ms] [master_read_clocks] [quantum_us]\n"
                  "  the TLM monitor with five busy slaves: events/s and late accesses\n"
                  "  simulated_ms 0.001..1e6 (default 100), master_read_clocks 1..1e6 (default 10),\n"
                  "  quantum_us 0.001..1e6 (default 10)\n");
      return 0;
    }
  if (argc > 4) ta::refuse("monitor-bench", "at most three arguments");
  double ms = argc > 1 ? ta::number("monitor-bench", "simulated_ms", argv[1], 0.001, 1e6) : 100;
  double read_clocks = argc > 2 ? ta::number("monitor-bench", "master_read_clocks", argv[2], 1, 1e6) : 10;
  double quantum_us = argc > 3 ? ta::number("monitor-bench", "quantum_us", argv[3], 0.001, 1e6) : 10;
  MonitorConfig cfg;
  Monitor mon("monitor", cfg);
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(quantum_us, SC_US));
  sc_time end(ms, SC_MS);
  std::vector<std::unique_ptr<Slave>> slaves;
  for (unsigned k = 1; k <= cfg.params.n_smi; ++k) {
    slaves.push_back(std::make_unique<Slave>(("slave" + std::to_string(k)).c_str(), end,
                                             cfg.clock_period * double(cfg.params.write_gap)));
    slaves.back()->socket.bind(mon.smi(k).socket);
  }
  Master master("master", end, cfg.clock_period * read_clocks);
  master.socket.bind(mon.mmi().socket);
  auto t0 = std::chrono::steady_clock::now();
  sc_start(end);
  mon.catch_up();
  double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const MonitorEngine& e = mon.engine();
  uint64_t written = e.accepted_writes(), lost = e.lost_total();
  std::printf("simulated        %.3f ms, 5 slaves writing every %u clocks, master reading every %.0f clocks\n",
              ms, cfg.params.write_gap, read_clocks);
  std::printf("events written   %llu (kept %llu, lost %llu)\n", (unsigned long long)written,
              (unsigned long long)(written - lost), (unsigned long long)lost);
  std::printf("master read      %llu words (%llu pairs), %llu empty reads; poller stalled %llu clocks\n",
              (unsigned long long)master.words, (unsigned long long)master.words / 2,
              (unsigned long long)master.empty, (unsigned long long)e.stall_clocks());
  std::printf("late accesses    %llu\n", (unsigned long long)e.late_accesses());
  std::printf("host seconds     %.3f\n", host);
  std::printf("pairs/s drained  %.0f\n", double(master.words / 2) / host);
  std::printf("events/s %.0f\n", double(written) / host);
  return 0;
}
