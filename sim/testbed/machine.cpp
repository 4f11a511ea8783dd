#include "machine.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "filestore.h"
#include "m68k_sr.h"
#include "monitor_pins_tlm.h"
#include "snapshot_point.h"

namespace testbed {

// The files the host writes into the run's folder as its own results. The guest's downloads
// land in the same folder (the logger's monitor.raw, `download FILE`), so these names are kept
// from it: a guest cannot plant a file the host would then present as its own.
bool Machine::host_result(const std::string& name) const {
  static const std::regex events(R"(events\.[0-9]+\.vcd)");
  if (name == "monitor.trace.txt" || name == "monitor.trace.bin" || std::regex_match(name, events)) return true;
  if (name.size() > 12 && name.compare(name.size() - 12, 12, ".console.log") == 0) return true;
  namespace fs = std::filesystem;
  std::error_code ec;
  auto in_out = [&](const std::string& path) {
    return !path.empty() && fs::path(path).filename() == name &&
           fs::equivalent(fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path(),
                          fs::path(spec_.out_dir), ec);
  };
  std::string net_vcd = spec_.net.vcd_file;  // SystemC writes BASE.vcd
  if (net_vcd.size() > 4 && net_vcd.compare(net_vcd.size() - 4, 4, ".vcd") == 0) net_vcd.resize(net_vcd.size() - 4);
  if (in_out(spec_.mon.vcd_path) || (!net_vcd.empty() && in_out(net_vcd + ".vcd"))) return true;
  if (!spec_.board_vcd.empty())
    for (auto& bs : spec_.boards)
      if (in_out(spec_.board_vcd + "." + bs.name + ".vcd")) return true;
  for (auto& b : spec_.cycle_profile)
    if (name == b + ".cycles") return true;
  return false;
}

Machine::Machine(sc_core::sc_module_name name, const MachineSpec& spec) : sc_module(name), spec_(spec) {
  namespace fs = std::filesystem;
  fs::create_directories(spec_.out_dir);
  // Results of an earlier run in the same folder go first: what the summary names is this run's.
  for (const char* stale : {"monitor.trace.txt", "monitor.trace.bin"}) fs::remove(fs::path(spec_.out_dir) / stale);
  for (unsigned k = 1; k <= spec_.mon.params.n_smi; ++k)
    fs::remove(fs::path(spec_.out_dir) / ("events." + std::to_string(k) + ".vcd"));
  spec_.timing.apply();
  SC_THREAD(watch_progress);

  if (spec_.rtl_monitor) {
    rtl_monitor_ = std::make_unique<tbrtl::MonitorPins>("monitor_rtl", spec_.mon.clock_period);
  } else {
    monitor_ = std::make_unique<monitor::Monitor>("monitor", spec_.mon);
    if (spec_.probe) {
      probe_ = std::make_unique<monitor::RecordingProbe>();
      monitor_->set_probe(probe_.get());
    }
    latency_ = std::make_unique<MonitorLatency>(spec_.mon.params.n_smi, monitor_->engine().observer());
    monitor_->engine().set_observer(latency_.get());
  }
  net_ = std::make_unique<centrenet::CentrenetNetwork>("centrenet", spec_.net);

  std::set<unsigned> smi_bound;
  // SystemC runs processes due at one instant in an order of its own, which the order the boards
  // are built in changes; nothing the machine does may depend on it (run.board_order's test).
  std::vector<const BoardSpec*> order;
  for (const BoardSpec& bs : spec_.boards) order.push_back(&bs);
  if (spec_.boards_reversed) std::reverse(order.begin(), order.end());
  for (const BoardSpec* each : order) {
    const BoardSpec& bs = *each;
    BoardConfig c = spec_.board_config(bs);
    c.validate();
    auto b = std::make_unique<Board>(bs.name.c_str(), c);
    spec_.timing.apply(*b);
    add_devices(bs, c, *b);
    if (unsigned smi = attach_network_and_monitor(bs, *b)) smi_bound.insert(smi);
    attach_console_and_link(bs, *b);
    attach_observers(bs, *b);
    load_board(bs, *b);
    boards_.push_back(std::move(b));
  }
  if (spec_.boards_reversed) {  // every per-board list in the configuration's order again
    std::reverse(boards_.begin(), boards_.end());
    std::reverse(consoles_.begin(), consoles_.end());
    std::reverse(vcds_.begin(), vcds_.end());
    std::reverse(profiles_.begin(), profiles_.end());
    std::reverse(tos_.begin(), tos_.end());
  }
  // An SMI without a slave (monitor.smis above node 0's highest slot) is a card on the
  // monitoring bus that nobody writes: its socket is bound to an initiator that stays silent.
  for (unsigned k = 1; k <= spec_.mon.params.n_smi; ++k) {
    if (smi_bound.count(k)) continue;
    idle_smi_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<Machine>>(
        ("idle_smi" + std::to_string(k)).c_str()));
    if (rtl_monitor_) idle_smi_.back()->bind(*rtl_monitor_->smi[k - 1]);
    else idle_smi_.back()->bind(monitor_->smi(k).socket);
  }
}

// User devices: built by their model, wired by the board.
void Machine::add_devices(const BoardSpec& bs, const BoardConfig& c, Board& b) {
  for (auto& d : bs.devices) {
    DeviceArgs a{bs.name + "_" + d.name, d.address, sc_core::sc_time(1.0 / c.clock_hz, sc_core::SC_SEC),
                 sc_core::sc_time(1.0 / c.clock_hz, sc_core::SC_SEC) * double(c.io_wait_states), d.params};
    devices_.emplace_back(d.model->create(a));
    b.add_device(d.name, *devices_.back());
    for (auto& k : d.params.unused_keys())  // the device has read what it understands
      if (k.compare(0, d.params.path().size() + 1, d.params.path() + ".") == 0)
        throw ConfigError(d.params.locate(k.substr(d.params.path().size() + 1)) + ": device " + d.name + " (" +
                          d.model->name + ") has no such setting");
  }
}

// The board's NI on Centrenet, and its monitoring card: the SMI slot it took (0: none).
unsigned Machine::attach_network_and_monitor(const BoardSpec& bs, Board& b) {
  auto& ni = net_->ni(centrenet::BoardAddress{uint8_t(bs.node), uint8_t(bs.slot)});
  b.attach_net(ni.target);
  ni.irq_line().connect([&b](bool level) { b.set_irq(IrqSource::Net, level); });
  if (spec_.net.ni.mode == centrenet::DmaMode::kAnywhere) {
    // The NI's DMA reaches this board's physical RAM; its bursts and the CPU share the port.
    ni.dma.bind(b.dma_target());
    ni.set_memory_port(&b.memory_port());
  }
  if (bs.node == 0 && bs.master) {
    if (rtl_monitor_) b.attach_monitor(rtl_monitor_->mmi);
    else b.attach_monitor(monitor_->mmi().socket);
  } else if (bs.node == 0 && bs.slot <= spec_.mon.params.n_smi) {
    if (rtl_monitor_) b.attach_monitor(*rtl_monitor_->smi[bs.slot - 1]);
    else b.attach_monitor(monitor_->smi(bs.slot).socket);
    return bs.slot;
  }
  return 0;
}

void Machine::attach_console_and_link(const BoardSpec& bs, Board& b) {
  namespace fs = std::filesystem;
  std::string log = (fs::path(spec_.out_dir) / (bs.name + ".console.log")).string();
  if (bs.master) {  // the operator's console: what is typed enters here
    auto op = std::make_unique<OperatorConsole>(log, stdout, bs.name == spec_.console);
    if (!spec_.input.empty()) {
      std::ifstream in(spec_.input, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      op->type(text.str(), spec_.input_prompt);
    }
    if (spec_.interactive) op->set_interactive();
    if (spec_.console_tcp) op->set_tcp(spec_.console_tcp);
    operator_ = op.get();
    consoles_.push_back(std::move(op));
  } else {
    consoles_.push_back(std::make_unique<ConsoleSink>(log, stdout, bs.name == spec_.console));
  }
  b.console().connect(consoles_.back().get());
  if (bs.master) {
    std::string up = spec_.upload_dir.empty() ? spec_.out_dir : spec_.upload_dir;
    link_ = std::make_unique<FileService>(up, spec_.out_dir);
    link_->set_reserved([this](const std::string& name) { return host_result(name); });
    b.link().connect(link_.get());
  }
}

// The cycle profile and the bus waveform, for the boards the run asks them of.
void Machine::attach_observers(const BoardSpec& bs, Board& b) {
  if (std::find(spec_.cycle_profile.begin(), spec_.cycle_profile.end(), bs.name) != spec_.cycle_profile.end()) {
    profiles_.emplace_back(bs.name, std::make_unique<CycleProfile>());
    b.cpu().set_cycle_profile(profiles_.back().second.get());
  }
  if (!spec_.board_vcd.empty()) {
    vcds_.push_back(std::make_unique<BusVcd>(spec_.board_vcd + "." + bs.name + ".vcd", bs.name));
    b.cpu().set_observer(vcds_.back().get());
    b.cpu().set_fast_path(false);  // every bus cycle in the waveform, RAM's included (as testbed-board)
  }
}

void Machine::load_board(const BoardSpec& bs, Board& b) {
  // The filestore is one more segment of the boot image: the board's one loader places both.
  ElfImage image = load_elf(bs.image);
  check_board_image(image);
  {
    auto sym = [&](const char* n) { auto it = image.symbols.find(n); return it == image.symbols.end() ? 0u : it->second; };
    tos_.push_back({sym("tos_gdb_info"), sym("procs")});
  }
  if (!bs.filestore.empty()) {
    std::vector<uint8_t> store = filestore::read_file(bs.filestore);
    filestore::check_image(store, bs.filestore, bs.ram_bytes);
    filestore::add_segment(image, store, bs.filestore);
  }
  b.load_image(image);
  b.on_exit([this](Board& x) {
    // Said when it happens: the other boards may run on for a long time.
    if (!x.result().halt_reason.empty())
      std::cerr << "testbed: board " << x.basename() << " halted at " << std::fixed << std::setprecision(3)
                << sc_core::sc_time_stamp().to_seconds() * 1e3 << std::defaultfloat << " ms: "
                << x.result().halt_reason << "; the other boards go on" << std::endl;
    if (++finished_ == boards_.size()) sc_core::sc_stop();
  });
}

Machine::~Machine() = default;

uint64_t Machine::progress() {
  uint64_t n = finished_ + (link_ ? link_->bytes() : 0);
  for (size_t i = 0; i < boards_.size(); ++i) {
    auto& core = boards_[i]->cpu().core();
    n += core.user_exits() + consoles_[i]->bytes() + (core.halted() ? 1 : 0);
  }
  for (auto a : net_->boards()) {
    const auto& st = net_->ni(a).stats();
    n += st.messages_sent + st.messages_received;
  }
  return n;
}

// Sampled every spec.no_progress of simulated time (every spec.script_idle when a session
// script is typed): no change for no_progress ends the run as stalled; with the script typed to
// its end, no change for script_idle ends it as the session's end. The samples only read
// counters, so the run's traces are those of a run without the watch.
void Machine::watch_progress() {
  if (watch_restored_) {
    sc_core::wait(restored_at_);
    if (!watch_) return;
    sc_core::wait(watch_wake_ - sc_core::sc_time_stamp());
    if (!watch_sample()) return;
  } else {
    if (spec_.interactive || spec_.console_tcp || spec_.no_progress == sc_core::SC_ZERO_TIME) watch_ = false;
    if (!watch_) return;  // (disable_progress_watch() is called before the run starts)
    watch_step_ = spec_.no_progress;
    if (operator_ && operator_->script_done() == false && !spec_.input.empty() && spec_.script_idle < watch_step_)
      watch_step_ = spec_.script_idle;
    watch_last_ = progress();
  }
  for (;;) {
    watch_wake_ = sc_core::sc_time_stamp() + watch_step_;
    sc_core::wait(watch_step_);
    if (!watch_sample()) return;
  }
}

// One sample of the watch: false when it ended the run (or was turned off).
bool Machine::watch_sample() {
  if (!watch_) return false;
  // A script line waiting for a prompt that does not come, while a program runs and prints
  // (progress, so the stall below never fires): stopped, naming the line and what it waits for.
  // A tenth of the way there it is said on stderr, once per line (an upload over the LAN link
  // may take a minute; a spinning program would take the whole limit).
  sc_core::sc_time since;
  std::string what;
  if (spec_.script_wait != sc_core::SC_ZERO_TIME && operator_ && operator_->waiting(since, what)) {
    sc_core::sc_time waited = sc_core::sc_time_stamp() - since;
    if (waited >= spec_.script_wait) {
      script_stuck_ = what;
      sc_core::sc_stop();
      return false;
    }
    if (waited >= spec_.script_wait / 10.0 && what != script_noted_) {
      script_noted_ = what;
      std::ostringstream w;
      w << std::fixed << std::setprecision(3) << waited.to_seconds() << " s";
      std::cerr << "testbed: the session script's " << what << " has waited " << w.str()
                << "; the run stops at " << spec_.script_wait
                << " (run.script_wait_ms). A program's output is not the shell's prompt: "
                   "`@wait TEXT` before the line waits for the program's" << std::endl;
    }
  }
  uint64_t now = progress();
  if (now != watch_last_) {
    watch_last_ = now;
    last_progress_ = sc_core::sc_time_stamp();
    return true;
  }
  sc_core::sc_time quiet = sc_core::sc_time_stamp() - last_progress_;
  if (operator_ && operator_->script_done() && quiet >= spec_.script_idle) {
    script_ended_ = true;
    sc_core::sc_stop();
    return false;
  }
  if (quiet < spec_.no_progress) return true;
  stalled_ = true;
  sc_core::sc_stop();
  return false;
}

// The kernel's process table through the board's debug path (no bus timing, no side effects),
// laid out as its tos_gdb_info says (firmware/tos/kernel/gdb_info.c; the gdb stub reads the same).
std::string Machine::tos_processes(size_t i) {
  if (i >= tos_.size() || !tos_[i].info || !tos_[i].procs) return "";
  Board& b = *boards_[i];
  auto rd8 = [&](uint32_t a) {
    uint8_t v = 0;
    b.cpu().debug_access(false, a, &v, 1, m68k::FC_SUPERVISOR_DATA);
    return v;
  };
  auto rd32 = [&](uint32_t a) { return uint32_t(rd8(a)) << 24 | uint32_t(rd8(a + 1)) << 16 | uint32_t(rd8(a + 2)) << 8 | rd8(a + 3); };
  enum {
    kVersion = 0, kTcbTid = 6, kTcbState = 7, kProcSize = 9, kProcState = 10, kProcName = 12, kProcSlots = 13,
    kMaxProcs = 15, kMaxThreads = 16, kNameLen = 17
  };
  uint32_t info[18];
  for (int k = 0; k < 18; ++k) info[k] = rd32(tos_[i].info + 4 * k);
  if (info[kVersion] != 1 || info[kMaxProcs] > 64 || info[kNameLen] > 64) return "";
  static const char* const states[] = {"free", "foreground", "background", "suspended", "ended"};
  std::string list;
  for (uint32_t p = 0; p < info[kMaxProcs]; ++p) {
    uint32_t pa = tos_[i].procs + p * info[kProcSize];
    uint8_t st = rd8(pa + info[kProcState]);
    if (st == 0 || st >= 4) continue;  // free, or ended
    std::string name;
    for (uint32_t k = 0; k < info[kNameLen]; ++k) {
      char c = char(rd8(pa + info[kProcName] + k));
      if (!c) break;
      name += (c >= 32 && c < 127) ? c : '?';
    }
    list += (list.empty() ? "" : ", ") + name + " (" + std::to_string(p) + ", " + states[st] + ")";
    // Its threads and what each waits for (enum tos_tstate, <tos/pinfo.h>): what a hung run
    // needs first. "; " between them: the list's ", " separates processes.
    static const char* const tstates[] = {"free",    "ready", "running", "send", "recv",   "wait",   "pwait",  "console",
                                          "console-in", "remote", "lan",   "page", "away", "region", "barrier"};
    std::string threads;
    for (uint32_t k = 0; k < info[kMaxThreads] && k < 64; ++k) {
      uint32_t t = rd32(pa + info[kProcSlots] + 4 * k);
      if (!t) continue;
      uint32_t tid = uint32_t(rd8(t + info[kTcbTid])) << 8 | rd8(t + info[kTcbTid] + 1);
      uint8_t ts = rd8(t + info[kTcbState]);
      std::ostringstream one;
      one << std::hex << tid << std::dec << ' ' << (ts < std::size(tstates) ? tstates[ts] : "?");
      threads += (threads.empty() ? "" : "; ") + one.str();
    }
    if (!threads.empty()) list += " [" + threads + "]";
  }
  return list;
}

std::string Machine::board_state(size_t i) {
  Board& b = *boards_[i];
  auto& core = b.cpu().core();
  std::ostringstream s;
  if (core.halted()) {
    s << "halted: " << core.halt_reason();
  } else if (core.stopped()) {
    unsigned mask = (core.regs().sr & m68k::kSrIntMask) >> m68k::kSrIntMaskShift;
    s << "in STOP, interrupt mask " << mask
      << (mask == 7 ? " (only a level-7 interrupt can wake it)" : "")
      << (core.interrupt_pending() ? ", an interrupt pending" : ", no interrupt pending");
  } else {
    s << "executing at pc 0x" << std::hex << core.regs().pc << std::dec
      << ((core.regs().sr & m68k::kSrSupervisor) ? " (supervisor)" : " (user)");
  }
  return s.str();
}

void Machine::write_cycle_profiles(std::ostream& os) const {
  for (auto& [name, profile] : profiles_) {
    std::string path = (std::filesystem::path(spec_.out_dir) / (name + ".cycles")).string();
    std::ofstream out(path);
    profile->write(out);
    out.close();
    if (!out) throw std::runtime_error("trace.cycle_profile: cannot write " + name + "'s profile to " + path);
    os << "cycles: " << name << "'s " << profile->cycles() << " cycles by instruction address -> " << path
       << " (tos-profile --cycles " << path << ")\n";
  }
}

void Machine::state(StateArchive& a) {
  a.section(name()).expect("boards", uint64_t(boards_.size()));
  if (rtl_monitor_) throw StateError("snapshot: the RTL monitor (monitor.model = \"rtl\") cannot be saved yet");
  if (!vcds_.empty()) throw StateError("snapshot: bus VCDs (trace.boards_vcd) cannot be continued from a snapshot yet");
  if (!profiles_.empty()) throw StateError("snapshot: cycle profiles (trace.cycle_profile) cannot be saved yet");
  monitor_->state(a);
  net_->state(a);
  for (auto& b : boards_) b->state(a);
  for (auto& c : consoles_) c->state(a);
  a.section("machine").expect("link", link_ != nullptr).expect("probe", probe_ != nullptr).expect("latency", latency_ != nullptr);
  if (link_) link_->state(a);
  if (probe_) {
    uint64_t n = probe_->records.size();
    a.io(n);
    if (a.loading()) probe_->records.assign(size_t(n), monitor::ProbeRecord{});
    for (auto& r : probe_->records) a.io(r.clock).io(r.smi).io(r.word).io(r.kept);
    a.io(probe_->filtered);
  }
  if (latency_) latency_->state(a);
  a.io(finished_).io(watch_).io(stalled_).io(script_ended_).io(script_stuck_).io(script_noted_).io(last_progress_);
  a.io(watch_last_).io(watch_step_).io(watch_wake_);
  if (!a.loading()) return;
  watch_restored_ = true;
  restored_at_ = a.when();
}

std::string Machine::cannot_save(const MachineSpec& spec) {
  if (spec.rtl_monitor) return "the RTL monitor (monitor.model = \"rtl\") cannot be saved yet";
  if (!spec.board_vcd.empty()) return "bus VCDs (trace.boards_vcd) cannot be continued from a snapshot yet";
  if (!spec.mon.vcd_path.empty()) return "the monitor's VCD (trace.monitor_vcd) cannot be continued from a snapshot yet";
  if (!spec.net.vcd_file.empty()) return "the Centrenet VCD (trace.centrenet_vcd) cannot be continued from a snapshot yet";
  if (!spec.cycle_profile.empty()) return "cycle profiles (trace.cycle_profile) cannot be saved yet";
  if (spec.interactive || spec.console_tcp) return "an operator typing live (run.interactive, a TCP console) cannot be saved";
  return "";
}

bool Machine::at_rest() const {
  for (auto& b : boards_)
    if (!b->at_rest()) return false;
  return net_->at_rest();
}

// To the end or the absolute time limit (the kernel may have paused for a snapshot, or be a
// restored one whose machine starts at the snapshot's time).
void Machine::run(const std::function<void()>& on_pause) {
  snapshot::run_until(spec_.stop_time == sc_core::SC_ZERO_TIME ? sc_core::sc_max_time() : spec_.stop_time, on_pause);
  if (monitor_) monitor_->catch_up();
  if (rtl_monitor_) rtl_monitor_->catch_up();
}

}  // namespace testbed
