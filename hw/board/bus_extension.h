// What a 68010 bus cycle carries beside address and data: the function code (FC2..FC0). The CPU
// initiator attaches it to every payload (transport, DMI and debug); the MMU uses it to tell
// user accesses (translated) from supervisor ones (physical). Payloads without it are
// supervisor data accesses (loaders, debuggers, DMA).
#pragma once
#include <tlm>

#include <cstdint>

namespace testbed {

struct BusCycleExtension : tlm::tlm_extension<BusCycleExtension> {
  uint8_t fc = 5;  // m68k::FunctionCode
  tlm::tlm_extension_base* clone() const override { return new BusCycleExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    fc = static_cast<const BusCycleExtension&>(e).fc;
  }
  bool user() const { return fc == 1 || fc == 2; }
};

inline uint8_t function_code(const tlm::tlm_generic_payload& p) {
  BusCycleExtension* e = nullptr;
  p.get_extension(e);
  return e ? e->fc : 5;
}

}  // namespace testbed
