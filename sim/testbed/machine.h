// The whole Testbed: boards, Centrenet, the monitor, consoles and the LAN link, built from a
// MachineSpec. Owns everything; run() simulates until every board has finished or the time
// limit, and results() says how each board ended.
#pragma once
#include <systemc>

#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <vector>

#include "board.h"
#include "bus_vcd.h"
#include "centrenet_network.h"
#include "console_endpoints.h"
#include "file_service.h"
#include "machine_spec.h"
#include "monitor.h"
#include "monitor_latency.h"
#include "monitor_probe.h"

namespace tbrtl {
class MonitorPins;
}

namespace testbed {

// A board's console: every character goes to the board's log file, and to the terminal
// while this board is the one shown. The master's console is the operator's terminal of the
// Testbed (TOS switches it in software among the six shells): what the operator types enters
// there, from a script file (run.input) or, interactive, from this terminal in raw mode, with
// the simulation held to real time so that typing is not outrun (Ctrl-] ends the run).
class BoardConsole : public SerialEndpoint {
 public:
  BoardConsole(const std::string& log_path, std::FILE* terminal);
  ~BoardConsole() override;
  void transmit(uint8_t byte, const sc_core::sc_time& t) override;
  bool receive(uint8_t& byte) override;
  bool has_input() const override { return !input_.empty() || interactive_ || tcp_; }
  void select(bool on) { selected_ = on; }
  void type(const std::string& text) { input_.insert(input_.end(), text.begin(), text.end()); }
  // Typed lines wait for one of the `prompts` ('|'-separated, e.g. a shell's "$ " and TOS's
  // "[console: master]\r\n" when the console comes back) to appear on the console before each one is typed,
  // as a person waits for the shell, so that nothing is typed ahead of a command that
  // switches the console or takes a while. "" types everything at once.
  void set_prompt(const std::string& prompts);
  void set_interactive();  // stdin in raw mode until the console is destroyed
  // The operator's console also on 127.0.0.1:port (telnet/nc; attach at any time: output
  // before a client comes is kept), typed input from it, the simulation held to real time.
  void set_tcp(int port);
  uint64_t bytes() const { return bytes_; }
  const std::string& first_line() const { return first_line_; }  // e.g. the OS's boot line

 private:
  std::FILE* log_;
  std::string first_line_;
  bool first_line_done_ = false;
  std::FILE* terminal_;
  bool selected_ = false;
  uint64_t bytes_ = 0;
  std::deque<uint8_t> input_;
  std::vector<std::string> prompts_;
  std::string recent_;
  bool prompt_seen_ = true;
  bool interactive_ = false;
  bool raw_ = false;
  std::unique_ptr<TcpEndpoint> tcp_;
  bool real_time_ = false;
  double wall_start_ = 0;
};

// Forwards a level interrupt signal (the NI's irq) to a board's interrupt controller.
class IrqForwarder : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(IrqForwarder);
  IrqForwarder(sc_core::sc_module_name n, sc_core::sc_signal<bool>& line, Board& board, IrqSource src);

 private:
  void forward() { board_.set_irq(src_, line_.read()); }
  sc_core::sc_signal<bool>& line_;
  Board& board_;
  IrqSource src_;
};

class Machine : public sc_core::sc_module {
 public:
  Machine(sc_core::sc_module_name name, const MachineSpec& spec);
  ~Machine() override;

  void run();                      // sc_start until all boards finish or spec.stop_time
  bool all_finished() const { return finished_ == boards_.size(); }
  const MachineSpec& spec() const { return spec_; }
  Board& board(size_t i) { return *boards_[i]; }
  size_t board_count() const { return boards_.size(); }
  monitor::Monitor* tlm_monitor() { return monitor_.get(); }  // null when the RTL stands in
  centrenet::CentrenetNetwork& network() { return *net_; }
  const monitor::RecordingProbe* probe() const { return probe_.get(); }
  const MonitorLatency* latency() const { return latency_.get(); }
  uint64_t console_bytes(size_t i) const { return consoles_[i]->bytes(); }
  const std::string& console_first_line(size_t i) const { return consoles_[i]->first_line(); }

 private:
  MachineSpec spec_;
  std::unique_ptr<monitor::Monitor> monitor_;
  std::unique_ptr<tbrtl::MonitorPins> rtl_monitor_;
  std::unique_ptr<centrenet::CentrenetNetwork> net_;
  std::vector<std::unique_ptr<Board>> boards_;
  std::vector<std::unique_ptr<IrqForwarder>> irqs_;
  std::vector<std::unique_ptr<BoardConsole>> consoles_;
  std::vector<std::unique_ptr<BusVcd>> vcds_;
  std::unique_ptr<FileService> link_;
  std::unique_ptr<monitor::RecordingProbe> probe_;
  std::unique_ptr<MonitorLatency> latency_;
  size_t finished_ = 0;
};

}  // namespace testbed
