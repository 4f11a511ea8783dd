// The paged MMU: per-process virtual memory for TOS (16 address spaces, 1 KB pages).
//
// It sits between the CPU initiator and the board's address decoder as a TLM-2.0 interconnect:
// supervisor accesses pass through physical; user accesses (FC 1, 2) are translated when
// CTRL.ENABLE is set, through the current address space's page table, which lives in RAM and
// is walked by the MMU on a miss (an array of 32-bit entries, layout PTE in the register
// tables: physical page address, USER, WRITABLE, VALID). Translations are cached; the OS writes FLUSH
// after changing an entry in RAM. A user access to a page that is unmapped, not a user page,
// or read-only (on a write) is answered with an address error (the CPU takes a bus error), and
// the fault's address and kind are kept in FAULT_ADDR / FAULT_STATUS for the handler.
//
// DMI: user pages are handed out one page at a time (virtual page -> host pointer of its
// physical page; read-only unless WRITABLE), so the CPU's fast path covers translated pages.
// Any change that can alter a translation invalidates the DMI ranges it gave out.
#pragma once
#include "register_target.h"

#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <vector>

namespace testbed {

class Mmu : public RegisterTarget {
 public:
  static constexpr unsigned kSpaces = 16;
  static constexpr uint32_t kPageSize = 1024;
  using Pte = regs::mmu::PTE;  // page table entry layout (sw/tables/registers/mmu.toml)
  using Reason = regs::mmu::FAULT_STATUS::REASON;
  enum FaultReason : uint16_t { Unmapped = Reason::UNMAPPED, ReadOnly = Reason::READ_ONLY, NotUser = Reason::NOT_USER };

  tlm_utils::simple_target_socket<Mmu> cpu_side;     // from the CPU initiator
  tlm_utils::simple_initiator_socket<Mmu> mem_side;  // to the address decoder (physical)
  // `socket` (inherited) is the register window at TB_MMU_BASE.

  // `walk_latency`: the cost of one page-table walk (reading one entry from RAM).
  Mmu(sc_core::sc_module_name name, sc_core::sc_time walk_latency = sc_core::SC_ZERO_TIME,
      sc_core::sc_time register_latency = sc_core::SC_ZERO_TIME);

  void reset();
  // Registers, counts and the cached translations (a miss costs a walk: they are timing).
  void state(StateArchive& a) {
    a.section(name());
    register_state(a);
    a.io(ctrl_).io(asid_).io(fault_status_).io(fault_addr_).io(faults_).io(walks_).io(ptbase_).io(ptlen_);
    a.io(tlb_).io(tlb_used_);
  }
  uint64_t faults() const { return faults_; }
  uint64_t walks() const { return walks_; }

  struct Translation {
    bool ok = false;
    uint32_t physical = 0;
    uint32_t pte = 0;
    uint16_t reason = 0;
  };
  // Translates a user access without side effects on the fault registers (for debuggers).
  Translation translate_debug(uint32_t vaddr, bool write);

 private:
  void declare_registers();
  bool translating(const tlm::tlm_generic_payload& p) const;
  Translation translate(uint32_t vaddr, bool write, sc_core::sc_time* delay);
  void record_fault(uint32_t vaddr, uint8_t fc, bool write, uint16_t reason);
  void flush_all();
  void flush_page(uint32_t vaddr);

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  sc_core::sc_time walk_latency_;
  uint16_t ctrl_ = 0, asid_ = 0, fault_status_ = 0;
  uint32_t fault_addr_ = 0;
  uint64_t faults_ = 0, walks_ = 0;
  std::array<uint32_t, kSpaces> ptbase_{};
  std::array<uint16_t, kSpaces> ptlen_{};
  std::vector<uint32_t> tlb_;  // cached PTE per virtual page of the current space (0: none)
  std::vector<uint32_t> tlb_used_;
};

}  // namespace testbed
