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

  // TOS awareness (from the image's symbols `tos_gdb_info`, `procs`, `current`; see
  // firmware/tos/kernel/gdb_info.c). Thread 1 is the CPU itself (the kernel, or whatever runs
  // without TOS); a TOS thread is kTosThread + its TID.
  static constexpr uint32_t kCpuThread = 1, kTosThread = 0x10000;
  void set_image(const std::string& elf_path);
  bool tos() const { return tos_info_ != 0; }
  struct Thread {
    uint32_t id = kCpuThread;
    uint32_t tcb = 0, ptable = 0;
    uint16_t tid = 0;
    uint8_t state = 0, pid = 0;
    std::string process;
  };
  std::vector<Thread> threads();          // the CPU thread first, then every TOS thread
  bool find_thread(uint32_t id, Thread& out);
  uint32_t current_thread();              // the one the CPU runs (live registers)
  std::string describe(uint32_t id);
  // Registers and memory as thread `id` sees them (its saved context and its address space when
  // it is not the one running).
  uint32_t thread_reg(uint32_t id, int n);
  bool set_thread_reg(uint32_t id, int n, uint32_t v);
  unsigned thread_read(uint32_t id, uint32_t addr, uint8_t* buf, unsigned len, bool& handled);
  unsigned thread_write(uint32_t id, uint32_t addr, const uint8_t* buf, unsigned len, bool& handled);

  // Memory through the debug path; `user` selects FC 1 (through the MMU). Returns bytes done.
  unsigned read(uint32_t addr, uint8_t* buf, unsigned len, bool user);
  unsigned write(uint32_t addr, const uint8_t* buf, unsigned len, bool user);

  // type: 0/1 breakpoint, 2 write, 3 read, 4 access watchpoint. False if not supported.
  bool insert(int type, uint32_t addr, uint32_t len);
  bool remove(int type, uint32_t addr, uint32_t len);
  void clear_all();
  bool has_user_breaks() const;
  void set_space(Space s) { space_ = s; }
  Space space() const { return space_; }

  // Resume (step: exactly one instruction, then stop). A step of a TOS thread in user mode runs
  // through the kernel (step_over_kernel, the default): a trap, an interrupt or a fault it meets
  // is run, with whatever the kernel does meanwhile (other threads included), until that thread
  // runs user code again; the step ends there (past the instruction it began at). With
  // step_over_kernel off a step stops at the kernel's first instruction.
  void resume(bool step);
  void set_step_over_kernel(bool on) { step_over_kernel_ = on; }
  // A TOS thread that another board's gdb (`owner`, whose target `from` holds its breakpoints)
  // resumes may migrate here: while it runs here, that gdb's user-space breakpoints and its step
  // (`step`, begun at `pc`) apply to it on this board, and the stop is the owner's. `live`: the
  // thread is the one this CPU runs now (the step begins here).
  void follow(int owner, const GdbTarget& from, uint32_t thread, bool step, uint32_t pc, bool live);
  void unfollow(int owner);
  // A followed thread stopped here (breakpoint or step): its owner, thread and stop; false if none.
  bool take_follow_stop(int& owner, uint32_t& thread, StopKind& kind, uint32_t& addr);
  bool step_over_kernel() const { return step_over_kernel_; }
  // What stopped the board since it was resumed (None if nothing): taken by the server.
  StopKind stop_kind() const { return stop_; }
  uint32_t stop_address() const { return stop_addr_; }
  int stop_watch_type() const { return stop_watch_type_; }
  void clear_stop() { stop_ = StopKind::None; }
  bool started() const { return started_; }  // its CPU has reached its first boundary
  void restored() { started_ = true; }       // its CPU was restored mid-run (it is past its first)

  // Time travel (the server's `bs` and `bc`, history.h): while the machine runs its past again
  // the points do not stop it; the server looks for them with these, which change nothing.
  struct Point {
    int type;
    uint32_t addr, len;
    Space space;
  };
  bool break_at(uint32_t pc, bool supervisor) const;
  bool watch_hit(const m68k::BusAccess& a, unsigned len, uint32_t& addr, int& type) const;
  // Whether the CPU, before an instruction in `supervisor` mode, runs TOS thread `thread`'s user
  // code; `known` carries what was learnt at the last kernel-to-user change (false: nothing yet).
  bool runs_user_thread(uint32_t thread, bool supervisor, bool& known, bool& is);
  // What a gdb set on this board, handed to a runner of a checkpoint (it had the state of then).
  struct Points {
    std::vector<Point> breaks, watches;
    Space space = Space::Supervisor;
    bool step_over_kernel = true;
  };
  Points points() const { return {breaks_, watches_, space_, step_over_kernel_}; }
  void set_points(const Points& p);
  void update_check();

  // CpuDebugHook
  void boundary() override;
  void access(const m68k::BusAccess& a, unsigned len) override;
  bool keep_off_fast_path(uint32_t base, bool supervisor) override;

 private:
  bool matches(Space s, bool supervisor) const {
    return s == Space::Any || (s == Space::Supervisor) == supervisor;
  }
  bool check(uint32_t pc, bool supervisor);
  bool check_thread_step(uint32_t pc, bool supervisor);
  bool check_breaks(uint32_t pc, bool supervisor);
  void off_fast_path(const Point& w);
  struct Follow;
  bool check_follow(Follow& f, uint32_t pc, bool supervisor);
  uint32_t user_thread();
  void refresh_prefetch();

  uint32_t phys32(uint32_t a);
  uint16_t phys16(uint32_t a);
  uint8_t phys8(uint32_t a);
  bool translate(const Thread& t, uint32_t va, uint32_t& pa);
  bool live(const Thread& t);
  unsigned user_access(const Thread& t, bool write, uint32_t addr, uint8_t* buf, unsigned len);
  uint32_t tos_info_ = 0, tos_procs_ = 0, tos_current_ = 0;
  uint32_t info_[19] = {};
  bool load_info();

  GdbServer& server_;
  Board& board_;
  int index_;
  Space space_ = Space::Supervisor;
  std::vector<Point> breaks_, watches_;
  bool started_ = false, stepping_ = false, first_ = false, memory_written_ = false;
  uint32_t resume_pc_ = 0;
  // A step of one TOS thread (step_thread_, 0 for a plain step) from resume_pc_: where the CPU
  // is now as the step sees it, whether the instruction at resume_pc_ has begun in user mode
  // (step_ran_) and whether the thread has left user mode since (step_left_: a trap, an
  // interrupt or a fault, maybe a switch to other threads).
  enum class Where { Thread, Kernel, Other };
  bool step_over_kernel_ = true;
  uint32_t step_thread_ = 0;
  Where step_where_ = Where::Thread;
  bool step_ran_ = false, step_left_ = false;
  StopKind stop_ = StopKind::None;
  uint32_t stop_addr_ = 0;
  // Threads other boards' gdbs resume (follow()): each as a step of its own, as above.
  struct Follow {
    int owner;
    const GdbTarget* from;
    uint32_t thread, resume_pc;
    bool step, first, ran, left;
    Where where;
    StopKind stop;
    uint32_t stop_addr;
  };
  std::vector<Follow> follows_;
  int stop_watch_type_ = 0;
};

}  // namespace testbed::gdb
