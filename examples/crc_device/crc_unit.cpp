// CrcUnit: the example user device, a CRC-32 unit on the DEV region of a board, loaded by the
// simulator from this plugin (machine file [[boards.devices]] library = "libcrc_unit.so").
// Exact-mode rules it follows: register handlers act at the access's time t; the end of each
// word's work is a kernel event at its own time, which sets DONE and drives the interrupt line
// (set_irq, into the board's controller), so the CPU sees it at the same instruction whatever
// the quantum.
#include <testbed/device.h>

#include "crc_registers.h"  // generated from crc.toml (testbed_device_registers)

namespace {

using namespace testbed;
namespace crc = regs::crc;

class CrcUnit : public Device {
 public:
  SC_HAS_PROCESS(CrcUnit);
  explicit CrcUnit(const DeviceArgs& a)
      : Device(a), cycles_per_word_(unsigned(a.params.get_int("cycles_per_word", 32, 1, 1000000))) {
    add_registers(tables::kCrcRegisters);
    on_read<crc::CTRL>([this](const Time&) { return ctrl_; });
    on_write<crc::CTRL>([this](uint32_t v, const Time&) {
      ctrl_ = v & crc::CTRL::IRQ::mask;
      update_irq();
    });
    on_read<crc::STATUS>([this](const Time& t) { return status_ | (t < ready_ ? crc::STATUS::BUSY::mask : 0u); });
    on_write<crc::STATUS>([this](uint32_t v, const Time&) {
      if (v & crc::STATUS::DONE::mask) status_ &= ~crc::STATUS::DONE::mask;
      update_irq();
    });
    on_read<crc::LEN>([this](const Time&) { return len_; });
    on_write<crc::LEN>([this](uint32_t v, const Time& t) {
      len_ = v;
      words_ = 0;
      crc_ = 0xFFFFFFFFu;
      status_ &= ~crc::STATUS::DONE::mask;
      ready_ = t;
      done_.cancel();
      update_irq();
    });
    on_read<crc::WORDS>([this](const Time&) { return words_; });
    on_write<crc::DATA>([this](uint32_t v, const Time& t) { fold(v, t); });
    on_read<crc::RESULT>([this](const Time&) { return crc_ ^ 0xFFFFFFFFu; });
    SC_METHOD(done_method);
    sensitive << done_;
    dont_initialize();
  }

  void reset() override {
    ctrl_ = status_ = len_ = words_ = 0;
    crc_ = 0xFFFFFFFFu;
    done_.cancel();
    update_irq();
  }

 private:
  // A word is taken at its access time t, or when the previous one is done; the last word of
  // the message ends at a known time: DONE then, by a kernel event.
  void fold(uint32_t v, const Time& t) {
    if (words_ >= len_) return;  // past LEN: ignored (the driver's mistake), counted in WORDS no more
    for (int i = 3; i >= 0; --i) {
      crc_ ^= (v >> (8 * i)) & 0xFFu;
      for (int k = 0; k < 8; ++k) crc_ = (crc_ >> 1) ^ (0xEDB88320u & (0u - (crc_ & 1u)));
    }
    ++words_;
    ready_ = std::max(ready_, t) + clock_period() * double(cycles_per_word_);
    if (words_ == len_) done_.notify(ready_ - sc_core::sc_time_stamp());
  }
  void done_method() {
    status_ |= crc::STATUS::DONE::mask;
    update_irq();
  }
  void update_irq() { set_irq((ctrl_ & crc::CTRL::IRQ::mask) && (status_ & crc::STATUS::DONE::mask)); }

  unsigned cycles_per_word_;
  uint32_t ctrl_ = 0, status_ = 0, len_ = 0, words_ = 0, crc_ = 0xFFFFFFFFu;
  sc_core::sc_time ready_;
  sc_core::sc_event done_;
};

}  // namespace

TESTBED_DEVICE_MODEL(CrcUnit, "crc", testbed::regs::crc::kSize)
