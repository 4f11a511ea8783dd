// Walking skeleton: the three toolchains meet in one SystemC executable.
//  - the cross-compiled firmware image is loaded into a TLM memory through an initiator socket
//    (b_transport writes) and read back (b_transport reads) and compared with the ELF;
//  - the verilated global time-stamp counter (rtl/monitor/mon_timebase.sv) is clocked from
//    SystemC at 10 MHz and its time stamp checked against 1 us ticks.
// It is scaffolding, not a feature: the Testbed simulator replaces it.
// The verilated (C++, not SystemC) model first: verilated.h must not see SystemC's headers.
#include "Vmon_timebase.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdio>
#include <memory>

#include "elf_loader.h"
#include "memory.h"

using namespace sc_core;

struct Loader : sc_module {
  tlm_utils::simple_initiator_socket<Loader> socket{"socket"};
  testbed::ElfImage image;
  Vmon_timebase rtl;
  int errors = 0;
  SC_HAS_PROCESS(Loader);
  explicit Loader(sc_module_name n, testbed::ElfImage img) : sc_module(n), image(std::move(img)) {
    SC_THREAD(run);
  }
  bool access(tlm::tlm_command cmd, uint32_t addr, uint8_t* buf, unsigned len, sc_time& d) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(buf);
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(p, d);
    return p.is_response_ok();
  }
  void run() {
    sc_time d = SC_ZERO_TIME;
    size_t bytes = 0;
    for (auto& s : image.segments) {
      std::vector<uint8_t> data = s.data;
      data.resize(s.memsz, 0);
      if (!access(tlm::TLM_WRITE_COMMAND, s.paddr, data.data(), unsigned(data.size()), d)) ++errors;
      std::vector<uint8_t> back(data.size());
      if (!access(tlm::TLM_READ_COMMAND, s.paddr, back.data(), unsigned(back.size()), d)) ++errors;
      if (back != data) ++errors;
      bytes += data.size();
    }
    std::printf("skeleton: loaded %zu segment(s), %zu bytes of %s through TLM; read back %s\n",
                image.segments.size(), bytes, image.path.c_str(), errors ? "MISMATCH" : "identical");
    // Clock the verilated counter for 1000 clocks (100 us at 10 MHz) from SystemC time: the
    // time stamp ticks every 10 clocks (1 us).
    rtl.rst = 1;
    rtl.clk = 0; rtl.eval(); rtl.clk = 1; rtl.eval();
    rtl.rst = 0;
    for (int i = 0; i < 1000; ++i) {
      rtl.clk = 0; rtl.eval();
      wait(50, SC_NS);
      rtl.clk = 1; rtl.eval();
      wait(50, SC_NS);
    }
    rtl.clk = 0; rtl.eval();
    std::printf("skeleton: verilated time-stamp counter reads %u after %s (expected 100)\n",
                unsigned(rtl.ts), sc_core::sc_time_stamp().to_string().c_str());
    if (rtl.ts != 100) ++errors;
    rtl.final();
  }
};

int sc_main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s IMAGE.elf\n", argv[0]);
    return 2;
  }
  try {
    auto img = testbed::load_elf(argv[1]);
    testbed::Memory ram("ram", 4u << 20);
    testbed::check_image_fits(img, {{0, uint32_t(ram.size()), "RAM"}});
    Loader loader("loader", std::move(img));
    loader.socket.bind(ram.socket);
    sc_start();
    std::printf("skeleton: %s\n", loader.errors ? "FAILED" : "OK");
    return loader.errors ? 1 : 0;
  } catch (const testbed::ElfError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
