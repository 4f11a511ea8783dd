// build/bin/testbed: the Edinburgh Testbed. Builds the machine a configuration describes (by
// default sim/configs/testbed.toml: a master and five slaves on one Centrenet node, with the
// hybrid monitor), boots each board's image, runs, and reports.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "filestore.h"
#include "output_errors.h"
#include "machine.h"
#include "restore_at_start.h"
#include "rsp_server.h"
#include "snapshot_file.h"
#include "snapshot_point.h"
#include "monitor_decoder.h"
#include "install_paths.h"
#include "host_file.h"
#include "version.h"

namespace {

using namespace testbed;

// A machine the host cannot hold is refused before it is built, with the estimate. Board RAM is
// allocated as the guests touch it, so the worst case is every board's RAM in full, plus the
// model of each board (machine-bench: 256 idle boards take about 311 MiB, some 1.2 MiB each).
// TESTBED_HOST_MEMORY_MB stands in for the host's memory (tests of this refusal).
void check_fits_host(const MachineSpec& spec) {
  constexpr uint64_t kModelPerBoard = 2ull << 20;
  uint64_t need = 0, ram = 0;
  for (const auto& b : spec.boards) {
    need += b.ram_bytes + kModelPerBoard;
    ram += b.ram_bytes;
  }
  uint64_t host = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  if (const char* e = std::getenv("TESTBED_HOST_MEMORY_MB")) {
    char* end = nullptr;
    unsigned long long mb = std::strtoull(e, &end, 10);
    if (!*e || *end) throw std::runtime_error(std::string("TESTBED_HOST_MEMORY_MB='") + e + "': not a whole number");
    host = uint64_t(mb) << 20;
  }
  if (need <= host) return;
  std::ostringstream m;
  m << "the machine (" << spec.boards.size() << " boards, " << (ram >> 20) << " MiB of board RAM in all) needs up to "
    << (need >> 20) << " MiB on the host, more than its " << (host >> 20)
    << " MiB: refused (fewer boards or less RAM per board)";
  throw std::runtime_error(m.str());
}

// A command-line value as a TOML basic string, every character as typed: the settings'
// checks then see the value itself (`--out 'a\b'` is a backslash, not TOML's backspace escape).
std::string toml_string(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", unsigned(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The phases of the local-communication FSM (seed 000 Figure 5) in the decoded trace, per board.
void report_local_comms(std::ostream& os, const testbed::monitor_decoder::Result& res, unsigned n_smi,
                        uint64_t tick_ps) {
  namespace md = testbed::monitor_decoder;
  std::vector<md::LocalComms> lc = md::local_comms(res, n_smi);
  bool any = false;
  auto us = [tick_ps](double ticks) { return ticks * double(tick_ps) * 1e-6; };
  auto line = [&](const char* what, const md::PhaseStats& p) {
    os << "monitor:   " << std::left << std::setw(46) << what << std::right << std::setw(6) << p.count
       << std::fixed << std::setprecision(1) << std::setw(10) << us(double(p.min)) << " / " << us(p.mean()) << " / "
       << us(double(p.max)) << std::defaultfloat << "\n";
  };
  for (unsigned b = 1; b <= n_smi; ++b) {
    const md::LocalComms& c = lc[b];
    if (!c.messages && !c.broken) continue;
    any = true;
    os << "monitor: board " << b << ": local communication (Figure 5): " << c.messages
       << " messages (TRAP7 TRAP70 TRAP7 TRAP72), " << c.broken << " broken sequences"
       << (c.open ? ", the trace ends inside one" : "") << "\n"
       << "monitor:   phase" << std::string(41, ' ') << " count   us min / mean / max\n";
    line("service of the first request  TRAP7 -> TRAP70", c.first);
    line("service of the second request TRAP7 -> TRAP72", c.second);
    line("total communication     first TRAP7 -> TRAP72", c.total);
    os << "monitor:   (in `local` the receiver asks first: the second request is the sender's, its service "
          "includes the copy: Figure 9)\n";
  }
  if (!any) os << "monitor: local communication (Figure 5): no TRAP7 / TRAP70 / TRAP72 in the trace\n";
}

// How the boards' speculative runs spread over the host's threads (issue #36). The runs sent to
// the pool and those done again after a device access are the same with any number of threads;
// which thread ran each is the host's business, like the host time below.
void report_threads(Machine& m, std::ostream& os) {
  SpeculationPool* pool = SpeculationPool::instance();
  if (!pool) return;
  uint64_t offloaded = 0, aborted = 0, on_workers = 0, joining = 0;
  for (size_t i = 0; i < m.spec().boards.size(); ++i) {
    const SpeculativeEngine& s = m.board(i).cpu().speculation();
    offloaded += s.runs_offloaded();
    aborted += s.runs_aborted();
    on_workers += s.ran_on_worker();
    joining += s.ran_joining();
  }
  os << "threads: " << pool->threads() << " host thread(s) for the speculative runs; " << offloaded
     << " runs sent to them (" << aborted << " done again on the kernel's thread after a device access); ran "
     << on_workers << " on the pool's threads, " << joining << " on the kernel's thread while joining; "
     << pool->wakes() << " wake-ups of a sleeping worker\n";
}

// The master's monitor log arrives over the LAN link as out_dir/monitor.raw: decode it into a
// time-ordered trace and per-board VCDs, and judge it against the probe's ground truth.
int report_monitor(Machine& m, std::ostream& os, double host_seconds) {
  namespace fs = std::filesystem;
  namespace md = testbed::monitor_decoder;
  const auto& spec = m.spec();
  fs::path raw = fs::path(spec.out_dir) / "monitor.raw";
  auto& params = spec.mon.params;
  const monitor::RecordingProbe* probe = m.probe();
  int rc = 0;
  std::vector<uint64_t> written(params.n_smi + 1), lost(params.n_smi + 1), decoded(params.n_smi + 1);
  if (probe)
    for (auto& r : probe->records) {
      ++written[r.smi];
      if (!r.kept) ++lost[r.smi];
    }
  md::Result res;
  // Only a stream the guest sent during this run is decoded: one left in the folder by an
  // earlier run is not this run's.
  bool have_raw = m.received("monitor.raw") && fs::exists(raw);
  bool stale_raw = !have_raw && fs::exists(raw);
  if (have_raw) {
    std::vector<uint8_t> bytes = testbed::read_host_file(raw.string(), "the monitor's raw stream");
    md::Options opt;
    opt.n_smi = params.n_smi;
    opt.tick_ps = uint64_t(spec.mon.clock_period.to_seconds() * 1e12 + 0.5) * params.tick_div;
    res = md::decode_bytes(bytes, opt);
    // Each result file is checked when closed: a failed write is recorded (output_errors.h).
    auto check = [](std::ofstream& o, const fs::path& path) {
      if (o.is_open()) o.close();
      if (!o) output::failed(path.string(), std::string("could not be written: ") + std::strerror(errno ? errno : EIO));
    };
    fs::path txt_path = fs::path(spec.out_dir) / "monitor.trace.txt";
    std::ofstream txt(txt_path);
    md::write_text(txt, res, opt);
    check(txt, txt_path);
    fs::path bin_path = fs::path(spec.out_dir) / "monitor.trace.bin";
    std::ofstream bin(bin_path, std::ios::binary);
    md::write_binary(bin, res, opt);
    check(bin, bin_path);
    for (unsigned b = 1; b <= params.n_smi; ++b) {
      fs::path vcd_path = fs::path(spec.out_dir) / ("events." + std::to_string(b) + ".vcd");
      std::ofstream vcd(vcd_path);
      md::write_vcd(vcd, res, b, opt);
      check(vcd, vcd_path);
    }
    for (auto& e : res.events)
      if (!e.marker && e.board <= params.n_smi) ++decoded[e.board];
    if (!res.ok) {
      os << "monitor: decoding " << raw.string() << " stopped: " << res.error << "\n";
      rc = 1;
    }
  }
  // Latency: write to the event word landing in the MMI FIFO, in microseconds.
  double us_per_clock = spec.mon.clock_period.to_seconds() * 1e6;
  os << "monitor: board   written    lost  decoded   latency us (min / mean / max)\n";
  for (unsigned b = 1; b <= params.n_smi; ++b) {
    static const MonitorLatency::Stats none;
    const auto& l = m.latency() ? m.latency()->stats(b) : none;
    os << "monitor: " << std::setw(5) << b << std::setw(10) << (probe ? std::to_string(written[b]) : "-")
       << std::setw(8) << (probe ? std::to_string(lost[b]) : "-")
       << std::setw(9) << (have_raw ? std::to_string(decoded[b]) : "-");
    if (l.count)
      os << std::fixed << std::setprecision(1) << std::setw(11) << double(l.min) * us_per_clock << " / "
         << l.mean() * us_per_clock << " / " << double(l.max) * us_per_clock << std::defaultfloat;
    os << "\n";
    if (probe && have_raw && decoded[b] + lost[b] != written[b]) {
      os << "monitor: board " << b << ": decoded + lost != written: events went missing\n";
      rc = 1;
    }
  }
  if (probe)
    for (unsigned b = 1; b < probe->filtered.size(); ++b)
      if (probe->filtered[b])
        os << "monitor: board " << b << ": " << probe->filtered[b]
           << " words dropped by its SMI's event filter (by choice: neither written to the FIFO nor lost)\n";
  if (m.tlm_monitor())
    os << "monitor: MMI stalled " << m.tlm_monitor()->engine().stall_clocks() << " clocks on a full FIFO\n";
  else
  {
    // Co-simulation speed: the RTL is clocked every monitor clock of the run.
    double clocks = sc_core::sc_time_stamp() / spec.mon.clock_period;
    os << "monitor: the verilated RTL monitor ran (no probe: written/lost/latency come from the TLM model)\n"
       << "monitor: co-simulation: " << uint64_t(clocks) << " RTL clocks in " << host_seconds
       << " host s, RTL cycles/s " << uint64_t(clocks / std::max(host_seconds, 1e-9)) << "\n";
  }
  if (!have_raw) {
    os << "monitor: the master sent no monitor.raw over its LAN link"
       << (stale_raw ? " (the one in the folder is from an earlier run: not used)" : "") << "\n";
  } else {
    os << "monitor: decoded " << res.events_excluding_markers() << " events and " << res.markers
       << " wrap markers from " << res.words << " words -> " << spec.out_dir << "/monitor.trace.txt\n";
    report_local_comms(os, res, params.n_smi,
                       uint64_t(spec.mon.clock_period.to_seconds() * 1e12 + 0.5) * params.tick_div);
  }
  return rc;
}

// ---- the run's steps ------------------------------------------------------------------------

struct Options {
  std::string config_path = testbed::installed_or(TESTBED_DEFAULT_CONFIG, "configs/testbed.toml");
  std::vector<std::string> sets;
  std::string firmware_dir = testbed::installed_or(TESTBED_FIRMWARE_DIR, "firmware");
  std::string out_dir, console;
  double stop_ms = -1;
  std::string input;
  bool interactive = false;
  int console_tcp = -1;
  int threads = -1;
  std::string gdb_spec;
  std::string snapshot, restore;  // README "Snapshots"
  double snapshot_ms = -1;
  bool snapshot_at_prompt = false;
};

// -1: go on; otherwise the exit code (--help, --version: 0; a bad option or value: 2).
int parse_options(int argc, char** argv, Options& o) {
  CLI::App app{"The Edinburgh Testbed multicomputer: boards, Centrenet and the hybrid monitor"};
  app.set_version_flag("--version", testbed::version_line("testbed"), "print the version and git commit, then exit");
  app.add_option("config", o.config_path, "machine configuration (TOML)")->capture_default_str();
  app.add_option("--set", o.sets, "override a setting: --set cpu.clock_mhz=8 (repeatable)");
  app.add_option("--firmware-dir", o.firmware_dir, "where image names are looked up")->capture_default_str();
  app.add_option("--out", o.out_dir, "output folder (console logs, monitor trace, VCDs)");
  app.add_option("--console", o.console, "board whose console is the terminal (or none)");
  app.add_option("--stop-ms", o.stop_ms, "simulated time limit in ms (0: until every board exits; else 0.001..1e9)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            double d = 0;
            if (!CLI::detail::lexical_cast(v, d) || !std::isfinite(d) || d < 0 || d > 1e9 || (d > 0 && d < 0.001))
              return "'" + v + "': expected 0 (until every board exits) or a number of ms from 0.001 to 1e9";
            return "";
          },
          "MS"));
  app.add_option("--input", o.input, "a file typed at the operator's console (the master's shell)");
  app.add_option("--console-tcp", o.console_tcp,
                 "the operator's console also on 127.0.0.1:PORT (nc 127.0.0.1 PORT), in real time")
      ->check(CLI::Range(1, 65535));
  app.add_flag("--interactive", o.interactive,
               "this terminal is the operator's console (raw; the master's shell, switched in TOS with "
               "`console BOARD`); Ctrl-] ends the run");
  app.add_option("--threads", o.threads,
                 "host threads for the boards' speculative runs (run.threads; 0: the host's cores); "
                 "every output is the same whatever the number")
      ->check(CLI::Range(0, int(CpuTiming::kMaxThreads)));
  app.add_option("--gdb", o.gdb_spec,
                 "GDB remote stub: board i on 127.0.0.1:PORT+i (PORT[,nowait][,noreverse]; waits for a gdb to "
                 "attach unless nowait; reverse execution unless noreverse); README 'Debugging with gdb'");
  auto* snap = app.add_option("--snapshot", o.snapshot,
                              "save the machine to FILE at --snapshot-ms (the first instant at or after it at which "
                              "every process can be resumed) and run on; README 'Snapshots'");
  auto* snap_ms = app.add_option("--snapshot-ms", o.snapshot_ms, "when to save the --snapshot, in ms of simulated time")
                      ->check(CLI::Range(0.0, 1e9));
  auto* snap_prompt = app.add_flag("--snapshot-at-prompt", o.snapshot_at_prompt,
                                   "save the --snapshot when the session script's first prompt has appeared, before "
                                   "it types: the machine booted, for runs with other scripts to --restore");
  snap_ms->excludes(snap_prompt);
  snap_ms->needs(snap);
  snap_prompt->needs(snap);
  app.add_option("--restore", o.restore, "start from a snapshot of this machine (the same configuration and images)");
  try {
    app.parse(argc, argv);
    if (!o.snapshot.empty() && o.snapshot_ms < 0 && !o.snapshot_at_prompt)
      throw CLI::RequiresError("--snapshot needs --snapshot-ms or --snapshot-at-prompt", CLI::ExitCodes::RequiresError);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help: 0; a bad option or value: 2 (bad input), as every tool
  }
  return -1;
}

// The configuration file with the command line's settings over it, as TOML overrides.
Config configuration(const Options& o) {
  Config cfg = Config::from_file(o.config_path);
  for (auto& s : o.sets) cfg.apply_override(s);
  if (!o.out_dir.empty()) cfg.apply_override("run.out_dir=" + toml_string(o.out_dir));
  if (!o.console.empty()) cfg.apply_override("run.console=" + toml_string(o.console));
  if (o.stop_ms >= 0) {
    std::ostringstream v;
    v << std::setprecision(17) << o.stop_ms;
    std::string text = v.str();
    if (text.find_first_of(".e") == std::string::npos) text += ".0";  // a TOML float
    cfg.apply_override("run.stop_ms=" + text);
  }
  if (!o.input.empty()) cfg.apply_override("run.input=" + toml_string(o.input));
  if (o.console_tcp > 0) cfg.apply_override("run.console_tcp=" + std::to_string(o.console_tcp));
  if (o.threads >= 0) cfg.apply_override("run.threads=" + std::to_string(o.threads));
  if (o.interactive) {
    cfg.apply_override("run.interactive=true");
    if (o.console.empty()) cfg.apply_override("run.console=\"master\"");
  }
  cfg.apply_profile();
  return cfg;
}

// --gdb PORT[,nowait][,noreverse]: a stub per board on PORT+i (nullptr without --gdb).
std::unique_ptr<gdb::GdbServer> start_gdb(const std::string& gdb_spec, Machine& machine, const MachineSpec& spec) {
  if (gdb_spec.empty()) return nullptr;
  gdb::GdbOptions g = gdb::parse_gdb_options(gdb_spec, machine.board_count());
  int port = g.port;
  bool wait = g.wait;
  std::vector<Board*> boards;
  std::vector<std::string> images;
  for (size_t i = 0; i < machine.board_count(); ++i) {
    boards.push_back(&machine.board(i));
    images.push_back(i < spec.boards.size() ? spec.boards[i].image : "");
  }
  auto server = std::make_unique<gdb::GdbServer>("gdb", boards, port, wait, images, g.reverse);
  machine.disable_progress_watch();  // a debugger holds boards as long as it likes
  std::cerr << "testbed: gdb stub on 127.0.0.1:" << port << "+i";
  for (size_t i = 0; i < machine.board_count(); ++i)
    std::cerr << (i ? ", " : " (") << machine.board(i).basename() << " " << port + int(i);
  std::cerr << ")" << (wait ? ", waiting for gdb to attach" : "") << std::endl;
  return server;
}

// The operator's session is over: the run ends as the person would leave the machine. The shells
// waiting for input are expected; any other program still alive is named.
void report_session_over(Machine& machine, const MachineSpec& spec) {
  std::ostringstream stopped;
  for (size_t i = 0; i < machine.board_count(); ++i) {
    std::string procs = machine.tos_processes(i), others;
    size_t a = 0;
    while (a < procs.size()) {
      size_t e = procs.find(", ", procs.find(')', a));
      std::string one = procs.substr(a, e == std::string::npos ? std::string::npos : e - a);
      if (one.rfind("sh (", 0) != 0) others += (others.empty() ? "" : ", ") + one;
      a = e == std::string::npos ? procs.size() : e + 2;
    }
    if (!others.empty()) stopped << "testbed:   " << machine.board(i).basename() << ": " << others << "\n";
  }
  std::cout << "testbed: the session script is done and for " << spec.script_idle
            << " nothing progressed (run.script_idle_ms): the session is over, the run ends at "
            << sc_core::sc_time_stamp() << "\n";
  if (!stopped.str().empty())
    std::cout << "testbed: programs still there, stopped with the run (waiting for what no one will send):\n"
              << stopped.str();
}

// Why the run stopped when it was not every board finishing: no progress, a session script
// stuck, or the session over. 1 when the stop is a failure.
int report_stop(Machine& machine, const MachineSpec& spec) {
  int rc = 0;
  if (machine.stalled()) {
    std::ostringstream m;
    m << "testbed: no progress since " << machine.last_progress() << ": for " << spec.no_progress
      << " of simulated time no board ran a user thread, wrote to its console, used Centrenet or the LAN link, "
         "or finished. The machine is deadlocked or waits for what cannot come; stopped at "
      << sc_core::sc_time_stamp() << " (run.no_progress_ms). Each board's state is below.\n";
    std::cout << m.str();
    std::cerr << "testbed: stopped at " << sc_core::sc_time_stamp() << ": no progress for " << spec.no_progress
              << " (run.no_progress_ms); each board's state is in the summary\n";
    rc = 1;
  }
  if (!machine.script_stuck().empty()) {
    std::ostringstream m;
    m << "testbed: the session script's " << machine.script_stuck() << " has waited " << spec.script_wait
      << " (run.script_wait_ms); stopped at " << sc_core::sc_time_stamp()
      << ". A program's output is not the shell's prompt: `@wait TEXT` before the line waits for the program's\n";
    std::cout << m.str();
    std::cerr << m.str();
    rc = 1;
  }
  if (machine.script_ended()) report_session_over(machine, spec);
  return rc;
}

// A line per board: how it ended, what it ran, its console's first line. 1 when one failed.
int report_boards(Machine& machine, const MachineSpec& spec) {
  int rc = 0;
  for (size_t i = 0; i < machine.board_count(); ++i) {
    Board& b = machine.board(i);
    const BoardResult& r = b.result();
    std::cout << "board " << std::left << std::setw(8) << b.basename() << std::right;
    if (!r.halt_reason.empty()) {
      std::cout << "HALTED at " << std::fixed << std::setprecision(3) << r.time.to_seconds() * 1e3
                << std::defaultfloat << " ms: " << r.halt_reason;
      rc = 1;
    } else if (r.finished) {
      std::cout << (r.succeeded() ? "finished" : "FAILED, exit code " + std::to_string(r.exit_code));
      if (!r.succeeded()) rc = 1;
    } else {
      std::cout << "still running (" << machine.board_state(i) << ")";
      std::string procs = machine.tos_processes(i);
      if (!procs.empty()) std::cout << ", TOS processes: " << procs;
      if (spec.stop_time == sc_core::SC_ZERO_TIME && !machine.script_ended()) rc = 1;
    }
    std::cout << "  " << b.cpu().core().instructions() << " instructions, " << b.cpu().core().cycles()
              << " cycles (" << b.cpu().core().stopped_cycles() << " stopped), console "
              << machine.console_bytes(i) << " bytes";
    if (b.cpu().exact())
      std::cout << ", exact: " << b.cpu().commits() << " commits, " << b.cpu().rollbacks() << " rollbacks";
    std::cout << "\n";
    if (!machine.console_first_line(i).empty())
      std::cout << "      " << std::left << std::setw(8) << "" << std::right << "console: "
                << machine.console_first_line(i) << "\n";
  }
  return rc;
}

// Once the machine's own files are closed, every write error of the run is known
// (output_errors.h): 3 when one failed or the summary could not be written, else `rc`.
int exit_code_after_output(const MachineSpec& spec, int rc) {
  std::cout << "results in " << spec.out_dir << "/\n";
  std::cout.flush();
  for (auto& f : output::failures())
    std::cerr << "testbed: output error: " << f.path << ": " << f.why << "\n";
  if (!output::failures().empty()) {
    std::cerr << "testbed: " << output::failures().size()
              << " output file(s) could not be written; the rest of the results are in " << spec.out_dir << "/\n";
    return 3;
  }
  if (!std::cout) {
    std::cerr << "testbed: writing the run's summary to standard output failed\n";
    return 3;
  }
  return rc;
}

// Builds the machine, runs it, and writes the summary; the exit code.
// A digest of what defines the machine (snapshot_file.h): its description, images and filestores.
// The session script is not in it: the operator console's state checks it (the same script, or
// any that begins as the snapshot's when that had typed nothing: a booted snapshot).
std::string machine_digest(const MachineSpec& spec) {
  std::ostringstream text;
  spec.print(text);
  snapshot::Digest d;
  d.add(text.str());
  for (auto& b : spec.boards) {
    d.add_file(b.image);
    if (!b.filestore.empty()) d.add_file(b.filestore);
  }
  return d.hex();
}

snapshot::Header snapshot_header(const MachineSpec& spec) { return snapshot::header_for("testbed", machine_digest(spec)); }

// A snapshot to `file`: the run to the first instant at or after `at` at which the machine can be
// saved (--snapshot-ms, or now for gdb's `monitor snapshot`), and the file; false after a message
// when it cannot be.
bool save_machine(const std::string& file, sc_core::sc_time at, const MachineSpec& spec, Machine& machine,
                  bool before_script = false) {
  sc_core::sc_time end = spec.stop_time == sc_core::SC_ZERO_TIME ? sc_core::sc_max_time() : spec.stop_time;
  if (!snapshot::run_to_rest(at, end, [&] { return machine.at_rest(); })) {
    std::cerr << "testbed: the run ended before " << at << ": no snapshot " << file << " written\n";
    return false;
  }
  if (before_script && machine.script_begun()) {  // the receiver's next poll came before the machine rested
    std::cerr << "testbed: the session script typed before the machine came to rest after its first prompt (at "
              << sc_core::sc_time_stamp() << "): no booted snapshot " << file
              << " written; take one with --snapshot-ms before the prompt\n";
    return false;
  }
  try {
    auto t0 = std::chrono::steady_clock::now();
    StateArchive a;
    machine.state(a);
    a.finish();
    snapshot::Header h = snapshot_header(spec);
    h.time_ps = sc_core::sc_time_stamp().value();
    snapshot::write(file, h, a.data());
    std::cerr << "testbed: snapshot " << file << " at " << sc_core::sc_time_stamp() << " (" << a.data().size()
              << " bytes of state; consoles at bytes";
    for (size_t i = 0; i < machine.board_count(); ++i) std::cerr << (i ? "," : " ") << machine.console_bytes(i);
    std::cerr << "; " << machine.script_progress() << ")\ntestbed: snapshot saved in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3 << " ms of host time"
              << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "testbed: " << e.what() << "\n";
    return false;
  }
  return true;
}

// A booted snapshot (--snapshot-at-prompt): the run to the instant the session script's first
// prompt appears, where the operator console pauses the kernel; false after a message when the
// run ends first or there is no script.
bool run_to_first_prompt(const MachineSpec& spec, Machine& machine) {
  if (spec.input.empty()) {
    std::cerr << "testbed: --snapshot-at-prompt needs a session script (--input, run.input): no snapshot written\n";
    return false;
  }
  machine.pause_at_first_prompt();
  sc_core::sc_time end = spec.stop_time == sc_core::SC_ZERO_TIME ? sc_core::sc_max_time() : spec.stop_time;
  if (end == sc_core::sc_max_time()) sc_core::sc_start();  // to the console's pause, or the run's end
  else sc_core::sc_start(end - sc_core::sc_time_stamp());
  if (sc_core::sc_get_status() != sc_core::SC_PAUSED || sc_core::sc_time_stamp() >= end) {
    std::cerr << "testbed: the run ended at " << sc_core::sc_time_stamp()
              << " before the session script's first prompt appeared: no snapshot written\n";
    return false;
  }
  return true;
}

void restore_machine(const Options& o, const MachineSpec& spec, Machine& machine, gdb::GdbServer* gdb_server) {
  auto t0 = std::chrono::steady_clock::now();
  snapshot::Header got;
  std::vector<uint8_t> bytes = snapshot::read(o.restore, snapshot_header(spec), &got);
  StateArchive a(bytes, sc_core::sc_time::from_value(got.time_ps));
  machine.state(a);
  a.finish();
  if (gdb_server) {  // the debugger's session is this run's, not the snapshot's
    gdb_server->restored_at(a.when());
    machine.disable_progress_watch();
  }
  std::cerr << "testbed: restored " << o.restore << " at " << a.when() << " in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3 << " ms of host time"
            << std::endl;
}

int run(const Options& o) {
  MachineSpec spec = MachineSpec::from_config(configuration(o), o.firmware_dir);
  check_fits_host(spec);
  spec.print(std::cout);
  auto machine_owner = std::make_unique<Machine>("testbed", spec);
  Machine& machine = *machine_owner;
  std::unique_ptr<gdb::GdbServer> gdb_server = start_gdb(o.gdb_spec, machine, spec);
  std::cout << "----- console of " << (spec.console.empty() ? "no board" : spec.console) << " -----"
            << std::endl;
  std::string why_not = Machine::cannot_save(spec);
  if ((!o.snapshot.empty() || !o.restore.empty()) && !why_not.empty()) {
    std::cerr << "testbed: snapshot: " << why_not << "\n";
    return 2;
  }
  if (gdb_server) gdb_server->allow_snapshots(why_not);
  std::unique_ptr<RestoreAtStart> restorer;
  if (!o.restore.empty())
    restorer = std::make_unique<RestoreAtStart>("restore", [&] { restore_machine(o, spec, machine, gdb_server.get()); });
  auto t0 = std::chrono::steady_clock::now();
  if (o.snapshot_at_prompt &&
      (!run_to_first_prompt(spec, machine) || !save_machine(o.snapshot, sc_core::sc_time_stamp(), spec, machine, true)))
    return 2;
  if (o.snapshot_ms >= 0 && !save_machine(o.snapshot, sc_core::sc_time(o.snapshot_ms, sc_core::SC_MS), spec, machine))
    return 2;
  // gdb's `monitor snapshot FILE` (the server paused the kernel): saved, and the run goes on.
  machine.run([&] {
    if (std::string file = gdb_server ? gdb_server->take_snapshot_request() : ""; !file.empty())
      save_machine(file, sc_core::sc_time_stamp(), spec, machine);
  });
  if (restorer && !restorer->error().empty()) {
    std::cerr << "testbed: " << restorer->error() << "\n";
    return 2;
  }
  double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "----- end of run at " << sc_core::sc_time_stamp() << " -----\n";
  machine.write_cycle_profiles(std::cout);
  int rc = report_stop(machine, spec);
  rc |= report_boards(machine, spec);
  machine.network().report(std::cout);
  rc |= report_monitor(machine, std::cout, host_seconds);
  report_threads(machine, std::cout);
  std::cout << std::fixed << std::setprecision(3) << "host: " << host_seconds << " s for "
            << sc_core::sc_time_stamp().to_seconds()
            << " s simulated\n";
  // The machine's own files (console logs, trace dumps) are closed with it.
  gdb_server.reset();  // it names the boards: it goes before them
  machine_owner.reset();
  return exit_code_after_output(spec, rc);
}

}  // namespace

int sc_main(int argc, char** argv) {
  Options o;
  if (int rc = parse_options(argc, argv, o); rc >= 0) return rc;
  try {
    return run(o);
  } catch (const ConfigError& e) {
    std::cerr << "testbed: configuration error: " << e.what() << "\n";
  } catch (const ElfError& e) {
    std::cerr << "testbed: image error: " << e.what() << "\n";
  } catch (const filestore::FilestoreError& e) {
    std::cerr << "testbed: filestore error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "testbed: " << e.what() << "\n";
  }
  return 2;
}
