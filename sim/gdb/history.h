// The machine's past, kept for reverse execution in gdb (rsp_server.h: `bs`, `bc`).
//
// The machine is deterministic: from the same state it does the same thing, bit for bit, and a
// debugger's stops do not change what it does (the server holds it without simulated time
// passing). A copy of the whole simulator process -- every board, device, SystemC process and
// pending event -- made by fork() at an instruction boundary is therefore a checkpoint that can
// be run forward again to any later instant. A checkpoint is such a copy (copy-on-write), blocked
// on a socket. Going back is: ask the last checkpoint before the target for a runner (a fork of
// it), hand the runner the debugger's state and the gdb connections (SCM_RIGHTS), let it run
// forward to the target, and end the process that asked.
//
// The process the user started stays in front: it becomes the subreaper of the session, every
// live process is its child (runners are double-forked), and it exits with the status of the
// last live one. Host outputs a re-run would write again are written once
// (sw/output/replayed_output.h).
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace testbed::gdb {

class History {
 public:
  static constexpr size_t kMaxCheckpoints = 32;
  static constexpr size_t kNoBoard = SIZE_MAX;
  // An instant of the machine: at board `board`'s next instruction check (kNoBoard: before any
  // board has run), with every board's instruction count.
  struct Position {
    size_t board = kNoBoard;
    std::vector<uint64_t> counts;
    uint64_t time_ps = 0;  // the kernel's time then (what `monitor history` shows)
    uint64_t total() const;
  };
  // What a runner is handed: the debugger's state (the server's encoding) and the gdb sockets.
  struct Command {
    std::string session;
    std::vector<int> fds;
  };

  explicit History(size_t boards);
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  bool active() const { return shared_ != nullptr; }
  // A checkpoint at `at`. The first one makes this process the front (it never returns from
  // here) and a child the live process. Returns false in the live process; true in a runner
  // resumed from this checkpoint, whose command is then `resumed()`. A checkpoint at the total
  // of one already kept is not taken again.
  bool checkpoint(const Position& at);
  Command& resumed() { return resumed_; }
  // Hands the machine to a runner of checkpoint `k`; this process ends. Every checkpoint's
  // socket goes with it, so none is lost.
  [[noreturn]] void go(size_t k, const std::string& session, const std::vector<int>& client_fds);
  size_t size() const;
  Position at(size_t k) const;
  // The last checkpoint strictly before `p` (by the instructions run), or SIZE_MAX.
  size_t before(const Position& p) const;
  // The last checkpoint from which board `board` has still to reach its `count`th instruction.
  size_t before(size_t board, uint64_t count) const;
  // A debugger changed the machine: its past no longer leads here. Every checkpoint is dropped.
  void forget();
  // The session's front process has gone (killed): the live process should end.
  bool front_gone() const;

 private:
  struct Shared;
  struct Entry;
  void activate();
  [[noreturn]] void front_loop(pid_t live);
  void wait_as_checkpoint(int fd);  // returns in a runner
  void drop(size_t k);
  void thin();
  Entry& entry(size_t k) const;
  uint64_t* counts(size_t k) const;
  size_t boards_;
  Shared* shared_ = nullptr;
  size_t shared_size_ = 0;
  Command resumed_;
};

}  // namespace testbed::gdb
