// The 68000/68010 core: public API (see CONTRACT.md). No SystemC here.
//
// Execution model: a 65536-entry handler table indexed by the opcode word, built once; each
// handler performs its bus cycles through an inline fast path (host pointers per 1 KB page) or
// the Bus, and counts clocks as 4 + wait states per bus cycle plus the internal clocks of the
// instruction, so cycle totals come out of the access sequence rather than a lookup table.
// The two-word prefetch queue (IRD/IRC) is modelled as on the real part.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>

#include "m68k_bus.h"
#include "m68k_sr.h"

namespace m68k {

enum class Model { MC68000, MC68010 };

struct Registers {
  uint32_t d[8], a[8];  // a[7] is the active stack pointer
  uint32_t usp, ssp;    // the inactive one is kept here, the active one mirrors a[7]
  uint32_t pc;          // address of the next instruction to execute
  uint16_t sr;
  uint32_t vbr;         // 68010
  uint8_t sfc, dfc;     // 68010
};

struct Exec;  // the execution engine (m68k_exec.h, m68k_ops_*.cpp)

class Cpu {
 public:
  Cpu(Bus& bus, Model model);
  Cpu(const Cpu&) = delete;  // holds pointers into itself (the current page table)
  Cpu& operator=(const Cpu&) = delete;
  Model model() const { return model_; }

  void map_fast(Space space, uint32_t base, uint32_t size, uint8_t* host, bool writable,
                uint32_t wait_states = 0);
  void unmap_fast(Space space, uint32_t base, uint32_t size);
  void unmap_all_fast();

  void reset();
  uint64_t run_until(uint64_t cycle);
  uint64_t cycles() const { return cycles_; }
  void request_yield() {
    yield_ = true;
    limit_ = 0;
  }
  void set_ipl(int level);
  bool stopped() const { return stopped_; }
  // An interrupt the core will take before its next instruction (its lines above its mask).
  bool interrupt_pending() const { return nmi_pending_ || ipl_ > int(mask_); }
  bool halted() const { return halted_; }
  const char* halt_reason() const { return halt_reason_; }
  uint32_t halt_pc() const { return halt_pc_; }
  uint32_t halt_address() const { return halt_address_; }
  uint64_t instructions() const { return instructions_ + (kChainBudget - budget_); }
  // Exceptions taken in user mode (each one a return to the supervisor): how a simulator sees
  // that an operating system's threads still run (testbed's no-progress detection).
  uint64_t user_exits() const { return user_exits_; }
  // Clocks of cycles() the core spent stopped (STOP, waiting for an interrupt): an operating
  // system's idle time, so that a run's busy share is cycles() - stopped_cycles().
  uint64_t stopped_cycles() const { return stopped_cycles_; }

  Registers& regs() { return r_; }
  // Called before each instruction with its pc, the cycle it starts at and the mode it runs in
  // (regs() is the state at run_until's entry, not the live one: a trace needs the latter).
  void set_tracer(std::function<void(uint32_t pc, uint64_t cycle, bool supervisor)> t) {
    tracer_ = std::move(t);
    limit_ = 0;
  }

  // Additions beyond the contract.
  // The prefetch queue: IRD holds the opcode of the instruction at regs().pc, IRC the word after
  // it. load_prefetch() installs a queue for regs().pc without bus cycles (test vectors, loaders);
  // otherwise a changed regs().pc is refilled from memory, without clocks, on entry to run_until.
  void load_prefetch(uint16_t ird, uint16_t irc);
  uint16_t ird() const { return ird_; }
  // Leaves the halted and stopped states without a reset (test harnesses, debuggers).
  void clear_halt() { halted_ = stopped_ = false; }
  uint16_t irc() const { return irc_; }
  // Debugger breakpoints: while set, `check(pc, supervisor)` is called before every instruction
  // (instructions then run one at a time, not chained); when it returns true the instruction is
  // not executed and run_until returns at once with break_hit() true and regs().pc at it.
  void set_break_check(std::function<bool(uint32_t pc, bool supervisor)> check) {
    break_check_ = std::move(check);
    limit_ = 0;
  }
  bool break_hit() const { return break_hit_; }

  // Speculation (a platform that runs the core ahead of the rest of the machine and takes it
  // back when something turns out to have happened in its past; CONTRACT.md). All of it is
  // used between run_until() calls, at an instruction boundary.
  //   State: everything that decides what the core does next, except memory and the fast page
  //   tables. restore() then run_until() repeats what the core did after save() exactly, given
  //   the same memory and the same Bus answers.
  struct State {
    Registers r;
    uint32_t pc, synced_pc;
    uint16_t ird, irc;
    uint64_t cycles, instructions, user_exits, stopped_cycles;
    uint32_t budget;
    int ipl;
    bool nmi_pending, stopped, halted, trace_pending, loop_mode;
    uint32_t loop_pc;
    uint16_t loop_words[3];
    const char* halt_reason;
    uint32_t halt_pc, halt_address;
  };
  void save(State& s) const;
  void restore(const State& s);
  // A run_until() that a Bus callback left by throwing leaves the core mid-instruction; only
  // restore() makes it usable again.
  //   Write protection of fast pages (a journal of the pages the core writes): protect_writes()
  //   sends writes to a mapped page to Bus::write (true if it was writable); allow_writes()
  //   lets them through the fast path again. fast_host() is the host address of the mapped
  //   page's first byte (nullptr if unmapped); fast_wait_states() its wait states.
  bool protect_writes(Space space, uint32_t address);
  void allow_writes(Space space, uint32_t address);
  uint8_t* fast_host(Space space, uint32_t address) const;
  uint32_t fast_wait_states(Space space, uint32_t address) const;
  bool fast_writable(Space space, uint32_t address) const;
  // Clocks in which the core makes no progress (its bus taken by DMA): added to cycles().
  void stall(uint64_t clocks) { cycles_ += clocks; }
  // Clocks the core slept stopped outside run_until (a platform that waits for the interrupt
  // lines to change): added to cycles() and to stopped_cycles().
  void sleep(uint64_t clocks) {
    cycles_ += clocks;
    stopped_cycles_ += clocks;
  }

 private:
  // The execution engine (m68k_exec.h) and the instruction families derived from it
  // (m68k_ops_*.cpp).
  friend struct Exec;
  friend struct ImmediateBitOps;
  friend struct MoveOps;
  friend struct MiscOps;
  friend struct QuickBranchOps;
  friend struct ArithLogicOps;
  friend struct ShiftOps;
  // 32 bytes, so that indexing is one shift.
  struct Page {
    uintptr_t read;   // host address minus guest address (add the 24-bit address), or 0
    uintptr_t write;  // same, 0 when writes go to the Bus
    uint64_t clocks;  // per bus cycle: 4 plus the page's wait states
    uint64_t unused;
  };
  static constexpr int kPages = 1 << 14;  // 16 MB / 1 KB

  void sync_in();
  void halt_here(const char* what, uint32_t pc, bool pc_known);
  void sync_out();
  uint16_t pack_sr() const;
  void unpack_sr(uint16_t sr);

  Bus& bus_;
  Model model_;
  Registers r_{};
  // Live state while running: the flags kept unpacked. X, V and C as 0/1; N and Z as Musashi
  // keeps them, so that an instruction stores its result instead of working the two flags out
  // of it (Exec::nz): N is the sign bit of n_, Z is set when z_ is 0.
  uint32_t fx_ = 0, n_ = 0, z_ = 1, fv_ = 0, fc_ = 0;
  uint32_t ccr_bits() const { return fx_ << 4 | (n_ >> 31) << 3 | (z_ == 0) << 2 | fv_ << 1 | fc_; }
  // S, T and the interrupt mask as 32-bit words (0/1, 0/1, 0-7), so that the 68010 model can
  // put their old values in the undo log when an instruction changes them (Exec::logged).
  uint32_t s_ = 1, t_ = 0;
  uint32_t mask_ = 7;
  uint32_t pc_ = 0;  // prefetch address: the opcode is at pc_ - 4, IRC holds the word at pc_ - 2
  uint16_t ird_ = 0, irc_ = 0;
  uint32_t synced_pc_ = 0;
  uint64_t cycles_ = 0;
  uint64_t limit_ = 0;  // the run loop's burst ends when cycles_ reaches it (0: at once)
  // Instructions left in the burst's chain of tail calls; kChainBudget outside a burst. The
  // instructions a burst ran (kChainBudget - budget_) are added to instructions_ when it ends,
  // which keeps a memory increment out of every instruction.
  static constexpr uint32_t kChainBudget = 512;
  uint32_t budget_ = kChainBudget;
  void (*const* table_)(Cpu&, uint16_t) = nullptr;  // the model's decoder table
  // 68010: the handlers themselves for the opcodes whose table_ entry first saves the CCR.
  void (*const* inner_table_)(Cpu&, uint16_t) = nullptr;
  // How many entries the undo log may take: Cpu::kUndoLog on the 68010, 0 on the 68000 (which
  // does not roll back), so that logged() asks one question.
  uint32_t undo_cap_ = 0;
  uint64_t instructions_ = 0;
  uint64_t user_exits_ = 0;
  uint64_t stopped_cycles_ = 0;
  int ipl_ = 0;
  bool nmi_pending_ = false;
  bool yield_ = false, stopped_ = false, halted_ = false;
  const char* halt_reason_ = "";
  char halt_text_[128] = {};
  uint32_t halt_pc_ = 0, halt_address_ = 0;
  bool trace_pending_ = false;  // the last instruction ran with T set
  // 68010 DBcc loop mode (README.md): while set, instruction fetches are served from the three
  // words at loop_pc_ (the loop instruction, the DBcc and its displacement) without bus cycles.
  bool loop_mode_ = false;
  uint32_t loop_pc_ = 0;
  uint16_t loop_words_[3] = {};
  std::function<void(uint32_t, uint64_t, bool)> tracer_;
  std::function<bool(uint32_t, bool)> break_check_;
  bool break_hit_ = false;
  // The two tables (user, supervisor) live outside the object, so that the core's and its
  // initiator's hot fields share a few cache lines and pages (several boards run in turn).
  // calloc: a block this large comes from the OS as zero pages, so a board pays host memory
  // only for the parts of its tables it uses (1 MB each, 256 boards in a tree).
  struct FreePages {
    void operator()(Page* p) const { std::free(p); }
  };
  std::unique_ptr<Page[], FreePages> page_store_{static_cast<Page*>(std::calloc(2 * kPages, sizeof(Page)))};
  Page* const pages_[2] = {page_store_.get(), page_store_.get() + kPages};
  Page* cur_pages_ = pages_[1];  // pages_[s_]: the hot path's table
  // The fetch window: the code page of the last instruction fetch (32-bit address >> 10; any
  // change of the S bit or of the page table closes it). Sequential fetches only test the page's
  // end (fetch_end_, 0 when closed): every fetch address is at or above the start of the window's
  // page, since whatever moves the PC elsewhere (a jump, a restore, a new prefetch queue) opens
  // the window at the new PC or closes it, and a fetch the window cannot serve closes it.
  static constexpr uint32_t kNoFetchPage = 0xFFFFFFFFu;  // no address >> 10 gives this
  //
  // Each word the window serves adds its page's clocks (fetch_clocks_) to the clock count as it
  // is fetched: one add to a host register while the core runs (m68k_hot_regs.h). Working them
  // out from how far the PC had moved instead, as an earlier version did when the count lived in
  // memory, cost a multiply in every instruction's limit test and a base address kept in step
  // with every move of the PC (hw/cpu/README, Speed).
  uint32_t fetch_page_ = kNoFetchPage;
  uint32_t fetch_end_ = 0;
  uintptr_t fetch_bias_ = 0;
  uint64_t fetch_clocks_ = 0;
  void shut_fetch() {
    fetch_page_ = kNoFetchPage;
    fetch_end_ = 0;
    fetch_clocks_ = 0;
  }

  // The read and write windows: the same (keyed by the 32-bit address >> 10, the bias taking off
  // its high byte) for the data page of the last fast read (write) in the
  // current space (closed together with the fetch window). Its bias is loaded without waiting for the
  // address, which takes a table load off the path from address to data.
  uint32_t read_page_ = kNoFetchPage;
  uintptr_t read_bias_ = 0;
  uint64_t read_clocks_ = 0;
  uint32_t write_page_ = kNoFetchPage;  // and for writes
  uintptr_t write_bias_ = 0;
  uint64_t write_clocks_ = 0;
  void shut_data_windows() {
    read_page_ = kNoFetchPage;
    write_page_ = kNoFetchPage;
  }
  void close_windows() {
    shut_fetch();
    shut_data_windows();
  }

  // Group-0 bookkeeping for the instruction in progress: its address, what a fault needs of it
  // and the 68010's undo log of it, 8 bytes that begin_instruction writes with one store.
  struct Inst {
    uint32_t pc;         // address of the current instruction
    int8_t pc_adj;       // fault PC offset of the operand being accessed
    uint8_t post_undo;   // 68000: 1 + the An of a long (An)+ to take back if its access faults
    uint8_t undo_n;      // entries in undo_log_
    // The CCR at the start of the instruction with kCcrSaved set, or 0 when it was not saved
    // (the CCR at the fault then stands for it).
    uint8_t undo_ccr;
  };
  static_assert(sizeof(Inst) == 8 && std::is_trivial_v<Inst>);
  Inst inst_{};
  static constexpr uint8_t kCcrSaved = 0x80;
  // 68010: what the bus-error rollback needs of the state at the start of the instruction.
  // Every write to a data or address register goes through Exec::wd()/wa(), and the rare writes
  // of USP, S, T and the mask through Exec::logged(), which put the old value in undo_log_ on
  // the 68010 model; the log is replayed backwards on a fault. The flags are not saved before
  // every instruction: an instruction that does not read the CCR ends with the same flags
  // whether it starts from those it had or from those a faulted first attempt left (that
  // attempt wrote, from the same operands, a subset of what the rerun writes), so only the
  // opcodes that read flags and then write them (ADDX, SUBX, NEGX, ABCD, SBCD, NBCD, ROXL, ROXR,
  // ANDI/ORI/EORI to CCR and SR: g_reads_ccr) save the CCR first (Exec::save_ccr). Saving
  // USP, S, T, the mask and the five flags before every instruction cost the 68010 model
  // about a quarter of its speed against the 68000 model.
  struct UndoEntry {
    uint32_t* reg;
    uint32_t old;
  };
  // MOVEM loads 16 registers; an exception inside an instruction logs S, USP, A7 (twice), T and
  // the mask; nothing writes more.
  static constexpr uint32_t kUndoLog = 48;
  UndoEntry undo_log_[kUndoLog]{};
  void snapshot() {
    inst_.undo_n = 0;
    inst_.undo_ccr = 0;
  }
  void save_ccr() { inst_.undo_ccr = (uint8_t)(kCcrSaved | ccr_bits()); }
  // The SR the instruction started with, once the undo log has been replayed.
  uint16_t inst_sr() const {
    uint32_t ccr = (inst_.undo_ccr & kCcrSaved) ? inst_.undo_ccr & 0x1F : ccr_bits();
    return (uint16_t)((t_ ? kSrTrace : 0) | (s_ ? kSrSupervisor : 0) | mask_ << kSrIntMaskShift | ccr);
  }
  // The group-0 fault being raised (address error or bus error).
  uint32_t fault_addr_ = 0;
  uint8_t fault_fc_ = 0;
  bool fault_write_ = false, fault_instr_ = false, fault_berr_ = false;
  uint16_t fault_data_ = 0;
  uint32_t fault_pc_ = 0;       // PC value a 68000 group-0 frame reports
  bool in_group0_ = false;      // a fault now is a double fault
};

}  // namespace m68k
