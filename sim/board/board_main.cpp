// testbed-board: one Testbed processor board running an image.
//   testbed-board [--config sim/configs/board.toml] [--filestore STORE.fs] [options] IMAGE.elf
// Exit status: 0 when the guest writes 1 to SIMCTL EXIT; the guest's code (2..255, else 1)
// for another value; 3 when the CPU halts; 4 when --max-cycles pass without EXIT; 5 when gdb
// killed it (--gdb); 6 when an output file could not be written (a full disk); 2 for a bad image, configuration or option (with a message saying what and
// where).
#include "board.h"
#include "board_options.h"
#include "bus_vcd.h"
#include "console_endpoints.h"
#include "file_service.h"
#include "filestore.h"
#include "output_errors.h"
#include "rsp_server.h"
#include "restore_at_start.h"
#include "snapshot_file.h"
#include "snapshot_point.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include "version.h"

using namespace testbed;

namespace {
int result(Board& b, const BoardOptions& o, gdb::GdbServer* gdb_server);

// Snapshots (README "Snapshots"): --snapshot FILE --snapshot-ms MS saves the board at the first
// instant at or after MS at which every process waits where it can be resumed, and runs on;
// --restore FILE starts from one, given the same machine (configuration, image, filestore).
struct SnapshotOptions {
  std::string save, restore;
  double at_ms = -1;
};
bool split_args(int argc, char** argv, std::vector<std::string>& args, std::string& gdb_spec, SnapshotOptions& snap);
bool simulate(Board& board, const BoardOptions& o, const SnapshotOptions& snap, SerialEndpoint* console,
              SerialEndpoint* link, gdb::GdbServer* gdb_server);
std::string cannot_save(const BoardOptions& o);
std::string machine_digest(const BoardOptions& o);
bool save_snapshot(const std::string& file, sc_core::sc_time at, const BoardOptions& o, Board& b,
                   SerialEndpoint* console, SerialEndpoint* link);
void restore_snapshot(const SnapshotOptions& s, const BoardOptions& o, Board& b, SerialEndpoint* console,
                      SerialEndpoint* link, gdb::GdbServer* gdb_server);
}  // namespace

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "testbed-board")) return 0;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(BoardOptions::usage().c_str(), stdout);
      std::fputs("\n  --gdb PORT[,nowait][,noreverse]  the GDB remote stub on 127.0.0.1:PORT (waits for gdb unless nowait;\n"
                 "                    reverse execution unless noreverse)\n", stdout);
      std::fputs("  --snapshot FILE --snapshot-ms MS  save the board at MS of simulated time (or the first instant after\n"
                 "                    it at which it can be saved) and run on\n"
                 "  --restore FILE    start from a snapshot of this machine (same configuration, image, filestore)\n",
                 stdout);
      std::fputs("\nexit status: 0 the guest wrote 1 to SIMCTL EXIT; 2 a bad image, configuration or option; 3 the CPU "
                 "halted; 4 --max-cycles passed without EXIT; 5 killed from gdb; 6 an output file (--vcd, console file:) "
                 "could not be written; another guest failure code: that code (2..255, else 1)\n", stdout);
      return 0;
    }
  // --gdb PORT[,nowait][,noreverse]: the GDB remote stub on 127.0.0.1:PORT (sim/gdb,
  // gdb::parse_gdb_options).
  std::vector<std::string> args;
  std::string gdb_spec;
  SnapshotOptions snap;
  if (!split_args(argc, argv, args, gdb_spec, snap)) return 2;
  BoardOptions o;
  std::unique_ptr<SerialEndpoint> console, link;
  std::unique_ptr<BusVcd> vcd;
  std::unique_ptr<Board> board;
  std::unique_ptr<gdb::GdbServer> gdb_server;  // after the board: it goes first
  std::unique_ptr<RestoreAtStart> restorer;
  try {
    o.parse(args);
    // Refused before anything runs (README "Snapshots").
    if ((!snap.save.empty() || !snap.restore.empty()) && !cannot_save(o).empty()) throw OptionError(cannot_save(o));
    ElfImage image = load_elf(o.image);
    check_board_image(image);
    if (!o.filestore.empty()) {  // one more segment of the image: the board's one loader places it
      std::vector<uint8_t> store = filestore::read_file(o.filestore);
      filestore::check_image(store, o.filestore, o.board.ram_bytes);
      filestore::add_segment(image, store, o.filestore);
    }
    o.timing.apply();
    board = std::make_unique<Board>("board", o.board);
    o.timing.apply(*board);
    board->load_image(image);
    if (o.console == "stdout") console = std::make_unique<ConsoleSink>(stdout);
    else if (!o.console.rfind("file:", 0)) console = std::make_unique<ConsoleSink>(o.console.substr(5), nullptr);
    else if (!o.console.rfind("tcp:", 0)) {
      std::string spec = o.console.substr(4);
      bool wait = spec.find(",nowait") == std::string::npos;
      auto t = std::make_unique<TcpEndpoint>(std::stoi(spec));
      std::fprintf(stderr, "testbed-board: console on 127.0.0.1:%d%s\n", t->port(),
                   wait ? ", waiting for a connection" : "");
      if (wait) t->wait_for_client();
      console = std::move(t);
    }
    board->console().connect(console.get());
    if (o.link != "none") {
      std::string dirs = o.link.substr(6);
      size_t comma = dirs.find(',');
      link = std::make_unique<FileService>(dirs.substr(0, comma), dirs.substr(comma + 1));
      board->link().connect(link.get());
    }
    if (!o.vcd.empty()) {
      vcd = std::make_unique<BusVcd>(o.vcd, "board");
      board->cpu().set_observer(vcd.get());
      board->cpu().set_fast_path(false);  // every bus cycle in the waveform
    }
    if (o.trace_instructions) board->cpu().set_instruction_trace(stdout);
    if (!gdb_spec.empty()) {
      gdb::GdbOptions g;
      try {
        g = gdb::parse_gdb_options(gdb_spec, 1);
      } catch (const std::invalid_argument& e) {
        throw OptionError(e.what());
      }
      gdb_server = std::make_unique<gdb::GdbServer>("gdb", std::vector<Board*>{board.get()}, g.port, g.wait,
                                                    std::vector<std::string>{o.image}, g.reverse);
      std::fprintf(stderr, "testbed-board: gdb stub on 127.0.0.1:%d%s\n", g.port,
                   g.wait ? ", waiting for gdb to attach" : "");
      gdb_server->allow_snapshots(cannot_save(o));
    }
    if (!snap.restore.empty())
      restorer = std::make_unique<RestoreAtStart>(
          "restore", [&] { restore_snapshot(snap, o, *board, console.get(), link.get(), gdb_server.get()); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "testbed-board: error: %s\n", e.what());
    return 2;
  }
  if (!simulate(*board, o, snap, console.get(), link.get(), gdb_server.get())) return 2;
  if (restorer && !restorer->error().empty()) {
    std::fprintf(stderr, "testbed-board: error: %s\n", restorer->error().c_str());
    return 2;
  }
  std::fflush(stdout);
  int rc = result(*board, o, gdb_server.get());
  // The output files are closed with their owners: then every write error is known
  // (output_errors.h), and reported with exit status 6.
  gdb_server.reset();
  board.reset();
  vcd.reset();
  console.reset();
  link.reset();
  for (auto& f : output::failures()) std::fprintf(stderr, "testbed-board: output error: %s: %s\n", f.path.c_str(), f.why.c_str());
  return output::failures().empty() ? rc : 6;
}

namespace {

// Takes --gdb and the snapshot options out of the arguments (the rest are BoardOptions'); false
// after a message when one is bad.
bool split_args(int argc, char** argv, std::vector<std::string>& args, std::string& gdb_spec, SnapshotOptions& snap) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool takes = a == "--gdb" || a == "--snapshot" || a == "--snapshot-ms" || a == "--restore";
    if (takes && i + 1 >= argc) {
      std::fprintf(stderr, "testbed-board: error: %s needs a value\n", a.c_str());
      return false;
    }
    if (a == "--gdb") gdb_spec = argv[++i];
    else if (!a.rfind("--gdb=", 0)) gdb_spec = a.substr(6);
    else if (a == "--snapshot") snap.save = argv[++i];
    else if (a == "--restore") snap.restore = argv[++i];
    else if (a == "--snapshot-ms") {
      char* end = nullptr;
      std::string v = argv[++i];
      snap.at_ms = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(snap.at_ms >= 0 && snap.at_ms < 1e12)) {
        std::fprintf(stderr, "testbed-board: error: --snapshot-ms '%s' is not a time in milliseconds (>= 0)\n", v.c_str());
        return false;
      }
    } else args.push_back(a);
  }
  if (snap.save.empty() != (snap.at_ms < 0)) {
    std::fprintf(stderr, "testbed-board: error: --snapshot FILE and --snapshot-ms MS go together\n");
    return false;
  }
  return true;
}

// What keeps this board from being saved ("" when nothing does; README "Snapshots").
std::string cannot_save(const BoardOptions& o) {
  if (!o.vcd.empty()) return "snapshots and --vcd do not go together yet (README \"Snapshots\")";
  if (!o.console.rfind("tcp:", 0)) return "a TCP console cannot be saved in a snapshot (README \"Snapshots\")";
  return "";
}

// The run to its end (EXIT, a halt, --max-cycles), saving the snapshots on the way (--snapshot,
// gdb's `monitor snapshot`); false after a message when --snapshot cannot be saved.
bool simulate(Board& board, const BoardOptions& o, const SnapshotOptions& snap, SerialEndpoint* console,
              SerialEndpoint* link, gdb::GdbServer* gdb_server) {
  sc_core::sc_time period = board.cpu().clock_period();
  // The run's end is absolute: a restored kernel starts at 0 and its machine at the snapshot's time.
  sc_core::sc_time end = o.max_cycles ? period * double(o.max_cycles) : sc_core::sc_max_time();
  if (!snap.save.empty() && !save_snapshot(snap.save, sc_core::sc_time(snap.at_ms, sc_core::SC_MS), o, board, console, link))
    return false;
  snapshot::run_until(end, [&] {
    if (std::string file = gdb_server ? gdb_server->take_snapshot_request() : ""; !file.empty())
      save_snapshot(file, sc_core::sc_time_stamp(), o, board, console, link);
  });
  return true;
}

std::string machine_digest(const BoardOptions& o) {
  snapshot::Digest d;
  d.add_file(o.image);
  if (!o.filestore.empty()) d.add_file(o.filestore);
  const BoardConfig& b = o.board;
  char text[512];
  std::snprintf(text, sizeof text,
                "id %u master %d node %u boards %u ram %u clock %.17g model %d wait %u %u %u walk %u timer %u baud %u %u "
                "fast %d quantum %.17g exact %d",
                b.id, b.master, b.node, b.boards, b.ram_bytes, b.clock_hz, int(b.model), b.ram_wait_states,
                b.rom_wait_states, b.io_wait_states, b.mmu_walk_clocks, b.timer_tick_hz, b.console_baud, b.link_baud,
                b.fast_path, o.timing.quantum_us, o.timing.exact);
  d.add(std::string(text));
  return d.hex();
}

snapshot::Header header_of(const BoardOptions& o) { return snapshot::header_for("testbed-board", machine_digest(o)); }

// The board, then its serial lines' host sides (present or not, as when it was saved).
void machine_state(StateArchive& a, Board& b, SerialEndpoint* console, SerialEndpoint* link) {
  b.state(a);
  a.section("host sides").expect("console", console != nullptr).expect("link", link != nullptr);
  if (console) console->state(a);
  if (link) link->state(a);
  a.finish();
}

// A snapshot to `file` at the first instant at or after `at` at which the board can be saved;
// false after a message when it cannot be.
bool save_snapshot(const std::string& file, sc_core::sc_time at, const BoardOptions& o, Board& b,
                   SerialEndpoint* console, SerialEndpoint* link) {
  sc_core::sc_time end = o.max_cycles ? b.cpu().clock_period() * double(o.max_cycles) : sc_core::sc_max_time();
  if (!snapshot::run_to_rest(at, end, [&] { return b.at_rest(); })) {
    std::fprintf(stderr, "testbed-board: error: the run ended before %s: no snapshot %s written\n",
                 at.to_string().c_str(), file.c_str());
    return false;
  }
  try {
    StateArchive a;
    machine_state(a, b, console, link);
    snapshot::Header h = header_of(o);
    h.time_ps = sc_core::sc_time_stamp().value();
    snapshot::write(file, h, a.data());
    // The console's byte count: a restored run's console goes on from there.
    const ConsoleSink* sink = dynamic_cast<const ConsoleSink*>(console);
    std::fprintf(stderr, "testbed-board: snapshot %s at %s (%zu bytes of state; console at byte %llu)\n", file.c_str(),
                 sc_core::sc_time_stamp().to_string().c_str(), a.data().size(),
                 (unsigned long long)(sink ? sink->bytes() : 0));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "testbed-board: error: %s\n", e.what());
    return false;
  }
  return true;
}

void restore_snapshot(const SnapshotOptions& s, const BoardOptions& o, Board& b, SerialEndpoint* console,
                      SerialEndpoint* link, gdb::GdbServer* gdb_server) {
  snapshot::Header got;
  std::vector<uint8_t> bytes = snapshot::read(s.restore, header_of(o), &got);
  StateArchive a(bytes, sc_core::sc_time::from_value(got.time_ps));
  machine_state(a, b, console, link);
  if (gdb_server) gdb_server->restored_at(a.when());  // the debugger's session is this run's
  std::fprintf(stderr, "testbed-board: restored %s at %s\n", s.restore.c_str(), a.when().to_string().c_str());
}

// The run's exit status (the header's list) from the board's result, with a message on stderr.
int result(Board& b, const BoardOptions& o, gdb::GdbServer* gdb_server) {
  Board* board = &b;
  const BoardResult& r = board->result();
  if (gdb_server && gdb_server->killed() && !board->cpu().done()) {
    std::fprintf(stderr, "testbed-board: killed from gdb at %s\n", sc_core::sc_time_stamp().to_string().c_str());
    return 5;
  }
  if (!board->cpu().done()) {
    std::fprintf(stderr, "testbed-board: no SIMCTL EXIT within --max-cycles %llu (%s simulated)\n",
                 (unsigned long long)o.max_cycles, sc_core::sc_time_stamp().to_string().c_str());
    return 4;
  }
  std::fprintf(stderr, "testbed-board: %s at %s: %llu cycles, %llu instructions, checksum 0x%08X\n",
               r.halt_reason.empty() ? ("EXIT " + std::to_string(r.exit_code)).c_str() : "CPU halted",
               r.time.to_string().c_str(), (unsigned long long)r.cycles, (unsigned long long)r.instructions,
               unsigned(board->simctl().checksum()));
  if (!r.halt_reason.empty()) {
    std::fprintf(stderr, "testbed-board: CPU halted: %s\n", r.halt_reason.c_str());
    return 3;
  }
  if (r.succeeded()) return 0;
  std::fprintf(stderr, "testbed-board: the guest reported failure code %u (0x%X)\n", unsigned(r.exit_code),
               unsigned(r.exit_code));
  return r.exit_status();
}

}  // namespace
