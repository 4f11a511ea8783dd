// rtl-monitor-bench: RTL clock cycles of the verilated monitor interface (default parameters,
// no assertions, coverage or tracing) simulated per host second, standalone (no SystemC).
// Workload: every slave CPU writes an event about every 64 clocks (a busy 68010 program), the
// master reads the MMI FIFO whenever it holds entries.
//   rtl-monitor-bench [cycles]      (default 20000000); the last line is `cycles/s <value>`.
#include <Vmonitor_fast.h>
#include <verilated.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tool_args.h"
#include "version.h"

int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "rtl-monitor-bench")) return 0;
  namespace ta = testbed::tool_args;
  if (argc > 1 && (!std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help"))) {
    std::printf("usage: rtl-monitor-bench [cycles]\n  RTL clock cycles of the verilated monitor per host second; "
                "cycles 1..1e12 (default 20000000)\n");
    return 0;
  }
  if (argc > 2) ta::refuse("rtl-monitor-bench", "at most one argument");
  uint64_t cycles = argc > 1 ? ta::whole("rtl-monitor-bench", "cycles", argv[1], 1, 1000000000000ull, 0) : 20000000ull;
  VerilatedContext ctx;
  Vmonitor_fast m(&ctx);
  m.clk = 0;
  m.rst = 1;
  m.eval();
  m.clk = 1;
  m.eval();
  m.rst = 0;
  uint64_t lcg = 12345, words = 0, writes = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (uint64_t c = 0; c < cycles; ++c) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = uint32_t(lcg >> 33);
    unsigned wr = 0;
    for (unsigned i = 0; i < 5; ++i)
      if ((r >> (6 * i) & 63) == 0 && !(m.smi_wait >> i & 1)) wr |= 1u << i;
    m.smi_wr = wr;
    m.smi_addr = 0;
    m.smi_wdata[0] = r;
    m.m_rd = m.obs_mmi_level != 0;
    m.m_addr = 0;
    m.m_long = 1;
    writes += __builtin_popcount(wr);
    words += m.m_rd;
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.final();
  std::printf("rtl-monitor-bench: %llu cycles, %llu writes, %llu words read, %llu lost, %.3f s\n",
              (unsigned long long)cycles, (unsigned long long)writes, (unsigned long long)words,
              (unsigned long long)(m.obs_smi_lost[0] + m.obs_smi_lost[1] + m.obs_smi_lost[2] + m.obs_smi_lost[3] +
                                   m.obs_smi_lost[4]),
              s);
  std::printf("cycles/s %.0f\n", double(cycles) / s);
  return 0;
}
