// Host sides of a serial line for the console: the console sink (a log file and/or a terminal),
// a TCP port on 127.0.0.1 (telnet/nc to it), a capture buffer (tests), and the console switch that
// routes one host side to any one of several boards' ports (TOS: "the console may be switched to
// any of the six shells").
#pragma once
#include "serial_endpoint.h"
#include "serial_port.h"

#include "replayed_output.h"

#include <cstdio>
#include <deque>
#include <string>
#include <vector>

namespace testbed {

// The one console sink: every character goes to a log file (if given: opened, truncated and
// owned) and, while selected, to a terminal stream (if given; flushed at each newline). The
// single-board simulator's console is a sink on stdout or on a file; the machine gives every
// board one with its own log and the terminal, selected for the board the operator chose.
class ConsoleSink : public SerialEndpoint {
 public:
  // Throws std::runtime_error naming the path when the log cannot be created.
  ConsoleSink(const std::string& log_path, std::FILE* terminal, bool selected = true);
  explicit ConsoleSink(std::FILE* terminal) : ConsoleSink("", terminal) {}
  ~ConsoleSink() override;
  void transmit(uint8_t byte, const sc_core::sc_time& t) override;
  void select(bool on) { selected_ = on; }
  uint64_t bytes() const { return bytes_; }
  const std::string& first_line() const { return first_line_; }  // e.g. an OS's boot line
  // What it has written is the host's: a restored run writes what comes after.
  void state(StateArchive& a) override {
    a.section("console sink").io(bytes_).io(first_line_).io(first_line_done_).io(selected_);
  }

 protected:
  std::FILE* terminal() const { return terminal_; }

 private:
  std::FILE* log_ = nullptr;
  std::string log_path_;
  std::FILE* terminal_;
  output::Replayed terminal_written_;  // time travel writes each byte once
  bool selected_;
  uint64_t bytes_ = 0;
  std::string first_line_;
  bool first_line_done_ = false;
};

// Collects output, and feeds queued input (tests, scripted sessions).
class CaptureEndpoint : public SerialEndpoint {
 public:
  void transmit(uint8_t byte, const sc_core::sc_time&) override { text_ += char(byte); }
  bool receive(uint8_t& byte) override;
  bool has_input() const override { return true; }
  void type(const std::string& s) { input_.insert(input_.end(), s.begin(), s.end()); }
  const std::string& text() const { return text_; }
  void state(StateArchive& a) override { a.section("capture").io(text_).io(input_); }

 private:
  std::string text_;
  std::deque<uint8_t> input_;
};

// Listens on 127.0.0.1:port (only loopback). One client at a time; output before a client
// connects is kept (up to 64 KB) and sent when it does. Never blocks the simulation.
class TcpEndpoint : public SerialEndpoint {
 public:
  // Throws std::runtime_error naming the port when it cannot listen (in use, bad number).
  explicit TcpEndpoint(int port);
  ~TcpEndpoint() override;
  void transmit(uint8_t byte, const sc_core::sc_time& t) override;
  bool receive(uint8_t& byte) override;
  bool has_input() const override { return true; }
  int port() const { return port_; }
  std::string what() const override { return "the TCP console on port " + std::to_string(port_); }
  // Blocks until a client connects (the simulation waits for its operator).
  void wait_for_client();

 private:
  void poll_accept();
  void flush();
  bool receive_live(uint8_t& byte);
  output::ReplayedInput input_;
  int listen_fd_ = -1, client_fd_ = -1, port_;
  std::string pending_;
  output::Replayed written_;
};

// Routes one host side to one of several serial ports. Ports not selected are connected to a
// sink that drops their output (their shells keep running).
class ConsoleSwitch {
 public:
  explicit ConsoleSwitch(SerialEndpoint& host) : host_(host) {}
  void add(SerialPort& port);  // index = order of adding
  void select(size_t index);   // throws std::out_of_range for an unknown index
  size_t selected() const { return selected_; }
  size_t size() const { return ports_.size(); }

 private:
  struct Sink : SerialEndpoint {
    void transmit(uint8_t, const sc_core::sc_time&) override {}
  } sink_;
  SerialEndpoint& host_;
  std::vector<SerialPort*> ports_;
  size_t selected_ = 0;
};

}  // namespace testbed
