#include "serial_port.h"

#include <testbed/memory_map.h>

#include <stdexcept>

namespace testbed {

using sc_core::sc_time;

namespace {
using Status = regs::serial0::STATUS;
using Ctrl = regs::serial0::CTRL;
constexpr uint16_t kRxReady = Status::RX_READY::mask, kTxReady = Status::TX_READY::mask, kTxLost = Status::TX_LOST::mask;
constexpr uint16_t kRxIrq = Ctrl::RX_IRQ::mask, kTxIrq = Ctrl::TX_IRQ::mask;
}  // namespace

SerialPort::SerialPort(sc_core::sc_module_name name, uint32_t baud, sc_time latency)
    : RegisterTarget(name, latency), baud_(baud) {
  if (baud < 50 || baud > 10000000)
    throw std::invalid_argument(std::string(this->name()) + ": baud rate " + std::to_string(baud) +
                                " is outside 50 .. 10000000");
  char_time_ = sc_time(10.0 / baud, sc_core::SC_SEC);
  declare_registers();
  SC_THREAD(rx_thread);
  SC_METHOD(tx_ready_method);
  sensitive << tx_done_;
  dont_initialize();
}

void SerialPort::connect(SerialEndpoint* e) {
  endpoint_ = e;
  connected_.notify(sc_core::SC_ZERO_TIME);
}

void SerialPort::reset() {
  ctrl_ = 0;
  rx_ready_ = tx_lost_ = false;
  update_irq(sc_core::sc_time_stamp());
}

void SerialPort::rx_thread() {
  if (restored_) {  // back to the wait the snapshot found the receiver in
    wait(restored_at_);
    RxSite site = rx_site_;
    if (site == RxSite::Connect) wait(connected_);
    if (site == RxSite::Held) wait(rx_taken_ | connected_);
    if (site == RxSite::LineTime) wait(rx_wake_ - sc_core::sc_time_stamp());
    rx_site_ = RxSite::Running;
    if (site == RxSite::LineTime) rx_line_done();
  }
  for (;;) {
    if (!endpoint_ || !endpoint_->has_input()) {
      rx_site_ = RxSite::Connect;
      wait(connected_);
      rx_site_ = RxSite::Running;
      continue;
    }
    rx_site_ = RxSite::LineTime;
    rx_wake_ = sc_core::sc_time_stamp() + char_time_;
    wait(char_time_);  // a character's worth of line time
    rx_site_ = RxSite::Running;
    rx_line_done();
  }
}

// A character's line time has passed: the next one, unless the last is still held.
void SerialPort::rx_line_done() {
  if (rx_ready_) {
    rx_site_ = RxSite::Held;
    wait(rx_taken_ | connected_);
    rx_site_ = RxSite::Running;
    return;
  }
  uint8_t b;
  if (endpoint_ && endpoint_->receive(b)) {
    rx_data_ = b;
    rx_ready_ = true;
    ++rx_count_;
    update_irq(sc_core::sc_time_stamp());
  }
}

void SerialPort::state(StateArchive& a) {
  a.section(name());
  register_state(a);
  a.io(ctrl_).io(rx_data_).io(rx_ready_).io(tx_lost_).io(tx_busy_until_).io(tx_count_).io(rx_count_);
  a.io(rx_site_).io(rx_wake_);
  bool irq = irq_.level();
  a.io(irq);
  if (!a.loading()) return;
  irq_.restore_level(irq);
  restored_ = true;
  restored_at_ = a.when();
  // TX_READY's interrupt when the transmitter frees, as write DATA scheduled it.
  if (tx_busy_until_ > a.when()) tx_done_.notify(tx_busy_until_);
}

void SerialPort::tx_ready_method() { update_irq(sc_core::sc_time_stamp()); }

void SerialPort::update_irq(const sc_time& t) {
  bool l = ((ctrl_ & kRxIrq) && rx_ready_) || ((ctrl_ & kTxIrq) && tx_ready(t));
  irq_.set(l);
}

void SerialPort::end_of_elaboration() {
  RegisterTarget::end_of_elaboration();
  irq_.check_connected();
}

void SerialPort::declare_registers() {
  static_assert(same_layout(tables::kSerial0Registers, tables::kSerial1Registers),
                "one model decodes both serial ports");
  using namespace regs::serial0;
  add_registers(tables::kSerial0Registers);
  // Reading DATA takes the character (clears RX_READY and lets the host side send the next).
  on_read<DATA>([this](const sc_time&) -> uint32_t { return rx_data_; },
                [this](const sc_time& t) -> uint32_t {
                  if (rx_ready_) rx_taken_.notify(sc_core::SC_ZERO_TIME);
                  rx_ready_ = false;
                  update_irq(t);
                  return rx_data_;
                });
  on_write<DATA>([this](uint32_t value, const sc_time& t) {
    if (!tx_ready(t)) {
      tx_lost_ = true;
      return;
    }
    ++tx_count_;
    if (endpoint_) endpoint_->transmit(uint8_t(DATA::CHAR::get(value)), t);
    tx_busy_until_ = t + char_time_;
    sc_time now = sc_core::sc_time_stamp();
    tx_done_.notify(tx_busy_until_ > now ? tx_busy_until_ - now : sc_core::SC_ZERO_TIME);
    update_irq(t);
  });
  // Reading STATUS clears TX_LOST.
  ReadFn status = [this](const sc_time& t) -> uint32_t {
    return (rx_ready_ ? kRxReady : 0) | (tx_ready(t) ? kTxReady : 0) | (tx_lost_ ? kTxLost : 0);
  };
  on_read<STATUS>(status, [this, status](const sc_time& t) {
    uint32_t v = status(t);
    tx_lost_ = false;
    return v;
  });
  on_read<CTRL>([this](const sc_time&) -> uint32_t { return ctrl_; });
  on_write<CTRL>([this](uint32_t value, const sc_time& t) {
    ctrl_ = uint16_t(value & (kRxIrq | kTxIrq));
    update_irq(t);
  });
  on_read<BAUD>([this](const sc_time&) { return baud_; });
}

}  // namespace testbed
