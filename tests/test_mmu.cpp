// The MMU over TLM without a CPU: translations through page tables in RAM, faults and their
// registers, supervisor bypass, DMI per user page and its invalidation.
#include <testbed/memory_map.h>

#include "address_decoder.h"
#include "board_tlm_harness.h"
#include "memory.h"
#include "mmu.h"

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

constexpr uint8_t kUserData = 1, kUserProgram = 2, kSuper = 5;
constexpr uint32_t kTable = 0x10000;  // page table of address space 3
constexpr uint32_t V = 1, W = 2, U = 4;

struct Bench {
  TestInitiator cpu{"cpu"};
  Mmu mmu{"mmu", sc_time(800, SC_NS), sc_time(100, SC_NS)};
  AddressDecoder decoder{"decoder", {{"RAM", 0, 0x100000}, {"MMU", TB_MMU_BASE, TB_MMU_SIZE}}};
  Memory ram{"ram", 0x100000};
  Harness h{"h"};
  Bench() {
    cpu.socket.bind(mmu.cpu_side);
    mmu.mem_side.bind(decoder.target);
    decoder.port("RAM").bind(ram.socket);
    decoder.port("MMU").bind(mmu.socket);
  }
  void pte(uint32_t vpn, uint32_t v) { cpu.wr32(kTable + 4 * vpn, v); }
  // Address space 3: 8 pages; page 0 -> frame 0x20000 (user, writable), page 1 -> 0x20400
  // read-only (shared code), page 2 not valid, page 3 valid but supervisor-only.
  void setup() {
    pte(0, 0x20000 | V | W | U);
    pte(1, 0x20400 | V | U);
    pte(2, 0);
    pte(3, 0x20800 | V | W);
    for (uint32_t i = 4; i < 8; ++i) pte(i, 0);
    cpu.wr32(TB_MMU_PTBASE0_OFF + TB_MMU_BASE + 4 * 3, kTable);
    cpu.wr(TB_MMU_PTLEN0 + 2 * 3, 8, 2);
    cpu.wr(TB_MMU_ASID, 3, 2);
    cpu.wr(TB_MMU_CTRL, 1, 2);
    cpu.wr32(TB_MMU_FLUSH, 0xFFFFFFFF);
    cpu.wr(TB_MMU_FAULT_STATUS, 0, 2);
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

TEST(Mmu, TranslatesUserAccessesThroughThePageTableInRam) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    b.cpu.wr(0x20010, 0xBEEF, 2);                    // supervisor: physical
    EXPECT_EQ(b.cpu.rd(0x0010, 2, kUserData), 0xBEEFu);  // user page 0 -> 0x20000
    b.cpu.wr(0x0012, 0x1234, 2, kUserData);
    EXPECT_EQ(b.cpu.rd(0x20012, 2), 0x1234u);
    b.cpu.wr(0x20400, 0x4E75, 2);
    EXPECT_EQ(b.cpu.rd(0x0400, 2, kUserProgram), 0x4E75u);  // shared read-only code page
    EXPECT_EQ(b.cpu.rd(0x0010, 2, kSuper), 0u) << "supervisor accesses are not translated";
  });
}

TEST(Mmu, PageWalkCostsTimeOnlyOnAMiss) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    uint32_t walks = b.cpu.rd32(TB_MMU_WALKS);
    b.cpu.rd(0x0100, 2, kUserData);
    EXPECT_EQ(b.cpu.delay, sc_time(800, SC_NS)) << "first access walks the table";
    b.cpu.rd(0x0102, 2, kUserData);
    EXPECT_EQ(b.cpu.delay, sc_core::SC_ZERO_TIME) << "second access hits the cached translation";
    EXPECT_EQ(b.cpu.rd32(TB_MMU_WALKS), walks + 1);
  });
}

TEST(Mmu, FaultsAreBusErrorsWithAddressAndKindInRegisters) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    uint32_t faults = b.cpu.rd32(TB_MMU_FAULTS);
    uint32_t v = 0x5555;
    EXPECT_EQ(b.cpu.access(true, 0x0404, v, 2, kUserData), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.cpu.rd32(TB_MMU_FAULT_ADDR), 0x0404u);
    EXPECT_EQ(b.cpu.rd(TB_MMU_FAULT_STATUS, 2), 0x8000u | 3u << 8 | Mmu::ReadOnly << 4 | 8u | kUserData);
    EXPECT_NE(b.cpu.rd(0x20404, 2), 0x5555u) << "the faulting write must not reach memory";

    EXPECT_EQ(b.cpu.access(false, 0x0802, v, 2, kUserProgram), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.cpu.rd32(TB_MMU_FAULT_ADDR), 0x0802u);
    EXPECT_EQ(b.cpu.rd(TB_MMU_FAULT_STATUS, 2), 0x8000u | 3u << 8 | Mmu::Unmapped << 4 | kUserProgram);

    EXPECT_EQ(b.cpu.access(false, 0x0C00, v, 2, kUserData), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ((b.cpu.rd(TB_MMU_FAULT_STATUS, 2) >> 4) & 7, uint32_t(Mmu::NotUser));

    EXPECT_EQ(b.cpu.access(false, 8 * 1024, v, 2, kUserData), tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "past PTLEN";
    EXPECT_EQ(b.cpu.rd32(TB_MMU_FAULTS), faults + 4);
  });
}

TEST(Mmu, HandlerFixesThePteFlushesAndTheRetrySucceeds) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    uint32_t v = 0;
    EXPECT_EQ(b.cpu.access(false, 0x0800, v, 2, kUserData), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    b.pte(2, 0x30000 | V | W | U);  // demand paging: map the page
    b.cpu.wr32(TB_MMU_FLUSH, 0x0800);
    b.cpu.wr(0x30000, 0xCAFE, 2);
    EXPECT_EQ(b.cpu.rd(0x0800, 2, kUserData), 0xCAFEu);
  });
}

TEST(Mmu, AddressSpacesAreSeparateAndSwitchingFlushes) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    // Space 4: page 0 -> 0x40000.
    b.cpu.wr32(0x11000, 0x40000 | V | W | U);
    b.cpu.wr32(TB_MMU_PTBASE0 + 4 * 4, 0x11000);
    b.cpu.wr(TB_MMU_PTLEN0 + 2 * 4, 1, 2);
    b.cpu.wr(0x20000, 0x0003, 2);
    b.cpu.wr(0x40000, 0x0004, 2);
    EXPECT_EQ(b.cpu.rd(0, 2, kUserData), 3u);
    int inv = b.cpu.invalidations;
    b.cpu.wr(TB_MMU_ASID, 4, 2);
    EXPECT_GT(b.cpu.invalidations, inv) << "switching spaces invalidates DMI";
    EXPECT_EQ(b.cpu.rd(0, 2, kUserData), 4u);
    uint32_t v;
    EXPECT_EQ(b.cpu.access(false, 0x400, v, 2, kUserData), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
}

TEST(Mmu, DmiForAUserPageIsThatPageWithItsProtection) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    tlm::tlm_generic_payload p;
    auto* e = new BusCycleExtension;
    e->fc = kUserData;
    p.set_extension(e);
    p.set_address(0x0404);
    tlm::tlm_dmi d;
    ASSERT_TRUE(b.cpu.socket->get_direct_mem_ptr(p, d));
    EXPECT_EQ(d.get_start_address(), 0x400u);
    EXPECT_EQ(d.get_end_address(), 0x7FFu);
    EXPECT_EQ(d.get_dmi_ptr(), b.ram.data() + 0x20400);
    EXPECT_TRUE(d.is_read_allowed());
    EXPECT_FALSE(d.is_write_allowed()) << "read-only code page";
    p.set_address(0x0000);
    tlm::tlm_dmi d0;
    ASSERT_TRUE(b.cpu.socket->get_direct_mem_ptr(p, d0));
    EXPECT_TRUE(d0.is_write_allowed());
    p.set_address(0x0800);
    tlm::tlm_dmi d2;
    EXPECT_FALSE(b.cpu.socket->get_direct_mem_ptr(p, d2)) << "no DMI for an unmapped page";
    int inv = b.cpu.invalidations;
    b.cpu.wr32(TB_MMU_FLUSH, 0x0404);
    EXPECT_EQ(b.cpu.invalidations, inv + 1);
    EXPECT_EQ(b.cpu.last_invalid_start, 0x400u);
    EXPECT_EQ(b.cpu.last_invalid_end, 0x7FFu);
  });
}

TEST(Mmu, DisabledMeansUserAccessesArePhysical) {
  Bench& b = bench();
  b.h.run([&] {
    b.setup();
    b.cpu.wr(TB_MMU_CTRL, 0, 2);
    b.cpu.wr(0x0800, 0x7777, 2);
    EXPECT_EQ(b.cpu.rd(0x0800, 2, kUserData), 0x7777u);
  });
}

}  // namespace
