// One Testbed processor board: a 68010 (CpuInitiator) behind the paged MMU, the address decoder
// with RAM, boot ROM, timer/RTC, interrupt controller, two serial ports, BOARDID and SIMCTL, and
// two windows for devices built elsewhere: NET (Centrenet NI) and MON (SMI on a slave, MMI on
// the master). An unattached window answers with bus errors.
//
//   testbed::BoardConfig c;  c.id = 2; c.master = false; c.node = 0;
//   testbed::Board b("air", c);
//   b.attach_net(ni.target_socket);           // before sc_start; likewise attach_monitor()
//   ni.dma.bind(b.dma_target()); ni.set_memory_port(&b.memory_port());   // dma-anywhere
//   ni.irq_line().connect([&](bool l) { b.set_irq(testbed::IrqSource::Net, l); });
//   b.console().connect(&endpoint);           // or a ConsoleSwitch; b.link() on the master
//   b.load_image(testbed::load_elf("tos.elf"));
//   b.on_exit([&](testbed::Board& x) { ... x.result() ... });   // default: sc_stop()
//   sc_start();
#pragma once
#include "absent_device.h"
#include "address_decoder.h"
#include "board_identity.h"
#include "cpu_initiator.h"
#include "cpu_timing.h"
#include "device.h"
#include "device_directory.h"
#include "dma_port.h"
#include "elf_loader.h"
#include "interrupt_controller.h"
#include "memory.h"
#include "mmu.h"
#include "serial_port.h"
#include "sim_control.h"
#include "timer.h"

#include <testbed/memory_map.h>

#include <functional>
#include <memory>
#include <string>

namespace testbed {

class Config;  // sw/config: a machine file

// A user device's window in the DEV region (machine file [[boards.devices]]).
struct DeviceWindow {
  std::string name;
  uint32_t address = 0, size = 0;
};
// The DEV region's first bytes are the board's directory of its devices; windows start after it.
constexpr uint32_t kDeviceDirectoryBytes = 0x100;

// A board's settings. The initializers are the one statement of the defaults; read() is the one
// reader of the machine file's keys for them, for testbed and testbed-board alike.
struct BoardConfig {
  uint16_t id = 0;          // 0 master, 1..5 earth, air, fire, water, space
  bool master = true;
  uint16_t node = 0;        // Centrenet node
  uint16_t boards = 6;      // the machine's board count, told to the kernel (BOARDID BOARDS); the Testbed's six
  uint32_t ram_bytes = TB_RAM_DEFAULT_BYTES;  // multiple of 1 KB, up to TB_RAM_MAX_BYTES
  double clock_hz = TB_CPU_CLOCK_HZ;
  m68k::Model model = m68k::Model::MC68010;
  unsigned ram_wait_states = 0;
  unsigned rom_wait_states = 1;
  unsigned io_wait_states = 1;  // every device register access
  unsigned mmu_walk_clocks = 8; // one page-table walk (a 32-bit entry: two bus cycles)
  uint32_t timer_tick_hz = 1000000;
  uint32_t console_baud = 9600;
  uint32_t link_baud = 38400;
  bool fast_path = true;
  // The quantum and exact mode are the platform's (CpuTiming): a board starts exact, the
  // platform's CpuTiming::apply(board) sets its mode.
  // User devices (at most 8): windows inside DEV past the directory, not overlapping, even
  // addresses and sizes. The models are attached with Board::add_device before sc_start.
  std::vector<DeviceWindow> devices;
  // Throws std::invalid_argument naming the parameter when a value is out of range.
  void validate() const;
  // The machine file's settings for every board (board_settings.cpp): [cpu] model, clock_mhz,
  // fast_path; [board] ram_kb, ram_wait_states, rom_wait_states, io_wait_states,
  // mmu_walk_clocks, timer_tick_hz, console_baud, link_baud. A missing key keeps the value it
  // has; a bad one throws ConfigError naming file, line, key and the allowed range.
  void read(const Config& cfg);
  // The board's identity from [board] id, master, node (a machine file for one board).
  void read_identity(const Config& cfg);
};

struct BoardResult {
  bool finished = false;      // SIMCTL EXIT written
  // The value the guest wrote to SIMCTL EXIT. The register's convention, not a process's: 1
  // (EXIT's SUCCESS) is success and any other value a failure code, so that a stray write of 0
  // reads as a failure. succeeded() and exit_status() say it as a host program would.
  uint32_t exit_code = 0;
  bool succeeded() const { return finished && exit_code == TB_SIMCTL_EXIT_SUCCESS; }
  // As a process's exit status: 0 for success, the guest's failure code otherwise (1 if it was
  // none, or out of 1..255, or the board did not finish).
  int exit_status() const {
    if (succeeded()) return 0;
    return finished && exit_code >= 2 && exit_code <= 255 ? int(exit_code) : 1;
  }
  std::string halt_reason;    // non-empty: the CPU halted (double bus fault)
  sc_core::sc_time time;      // simulated time at the end
  uint64_t cycles = 0, instructions = 0;
};

// A board image must give the reset vectors at address 0. An image without them that lies wholly
// in a TOS process's image area (linked with user.ld, at TOS_USER_BASE) is a TOS user program
// given where a board image belongs: refused (ElfError) with the way to run it, tos-mkfs.
void check_board_image(const ElfImage& image);

class Board : public sc_core::sc_module {
 public:
  Board(sc_core::sc_module_name name, const BoardConfig& config);

  // Loads an image into RAM / boot ROM (throws ElfError naming the image when it does not fit).
  // The CPU takes its reset vectors from address 0 when the simulation starts.
  void load_image(const ElfImage& image);

  // Attachment points, before sc_start(): the device's target socket gets the window's offsets.
  void attach_net(tlm::tlm_target_socket<32>& target) { decoder_.port("NET").bind(target); net_attached_ = true; }
  void attach_monitor(tlm::tlm_target_socket<32>& target) { decoder_.port("MON").bind(target); mon_attached_ = true; }
  // DMA into board RAM (physical addresses; see dma_port.h), e.g. ni.dma.bind(b.dma_target())
  // and ni.set_memory_port(&b.memory_port()) for the Centrenet NI in dma-anywhere mode.
  DmaPort::Socket& dma_target() { return dma_.socket; }
  SharedMemoryPort& memory_port() { return dma_.memory_port(); }
  DmaPort& dma() { return dma_; }
  // Interrupt lines of external devices (level-sensitive; IrqSource::Net, IrqSource::Mon).
  void set_irq(IrqSource s, bool asserted) { intc_.set_line(s, asserted); }
  // A user device into the window config().devices declared as `window`: its registers,
  // its interrupt line (DEV directory bit n, INTC DEV), its DMA socket (the board's DMA port)
  // and its reset. Before sc_start; a declared window left without a device is refused then.
  void add_device(const std::string& window, Device& device);

  SerialPort& console() { return serial0_; }
  SerialPort& link() { return serial1_; }
  CpuInitiator& cpu() { return cpu_; }
  Mmu& mmu() { return mmu_; }
  Timer& timer() { return timer_; }
  InterruptController& intc() { return intc_; }
  SimControl& simctl() { return simctl_; }
  Memory& ram() { return ram_; }
  const BoardConfig& config() const { return config_; }

  // Called from the board's CPU thread when it finishes (EXIT or halt). Default: sc_stop().
  void on_exit(std::function<void(Board&)> f) { exit_ = std::move(f); }
  const BoardResult& result() const { return result_; }

  // Snapshots: every model of the board in a fixed order (the NET and MON devices attached from
  // outside are their builder's), and whether each is at a point it resumes from.
  void state(StateArchive& a);
  bool at_rest() const;

 private:
  void before_end_of_elaboration() override;
  static std::vector<Window> windows(const BoardConfig& c);

  BoardConfig config_;
  sc_core::sc_time period_;
  CpuInitiator cpu_;
  Mmu mmu_;
  AddressDecoder decoder_;
  Memory ram_, boot_;
  DmaPort dma_;
  Timer timer_;
  InterruptController intc_;
  SerialPort serial0_, serial1_;
  BoardIdentity id_;
  SimControl simctl_;
  DeviceDirectory directory_;
  std::vector<Device*> devices_;  // by window, as config_.devices
  std::unique_ptr<AbsentDevice> no_net_, no_mon_;
  bool net_attached_ = false, mon_attached_ = false;
  std::function<void(Board&)> exit_;
  BoardResult result_;
};

}  // namespace testbed
