// A serial port (UART): one transmit and one receive holding register, 10 bit times per
// character at `baud`, RTS/CTS flow control towards the host side, and an interrupt line
// (RX_IRQ while a character waits, TX_IRQ while the transmitter is free).
#pragma once
#include "irq_line.h"
#include "register_target.h"
#include "serial_endpoint.h"

namespace testbed {

class SerialPort : public RegisterTarget {
 public:
  SC_HAS_PROCESS(SerialPort);
  // One model for SERIAL0 and SERIAL1 (the tables give them one register file).
  SerialPort(sc_core::sc_module_name name, uint32_t baud = 9600,
             sc_core::sc_time latency = sc_core::SC_ZERO_TIME);

  // Routes the line to `e` (nullptr: unconnected). The console switch calls this at run time.
  void connect(SerialEndpoint* e);
  SerialEndpoint* endpoint() const { return endpoint_; }

  IrqLine& irq_line() { return irq_; }  // the board connects it to its interrupt controller
  bool irq() const { return irq_.level(); }
  uint32_t baud() const { return baud_; }
  sc_core::sc_time char_time() const { return char_time_; }
  uint64_t transmitted() const { return tx_count_; }
  uint64_t received() const { return rx_count_; }
  void reset();
  // The port's state in a snapshot (its endpoint's is the endpoint's), and whether its receiver
  // is at a point a restored port resumes from (it always is, between kernel steps).
  void state(StateArchive& a);
  bool at_rest() const { return rx_site_ != RxSite::Running; }

 private:
  void end_of_elaboration() override;
  void declare_registers();
  void rx_thread();
  void rx_line_done();
  // Where the receiver waits: for a line that has input, for a character's line time (until
  // rx_wake_), for the board to take the character it holds; Running between them.
  enum class RxSite : uint8_t { Running, Connect, LineTime, Held };
  RxSite rx_site_ = RxSite::Running;
  sc_core::sc_time rx_wake_;
  bool restored_ = false;
  sc_core::sc_time restored_at_;
  void tx_ready_method();
  void update_irq(const sc_core::sc_time& t);
  bool tx_ready(const sc_core::sc_time& t) const { return t >= tx_busy_until_; }

  uint32_t baud_;
  sc_core::sc_time char_time_;
  SerialEndpoint* endpoint_ = nullptr;
  uint16_t ctrl_ = 0;
  uint8_t rx_data_ = 0;
  bool rx_ready_ = false, tx_lost_ = false;
  sc_core::sc_time tx_busy_until_;
  uint64_t tx_count_ = 0, rx_count_ = 0;
  IrqLine irq_{name()};
  sc_core::sc_event connected_, tx_done_, rx_taken_;
};

}  // namespace testbed
