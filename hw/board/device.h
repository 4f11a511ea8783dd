// testbed::Device: the base of a device built outside the project and put on a board by a
// machine file ([[boards.devices]]) or in code (MachineBuilder::add_device), as a shared library
// (dlopen) or linked in. README "Building on the models" has the rules; in short:
//   - registers: the one register mechanism (RegisterTarget), declared from the device's own
//     TOML table through the project's generator (testbed-gen-device, cmake testbed_device_registers):
//       add_registers(tables::kCrcRegisters); on_write<regs::crc::DATA>(...);
//   - interrupt: set_irq(level), a level-sensitive line the board ORs into INTC's DEV source
//     (the board's one way of raising interrupts: a device's IrqLine wired to the controller);
//   - DMA (optional): dma_read/dma_write from a SystemC thread, through the board's DMA port,
//     so that in exact mode the CPU is rolled back when it has run past the access;
//   - time: handlers run at the access's own time t; state changes the CPU must see later are
//     kernel events (sc_event + SC_METHOD), never guessed from the CPU's local time.
// A plugin library defines one model:  TESTBED_DEVICE_MODEL(CrcUnit, "crc", regs::crc::kSize)
#pragma once
#include "config.h"
#include "irq_line.h"
#include "register_target.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <string>

namespace testbed {

// What a device is given when it is built.
struct DeviceArgs {
  std::string name;               // the instance's name on its board ("crc0")
  uint32_t address = 0;           // where the machine file mapped it (board address)
  sc_core::sc_time clock_period;  // the board's CPU clock
  sc_core::sc_time io_latency;    // the board's I/O wait states: the latency a register access costs
  Config params;                  // the [[boards.devices]] entry: read your own keys with its getters
};

class Device : public RegisterTarget {
 public:
  // The DMA initiator: the board binds it to its DMA port (board physical addresses, RAM only).
  tlm_utils::simple_initiator_socket<Device> dma;

  explicit Device(const DeviceArgs& args, Rules rules = Rules())
      : RegisterTarget(args.name.c_str(), args.io_latency, rules), dma("dma"), period_(args.clock_period) {}
  ~Device() override = default;

  // The interrupt line (level-sensitive). Call it from a SystemC process or a register handler:
  // the board's controller sees the change at the current kernel time.
  void set_irq(bool level) { irq_.set(level); }
  bool irq() const { return irq_.level(); }
  // The board connects the line (Board::add_device); a device does not. A device never added to
  // a board is refused at end_of_elaboration unless its builder leaves the line open.
  IrqLine& irq_line() { return irq_; }

  // A device that overrides this calls Device::end_of_elaboration() first.
  void end_of_elaboration() override {
    RegisterTarget::end_of_elaboration();
    irq_.check_connected();
  }

  // RESET instruction and power-up: put the registers back (the line drops with them).
  virtual void reset() {}

  // Snapshots (README "Snapshots"): a device that holds state between accesses saves and
  // restores it here, each field once (StateArchive::io), calling device_state(a) first for its
  // registers' latches and its line; one that runs a thread or has a pending kernel event also
  // says when it is at a point it can resume from (at_rest) and resumes there when restored
  // (a.when() is the snapshot's kernel time). A model that does not override state() cannot be
  // saved: a snapshot of its machine is refused with its name.
  virtual void state(StateArchive& a) {
    (void)a;
    throw StateError(std::string(name()) + ": this device's model does not save its state (Device::state)");
  }
  virtual bool at_rest() const { return true; }

  // DMA of `len` bytes at board physical address `addr` into / from `buf` (guest byte order),
  // from a SystemC thread: waits for the transfer's time. False: the range is not in RAM.
  bool dma_read(uint32_t addr, void* buf, unsigned len) { return dma_access(tlm::TLM_READ_COMMAND, addr, buf, len); }
  bool dma_write(uint32_t addr, const void* buf, unsigned len) {
    return dma_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(buf), len);
  }

  const sc_core::sc_time& clock_period() const { return period_; }

 protected:
  // What every device has: the register mechanism's latches and the interrupt line's level.
  void device_state(StateArchive& a) {
    a.section(name());
    register_state(a);
    bool irq = irq_.level();
    a.io(irq);
    if (a.loading()) irq_.restore_level(irq);
  }

 private:
  bool dma_access(tlm::tlm_command cmd, uint32_t addr, void* buf, unsigned len) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(static_cast<unsigned char*>(buf));
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    dma->b_transport(p, delay);
    wait(delay);
    return p.is_response_ok();
  }

  sc_core::sc_time period_;
  IrqLine irq_{name()};
};

// A device model: what a plugin library exports (testbed_device_model) or a program registers.
struct DeviceModel {
  unsigned abi;       // kDeviceAbi of the headers it was built with
  const char* name;   // "crc"
  uint32_t size;      // bytes of its register window
  Device* (*create)(const DeviceArgs&);
};
// Changes whenever Device, DeviceArgs or DeviceModel change layout: a plugin built against other
// headers is refused by name, not run.
constexpr unsigned kDeviceAbi = 3;

// Models linked into the program: MachineBuilder::add_device and `model = "..."` in a machine
// file find them here (TESTBED_LINKED_DEVICE_MODEL below registers one). Registering a name
// twice throws; the model must outlive the program's machines (the registry keeps its address).
void register_device_model(const DeviceModel& model);
const DeviceModel* find_device_model(const std::string& name);
// A plugin: dlopen(path) and its testbed_device_model(); throws std::runtime_error saying why not
// (no such file, not a plugin, built against other headers). The library stays loaded.
const DeviceModel* load_device_plugin(const std::string& path);

}  // namespace testbed

#define TESTBED_DEVICE_MODEL(Class, model_name, window_size)                                              \
  extern "C" __attribute__((visibility("default"))) const testbed::DeviceModel* testbed_device_model() { \
    static const testbed::DeviceModel m{testbed::kDeviceAbi, model_name, window_size,                     \
                                        [](const testbed::DeviceArgs& a) -> testbed::Device* {            \
                                          return new Class(a);                                            \
                                        }};                                                               \
    return &m;                                                                                            \
  }

// A model linked into the program (not a plugin), registered when the program starts under
// `model_name` (machine file: model = "name"; MachineBuilder::add_device(..., "name", ...)), with
// no declaration to write: TESTBED_LINKED_DEVICE_MODEL(CrcUnit, "crc", 0x20) at namespace scope.
#define TESTBED_LINKED_DEVICE_MODEL(Class, model_name, window_size)                                   \
  static const bool testbed_linked_model_##Class = [] {                                              \
    static const testbed::DeviceModel m{testbed::kDeviceAbi, model_name, window_size,                 \
                                        [](const testbed::DeviceArgs& a) -> testbed::Device* {        \
                                          return new Class(a);                                        \
                                        }};                                                           \
    testbed::register_device_model(m);                                                                \
    return true;                                                                                      \
  }()
