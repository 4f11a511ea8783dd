// Device-level tests drive TLM targets from an SC_THREAD without a CPU. SystemC elaborates once
// per process, so a test binary builds its whole bench once and each TEST runs its body as a job
// in the harness thread (the simulation pauses between jobs; time keeps advancing).
#pragma once
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>

#include "bus_extension.h"
#include "tlm_payload.h"

namespace testbed_test {

// An initiator issuing 68010-style accesses (1, 2 or 4 bytes) with a function code.
struct TestInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestInitiator> socket{"socket"};
  sc_core::sc_time delay;  // annotated delay accumulated by the last access (reset per access)
  int invalidations = 0;
  uint64_t last_invalid_start = 0, last_invalid_end = 0;

  explicit TestInitiator(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_invalidate_direct_mem_ptr(this, &TestInitiator::invalidate);
  }
  void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) {
    ++invalidations;
    last_invalid_start = s;
    last_invalid_end = e;
  }
  tlm::tlm_response_status access(bool write, uint32_t addr, uint32_t& value, unsigned len, uint8_t fc = 5) {
    uint8_t buf[4];
    for (unsigned i = 0; i < len; ++i) buf[i] = uint8_t(value >> (8 * (len - 1 - i)));
    tlm::tlm_generic_payload p;
    auto* e = new testbed::BusCycleExtension;
    e->fc = fc;
    p.set_extension(e);
    testbed::set_access(p, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, buf, len);
    delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    if (!write && p.is_response_ok()) {
      value = 0;
      for (unsigned i = 0; i < len; ++i) value = value << 8 | buf[i];
    }
    return p.get_response_status();
  }
  uint32_t rd(uint32_t addr, unsigned len, uint8_t fc = 5) {
    uint32_t v = 0;
    EXPECT_EQ(access(false, addr, v, len, fc), tlm::TLM_OK_RESPONSE) << "read at 0x" << std::hex << addr;
    return v;
  }
  void wr(uint32_t addr, uint32_t v, unsigned len, uint8_t fc = 5) {
    EXPECT_EQ(access(true, addr, v, len, fc), tlm::TLM_OK_RESPONSE) << "write at 0x" << std::hex << addr;
  }
  // A 32-bit register as the 68010 moves a long: two word cycles, high word first.
  uint32_t rd32(uint32_t addr) { return rd(addr, 2) << 16 | rd(addr + 2, 2); }
  void wr32(uint32_t addr, uint32_t v) {
    wr(addr, v >> 16, 2);
    wr(addr + 2, v & 0xFFFF, 2);
  }
};

struct Harness : sc_core::sc_module {
  SC_HAS_PROCESS(Harness);
  std::function<void()> job;
  sc_core::sc_event go;
  bool done = false, pending = false;
  explicit Harness(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(loop); }
  void loop() {
    for (;;) {
      while (!pending) wait(go);
      pending = false;
      job();
      done = true;
      sc_core::sc_pause();
    }
  }
  // Runs `f` inside the simulation (it may wait()).
  void run(std::function<void()> f) {
    job = std::move(f);
    done = false;
    pending = true;
    go.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();
    ASSERT_TRUE(done) << "the test body did not finish (simulation starved)";
  }
};

}  // namespace testbed_test
