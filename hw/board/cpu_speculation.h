// Exact mode of the CPU initiator: the CPU runs ahead speculatively and is rolled back when
// something reaches it in its past, so that what it does no longer depends on the quantum (the
// quantum is then only how far it may run ahead).
//   - Its state is checkpointed at every commit (a synchronisation that finds nothing in the
//     CPU's past); the RAM pages it writes after a checkpoint are journaled first (RamJournal).
//   - A bus cycle that leaves the fast path (a device access), an interrupt acknowledge or a
//     RESET waits for the kernel to reach its time: devices see every access at its time.
//   - An IPL change (set_ipl) or a DMA access to the board's RAM (before_dma) at a time the
//     CPU has run past rolls it back: RAM from the journal, the core from the checkpoint,
//     then the core reruns to the first instruction boundary at or after that time.
//   - What the bus observer and the instruction trace are told waits for the commit (CommitLog).
// The rule that makes the result independent of the quantum: an IPL change or a DMA access
// at time t takes effect at the first instruction boundary at or after t (the end of the
// instruction, if that instruction has accessed a device since t).
#pragma once
#include "cpu_engine.h"
#include "ram_journal.h"
#include "speculation_pool.h"

#include "m68k_cpu.h"

#include <systemc>

#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace testbed {

class SpeculativeEngine final : public TimingEngine, public SpeculationJob {
 public:
  explicit SpeculativeEngine(CpuLoopState& s) : s_(s), cpu_(s.cpu), journal_(s.cpu) {}
  ~SpeculativeEngine() override;

  void start() override;
  bool boundary() override;
  bool take_ipl() override;
  bool halt_certain() override { return sync_exact(Site::HaltSync); }
  void idle() override;
  void clip_chunk(uint64_t now) override;
  void run(uint64_t end) override;
  bool sync() override;
  void end() override;
  bool resume() override;
  void state(StateArchive& a) override;

  // From other processes and the bus (CpuInitiator forwards them in exact mode).
  void ipl_changed(int level);     // the lines changed at the current kernel time
  void before_device(uint64_t cycle);  // inside run_until: a device access at `cycle`
  void before_dma();
  void after_dma_claim();
  void end_of_simulation();
  RamJournal& journal() { return journal_; }
  // Anything but the board's own run that looks at or changes the CPU joins its run on the
  // pool first (a no-op when none is out).
  void join() {
    if (job_out_) finish_job();
  }
  bool job_out() const { return job_out_; }
  // SpeculationJob: the run from a fresh checkpoint, on a host thread of the pool.
  void execute() override;

  uint64_t rollbacks() const { return rollbacks_; }
  uint64_t commits() const { return commits_; }
  uint64_t journal_pages() const { return journal_.pages(); }

 private:
  struct Rollback {};  // thrown through the core to abandon a speculative run
  struct Offload {};   // thrown through the core by a device access in a run on the pool
  void finish_job();   // joins the run on the pool and takes in its result
  bool apply_ipl();
  void checkpoint();
  void rollback();
  bool run_ahead(uint64_t target);  // run_until(target); false if a rollback abandoned it
  // Waits for the kernel to reach the CPU's local time at `site` (resumed: the wait a snapshot
  // found it in, already counted); false: rolled back while waiting.
  bool sync_exact(Site site, bool resumed = false);
  void idle_wait();
  void idle_tail();
  void request_rollback();  // something happens now: take the CPU back to now if it is past it
  void rebase_to_now();     // keeps the clock-to-time mapping across a wait of any length
  uint64_t cycle_of(const sc_core::sc_time& t) const;  // the core clock of kernel time t (rounded up)

  CpuLoopState& s_;
  m68k::Cpu& cpu_;
  RamJournal journal_;
  int applied_ipl_ = 0;  // the level last handed to the core
  m68k::Cpu::State ckpt_{};
  std::string ckpt_halt_;  // a restored checkpoint's halt reason
  std::vector<std::pair<uint64_t, int>> ipl_log_;  // (clock, level) the CPU has not yet seen
  bool need_ckpt_ = true;
  bool stop_waiting_ = false;       // in STOP, waiting for the IPL lines
  bool exact_over_ = false;         // the CPU's run ended: nothing is rolled back any more
  bool dma_pending_ = false;        // a DMA master waits for the CPU to reach now
  bool committed_in_run_ = false;   // a device access committed the running instruction
  bool last_run_reached_ = false;   // the last run_until ended at its target ...
  uint64_t last_target_ = 0;        // ... this one
  static constexpr uint64_t kNone = UINT64_MAX;
  uint64_t rollback_to_ = kNone;    // a requested rollback: to the first boundary >= this clock
  sc_core::sc_event wake_, replayed_;
  uint64_t rollbacks_ = 0, commits_ = 0;
  // The run on the pool: only from a fresh checkpoint (the core's state is ckpt_ and the journal
  // holds every page written since, so a run that meets a device access is put back to it and
  // done again on the CPU's thread, where the access can wait for its time).
  bool fresh_ = false;           // the core is at ckpt_, nothing run since
  bool job_out_ = false;         // a run is queued or running on the pool
  bool in_job_ = false;          // the core runs as a job: a device access throws Offload
  bool job_aborted_ = false;     // ... and one did
  bool run_here_ = false;        // the next run is on the CPU's thread (after an aborted job)
  uint64_t job_target_ = 0;
  static constexpr uint32_t kMaxBackoff = 256;
  uint32_t backoff_ = 0, skip_ = 0;  // runs from a checkpoint kept here after failed ones
  std::exception_ptr job_error_;
  uint64_t offloaded_ = 0, aborted_ = 0;
  // Run-ahead: a board whose runs reach their end with no device access and no rollback runs
  // ahead across more quanta per run (twice as many after each, up to kMaxQuanta), so that a run
  // handed to the pool carries more work than the hand-over costs; a device access or a rollback
  // takes it back to one. Like every choice here, a function of the board's state alone. (At a
  // 1 ms quantum: 16 ms ahead at most; machine-bench at 4, 8, 16, 32 and 64 found 16 the knee.)
  static constexpr uint64_t kMaxQuanta = 16;
  void widen();
  void narrow();
  uint64_t widened_ = 0;  // runs that ended at a chunk spanning more than one quantum
 public:
  uint64_t runs_offloaded() const { return offloaded_; }
  uint64_t runs_aborted() const { return aborted_; }
  uint64_t runs_widened() const { return widened_; }
};

}  // namespace testbed
