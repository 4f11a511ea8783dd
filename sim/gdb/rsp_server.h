// A GDB Remote Serial Protocol server for the simulated machine: one TCP port per board on
// 127.0.0.1 (base port + board index), all-stop across the machine.
//
// The server runs inside the simulation. While the machine runs, the sockets are polled without
// blocking (at most every few milliseconds of host time) at each CPU's instruction boundary
// between chunks and from a small process of its own. When a board stops (breakpoint,
// watchpoint, end of a step, Ctrl-C, a gdb attaching), every board is brought to an instruction
// boundary and the server then blocks inside the SystemC process that found the stop: no
// process runs and simulated time does not advance, however long gdb looks. The machine runs
// again when every attached gdb has resumed its board (continue or step). Holding it changes
// nothing the machine does: no simulated time passes, a board inside a bus cycle a device holds
// stays there (its registers are those of its last run's start until it completes).
//
// Reverse execution (gdb's reverse-stepi, reverse-continue and what gdb builds on them:
// reverse-step, reverse-next, reverse-finish) comes from the machine's past kept as forked
// checkpoints (history.h): `bs` and `bc` run a stretch of the past again, all-stop, to the
// instant asked for -- the whole machine goes back with the board.
#pragma once
#include "gdb_target.h"
#include "history.h"

#include <systemc>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace testbed::gdb {

// --gdb PORT[,nowait][,noreverse] (testbed, testbed-board): ports PORT .. PORT+boards-1; the run
// waits for a gdb unless nowait; reverse execution unless noreverse. Throws
// std::invalid_argument naming the spec when it is not one.
struct GdbOptions {
  int port = 0;
  bool wait = true, reverse = true;
};
GdbOptions parse_gdb_options(const std::string& spec, size_t boards);

class GdbServer : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(GdbServer);
  // Listens on 127.0.0.1:base_port+i for boards[i]. `wait_for_client`: the machine does not
  // start until a gdb has attached to one of them. Throws std::runtime_error if a port is taken.
  // `images[i]`: the ELF boards[i] boots (its symbols make TOS threads visible), or "".
  // `reverse`: keep the machine's past for reverse execution (the process the user started then
  // stays in front while forked copies of it run; history.h).
  GdbServer(sc_core::sc_module_name name, const std::vector<Board*>& boards, int base_port,
            bool wait_for_client, const std::vector<std::string>& images = {}, bool reverse = true);
  ~GdbServer() override;

  int port(size_t i) const { return base_port_ + int(i); }
  // Called by a target at its CPU's instruction boundary (in that CPU's thread).
  void boundary(GdbTarget* t);
  bool killed() const { return killed_; }

  // Snapshots (README "Snapshots"). `monitor snapshot FILE` asks for one; when the machine runs
  // again, the server pauses the kernel (sc_pause) and the tool takes it at the first instant the
  // machine can be saved (sim/snapshot/snapshot_point.h). `why_not`: the machine's reason it
  // cannot be saved ("" when it can), said to a gdb that asks.
  void allow_snapshots(const std::string& why_not) {
    snapshots_ = true;
    snapshot_refusal_ = why_not;
  }
  // The file asked for since the last call ("" if none); the request is taken.
  std::string take_snapshot_request() { return std::move(snapshot_request_); }
  // The machine was restored from a snapshot taken at `t`: the boards are past their first
  // instruction, and the server first looks at the sockets then.
  void restored_at(sc_core::sc_time t);

  // Time travel, asked by the targets: while the machine runs its past again (`bs`, `bc`), the
  // check before each instruction and the watched accesses of the boards it concerns come here.
  bool traveling() const { return travel_.kind != Travel::None; }
  bool travel_checks(int board) const;
  bool travel_check(GdbTarget& t, uint32_t pc, bool supervisor);
  void travel_access(GdbTarget& t, const m68k::BusAccess& a, unsigned len);
  static constexpr unsigned kMaxPacket = 16384;  // announced PacketSize; longer ones are refused

 private:
  struct Client;
  // A packet as its handler sees it; handle_packet's table of handlers (rsp_server.cpp) is keyed
  // by the packet's prefix.
  struct Packet {
    size_t i;              // the board, and its client
    const std::string& p;  // the packet, unescaped
    GdbTarget& t;
    Client& c;
    uint32_t th;  // the thread g, G, p, P, m, M and X act on (Hg)
    GdbTarget& tt;  // the board th is on (a thread this gdb followed away is on another)
    bool user;    // memory accesses in the user space (`monitor space user`)
  };
  struct PacketHandler;
  struct Client {
    int listen_fd = -1, fd = -1;
    std::string in;          // bytes received, not yet a whole packet
    bool halted = false;     // this gdb has its board stopped (it has seen a stop reply)
    bool want_stop_reply = false;  // it resumed the board and waits for a stop reply
    bool interrupt = false;  // Ctrl-C received
    bool attached_stop = false;  // stopped by attaching: '?' answers SIGTRAP
    int signal = 5;
    std::string last_stop = "T05thread:1;";
    uint32_t gen_thread = 0;  // Hg: 0 = whichever runs
    bool told_read = false, told_write = false;  // explain_unmapped has said its piece to this gdb
    uint32_t follow = 0;  // the TOS thread it last resumed: listed while it is on another board
    uint32_t stop_thread = 0;  // the thread of the last stop reply (0: whichever runs)
    uint32_t cont_thread = 0;  // Hc: the thread a step is for (0 = whichever runs)
  };

  void poll_process();
  void poll_sockets(int timeout_ms);
  void accept_client(size_t i);
  void read_client(size_t i);
  void drop_client(size_t i);
  void process_input(size_t i, bool packets);
  void handle_packet(size_t i, const std::string& p);
  void reply(const Packet& k, const std::string& body) { send_packet(k.i, body); }
  void on_stop_reason(const Packet& k);
  void explain_unmapped(const Packet& k, uint32_t addr, bool in_thread, bool write);
  void on_read_registers(const Packet& k);
  void on_write_registers(const Packet& k);
  void on_read_register(const Packet& k);
  void on_write_register(const Packet& k);
  void on_read_memory(const Packet& k);
  void on_write_memory(const Packet& k);
  void on_resume(const Packet& k);
  void on_vcont(const Packet& k);
  void resume(const Packet& k, bool step, uint32_t th);
  void on_detach(const Packet& k);
  void on_kill(const Packet& k);
  void on_set_thread(const Packet& k);
  void on_thread_alive(const Packet& k);
  void on_breakpoint(const Packet& k);
  void on_supported(const Packet& k);
  void on_target_xml(const Packet& k);
  void on_current_thread(const Packet& k);
  void on_thread_list(const Packet& k);
  void on_thread_extra_info(const Packet& k);
  void on_monitor_command(const Packet& k);
  GdbTarget& board_of(size_t i, uint32_t thread);
  void unfollow_all(size_t i);
  void send_packet(size_t i, const std::string& body);
  void send_raw(size_t i, const std::string& bytes);
  void report_stop(size_t i);
  std::string stop_reply(size_t i);
  std::string monitor_command(size_t i, const std::string& cmd);
  std::string monitor_snapshot(std::string file);
  bool machine_should_stop() const;
  bool all_started() const;
  void hold(size_t board = History::kNoBoard);
  void note_stops();

  // Time travel. A run to an instant (RunTo: board `board` at its `count`th instruction, then
  // the stop `stop` is reported to gdb `who`), or a pass over a stretch of the past (Record:
  // from checkpoint `from` to board `board` at `count`) that looks for the last instant gdb
  // `who`'s reverse command stops at: a breakpoint or watchpoint (bc), or an instruction of
  // its board, of TOS thread `thread` when not 0 (bs).
  struct Travel {
    enum Kind : uint8_t { None, RunTo, Record } kind = None;
    enum Stop : uint8_t { Step, Breakpoint, Watchpoint, Begin };
    uint32_t who = 0;
    uint64_t board = 0, count = 0, from = 0;
    bool step = false;
    uint32_t thread = 0;
    uint8_t stop = Step;
    uint32_t stop_addr = 0;
    int32_t watch_type = 0;
    bool found = false;  // Record: the last instant so far
    uint64_t found_count = 0;
    uint8_t found_stop = Step;
    uint32_t found_addr = 0;
    int32_t found_type = 0;
    bool known = false, is = false;  // bs in a thread: runs_user_thread's memory ...
    bool pending = false;            // ... and its last instant, not yet known to have run
    uint64_t found_pending = 0;
    bool arrived = false;            // board `board` reached `count`: the server acts at the boundary
  };
  History::Position position(size_t board) const;
  void take_checkpoint(size_t board, bool always);
  std::string save_session() const;
  void load_session(const History::Command& c);
  [[noreturn]] void travel(size_t checkpoint, const Travel& v);
  void travel_arrived();
  void travel_stop(size_t i, uint8_t stop, uint32_t addr, int type);
  void on_reverse(const Packet& k);
  void machine_changed();  // a gdb wrote registers or memory: the past no longer leads here

  std::vector<std::unique_ptr<GdbTarget>> targets_;
  std::vector<Client> clients_;
  int base_port_;
  bool waiting_first_ = false;
  bool killed_ = false;
  std::chrono::steady_clock::time_point last_poll_{};
  bool reverse_;
  History history_;
  Travel travel_;
  std::chrono::steady_clock::time_point last_checkpoint_{};
  bool snapshots_ = false;
  std::string snapshot_refusal_, snapshot_request_;
  sc_core::sc_time start_ = sc_core::SC_ZERO_TIME;  // restored_at's time
};

}  // namespace testbed::gdb
