// board-bench IMAGE [--quantum-us Q] [--clock-mhz F]: boots the reference workload on one board
// (16 MiB flat memory: RAM up to the boot ROM) with the fast path on, and reports how fast the
// simulation runs: emulated MIPS (instructions per host second) and the multiple of real time
// (simulated seconds per host second at the board clock). Last line: "MIPS <value>".
#include "board.h"
#include "board_options.h"

#include <chrono>
#include <cstdio>
#include <string>
#include "version.h"

using namespace testbed;

int sc_main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "board-bench")) return 0;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs("board-bench IMAGE [options]: the reference workload on one board, emulated MIPS and the multiple "
                 "of real time\n", stdout);
      std::fputs(BoardOptions::usage().c_str(), stdout);
      return 0;
    }
  BoardOptions o;
  std::unique_ptr<Board> board;
  try {
    o.parse(std::vector<std::string>(argv + 1, argv + argc));
    if (!o.filestore.empty()) throw OptionError("filestore: board-bench runs the reference workload alone; use testbed-board");
    o.board.ram_bytes = TB_RAM_MAX_BYTES;
    ElfImage image = load_elf(o.image);
    o.timing.apply();
    board = std::make_unique<Board>("board", o.board);
    o.timing.apply(*board);
    board->load_image(image);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "board-bench: error: %s\n", e.what());
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const BoardResult& r = board->result();
  if (!r.finished || r.exit_code != 1) {
    std::fprintf(stderr, "board-bench: the workload did not finish with EXIT 1 (%s)\n",
                 r.halt_reason.empty() ? ("EXIT " + std::to_string(r.exit_code)).c_str() : r.halt_reason.c_str());
    return 1;
  }
  double sim = r.time.to_seconds();
  std::printf("image        %s\n", o.image.c_str());
  std::printf("quantum      %g us, clock %g MHz\n", o.timing.quantum_us, o.board.clock_hz / 1e6);
  std::printf("instructions %llu\n", (unsigned long long)r.instructions);
  std::printf("cycles       %llu\n", (unsigned long long)r.cycles);
  std::printf("checksum     0x%08X\n", unsigned(board->simctl().checksum()));
  std::printf("simulated    %.6f s\n", sim);
  std::printf("host         %.6f s\n", host);
  std::printf("real time    x%.3f\n", sim / host);
  // Where host time can go besides instructions: bus cycles off the fast path, chunks of
  // run_until and waits for the kernel.
  std::printf("slow cycles  %llu\n", (unsigned long long)board->cpu().slow_accesses());
  std::printf("chunks       %llu\n", (unsigned long long)board->cpu().chunks());
  std::printf("syncs        %llu\n", (unsigned long long)board->cpu().syncs());
  std::printf("MIPS %.3f\n", double(r.instructions) / host / 1e6);
  return 0;
}
