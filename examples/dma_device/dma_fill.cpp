// DmaFill: the example DMA device, a fill engine on the DEV region of a board, loaded by the
// simulator from this plugin (machine file [[boards.devices]] library = "libdma_fill.so"). The
// driver gives it a bus address and a length (a TOS program gets both from the kernel: dev
// DMA_ALLOC) and GO; it writes the pattern of SEED there through the board's DMA port
// (Device::dma_write, the board's one DMA path), a burst at a time, then sets DONE and raises
// its interrupt. Exact-mode rules it follows: a register handler acts at the access's time t; the
// transfer is a SystemC thread started by a kernel event at t, writing RAM only through
// dma_write (which rolls the CPU back when it has run past the access), and the interrupt only
// through set_irq.
#include <testbed/device.h>

#include <vector>

#include "dmafill_registers.h"  // generated from dmafill.toml (testbed_device_registers)

namespace {

using namespace testbed;
namespace dmafill = regs::dmafill;

class DmaFill : public Device {
 public:
  SC_HAS_PROCESS(DmaFill);
  explicit DmaFill(const DeviceArgs& a)
      : Device(a),
        burst_bytes_(unsigned(a.params.get_int("burst_bytes", 64, 1, 4096))),
        cycles_per_burst_(unsigned(a.params.get_int("cycles_per_burst", 16, 1, 1000000))) {
    add_registers(tables::kDmafillRegisters);
    on_read<dmafill::CTRL>([this](const Time&) { return ctrl_; });
    on_write<dmafill::CTRL>([this](uint32_t v, const Time&) {
      ctrl_ = v & dmafill::CTRL::IRQ::mask;
      update_irq();
    });
    on_read<dmafill::STATUS>([this](const Time&) { return status_ | (busy_ ? dmafill::STATUS::BUSY::mask : 0u); });
    on_write<dmafill::STATUS>([this](uint32_t v, const Time&) {
      status_ &= ~(v & (dmafill::STATUS::DONE::mask | dmafill::STATUS::ERROR::mask));
      update_irq();
    });
    on_read<dmafill::ADDR>([this](const Time&) { return addr_; });
    on_write<dmafill::ADDR>([this](uint32_t v, const Time&) { addr_ = v; });
    on_read<dmafill::LEN>([this](const Time&) { return len_; });
    on_write<dmafill::LEN>([this](uint32_t v, const Time&) { len_ = v; });
    on_read<dmafill::SEED>([this](const Time&) { return seed_; });
    on_write<dmafill::SEED>([this](uint32_t v, const Time&) { seed_ = v; });
    on_read<dmafill::DONE_BYTES>([this](const Time&) { return done_bytes_; });
    on_write<dmafill::GO>([this](uint32_t v, const Time& t) {
      if (!(v & 1) || busy_) return;
      busy_ = true;
      status_ &= ~(dmafill::STATUS::DONE::mask | dmafill::STATUS::ERROR::mask);
      done_bytes_ = 0;
      update_irq();
      start_.notify(t - sc_core::sc_time_stamp());  // the transfer starts at the access's own time
    });
    SC_THREAD(transfer);
  }

  void reset() override {
    ctrl_ = status_ = addr_ = len_ = seed_ = done_bytes_ = 0;
    update_irq();
  }

 private:
  // The transfer: a burst of the pattern every cycles_per_burst clocks, each written to RAM by
  // DMA; an address the port refuses ends it with ERROR.
  // (The burst buffer is a member: a thread still waiting when the simulation ends is never
  // unwound, and a buffer on its stack would be reported as a leak.)
  void transfer() {
    std::vector<uint8_t>& burst = burst_;
    burst.assign(burst_bytes_, 0);
    for (;;) {
      wait(start_);
      uint32_t addr = addr_, len = len_, seed = seed_;
      bool ok = true;
      for (uint32_t off = 0; off < len && ok;) {
        unsigned n = unsigned(std::min<uint32_t>(burst_bytes_, len - off));
        for (unsigned k = 0; k < n; ++k) {
          uint32_t i = off + k;
          burst[k] = uint8_t((seed + i) ^ (i >> 8));
        }
        wait(clock_period() * double(cycles_per_burst_));
        ok = dma_write(addr + off, burst.data(), n);
        if (ok) off += n;
        done_bytes_ = off;
      }
      busy_ = false;
      status_ |= dmafill::STATUS::DONE::mask | (ok ? 0u : dmafill::STATUS::ERROR::mask);
      update_irq();
    }
  }
  void update_irq() { set_irq((ctrl_ & dmafill::CTRL::IRQ::mask) && (status_ & dmafill::STATUS::DONE::mask)); }

  unsigned burst_bytes_, cycles_per_burst_;
  std::vector<uint8_t> burst_;
  uint32_t ctrl_ = 0, status_ = 0, addr_ = 0, len_ = 0, seed_ = 0, done_bytes_ = 0;
  bool busy_ = false;
  sc_core::sc_event start_;
};

}  // namespace

TESTBED_DEVICE_MODEL(DmaFill, "dmafill", testbed::regs::dmafill::kSize)
