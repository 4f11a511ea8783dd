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
// SERIAL1 has the same layout as SERIAL0.
static_assert(TB_SERIAL1_DATA_OFF == TB_SERIAL0_DATA_OFF && TB_SERIAL1_STATUS_OFF == TB_SERIAL0_STATUS_OFF &&
              TB_SERIAL1_CTRL_OFF == TB_SERIAL0_CTRL_OFF && TB_SERIAL1_BAUD_OFF == TB_SERIAL0_BAUD_OFF);
}  // namespace

SerialPort::SerialPort(sc_core::sc_module_name name, uint32_t baud, sc_time latency)
    : RegisterTarget(name, latency), baud_(baud) {
  if (baud < 50 || baud > 10000000)
    throw std::invalid_argument(std::string(this->name()) + ": baud rate " + std::to_string(baud) +
                                " is outside 50 .. 10000000");
  char_time_ = sc_time(10.0 / baud, sc_core::SC_SEC);
  static_assert(same_layout(tables::kSerial0Registers, tables::kSerial1Registers),
                "one model decodes both serial ports");
  add_registers(tables::kSerial0Registers);
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
  for (;;) {
    if (!endpoint_ || !endpoint_->has_input()) {
      wait(connected_);
      continue;
    }
    wait(char_time_);  // a character's worth of line time
    if (rx_ready_) {
      wait(rx_taken_ | connected_);
      continue;
    }
    uint8_t b;
    if (endpoint_ && endpoint_->receive(b)) {
      rx_data_ = b;
      rx_ready_ = true;
      ++rx_count_;
      update_irq(sc_core::sc_time_stamp());
    }
  }
}

void SerialPort::tx_ready_method() { update_irq(sc_core::sc_time_stamp()); }

void SerialPort::update_irq(const sc_time& t) {
  bool l = ((ctrl_ & kRxIrq) && rx_ready_) || ((ctrl_ & kTxIrq) && tx_ready(t));
  if (l == irq_level_) return;
  irq_level_ = l;
  if (irq_) irq_(l);
}

uint32_t SerialPort::peek_register(uint32_t offset, const sc_time& t) {
  switch (offset) {
    case TB_SERIAL0_DATA_OFF: return rx_data_;
    case TB_SERIAL0_STATUS_OFF:
      return (rx_ready_ ? kRxReady : 0) | (tx_ready(t) ? kTxReady : 0) | (tx_lost_ ? kTxLost : 0);
    case TB_SERIAL0_CTRL_OFF: return ctrl_;
    case TB_SERIAL0_BAUD_OFF: return baud_;
  }
  return 0;
}

uint32_t SerialPort::read_register(uint32_t offset, const sc_time& t) {
  uint32_t v = peek_register(offset, t);
  if (offset == TB_SERIAL0_DATA_OFF) {
    if (rx_ready_) rx_taken_.notify(sc_core::SC_ZERO_TIME);
    rx_ready_ = false;
    update_irq(t);
  } else if (offset == TB_SERIAL0_STATUS_OFF) {
    tx_lost_ = false;
  }
  return v;
}

void SerialPort::write_register(uint32_t offset, uint32_t value, const sc_time& t) {
  if (offset == TB_SERIAL0_DATA_OFF) {
    if (!tx_ready(t)) {
      tx_lost_ = true;
      return;
    }
    ++tx_count_;
    if (endpoint_) endpoint_->transmit(uint8_t(value), t);
    tx_busy_until_ = t + char_time_;
    sc_time now = sc_core::sc_time_stamp();
    tx_done_.notify(tx_busy_until_ > now ? tx_busy_until_ - now : sc_core::SC_ZERO_TIME);
    update_irq(t);
  } else if (offset == TB_SERIAL0_CTRL_OFF) {
    ctrl_ = uint16_t(value & (kRxIrq | kTxIrq));
    update_irq(t);
  }
}

}  // namespace testbed
