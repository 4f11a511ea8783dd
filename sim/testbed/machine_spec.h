// What machine to build: the boards, the Centrenet tree, the monitor and where output goes,
// read from a TOML configuration (sim/configs/testbed.toml is the Edinburgh Testbed) with
// command-line overrides. Every value is validated here, before any module exists, so a bad
// configuration stops with a message naming file, line and key.
#pragma once
#include <systemc>

#include <ostream>
#include <string>
#include <vector>

#include "board.h"
#include "centrenet_config.h"
#include "config.h"
#include "monitor.h"

namespace testbed {

// A user device on a board ([[boards.devices]]: name, library or model, address, its own keys).
struct DeviceSpec {
  std::string name;                // its window's name on the board ("crc0")
  std::string library;             // the plugin it came from ("" = a model linked in)
  const DeviceModel* model = nullptr;
  uint32_t address = 0;
  Config params;                   // the entry, for the device's own keys
  std::string where;               // "file:line" of the entry, for messages
};

struct BoardSpec {
  std::string name;     // "master", "earth", ...
  unsigned node = 0;    // Centrenet node
  unsigned slot = 0;    // slot on the node's bus = BOARDID.ID (0 = the master on node 0)
  bool master = false;
  std::string image;    // resolved path of the ELF image it boots
  std::string filestore;  // resolved path of the TOS filestore loaded at TOS_FS_BASE ("" = none)
  uint32_t ram_bytes = 0;
  std::vector<DeviceSpec> devices;
};

struct MachineSpec {
  std::string source;                 // the configuration file
  std::string profile = "default";   // the machine profile (Config::apply_profile)
  std::vector<BoardSpec> boards;
  BoardConfig board;                  // per-board defaults (clock, model, wait states, ...)
  CpuTiming timing;                   // the quantum and exact mode, applied by Machine
  centrenet::NetworkConfig net;
  monitor::MonitorConfig mon;         // the monitor covers node 0: SMIs 1..n_smi, MMI on the master
  bool probe = true;                  // record every event as written (ground truth)
  bool rtl_monitor = false;           // the verilated RTL (rtl/monitor) in place of the TLM model
  std::string console;                // board whose console is the terminal ("" = none)
  std::string input;                  // file typed at the operator's console (the master's) ("" = none)
  std::string input_prompt;           // each line of `input` waits for this on the console ("" = no wait)
  bool interactive = false;           // the terminal types at the operator's console (raw, real time)
  int console_tcp = 0;                // the operator's console also on 127.0.0.1:port (0 = off)
  bool boards_reversed = false;       // run.board_order = "reverse": built last to first (a test of order)
  std::string out_dir;                // console logs, downloaded files, traces, summary
  std::string upload_dir;             // files the master may fetch over its LAN link
  std::string board_vcd;              // per-board bus VCD prefix ("" = off)
  std::vector<std::string> cycle_profile;  // boards whose cycles are counted by pc (out_dir/NAME.cycles)
  sc_core::sc_time stop_time;         // simulated time limit (0: until every board exits)
  sc_core::sc_time no_progress;       // a run without progress this long is stopped (0: never)
  sc_core::sc_time script_idle;       // the session script done and no progress this long: the run ends
  sc_core::sc_time script_wait;       // a script line waiting this long for its prompt ends the run (0: never)

  static MachineSpec from_config(const Config& cfg, const std::string& firmware_dir);
  // The board settings of board b (the defaults, its identity and RAM, its device windows).
  BoardConfig board_config(const BoardSpec& b) const;
  const BoardSpec* find(const std::string& name) const;
  void print(std::ostream& os) const;  // the one-screen description of what was built
};

}  // namespace testbed
