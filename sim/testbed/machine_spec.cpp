#include "machine_spec.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <testbed/board_names.h>

#include "filestore.h"

namespace testbed {
namespace {

// A file named by `key` (image, filestore): a path, or a name in the firmware folder.
std::string resolve_file(const std::string& value, const std::string& firmware_dir, const Config& where,
                         const std::string& key) {
  namespace fs = std::filesystem;
  fs::path p(value);
  if (p.is_relative() && !fs::exists(p) && !firmware_dir.empty()) p = fs::path(firmware_dir) / p;
  if (!fs::exists(p))
    throw ConfigError(where.source_name() + ": " + where.path() + "." + key + " = \"" + value +
                      "\": no such file (looked in the current folder and " + firmware_dir + ")");
  return p.string();
}

std::string resolve_image(const std::string& image, const std::string& firmware_dir, const Config& where) {
  if (image.empty()) throw ConfigError(where.source_name() + ": " + where.path() + ".image: no image given");
  return resolve_file(image, firmware_dir, where, "image");
}

// The filestore a board loads ("" = none), checked now against the board's RAM, so a bad image
// stops the run before anything is built. `checked` remembers the images already read.
std::string resolve_filestore(const std::string& value, const std::string& firmware_dir, const Config& where,
                              uint32_t ram_bytes, std::set<std::pair<std::string, uint32_t>>& checked) {
  if (value.empty()) return "";
  std::string path = resolve_file(value, firmware_dir, where, "filestore");
  if (checked.count({path, ram_bytes})) return path;
  try {
    filestore::check_image(filestore::read_file(path), path, ram_bytes);
  } catch (const filestore::FilestoreError& e) {
    throw ConfigError(where.source_name() + ": " + where.path() + ".filestore: " + e.what());
  }
  checked.insert({path, ram_bytes});
  return path;
}

// An output file the run will write (`setting` names it in messages): refused now, before
// anything is built, unless its folder exists and the file can be opened for writing. A file
// the check creates is removed again.
void check_output_file(const std::string& source, const std::string& setting, const std::string& path) {
  namespace fs = std::filesystem;
  std::string head = source + ": " + setting + " = \"" + path + "\": ";
  fs::path p(path);
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ConfigError(head + "the folder " + dir.string() + " does not exist");
  if (fs::is_directory(p, ec)) throw ConfigError(head + "is a folder, not a file");
  bool existed = fs::exists(p, ec);
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw ConfigError(head + "cannot be written: " + std::strerror(errno));
  std::fclose(f);
  if (!existed) fs::remove(p, ec);
}

// The output folder: it exists and is writable, or the nearest folder above it that exists is
// writable (the run creates the rest).
void check_output_dir(const std::string& source, const std::string& setting, const std::string& path) {
  namespace fs = std::filesystem;
  std::string head = source + ": " + setting + " = \"" + path + "\": ";
  if (path.empty()) throw ConfigError(head + "an empty folder name");
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  while (!fs::exists(p, ec)) {
    if (!p.has_parent_path() || p.parent_path() == p) break;
    p = p.parent_path();
  }
  if (!fs::is_directory(p, ec))
    throw ConfigError(head + p.string() + " is not a folder, so the output folder cannot be made");
  // Try it: a file (or, where the run must create folders, a folder) made and removed again.
  std::string probe = (p / ".testbed-write-check-XXXXXX").string();
  bool ok;
  if (p == fs::absolute(fs::path(path), ec)) {
    int fd = ::mkstemp(probe.data());
    ok = fd >= 0;
    if (ok) {
      ::close(fd);
      ::unlink(probe.c_str());
    }
  } else {
    ok = ::mkdtemp(probe.data()) != nullptr;
    if (ok) ::rmdir(probe.c_str());
  }
  if (!ok) throw ConfigError(head + "cannot write in " + p.string() + ": " + std::strerror(errno));
}

bool is_device_key(const std::string& k) {
  static const std::regex device(R"(boards\.[0-9]+\.devices\.[0-9]+\..*)");
  return std::regex_match(k, device);
}

// The [[boards.devices]] of one board entry: each model found (a plugin loaded now, so a
// missing or foreign library stops the run before anything is built) and its window checked
// against the DEV region and the board's other devices, naming the file and line of the entry.
std::vector<DeviceSpec> read_devices(const Config& board, const std::string& board_name) {
  namespace fs = std::filesystem;
  std::vector<DeviceSpec> out;
  std::vector<Config> list = board.array_of_tables("devices");
  std::string dir = fs::path(board.source_name()).parent_path().string();
  for (auto& e : list) {
    DeviceSpec d;
    d.where = e.locate("name");
    d.name = e.require_string("name");
    bool ok_name = !d.name.empty() && d.name.size() <= 32;
    for (char c : d.name) ok_name = ok_name && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok_name) throw ConfigError(e.locate("name") + " = \"" + d.name + "\": 1..32 letters, digits or _");
    d.address = uint32_t(e.require_int("address", TB_DEV_BASE, uint64_t(TB_DEV_BASE) + TB_DEV_SIZE - 2));
    std::string lib = e.get_string("library", ""), model = e.get_string("model", "");
    if (lib.empty() == model.empty())
      throw ConfigError(e.locate("name") + " (device " + d.name + "): give either library = \"path.so\" (a plugin) "
                        "or model = \"name\" (a model linked into the program)");
    if (!lib.empty()) {
      fs::path p(lib);
      if (p.is_relative() && !fs::exists(p) && !dir.empty()) p = fs::path(dir) / p;  // beside the machine file
      d.library = p.string();
      try {
        d.model = load_device_plugin(d.library);
      } catch (const std::runtime_error& x) {
        throw ConfigError(e.locate("library") + " = \"" + lib + "\" (device " + d.name + "): " + x.what());
      }
    } else {
      d.model = find_device_model(model);
      if (!d.model) throw ConfigError(e.locate("model") + " = \"" + model + "\" (device " + d.name + "): no such model "
                                      "linked into this program (testbed::register_device_model)");
    }
    d.params = e;
    out.push_back(d);
  }
  // The windows, checked as the board will (BoardConfig::validate), but said with the lines.
  for (size_t i = 0; i < out.size(); ++i) {
    BoardConfig c;
    for (size_t j = 0; j <= i; ++j) c.devices.push_back({out[j].name, out[j].address, out[j].model->size});
    try {
      c.validate();
    } catch (const std::invalid_argument& x) {
      throw ConfigError(list[i].locate("address") + ": board " + board_name + ": " + x.what());
    }
  }
  return out;
}

}  // namespace

BoardConfig MachineSpec::board_config(const BoardSpec& bs) const {
  BoardConfig c = board;
  c.id = uint16_t(bs.slot);
  c.node = uint16_t(bs.node);
  c.master = bs.master;
  c.boards = uint16_t(boards.size());
  c.ram_bytes = bs.ram_bytes;
  c.devices.clear();
  for (auto& d : bs.devices) c.devices.push_back({d.name, d.address, d.model->size});
  return c;
}

namespace {

// [board] and the boards: [[boards]] entries, or the Testbed's six when none are listed.
void read_boards(MachineSpec& m, const Config& cfg, const std::string& firmware_dir) {
  Config bd = cfg.section("board");
  uint32_t ram_kb = m.board.ram_bytes / 1024;
  std::string default_image = bd.get_string("image", "");
  std::string default_filestore = bd.get_string("filestore", "");
  std::set<std::pair<std::string, uint32_t>> checked_stores;
  std::vector<Config> list = cfg.array_of_tables("boards");
  std::set<std::string> names;
  std::set<std::pair<unsigned, unsigned>> slots;
  if (list.empty()) {
    for (unsigned i = 0; i < tables::kBoardNames.size(); ++i) {
      BoardSpec b;
      b.name = tables::kBoardNames[i];
      b.slot = i;
      b.master = i == 0;
      b.image = resolve_image(default_image, firmware_dir, bd);
      b.ram_bytes = ram_kb * 1024;
      b.filestore = resolve_filestore(default_filestore, firmware_dir, bd, b.ram_bytes, checked_stores);
      m.boards.push_back(b);
    }
  }
  for (auto& e : list) {
    BoardSpec b;
    b.node = unsigned(e.get_int("node", 0, 0, centrenet::NetworkConfig::kMaxNodes - 1));
    b.slot = unsigned(e.require_int("slot", 0, centrenet::NetworkConfig::kMaxBoardsPerNode - 1));
    b.name = e.get_string("name", "n" + std::to_string(b.node) + "s" + std::to_string(b.slot));
    b.master = b.node == 0 && b.slot == 0;
    std::string image = e.get_string("image", default_image);
    Config img_where = e.has("image") ? e : bd;
    b.image = resolve_image(image, firmware_dir, img_where);
    b.ram_bytes = uint32_t(e.get_int("ram_kb", ram_kb, 1, TB_RAM_MAX_BYTES / 1024)) * 1024;
    std::string store = e.get_string("filestore", default_filestore);
    b.filestore = resolve_filestore(store, firmware_dir, e.has("filestore") ? e : bd, b.ram_bytes, checked_stores);
    b.devices = read_devices(e, b.name);
    if (!names.insert(b.name).second) throw ConfigError(m.source + ": " + e.path() + ".name: board name \"" + b.name + "\" used twice");
    if (!slots.insert({b.node, b.slot}).second)
      throw ConfigError(m.source + ": " + e.path() + ": node " + std::to_string(b.node) + " slot " +
                        std::to_string(b.slot) + " is taken by another board");
    m.boards.push_back(b);
  }
  if (!m.find("master") && std::none_of(m.boards.begin(), m.boards.end(), [](auto& b) { return b.master; }))
    throw ConfigError(m.source + ": no master board (node 0, slot 0)");
}

// Centrenet: one bus per node; node parents from [[centrenet.nodes]] (default: one node).
void read_centrenet(MachineSpec& m, const Config& cfg) {
  Config cn = cfg.section("centrenet");
  unsigned max_node = 0;
  for (auto& b : m.boards) max_node = std::max(max_node, b.node);
  m.net.nodes.assign(max_node + 1, centrenet::NodeConfig{});
  std::vector<Config> nodes = cn.array_of_tables("nodes");
  if (!nodes.empty() && nodes.size() != max_node + 1)
    throw ConfigError(m.source + ": centrenet.nodes lists " + std::to_string(nodes.size()) +
                      " nodes but the boards use nodes 0.." + std::to_string(max_node));
  for (unsigned n = 0; n <= max_node; ++n) {
    m.net.nodes[n].parent = nodes.empty() ? (n == 0 ? -1 : int((n - 1) / 2))
                                          : int(nodes[n].get_int("parent", n == 0 ? -1 : 0, -1, max_node));
    unsigned top = 0;
    for (auto& b : m.boards)
      if (b.node == n) top = std::max(top, b.slot + 1);
    m.net.nodes[n].boards = top;
  }
  // Every slot below a node's highest is a board: the bus has a network interface per slot up
  // to the highest, and an interface without its board cannot be built.
  {
    std::map<unsigned, std::set<unsigned>> used;
    for (auto& b : m.boards) used[b.node].insert(b.slot);
    for (auto& [node, taken] : used)
      for (unsigned s = 0; s < m.net.nodes[node].boards; ++s)
        if (!taken.count(s))
          throw ConfigError(m.source + ": node " + std::to_string(node) + " has boards up to slot " +
                            std::to_string(m.net.nodes[node].boards - 1) + " but none in slot " +
                            std::to_string(s) + ": slots must be numbered without gaps (0, 1, 2, ...)");
  }
  m.net.read(cfg);  // the one reader of the Centrenet settings (hw/centrenet)
  try {
    m.net.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(m.source + ": centrenet: " + e.what());
  }
}

// The monitor: one SMI per slave of node 0 (source = slot), the MMI on the master.
void read_monitor(MachineSpec& m, const Config& cfg) {
  Config mc = cfg.section("monitor");
  auto& p = m.mon.params;
  unsigned slaves = 0;
  for (auto& b : m.boards)
    if (b.node == 0 && !b.master) slaves = std::max(slaves, b.slot);
  if (slaves == 0)
    throw ConfigError(m.source + ": node 0 has no slave board (only the master): the monitor needs at least "
                      "one slave in slot 1 (add a [[boards]] entry with slot = 1)");
  m.mon.read(cfg, m.board.clock_hz, std::max(1u, std::min(slaves, 15u)));  // the one reader (hw/monitor)
  if (p.n_smi < slaves)
    throw ConfigError(m.source + ": monitor.smis = " + std::to_string(p.n_smi) + " but node 0 has slaves up to slot " +
                      std::to_string(slaves) + ": every slave of node 0 writes its events to its own SMI (slot k to "
                      "SMI k), so monitor.smis must be at least " + std::to_string(slaves));
  m.probe = mc.get_bool("probe", true);
  m.rtl_monitor = mc.get_choice("model", "tlm", {"tlm", "rtl"}) == "rtl";

  if (m.rtl_monitor) {
    // The co-simulated RTL is verilated once, at the report's parameters: refuse anything else
    // rather than silently simulate a different machine.
    monitor::MonitorParams d;
    d.tick_div = p.tick_div;  // the RTL's tick is in clocks; compare the rest
    bool same = p.n_smi == d.n_smi && p.smi_depth == d.smi_depth && p.mmi_depth == d.mmi_depth &&
                p.word_clocks == d.word_clocks && p.empty_clocks == d.empty_clocks && p.write_gap == d.write_gap &&
                p.tick_div == 10;
    if (!same)
      throw ConfigError(m.source + ": monitor.model = \"rtl\": the verilated monitor has the report's "
                        "parameters (5 SMIs, 1024/512 entries, 1 us tick, 36 us poll period); set the others back");
    m.probe = false;  // the probe is a hook of the TLM model
  }
}

// [run]: when the run stops, where its results go, the operator's console.
void read_run(MachineSpec& m, const Config& cfg) {
  Config run = cfg.section("run");
  double stop_ms = run.get_double("stop_ms", 0.0, 0.0, 1e9);
  if (stop_ms > 0 && stop_ms < 0.001)
  {
    std::ostringstream v;
    v << stop_ms;
    throw ConfigError(m.source + ": run.stop_ms = " + v.str() +
                      ": 0 (until every board exits) or at least 0.001 (1 us of simulated time)");
  }
  m.stop_time = sc_core::sc_time(stop_ms, sc_core::SC_MS);
  m.no_progress = sc_core::sc_time(double(run.get_int("no_progress_ms", 10000, 0, 1000000000)), sc_core::SC_MS);
  m.script_idle = sc_core::sc_time(double(run.get_int("script_idle_ms", 1000, 1, 1000000000)), sc_core::SC_MS);
  m.script_wait = sc_core::sc_time(double(run.get_int("script_wait_ms", 600000, 0, 1000000000)), sc_core::SC_MS);
  m.out_dir = run.get_string("out_dir", "testbed-out");
  // A backslash is no separator here: `--out runs\one` would make one folder named so, beside
  // the one meant. Refused, as is a control character (a TOML escape such as \b in the name).
  for (char c : m.out_dir)
    if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      throw ConfigError(m.source + ": run.out_dir = \"" + m.out_dir + "\": " +
                        (c == '\\' ? std::string("a backslash is not a folder separator here: write the path with /")
                                    : std::string("a control character in the folder name")) +
                        " (refused)");
  m.upload_dir = run.get_string("upload_dir", "");
  m.console = run.get_string("console", "master");
  if (!m.console.empty() && m.console != "none" && !m.find(m.console))
    throw ConfigError(m.source + ": run.console = \"" + m.console + "\": no such board");
  if (m.console == "none") m.console.clear();
  m.input = run.get_string("input", "");
  if (!m.input.empty() && !std::filesystem::is_regular_file(m.input))
    throw ConfigError(m.source + ": run.input = \"" + m.input + "\": no such file");
  m.input_prompt = run.get_string("input_prompt", "$ |[console: master]\r\n");
  m.interactive = run.get_bool("interactive", false);
  m.console_tcp = int(run.get_int("console_tcp", 0, 0, 65535));
  m.boards_reversed = run.get_choice("board_order", "config", {"config", "reverse"}) == "reverse";
}

// [trace]: the waveforms and cycle profiles asked for, every output path checked.
void read_traces(MachineSpec& m, const Config& cfg) {
  Config tr = cfg.section("trace");
  m.board_vcd = tr.get_string("boards_vcd", "");
  m.mon.vcd_path = tr.get_string("monitor_vcd", "");
  m.net.vcd_file = tr.get_string("centrenet_vcd", "");
  if (m.rtl_monitor && !m.mon.vcd_path.empty())
    throw ConfigError(m.source + ": trace.monitor_vcd traces the TLM monitor; with monitor.model = \"rtl\" "
                      "use the RTL testbench's FST (rtl/README.md)");

  // Every output is checked now: a path that cannot be written stops the run before it starts,
  // not after it has simulated (or, for SystemC's trace files, with a crash).
  check_output_dir(m.source, "run.out_dir", m.out_dir);
  if (!m.mon.vcd_path.empty()) {
    check_output_file(m.source, "trace.monitor_vcd", m.mon.vcd_path);
    if (m.mon.vcd_path.size() > 4 && m.mon.vcd_path.compare(m.mon.vcd_path.size() - 4, 4, ".fst") == 0)
      check_output_file(m.source, "trace.monitor_vcd", m.mon.vcd_path + ".vcd");
  }
  if (!m.net.vcd_file.empty()) {
    std::string base = m.net.vcd_file;  // SystemC writes BASE.vcd
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
    check_output_file(m.source, "trace.centrenet_vcd", base + ".vcd");
  }
  if (!m.board_vcd.empty())
    for (auto& b : m.boards) check_output_file(m.source, "trace.boards_vcd", m.board_vcd + "." + b.name + ".vcd");
  // Boards named by a comma-separated list: a name that is no board's is refused, not ignored.
  std::string listed = tr.get_string("cycle_profile", "");
  for (size_t at = 0; at < listed.size();) {
    size_t comma = listed.find(',', at);
    std::string name = listed.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? listed.size() : comma + 1;
    bool known = false;
    for (auto& b : m.boards) known = known || b.name == name;
    if (!known)
      throw ConfigError(m.source + ": trace.cycle_profile: '" + name + "' is no board of this machine (\"" + listed +
                        "\": board names, separated by commas)");
    if (std::find(m.cycle_profile.begin(), m.cycle_profile.end(), name) == m.cycle_profile.end())
      m.cycle_profile.push_back(name);
  }
}

void refuse_unknown_settings(const MachineSpec& m, const Config& cfg) {
  auto unused = cfg.unused_keys();
  // A device's own keys are read by the device when the machine is built (Machine checks them then).
  unused.erase(std::remove_if(unused.begin(), unused.end(), [](const std::string& k) { return is_device_key(k); }),
               unused.end());
  if (!unused.empty()) {
    std::string list;
    for (auto& k : unused) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError(m.source + ": unknown setting(s): " + list);
  }
}

}  // namespace

MachineSpec MachineSpec::from_config(const Config& cfg, const std::string& firmware_dir) {
  MachineSpec m;
  m.source = cfg.source_name();
  m.profile = cfg.get_choice("profile", "default", Config::profile_names());

  // Every board's settings: the one reader, shared with testbed-board (BoardConfig::read).
  m.board.read(cfg);
  m.timing.read(cfg);
  read_boards(m, cfg, firmware_dir);
  read_centrenet(m, cfg);
  read_monitor(m, cfg);
  read_run(m, cfg);
  read_traces(m, cfg);
  refuse_unknown_settings(m, cfg);
  return m;
}

const BoardSpec* MachineSpec::find(const std::string& name) const {
  for (auto& b : boards)
    if (b.name == name) return &b;
  return nullptr;
}

void MachineSpec::print(std::ostream& os) const {
  os << "machine: " << boards.size() << " board(s) on " << net.nodes.size() << " Centrenet node(s), from "
     << source << "\n";
  os << "  cpu: " << (board.model == m68k::Model::MC68010 ? "68010" : "68000") << " at "
     << board.clock_hz / 1e6 << " MHz, quantum " << timing.quantum()
     << (timing.exact ? ", exact" : " (not exact)") << ", profile " << profile << "\n";
  for (auto& b : boards) {
    os << "  " << std::left << std::setw(8) << b.name << std::right << " node " << b.node << " slot "
       << std::setw(2) << b.slot << (b.master ? "  master" : "  slave ") << "  RAM " << b.ram_bytes / 1024
       << " KB  image " << b.image;
    if (!b.filestore.empty()) os << "  filestore " << b.filestore;
    os << "\n";
    for (auto& d : b.devices) {
      char at[16];
      std::snprintf(at, sizeof at, "0x%06X", d.address);
      os << "           device " << d.name << " (" << d.model->name << ") at " << at
         << (d.library.empty() ? std::string(", linked in") : ", from " + d.library) << "\n";
    }
  }
  os << "  centrenet: " << net.bus.rate_bytes_per_s / 1e6 << " MB/s per bus, frame overhead "
     << net.bus.frame_overhead << ", hop " << net.fibre.hop_latency << ", DMA " << centrenet::to_string(net.ni.mode)
     << "\n";
  auto& p = mon.params;
  os << "  monitor: " << (rtl_monitor ? "RTL (verilated rtl/monitor, co-simulated), " : "TLM model, ") << p.n_smi << " SMI(s) x " << p.smi_depth << " entries, MMI " << p.mmi_depth
     << " entries, tick " << p.tick_div << " clocks, bus word " << p.word_clocks << " clocks (a busy round "
     << 2 * p.word_clocks * p.n_smi << " clocks)\n";
}

}  // namespace testbed
