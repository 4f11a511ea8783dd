// One board as a gdb target: its registers (d0-d7, a0-a7, sr, pc as gdb's m68k core feature
// lays them out), memory through the board's debug path (transport_dbg: no timing, no side
// effects on the fault registers), breakpoints checked by the core before each instruction,
// watchpoints checked on the board's bus (the watched pages are kept off the fast path), and
// the single step. The server (rsp_server.h) decides when the machine runs.
#pragma once
#include "board.h"
#include "cpu_debug.h"

#include <cstdint>
#include <string>
#include <vector>

namespace testbed::gdb {

class GdbServer;

class GdbTarget : public CpuDebugHook {
 public:
  // Where breakpoints and watchpoints apply and which space memory accesses use by default.
  enum class Space { Supervisor, User, Any };
  enum class StopKind { None, Breakpoint, Watchpoint, Step };

  GdbTarget(GdbServer& server, Board& board, int index);
  ~GdbTarget() override;

  Board& board() { return board_; }
  int index() const { return index_; }
  m68k::Cpu& core() { return board_.cpu().core(); }

  static constexpr int kRegs = 18;  // d0-d7, a0-a7, ps (sr), pc
  uint32_t reg(int n);
  void set_reg(int n, uint32_t v);

  // Memory through the debug path; `user` selects FC 1 (through the MMU). Returns bytes done.
  unsigned read(uint32_t addr, uint8_t* buf, unsigned len, bool user);
  unsigned write(uint32_t addr, const uint8_t* buf, unsigned len, bool user);

  // type: 0/1 breakpoint, 2 write, 3 read, 4 access watchpoint. False if not supported.
  bool insert(int type, uint32_t addr, uint32_t len);
  bool remove(int type, uint32_t addr, uint32_t len);
  void clear_all();
  void set_space(Space s) { space_ = s; }
  Space space() const { return space_; }

  // Resume (step: exactly one instruction, then stop).
  void resume(bool step);
  // What stopped the board since it was resumed (None if nothing): taken by the server.
  StopKind stop_kind() const { return stop_; }
  uint32_t stop_address() const { return stop_addr_; }
  int stop_watch_type() const { return stop_watch_type_; }
  void clear_stop() { stop_ = StopKind::None; }
  bool started() const { return started_; }  // its CPU has reached its first boundary

  // CpuDebugHook
  void boundary() override;
  void access(const m68k::BusAccess& a, unsigned len) override;
  bool keep_off_fast_path(uint32_t base, bool supervisor) override;

 private:
  struct Point {
    int type;
    uint32_t addr, len;
    Space space;
  };
  bool matches(Space s, bool supervisor) const {
    return s == Space::Any || (s == Space::Supervisor) == supervisor;
  }
  bool check(uint32_t pc, bool supervisor);
  void update_check();
  void refresh_prefetch();

  GdbServer& server_;
  Board& board_;
  int index_;
  Space space_ = Space::Supervisor;
  std::vector<Point> breaks_, watches_;
  bool started_ = false, stepping_ = false, first_ = false, memory_written_ = false;
  uint32_t resume_pc_ = 0;
  StopKind stop_ = StopKind::None;
  uint32_t stop_addr_ = 0;
  int stop_watch_type_ = 0;
};

}  // namespace testbed::gdb
