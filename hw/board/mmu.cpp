#include "mmu.h"

#include "bus_extension.h"
#include "tlm_payload.h"

#include <testbed/memory_map.h>

namespace testbed {

using sc_core::sc_time;

namespace {
namespace R = regs::mmu;
constexpr uint16_t kEnable = R::CTRL::ENABLE::mask;
constexpr uint32_t kPages = (1u << TB_ADDRESS_BITS) / TB_PAGE_SIZE;
constexpr uint32_t kFlushAll = R::FLUSH::ALL;
static_assert(Mmu::kPageSize == TB_PAGE_SIZE, "MMU page size is the memory map's page_size");
}  // namespace

Mmu::Mmu(sc_core::sc_module_name name, sc_time walk_latency, sc_time register_latency)
    : RegisterTarget(name, register_latency), cpu_side("cpu_side"), mem_side("mem_side"),
      walk_latency_(walk_latency), tlb_(kPages, 0) {
  cpu_side.register_b_transport(this, &Mmu::b_transport);
  cpu_side.register_get_direct_mem_ptr(this, &Mmu::get_direct_mem_ptr);
  cpu_side.register_transport_dbg(this, &Mmu::transport_dbg);
  mem_side.register_invalidate_direct_mem_ptr(this, &Mmu::invalidate_direct_mem_ptr);
  declare_registers();
}

void Mmu::reset() {
  ctrl_ = 0;
  asid_ = 0;
  fault_status_ = 0;
  fault_addr_ = 0;
  ptbase_.fill(0);
  ptlen_.fill(0);
  flush_all();
}

bool Mmu::translating(const tlm::tlm_generic_payload& p) const {
  if (!(ctrl_ & kEnable)) return false;
  BusCycleExtension* e = nullptr;
  p.get_extension(e);
  return e && e->user();
}

Mmu::Translation Mmu::translate(uint32_t vaddr, bool write, sc_time* delay) {
  Translation r;
  uint32_t vpn = (vaddr & ((1u << TB_ADDRESS_BITS) - 1)) / kPageSize;
  if (vpn >= ptlen_[asid_]) {
    r.reason = Unmapped;
    return r;
  }
  uint32_t pte = tlb_[vpn];
  if (!pte) {
    uint8_t buf[4];
    tlm::tlm_generic_payload p;
    set_access(p, tlm::TLM_READ_COMMAND, ptbase_[asid_] + 4 * vpn, buf, 4);
    if (delay) {
      ++walks_;
      *delay += walk_latency_;
      mem_side->b_transport(p, *delay);
    } else if (mem_side->transport_dbg(p) == 4) {
      p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    if (!p.is_response_ok()) {
      r.reason = Unmapped;  // the table itself is not in memory
      return r;
    }
    pte = uint32_t(buf[0]) << 24 | uint32_t(buf[1]) << 16 | uint32_t(buf[2]) << 8 | buf[3];
    if ((pte & Pte::VALID::mask) && delay) {
      tlb_[vpn] = pte;
      tlb_used_.push_back(vpn);
    }
  }
  r.pte = pte;
  if (!(pte & Pte::VALID::mask)) r.reason = Unmapped;
  else if (!(pte & Pte::USER::mask)) r.reason = NotUser;
  else if (write && !(pte & Pte::WRITABLE::mask)) r.reason = ReadOnly;
  else {
    r.ok = true;
    r.physical = (pte & Pte::FRAME::mask) | (vaddr & (kPageSize - 1));
  }
  return r;
}

Mmu::Translation Mmu::translate_debug(uint32_t vaddr, bool write) {
  if (!(ctrl_ & kEnable)) {
    Translation r;
    r.ok = true;
    r.physical = vaddr;
    return r;
  }
  return translate(vaddr, write, nullptr);
}

void Mmu::record_fault(uint32_t vaddr, uint8_t fc, bool write, uint16_t reason) {
  fault_addr_ = vaddr;
  using S = R::FAULT_STATUS;
  fault_status_ = uint16_t(S::VALID::mask | S::ASID::put(asid_) | S::REASON::put(reason) |
                           (write ? S::WRITE::mask : 0) | S::FC::put(fc));
  ++faults_;
}

void Mmu::flush_all() {
  for (uint32_t vpn : tlb_used_) tlb_[vpn] = 0;
  tlb_used_.clear();
  cpu_side->invalidate_direct_mem_ptr(0, (1u << TB_ADDRESS_BITS) - 1);
}

void Mmu::flush_page(uint32_t vaddr) {
  uint32_t vpn = (vaddr & ((1u << TB_ADDRESS_BITS) - 1)) / kPageSize;
  tlb_[vpn] = 0;
  cpu_side->invalidate_direct_mem_ptr(vpn * kPageSize, vpn * kPageSize + kPageSize - 1);
}

void Mmu::b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
  if (!translating(p)) {
    mem_side->b_transport(p, delay);
    return;
  }
  uint32_t vaddr = uint32_t(p.get_address());
  Translation t = translate(vaddr, p.is_write(), &delay);
  if (!t.ok) {
    record_fault(vaddr, function_code(p), p.is_write(), t.reason);
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  p.set_address(t.physical);
  mem_side->b_transport(p, delay);
  p.set_address(vaddr);
}

bool Mmu::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  if (!translating(p)) return mem_side->get_direct_mem_ptr(p, dmi);
  uint32_t vaddr = uint32_t(p.get_address());
  uint32_t vpage = vaddr & ~(kPageSize - 1);
  Translation t = translate(vaddr, false, nullptr);
  dmi.set_start_address(vpage);
  dmi.set_end_address(vpage + kPageSize - 1);
  if (!t.ok) return false;
  tlm::tlm_dmi phys;
  p.set_address(t.physical);
  bool ok = mem_side->get_direct_mem_ptr(p, phys);
  p.set_address(vaddr);
  uint32_t ppage = t.physical & ~(kPageSize - 1);
  if (!ok || phys.get_start_address() > ppage || phys.get_end_address() < ppage + kPageSize - 1) return false;
  dmi.set_dmi_ptr(phys.get_dmi_ptr() + (ppage - phys.get_start_address()));
  dmi.set_start_address(vpage);
  dmi.set_end_address(vpage + kPageSize - 1);
  dmi.set_read_latency(phys.get_read_latency());
  dmi.set_write_latency(phys.get_write_latency());
  dmi.allow_read();
  if ((t.pte & Pte::WRITABLE::mask) && phys.is_write_allowed()) dmi.allow_read_write();
  return true;
}

unsigned Mmu::transport_dbg(tlm::tlm_generic_payload& p) {
  if (!translating(p)) return mem_side->transport_dbg(p);
  // Page by page, so that a debugger's read may span pages.
  uint32_t vaddr = uint32_t(p.get_address());
  unsigned len = p.get_data_length(), done = 0;
  unsigned char* data = p.get_data_ptr();
  while (done < len) {
    uint32_t a = vaddr + done;
    unsigned n = std::min<unsigned>(len - done, kPageSize - (a & (kPageSize - 1)));
    Translation t = translate(a, p.is_write(), nullptr);
    if (!t.ok) break;
    p.set_address(t.physical);
    p.set_data_ptr(data + done);
    p.set_data_length(n);
    unsigned got = mem_side->transport_dbg(p);
    done += got;
    if (got < n) break;
  }
  p.set_address(vaddr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  return done;
}

void Mmu::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  // Physical memory behind some DMI range changed: any user page may map onto it.
  if (ctrl_ & kEnable) cpu_side->invalidate_direct_mem_ptr(0, (1u << TB_ADDRESS_BITS) - 1);
  else cpu_side->invalidate_direct_mem_ptr(start, end);
}

void Mmu::declare_registers() {
  static_assert(R::PTBASE::count == kSpaces && R::PTLEN::count == kSpaces, "a PTBASEn and a PTLENn per address space");
  using sc_core::sc_time;
  add_registers(tables::kMmuRegisters);
  on_read<R::CTRL>([this](const sc_time&) -> uint32_t { return ctrl_; });
  on_write<R::CTRL>([this](uint32_t value, const sc_time&) {
    ctrl_ = uint16_t(value & kEnable);
    flush_all();
  });
  on_read<R::ASID>([this](const sc_time&) -> uint32_t { return asid_; });
  on_write<R::ASID>([this](uint32_t value, const sc_time&) {
    if (R::ASID::SPACE::get(value) != asid_) {
      asid_ = uint16_t(R::ASID::SPACE::get(value));
      flush_all();
    }
  });
  on_read<R::FAULT_ADDR>([this](const sc_time&) { return fault_addr_; });
  on_read<R::FAULT_STATUS>([this](const sc_time&) -> uint32_t { return fault_status_; });
  on_write<R::FAULT_STATUS>([this](uint32_t value, const sc_time&) {
    if (value == 0) fault_status_ = 0;
  });
  on_read<R::FAULTS>([this](const sc_time&) { return uint32_t(faults_); });
  on_write<R::FLUSH>([this](uint32_t value, const sc_time&) {
    if (value == kFlushAll) flush_all();
    else flush_page(value);
  });
  on_read<R::WALKS>([this](const sc_time&) { return uint32_t(walks_); });
  on_read_each<R::PTBASE>([this](unsigned n, const sc_time&) { return ptbase_[n]; });
  on_write_each<R::PTBASE>([this](unsigned n, uint32_t value, const sc_time&) {
    ptbase_[n] = value & R::PTBASE::ADDR::mask;
    if (n == asid_) flush_all();
  });
  on_read_each<R::PTLEN>([this](unsigned n, const sc_time&) -> uint32_t { return ptlen_[n]; });
  on_write_each<R::PTLEN>([this](unsigned n, uint32_t value, const sc_time&) {
    ptlen_[n] = uint16_t(std::min<uint32_t>(value, kPages));
    if (n == asid_) flush_all();
  });
}

}  // namespace testbed
