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

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include "version.h"

using namespace testbed;

namespace {
int result(Board& b, const BoardOptions& o, gdb::GdbServer* gdb_server);
}  // namespace

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "testbed-board")) return 0;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(BoardOptions::usage().c_str(), stdout);
      std::fputs("\n  --gdb PORT[,nowait][,noreverse]  the GDB remote stub on 127.0.0.1:PORT (waits for gdb unless nowait;\n"
                 "                    reverse execution unless noreverse)\n", stdout);
      std::fputs("\nexit status: 0 the guest wrote 1 to SIMCTL EXIT; 2 a bad image, configuration or option; 3 the CPU "
                 "halted; 4 --max-cycles passed without EXIT; 5 killed from gdb; 6 an output file (--vcd, console file:) "
                 "could not be written; another guest failure code: that code (2..255, else 1)\n", stdout);
      return 0;
    }
  // --gdb PORT[,nowait][,noreverse]: the GDB remote stub on 127.0.0.1:PORT (sim/gdb,
  // gdb::parse_gdb_options).
  std::vector<std::string> args;
  std::string gdb_spec;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--gdb" && i + 1 >= argc) {
      std::fprintf(stderr, "testbed-board: error: --gdb needs PORT[,nowait][,noreverse]\n");
      return 2;
    }
    if (a == "--gdb") gdb_spec = argv[++i];
    else if (!a.rfind("--gdb=", 0)) gdb_spec = a.substr(6);
    else args.push_back(a);
  }
  BoardOptions o;
  std::unique_ptr<SerialEndpoint> console, link;
  std::unique_ptr<BusVcd> vcd;
  std::unique_ptr<Board> board;
  std::unique_ptr<gdb::GdbServer> gdb_server;  // after the board: it goes first
  try {
    o.parse(args);
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
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "testbed-board: error: %s\n", e.what());
    return 2;
  }
  sc_core::sc_time period = board->cpu().clock_period();
  if (o.max_cycles) sc_core::sc_start(period * double(o.max_cycles));
  else sc_core::sc_start();
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
