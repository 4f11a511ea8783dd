// The one reader of a board's settings in a machine file (testbed.toml, board.toml).
#include "board.h"
#include "config.h"

namespace testbed {

void BoardConfig::read(const Config& cfg) {
  Config cpu = cfg.section("cpu");
  model = cpu.get_choice("model", model == m68k::Model::MC68000 ? "68000" : "68010", {"68000", "68010"}) == "68000"
              ? m68k::Model::MC68000
              : m68k::Model::MC68010;
  clock_hz = cpu.get_double("clock_mhz", clock_hz / 1e6, 0.1, 1000.0) * 1e6;
  fast_path = cpu.get_bool("fast_path", fast_path);

  Config bd = cfg.section("board");
  ram_bytes = uint32_t(bd.get_int("ram_kb", ram_bytes / 1024, 1, TB_RAM_MAX_BYTES / 1024)) * 1024;
  ram_wait_states = unsigned(bd.get_int("ram_wait_states", ram_wait_states, 0, 64));
  rom_wait_states = unsigned(bd.get_int("rom_wait_states", rom_wait_states, 0, 64));
  io_wait_states = unsigned(bd.get_int("io_wait_states", io_wait_states, 0, 64));
  mmu_walk_clocks = unsigned(bd.get_int("mmu_walk_clocks", mmu_walk_clocks, 0, 1000));
  timer_tick_hz = uint32_t(bd.get_int("timer_tick_hz", timer_tick_hz, 1, 1000000000));
  console_baud = uint32_t(bd.get_int("console_baud", console_baud, 50, 10000000));
  link_baud = uint32_t(bd.get_int("link_baud", link_baud, 50, 10000000));
}

void BoardConfig::read_identity(const Config& cfg) {
  Config bd = cfg.section("board");
  id = uint16_t(bd.get_int("id", id, 0, 15));
  master = bd.get_bool("master", master);
  node = uint16_t(bd.get_int("node", node, 0, 65535));
}

}  // namespace testbed
