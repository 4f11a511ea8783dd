// BOARDID: who this board is (number, master/slave role, Centrenet node), how much RAM it has and
// how many boards its machine has.
#pragma once
#include "register_target.h"

#include <testbed/memory_map.h>

namespace testbed {

class BoardIdentity : public RegisterTarget {
 public:
  BoardIdentity(sc_core::sc_module_name name, uint16_t id, bool master, uint16_t node, uint32_t ram_bytes,
                uint16_t boards, sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
      : RegisterTarget(name, latency), id_(id), master_(master), node_(node), ram_bytes_(ram_bytes), boards_(boards) {
    using namespace regs::boardid;
    using sc_core::sc_time;
    add_registers(tables::kBoardidRegisters);
    on_read<ID>([this](const sc_time&) -> uint32_t { return id_; });
    on_read<ROLE>([this](const sc_time&) -> uint32_t { return master_ ? ROLE::MASTER::mask : 0; });
    on_read<NODE>([this](const sc_time&) -> uint32_t { return node_; });
    on_read<RAMSIZE>([this](const sc_time&) { return ram_bytes_; });
    on_read<BOARDS>([this](const sc_time&) -> uint32_t { return boards_; });
  }
  // Its values are the configuration's: a snapshot checks that they are this board's.
  void state(StateArchive& a) {
    a.section(name()).expect("id", id_).expect("node", node_).expect("ram bytes", ram_bytes_).expect("boards", boards_);
    register_state(a);
  }

 private:
  uint16_t id_;
  bool master_;
  uint16_t node_;
  uint32_t ram_bytes_;
  uint16_t boards_;
};

}  // namespace testbed
