// The CPU initiator's run loop (CpuInitiator::run) is one loop over this interface: how the CPU
// keeps time with the kernel between its chunks of instructions. Two engines stand behind it:
//   - DecoupledEngine (cpu_decoupled.cpp): the CPU runs ahead within the quantum and
//     synchronises; what reaches it while it is ahead is seen late (the quantum is the error).
//   - SpeculativeEngine (cpu_speculation.h): exact mode; the CPU runs ahead speculatively and is
//     rolled back when something reaches it in its past.
// The loop asks the engine at each step; the engine may wait() (it runs on the CPU's thread).
// What the loop and the engine share is a CpuLoopState (cpu_loop_state.h), the initiator's.
#pragma once
#include "cpu_loop_state.h"

#include <cstdint>

namespace testbed {

class TimingEngine {
 public:
  virtual ~TimingEngine() = default;
  // Once, after the core's reset, before the loop.
  virtual void start() {}
  // At the top of each step: false when the step must be looked at again (the engine did
  // something at this boundary that changes the CPU: a rollback, a DMA master served).
  virtual bool boundary() = 0;
  // Hands the IPL lines to the core; true if the level it sees changed.
  virtual bool take_ipl() = 0;
  // The core halted: true once that is certain (false: it was rolled back meanwhile).
  virtual bool halt_certain() = 0;
  // The core is in STOP with nothing to take: wait for the IPL lines.
  virtual void idle() = 0;
  // The chunk the loop computed (CpuLoopState::chunk_end) may end earlier for the engine.
  virtual void clip_chunk(uint64_t now) { (void)now; }
  // Runs the core to `end` (or less: a yield, an instruction boundary the engine wants).
  virtual void run(uint64_t end) = 0;
  // The chunk is done: wait for the kernel to reach the CPU's local time; false if rolled back
  // meanwhile.
  virtual bool sync() = 0;
  // After the loop: the CPU's run ended (finish or halt).
  virtual void end() = 0;

  // Snapshots (CpuInitiator::state). A snapshot is taken only while the CPU's thread waits for
  // the kernel at one of these sites: inside sync(), inside idle() (for its sync, or for the
  // IPL lines), inside halt_certain(). A restored engine finishes the call it was found in
  // (resume(): sync()'s or halt_certain()'s result; true for idle()).
  enum class Site : uint8_t { None, Sync, IdleSync, IdleIpl, HaltSync };
  Site site() const { return site_; }
  virtual bool resume() = 0;
  virtual void state(StateArchive& a) = 0;

 protected:
  Site site_ = Site::None;
};

// Loosely timed with temporal decoupling: the engine of a debugged board or `cpu.exact = false`.
class DecoupledEngine final : public TimingEngine {
 public:
  explicit DecoupledEngine(CpuLoopState& s) : s_(s) {}
  bool boundary() override;
  bool take_ipl() override;
  bool halt_certain() override { return true; }
  void idle() override;
  void run(uint64_t end) override;
  bool sync() override;
  void end() override;
  bool resume() override;
  void state(StateArchive& a) override;

 private:
  bool sync_at(Site site);
  bool sync_tail();
  void idle_wait();
  void idle_end();
  CpuLoopState& s_;
  int applied_ipl_ = 0;  // the level last handed to the core
  sc_core::sc_time wake_;  // when the wait of a sync ends
};

}  // namespace testbed
