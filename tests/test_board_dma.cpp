// The board's DMA port (Board::dma_target, for the Centrenet NI in dma-anywhere mode), driven by
// a TLM initiator standing in for the NI: it reaches board RAM by physical address and nothing
// else, and DMA holding the shared memory port slows the CPU by the time it held it.
#include <testbed/memory_map.h>

#include "board.h"
#include "board/guest_code.h"
#include "board_tlm_harness.h"
#include "tlm_payload.h"

#include <tlm_utils/simple_initiator_socket.h>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_US;
using sc_core::SC_MS;

namespace {

BoardConfig config(uint16_t id) {
  BoardConfig c;
  c.id = id;
  c.master = id == 0;
  c.ram_bytes = 64 * 1024;
  return c;
}

// What the NI's DMA engine does per burst: b_transport, then hold the board's memory port for
// the burst's RAM time and wait for it (hw/centrenet/network_interface.cpp, dma_move).
struct NiStandIn : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<NiStandIn> dma{"dma"};
  SharedMemoryPort* port = nullptr;
  explicit NiStandIn(sc_core::sc_module_name n) : sc_module(n) {}

  tlm::tlm_response_status move(bool write, uint64_t addr, uint8_t* data, unsigned len, sc_time word_time = sc_time(400, sc_core::SC_NS)) {
    tlm::tlm_generic_payload g;
    testbed::set_access(g, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len);
    sc_time d;
    dma->b_transport(g, d);
    if (g.is_response_ok() && port) {
      sc_time hold = d + word_time * double((len + 1) / 2), now = sc_core::sc_time_stamp();
      sc_time start = port->claim(SharedMemoryPort::kDma, now, hold);
      wait(start - now + hold);
    }
    return g.get_response_status();
  }
  unsigned probe(uint64_t addr) {
    uint8_t b = 0;
    tlm::tlm_generic_payload g;
    testbed::set_access(g, tlm::TLM_READ_COMMAND, addr, &b, 1);
    return dma->transport_dbg(g);
  }
  bool dmi(uint64_t addr) {
    tlm::tlm_generic_payload g;
    tlm::tlm_dmi d;
    g.set_read();
    g.set_address(addr);
    return dma->get_direct_mem_ptr(g, d);
  }
};

// Where `code` keeps its routine and the history of what the routine returned.
constexpr uint32_t kRoutine = 0x1800, kHistory = 0x2000, kHistoryEnd = 0xF000;

// Calls the routine at kRoutine over and over, recording each D0 it returns (a word) from
// kHistory on, until kHistoryEnd.
void load_history_loop(Board& b) {
  load_at_reset(b, {0x43F8, uint16_t(kHistory),            // lea (kHistory).w,a1
                    0x4EB8, uint16_t(kRoutine),            // loop: jsr (kRoutine).w
                    0x32C0,                                // move.w d0,(a1)+
                    0xB3FC, 0x0000, uint16_t(kHistoryEnd),  // cmpa.l #kHistoryEnd,a1
                    0x66F2,                                // bne.s loop
                    0x4E72, 0x2700});                      // stop #$2700
  poke_code(b, kRoutine, {0x7001, 0x4E75});                // moveq #1,d0; rts
}

struct Bench {
  // `busy` takes DMA; `idle` is the same board without any (its dma_target stays unbound);
  // `code` takes a DMA into the code it runs.
  Board busy{"busy", config(1)}, idle{"idle", config(2)}, code{"code", config(3)};
  NiStandIn ni{"ni"}, ni_code{"ni_code"};
  Harness h{"h"};
  Bench() {
    tlm::tlm_global_quantum::instance().set(sc_time(100, SC_US));
    ni.dma.bind(busy.dma_target());
    ni.port = &busy.memory_port();
    ni_code.dma.bind(code.dma_target());
    ni_code.port = &code.memory_port();
    load_counting_loop(busy);
    load_counting_loop(idle);
    load_history_loop(code);
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

TEST(BoardDma, ReachesPhysicalRamOnly) {
  Bench& b = bench();
  b.h.run([&] {
    uint8_t out[16], in[16] = {};
    for (unsigned i = 0; i < 16; ++i) out[i] = uint8_t(0xA0 + i);
    ASSERT_EQ(b.ni.move(true, 0x2000, out, 16), tlm::TLM_OK_RESPONSE);
    for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(b.busy.ram().data()[0x2000 + i], out[i]) << i;
    b.busy.ram().data()[0x3001] = 0x5A;
    ASSERT_EQ(b.ni.move(false, 0x3000, in, 2), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(in[1], 0x5A);
    // The last byte of RAM is in, a word straddling its end is not; nor the ROM or devices.
    uint32_t top = b.busy.config().ram_bytes;
    EXPECT_EQ(b.ni.move(false, top - 2, in, 2), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.ni.move(false, top - 1, in, 2), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.ni.move(false, TB_BOOT_BASE, in, 2), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.ni.move(true, TB_SIMCTL_EXIT, out, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_FALSE(b.busy.simctl().exited());
    EXPECT_EQ(b.ni.probe(top - 1), 1u);
    EXPECT_EQ(b.ni.probe(top), 0u);
    EXPECT_EQ(b.ni.probe(TB_TIMER_BASE), 0u);
    EXPECT_FALSE(b.ni.dmi(0x2000)) << "DMA must stay timed";
    EXPECT_EQ(b.busy.dma().bytes_written(), 16u);
  });
}

TEST(BoardDma, HoldingTheMemoryPortStallsTheCpuByTheHeldTime) {
  Bench& b = bench();
  b.h.run([&] {
    auto& bc = b.busy.cpu().core();
    auto& ic = b.idle.cpu().core();
    uint64_t busy0 = bc.instructions(), idle0 = ic.instructions();
    // Progress is taken per the CPU's own time: an undisturbed board may run ahead of the kernel
    // by up to 16 quanta in exact mode (1.6 ms here), a board taking DMA by much less.
    sc_time busy_t0 = b.busy.cpu().local_time(), idle_t0 = b.idle.cpu().local_time();
    sc_time held0 = b.busy.memory_port().stats(SharedMemoryPort::kDma).held;
    // 10 ms of 16-byte bursts (3.2 us each) with 3.2 us gaps: DMA holds the port half the time.
    uint8_t buf[16] = {};
    sc_time end = sc_core::sc_time_stamp() + sc_time(10, SC_MS);
    while (sc_core::sc_time_stamp() < end) {
      ASSERT_EQ(b.ni.move(false, 0x8000, buf, 16), tlm::TLM_OK_RESPONSE);
      wait(sc_time(3.2, SC_US));
    }
    double held = (b.busy.memory_port().stats(SharedMemoryPort::kDma).held - held0).to_seconds();
    EXPECT_NEAR(held, 5e-3, 0.05e-3);
    double busy_rate = double(bc.instructions() - busy0) / (b.busy.cpu().local_time() - busy_t0).to_seconds();
    double idle_rate = double(ic.instructions() - idle0) / (b.idle.cpu().local_time() - idle_t0).to_seconds();
    double ratio = busy_rate / idle_rate;
    EXPECT_NEAR(ratio, 0.5, 0.04) << "the CPU gets what DMA leaves of the port";
    // Stalls are charged at synchronisations: never more than DMA held, and all of it but the
    // last quantum's worth by now (totals: the first test's bursts count too).
    double held_total = b.busy.memory_port().stats(SharedMemoryPort::kDma).held.to_seconds();
    double stalled = b.busy.cpu().dma_stall().to_seconds();
    EXPECT_GT(stalled, held_total - 0.2e-3);
    EXPECT_LE(stalled, held_total);
    EXPECT_EQ(b.idle.cpu().dma_stall(), sc_core::SC_ZERO_TIME);
  });
}

// A DMA into the routine the CPU keeps calling: from the DMA on the CPU runs the new routine,
// never the old one again (what a copy of decoded code would have to learn of).
TEST(BoardDma, CodeItWritesIsWhatTheCpuRunsFromThenOn) {
  Bench& b = bench();
  b.h.run([&] {
    uint8_t routine[4] = {0x70, 0x02, 0x4E, 0x75};  // moveq #2,d0; rts
    wait(sc_time(1, SC_MS));
    ASSERT_EQ(b.ni_code.move(true, kRoutine, routine, 4), tlm::TLM_OK_RESPONSE);
    wait(sc_time(2, SC_MS));
  });
  const uint8_t* ram = b.code.ram().data();
  unsigned ones = 0, twos = 0;
  for (uint32_t a = kHistory; a < kHistoryEnd; a += 2) {
    unsigned v = unsigned(ram[a] << 8 | ram[a + 1]);
    if (v == 0) break;  // not reached yet
    ASSERT_TRUE(v == 1 || v == 2) << std::hex << a;
    if (v == 1) {
      ASSERT_EQ(twos, 0u) << "the old routine ran after the DMA replaced it, at 0x" << std::hex << a;
      ++ones;
    } else {
      ++twos;
    }
  }
  EXPECT_GT(ones, 0u);
  EXPECT_GT(twos, 0u) << "the new routine never ran";
}

}  // namespace
