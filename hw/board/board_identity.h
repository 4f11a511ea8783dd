// BOARDID: who this board is (number, master/slave role, Centrenet node) and how much RAM it has.
#pragma once
#include "register_target.h"

#include <testbed/memory_map.h>

namespace testbed {

class BoardIdentity : public RegisterTarget {
 public:
  BoardIdentity(sc_core::sc_module_name name, uint16_t id, bool master, uint16_t node, uint32_t ram_bytes,
                sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
      : RegisterTarget(name, latency), id_(id), master_(master), node_(node), ram_bytes_(ram_bytes) {
    add_registers(tables::kBoardidRegisters);
  }

 protected:
  uint32_t read_register(uint32_t offset, const sc_core::sc_time&) override {
    switch (offset) {
      case TB_BOARDID_ID_OFF: return id_;
      case TB_BOARDID_ROLE_OFF: return master_ ? regs::boardid::ROLE::MASTER::mask : 0;
      case TB_BOARDID_NODE_OFF: return node_;
      default: return ram_bytes_;
    }
  }
  void write_register(uint32_t, uint32_t, const sc_core::sc_time&) override {}

 private:
  uint16_t id_;
  bool master_;
  uint16_t node_;
  uint32_t ram_bytes_;
};

}  // namespace testbed
