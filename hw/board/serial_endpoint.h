// What a serial port's line is connected to: the host side of an RS-232 link. A port can be
// re-connected at any time (the console switch), or left unconnected (characters are dropped).
#pragma once
#include "state_archive.h"  // hw/bus

#include <systemc>

#include <cstdint>
#include <string>

namespace testbed {

class SerialEndpoint {
 public:
  virtual ~SerialEndpoint() = default;
  // A character the board transmitted, at simulated time `t`.
  virtual void transmit(uint8_t byte, const sc_core::sc_time& t) = 0;
  // The next character for the board, if the host side has one. Asked once per character time
  // while the port's receive register is empty (RTS/CTS flow control: nothing is lost).
  virtual bool receive(uint8_t& byte) { (void)byte; return false; }
  // False when this endpoint never sends (the port then does not poll it).
  virtual bool has_input() const { return false; }
  // Its state in a snapshot (StateArchive). An endpoint whose state lives outside the process
  // (a TCP connection) cannot be saved: the default refuses, naming `what`.
  virtual void state(StateArchive& a) {
    (void)a;
    throw StateError("snapshot: " + what() + " cannot be saved in a snapshot");
  }
  virtual std::string what() const { return "this serial line's host side"; }
};

}  // namespace testbed
