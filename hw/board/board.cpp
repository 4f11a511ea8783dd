#include "board.h"

#include <testbed/tos.h>
#include <cstdio>

#include <cstring>
#include <stdexcept>

namespace testbed {

using sc_core::sc_time;

void BoardConfig::validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument(what); };
  if (ram_bytes == 0 || ram_bytes % TB_PAGE_SIZE || ram_bytes > TB_RAM_MAX_BYTES)
    bad("ram_bytes " + std::to_string(ram_bytes) + " must be a non-zero multiple of 1024 up to " +
        std::to_string(TB_RAM_MAX_BYTES) + " (RAM ends at the boot ROM)");
  if (!(clock_hz >= 1e3 && clock_hz <= 1e9)) bad("clock_hz " + std::to_string(clock_hz) + " must be 1 kHz .. 1 GHz");
  if (id > 15) bad("board id " + std::to_string(id) + " must be 0..15 (sixteen boards per Centrenet node)");
  if (devices.size() > DeviceDirectory::kMaxDevices)
    bad(std::to_string(devices.size()) + " user devices: a board has room for " +
        std::to_string(DeviceDirectory::kMaxDevices) + " in its DEV directory");
  for (size_t i = 0; i < devices.size(); ++i) {
    const DeviceWindow& d = devices[i];
    auto hex = [](uint64_t v) { char b[16]; std::snprintf(b, sizeof b, "0x%06llX", (unsigned long long)v); return std::string(b); };
    uint64_t lo = TB_DEV_BASE + kDeviceDirectoryBytes, hi = uint64_t(TB_DEV_BASE) + TB_DEV_SIZE;
    if (d.name.empty()) bad("a user device without a name");
    if (d.size == 0 || d.size % 2 || d.address % 2)
      bad("device " + d.name + ": address " + hex(d.address) + " and size " + std::to_string(d.size) + " must be even and the size non-zero");
    if (d.address < lo || uint64_t(d.address) + d.size > hi)
      bad("device " + d.name + " at " + hex(d.address) + ".." + hex(uint64_t(d.address) + d.size - 1) +
          ": user devices go in the DEV region, " + hex(lo) + ".." + hex(hi - 1) + " (its first " +
          std::to_string(kDeviceDirectoryBytes) + " bytes are the board's directory of them)");
    for (size_t j = 0; j < i; ++j) {
      const DeviceWindow& e = devices[j];
      if (e.name == d.name) bad("two user devices named " + d.name);
      if (uint64_t(d.address) < uint64_t(e.address) + e.size && uint64_t(e.address) < uint64_t(d.address) + d.size)
        bad("device " + d.name + " at " + hex(d.address) + ".." + hex(uint64_t(d.address) + d.size - 1) + " overlaps device " +
            e.name + " at " + hex(e.address) + ".." + hex(uint64_t(e.address) + e.size - 1));
    }
  }
  if (ram_wait_states > 64 || rom_wait_states > 64 || io_wait_states > 64 || mmu_walk_clocks > 1000)
    bad("wait states must be 0..64 (and the MMU walk 0..1000 clocks)");
}

std::vector<Window> Board::windows(const BoardConfig& c) {
  std::vector<Window> w = {{"RAM", TB_RAM_BASE, c.ram_bytes},         {"BOOT", TB_BOOT_BASE, TB_BOOT_SIZE},
          {"NET", TB_NET_BASE, TB_NET_SIZE},         {"MON", TB_MON_BASE, TB_MON_SIZE},
          {"MMU", TB_MMU_BASE, TB_MMU_SIZE},         {"TIMER", TB_TIMER_BASE, TB_TIMER_SIZE},
          {"INTC", TB_INTC_BASE, TB_INTC_SIZE},      {"SERIAL0", TB_SERIAL0_BASE, TB_SERIAL0_SIZE},
          {"SERIAL1", TB_SERIAL1_BASE, TB_SERIAL1_SIZE}, {"BOARDID", TB_BOARDID_BASE, TB_BOARDID_SIZE},
          {"SIMCTL", TB_SIMCTL_BASE, TB_SIMCTL_SIZE}};
  w.push_back({"DEV", TB_DEV_BASE, kDeviceDirectoryBytes});
  for (auto& d : c.devices) w.push_back({"dev." + d.name, d.address, d.size});
  return w;
}

namespace {
std::vector<DeviceDirectory::Entry> directory_of(const BoardConfig& c) {
  std::vector<DeviceDirectory::Entry> e;
  for (auto& d : c.devices) e.push_back({d.address, d.size});
  return e;
}
}  // namespace

void Board::add_device(const std::string& name, Device& device) {
  for (size_t i = 0; i < config_.devices.size(); ++i) {
    if (config_.devices[i].name != name) continue;
    if (devices_[i]) throw std::invalid_argument(std::string(this->name()) + ": device " + name + " added twice");
    devices_[i] = &device;
    decoder_.port("dev." + name).bind(device.socket);
    device.dma.bind(dma_.socket);
    device.irq_line().connect(
        [this, i](bool l) { intc_.set_line(IrqSource::Dev, directory_.set_line(unsigned(i), l)); });
    return;
  }
  throw std::invalid_argument(std::string(this->name()) + ": no window declared for device " + name +
                              " (BoardConfig::devices, or [[boards.devices]] in the machine file)");
}

Board::Board(sc_core::sc_module_name name, const BoardConfig& c)
    : sc_module(name),
      config_((c.validate(), c)),
      period_(1.0 / c.clock_hz, sc_core::SC_SEC),
      cpu_("cpu", period_, c.model),
      mmu_("mmu", period_ * double(c.mmu_walk_clocks), period_ * double(c.io_wait_states)),
      decoder_("decoder", windows(c)),
      ram_("ram", c.ram_bytes, false, period_ * double(c.ram_wait_states)),
      boot_("boot", TB_BOOT_SIZE, true, period_ * double(c.rom_wait_states)),
      dma_("dma", ram_),
      timer_("timer", c.timer_tick_hz, period_ * double(c.io_wait_states)),
      intc_("intc", period_ * double(c.io_wait_states)),
      serial0_("serial0", c.console_baud, period_ * double(c.io_wait_states)),
      serial1_("serial1", c.link_baud, period_ * double(c.io_wait_states)),
      id_("boardid", c.id, c.master, c.node, c.ram_bytes, c.boards, period_ * double(c.io_wait_states)),
      simctl_("simctl", period_ * double(c.io_wait_states)),
      directory_("devices", directory_of(c), period_ * double(c.io_wait_states)),
      devices_(c.devices.size(), nullptr) {
  cpu_.socket.bind(mmu_.cpu_side);
  mmu_.mem_side.bind(decoder_.target);
  decoder_.port("RAM").bind(ram_.socket);
  decoder_.port("BOOT").bind(boot_.socket);
  decoder_.port("MMU").bind(mmu_.socket);
  decoder_.port("TIMER").bind(timer_.socket);
  decoder_.port("INTC").bind(intc_.socket);
  decoder_.port("SERIAL0").bind(serial0_.socket);
  decoder_.port("SERIAL1").bind(serial1_.socket);
  decoder_.port("BOARDID").bind(id_.socket);
  decoder_.port("SIMCTL").bind(simctl_.socket);
  decoder_.port("DEV").bind(directory_.socket);
  cpu_.set_fast_path(c.fast_path);
  cpu_.add_host_block(ram_.data(), ram_.size());
  cpu_.add_host_block(boot_.data(), boot_.size());
  cpu_.set_memory_port(&dma_.memory_port());
  CpuTiming{}.apply(*this);  // the default mode until the platform applies its own
  dma_.set_before_access([this] { cpu_.before_dma(); });
  dma_.memory_port().set_claim_observer([this](SharedMemoryPort::Holder who) {
    if (who == SharedMemoryPort::kDma) cpu_.after_dma_claim();
  });

  timer_.irq_line().connect([this](bool l) { intc_.set_line(IrqSource::Timer, l); });
  serial0_.irq_line().connect([this](bool l) { intc_.set_line(IrqSource::Serial0, l); });
  serial1_.irq_line().connect([this](bool l) { intc_.set_line(IrqSource::Serial1, l); });
  intc_.on_ipl_change([this](int l) { cpu_.set_ipl(l); });
  cpu_.set_interrupt_acknowledge(
      [this](int level) { return intc_.acknowledge(level) ? m68k::Bus::kAutovector : m68k::Bus::kSpurious; });
  cpu_.set_reset_devices([this] {
    mmu_.reset();
    timer_.reset();
    intc_.reset();
    serial0_.reset();
    serial1_.reset();
    for (Device* d : devices_)
      if (d) d->reset();
  });
  cpu_.set_event_horizon([this] { return timer_.next_irq_time(); });
  simctl_.on_exit([this](uint32_t, const sc_time&) { cpu_.finish(); });
  cpu_.on_done([this](const std::string& halt) {
    result_.finished = simctl_.exited();
    result_.exit_code = simctl_.exit_code();
    result_.halt_reason = halt;
    result_.time = sc_core::sc_time_stamp();
    result_.cycles = cpu_.core().cycles();
    result_.instructions = cpu_.core().instructions();
    if (exit_) exit_(*this);
    else sc_core::sc_stop();
  });
}

void Board::state(StateArchive& a) {
  a.section(name());
  cpu_.state(a);
  mmu_.state(a);
  ram_.state(a);
  boot_.state(a);
  dma_.state(a);
  timer_.state(a);
  intc_.state(a);
  serial0_.state(a);
  serial1_.state(a);
  id_.state(a);
  simctl_.state(a);
  directory_.state(a);
  decoder_.state(a);
  for (Device* d : devices_) d->state(a);
  for (AbsentDevice* d : {no_net_.get(), no_mon_.get()}) {
    bool fitted = d != nullptr;
    a.expect("absent device fitted", fitted);
    if (d) d->state(a);
  }
  a.io(result_.finished).io(result_.exit_code).io(result_.halt_reason).io(result_.time).io(result_.cycles);
  a.io(result_.instructions);
}

bool Board::at_rest() const {
  if (!cpu_.at_rest()) return false;
  for (const Device* d : devices_)
    if (!d->at_rest()) return false;
  return true;
}

void Board::before_end_of_elaboration() {
  for (size_t i = 0; i < devices_.size(); ++i)
    if (!devices_[i])
      throw std::invalid_argument(std::string(name()) + ": device window " + config_.devices[i].name +
                                  " declared but no device added (Board::add_device)");
  if (!net_attached_) {
    no_net_ = std::make_unique<AbsentDevice>("no_net");
    decoder_.port("NET").bind(no_net_->socket);
  }
  if (!mon_attached_) {
    no_mon_ = std::make_unique<AbsentDevice>("no_monitor");
    decoder_.port("MON").bind(no_mon_->socket);
  }
}

void check_board_image(const ElfImage& image) {
  bool vectors = false, user_area = !image.segments.empty();
  for (auto& s : image.segments) {
    if (s.paddr <= 4 && s.paddr + s.memsz >= 8) vectors = true;  // the reset SSP and PC
    if (s.paddr < TOS_USER_BASE || s.paddr + s.memsz > TOS_USER_IMAGE_TOP) user_area = false;
  }
  if (vectors || !user_area) return;
  char at[16];
  std::snprintf(at, sizeof at, "0x%06X", image.segments.front().paddr);
  throw ElfError(image.path + ": a TOS user program (linked at " + at +
                 " for a process's address space, no reset vectors at 0), not a board image: put it in a "
                 "filestore with tos-mkfs and boot TOS, e.g. build/bin/tos-mkfs -o my.fs build/firmware/sh.elf " +
                 image.path + " rc=my.rc, then --set board.filestore=my.fs (README: \"A session on the Testbed\")");
}

void Board::load_image(const ElfImage& image) {
  check_image_fits(image, {{TB_RAM_BASE, config_.ram_bytes, "RAM"}, {TB_BOOT_BASE, TB_BOOT_SIZE, "BOOT"}});
  for (auto& s : image.segments) {
    bool rom = s.paddr >= TB_BOOT_BASE;
    uint8_t* dst = (rom ? boot_.data() : ram_.data()) + (s.paddr - (rom ? TB_BOOT_BASE : TB_RAM_BASE));
    std::memcpy(dst, s.data.data(), s.data.size());
    std::memset(dst + s.data.size(), 0, s.memsz - s.data.size());
  }
}

}  // namespace testbed
