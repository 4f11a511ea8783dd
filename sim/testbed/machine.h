// The whole Testbed: boards, Centrenet, the monitor, consoles and the LAN link, built from a
// MachineSpec. Owns everything; run() simulates until every board has finished or the time
// limit, and results() says how each board ended.
#pragma once
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <vector>

#include "board.h"
#include "bus_vcd.h"
#include "centrenet_network.h"
#include "console_endpoints.h"
#include "cycle_profile.h"
#include "file_service.h"
#include "machine_spec.h"
#include "monitor.h"
#include "monitor_latency.h"
#include "monitor_probe.h"
#include "operator_console.h"

namespace tbrtl {
class MonitorPins;
}

namespace testbed {

class Machine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Machine);
  Machine(sc_core::sc_module_name name, const MachineSpec& spec);
  ~Machine() override;

  // sc_start until all boards finish or spec.stop_time; `on_pause` when a process paused the
  // kernel before then (gdb's `monitor snapshot`), after which the run goes on.
  void run(const std::function<void()>& on_pause = {});
  // trace.cycle_profile: each named board's cycles by pc into out_dir/NAME.cycles, one line each
  // to `os`; throws naming the file when one cannot be written.
  void write_cycle_profiles(std::ostream& os) const;
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

  // No-progress detection (spec.no_progress): the run was stopped because for that long no
  // board ran user code, wrote to its console, used Centrenet or the LAN link, or finished.
  // A person or a debugger may unblock the machine at any time: then it is never applied.
  void disable_progress_watch() { watch_ = false; }
  bool stalled() const { return stalled_; }
  // The session script (run.input) was typed to its end and then nothing progressed for
  // spec.script_idle: the run was ended as the operator's session is over.
  bool script_ended() const { return script_ended_; }
  // A line of the session script waited spec.script_wait for its prompt: the run was stopped;
  // which line, for what (empty when not).
  const std::string& script_stuck() const { return script_stuck_; }
  // How far the session script has got, for a snapshot's message (OperatorConsole).
  std::string script_progress() const { return operator_ ? operator_->script_progress() : "no session script"; }
  bool script_begun() const { return operator_ && operator_->script_begun(); }
  void pause_at_first_prompt() {
    if (operator_) operator_->pause_at_first_prompt();
  }
  // What TOS processes are still alive on board i (read from the kernel's process table when
  // its image is a TOS kernel): "sh (foreground), logger (background)"; "" when none or not TOS.
  std::string tos_processes(size_t i);
  sc_core::sc_time last_progress() const { return last_progress_; }
  // Why a board that has not finished is not moving, for the report: "in STOP, interrupt mask
  // 2, nothing pending" or "executing at pc ... (supervisor)".
  std::string board_state(size_t i);
  // A file name in the run's folder the host writes as one of its results (a guest may not).
  bool host_result(const std::string& name) const;
  // Whether the guest sent `name` over the LAN link during this run.
  bool received(const std::string& name) const { return link_ && link_->received(name); }

  // Snapshots (README "Snapshots"): every model of the machine in a fixed order, and the host's
  // side of its lines (consoles, the LAN link). at_rest(): every process waits where it can be
  // resumed (the machine then can be saved). Refuses, naming it, what cannot be saved yet: the
  // RTL monitor, bus VCDs, cycle profiles, an interactive or TCP console.
  void state(StateArchive& a);
  bool at_rest() const;
  // What of this machine a snapshot cannot hold yet, or "" (asked before the run: a refusal after
  // it has started would be an exception thrown across SystemC's coroutine stacks).
  static std::string cannot_save(const MachineSpec& spec);

 private:
  MachineSpec spec_;
  std::unique_ptr<monitor::Monitor> monitor_;
  std::unique_ptr<tbrtl::MonitorPins> rtl_monitor_;
  std::unique_ptr<centrenet::CentrenetNetwork> net_;
  std::vector<std::unique_ptr<Board>> boards_;
  std::vector<std::unique_ptr<Device>> devices_;  // user devices (their plugins stay loaded)
  std::vector<std::unique_ptr<ConsoleSink>> consoles_;
  std::vector<std::unique_ptr<BusVcd>> vcds_;
  std::vector<std::pair<std::string, std::unique_ptr<CycleProfile>>> profiles_;  // trace.cycle_profile
  std::unique_ptr<FileService> link_;
  std::unique_ptr<monitor::RecordingProbe> probe_;
  std::unique_ptr<MonitorLatency> latency_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Machine>>> idle_smi_;  // SMIs without a slave
  size_t finished_ = 0;

  // The constructor's steps for each board, in this order.
  void add_devices(const BoardSpec& bs, const BoardConfig& c, Board& b);
  unsigned attach_network_and_monitor(const BoardSpec& bs, Board& b);
  void attach_console_and_link(const BoardSpec& bs, Board& b);
  void attach_observers(const BoardSpec& bs, Board& b);
  void load_board(const BoardSpec& bs, Board& b);
  uint64_t progress();  // a count that any progress increases
  void watch_progress();
  bool watch_ = true, stalled_ = false, script_ended_ = false;
  // The watch's sample and when it wakes next (a restored watch waits out the rest of its step).
  uint64_t watch_last_ = 0;
  sc_core::sc_time watch_step_, watch_wake_;
  bool watch_restored_ = false;
  sc_core::sc_time restored_at_;
  bool watch_sample();  // one sample; false when the watch ends
  std::string script_stuck_, script_noted_;
  OperatorConsole* operator_ = nullptr;
  struct TosTables { uint32_t info = 0, procs = 0; };  // symbols of a TOS kernel image, per board
  std::vector<TosTables> tos_;
  sc_core::sc_time last_progress_;
};

}  // namespace testbed
