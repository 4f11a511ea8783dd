// The 68000/68010 core. See m68k_cpu.h for the execution model and README.md for the design
// notes (prefetch queue, clock counting, group-0 faults and the 68010 format $8 frame).
#include "m68k_cpu.h"
#include "m68k_exec.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <type_traits>

namespace m68k {
namespace {
Handler g_table[2][65536];
// Small, so that even a build without tail calls (sanitisers, -O0) stays within a SystemC
// thread stack (512 frames of ~150 bytes against 320 KB); 64 measurably cost ~4 %.
std::once_flag g_table_once;
// The one-word instructions a 68010 DBcc can run in loop mode (M68000 UM Appendix A): MOVE,
// the standard arithmetic/logic group, ADDX/SUBX/ABCD/SBCD/CMPM, the single-operand group and
// the memory shifts, with their memory operand at (An), (An)+ or -(An).
bool loopable(uint16_t op) {
  const int line = op >> 12, sz = (op >> 6) & 3, mode = (op >> 3) & 7;
  const bool mem = mode >= 2 && mode <= 4;
  switch (line) {
    case 0x1: case 0x2: case 0x3: {
      int dm = (op >> 6) & 7;
      return dm >= 2 && dm <= 4 && mode <= 4 && !(line == 1 && mode == 1);
    }
    case 0x4:
      switch ((op >> 8) & 0xF) {
        case 0x0: case 0x2: case 0x4: case 0x6: case 0xA: return sz != 3 && mem;  // NEGX CLR NEG NOT TST
        case 0x8: return sz == 0 && mem;                                            // NBCD
        default: return false;
      }
    case 0x8: case 0x9: case 0xC: case 0xD:
      if (sz == 3) return (line == 0x9 || line == 0xD) && mem;  // SUBA, ADDA
      if ((op & 0x100) && mode == 1) return line == 0x9 || line == 0xD || sz == 0;  // SUBX ADDX SBCD ABCD
      return mem;
    case 0xB:
      if ((op & 0x100) && sz != 3 && mode == 1) return true;  // CMPM
      return mem;  // CMP, CMPA, EOR
    case 0xE:
      return sz == 3 && !(op & 0x800) && mem;
    default:
      return false;
  }
}

// The opcodes that read the CCR (or SR) and then may write it before the instruction's last
// bus cycle, so that a rerun after a bus error must start from the CCR the first attempt started
// with (Cpu::save_ccr): ADDX, SUBX, NEGX, ABCD, SBCD, NBCD, ROXL, ROXR and ANDI/ORI/EORI to CCR
// and SR. Instructions that only read flags (Bcc, DBcc, Scc, TRAPV, MOVE from SR/CCR) change
// none; those that push the SR in an exception (CHK, TRAP, DIVU by zero) write no flag after it.
// Illegal opcodes that fall in these patterns are harmless: they only save the CCR needlessly.
bool reads_then_writes_ccr(uint16_t op) {
  const int line = op >> 12, sz = (op >> 6) & 3;
  switch (line) {
    case 0x0:
      return op == 0x003C || op == 0x007C || op == 0x023C || op == 0x027C || op == 0x0A3C ||
             op == 0x0A7C;
    case 0x4:
      return (op & 0xFF00) == 0x4000 || (op & 0xFFC0) == 0x4800;  // NEGX (and MOVE from SR), NBCD
    case 0x8: case 0xC:
      return (op & 0x1F0) == 0x100;  // SBCD, ABCD
    case 0x9: case 0xD:
      return sz != 3 && (op & 0x130) == 0x100;  // SUBX, ADDX
    case 0xE:
      if (sz == 3) return (op & 0xFEC0) == 0xE4C0;  // ROXL/ROXR <ea>
      return ((op >> 3) & 3) == 2;                  // ROXL/ROXR Dn
    default:
      return false;
  }
}
Handler g_inner_010[65536];
}  // namespace

bool g_loopable[65536];


void Exec::rte(Cpu& c, uint16_t) {
  PRIV();
  uint32_t sp = c.r_.a[7];
  uint16_t nsr = (uint16_t)rd<2>(c, sp);
  uint32_t npc = rd<4>(c, sp + 2);
  if (c.model_ == Model::MC68010) {
    uint16_t fmt = (uint16_t)rd<2>(c, sp + 6);
    switch (fmt >> 12) {
      case 0x0:
        wa(c, 7) = sp + 8;
        break;
      case 0x8: {
        // Internal words (frame word 13 on): magic 0x4D38, then the faulted instruction's
        // address; the instruction restarts from its first word (README.md).
        uint16_t magic = (uint16_t)rd<2>(c, sp + 2 * 13);
        if (magic != 0x4D38) {
          wa(c, 7) = sp;
          exception(c, 14, HOT_PC(c) - 4, 4);
          return;
        }
        uint32_t restart = rd<2>(c, sp + 2 * 14) << 16 | rd<2>(c, sp + 2 * 15);
        npc = restart;
        wa(c, 7) = sp + 58;
        break;
      }
      default:
        exception(c, 14, HOT_PC(c) - 4, 4);
        return;
    }
  } else {
    wa(c, 7) = sp + 6;
  }
  set_sr(c, nsr);
  jump(c, npc);
}

void Exec::take_interrupt(Cpu& c, int level) {
  uint16_t old = sr(c);
  bool was_stopped = c.stopped_;
  c.stopped_ = false;
  c.loop_mode_ = false;
  set_supervisor(c, true);
  logged(c, c.t_) = 0;
  logged(c, c.mask_) = (uint32_t)level;
  // The 68000's sequence, 44(5/3) (M68000 UM Table 8-14; bus order as in the microcode): 6
  // internal clocks, the write of the PC's low word, the acknowledge cycle, 6 internal clocks,
  // then the SR and the PC's high word. The 68010 stacks its format word after the acknowledge
  // has given the vector: 48(5/4).
  uint32_t pc = HOT_PC(c) - 4;
  if (was_stopped) pc = HOT_PC(c);  // STOP leaves PC at its immediate word
  const bool m10 = c.model_ == Model::MC68010;
  const uint32_t frame = c.r_.a[7] - (m10 ? 8 : 6);
  idle(c, 6);
  wr<2>(c, frame + 4, pc & 0xFFFF);
  uint32_t wait = 0;
  int vec = call_out(c, [&] { return c.bus_.interrupt_acknowledge(level, c.cycles_, wait); });
  HOT_CYCLES(c) += 4 + wait;
  if (vec == Bus::kAutovector) vec = 24 + level;
  else if (vec == Bus::kSpurious) vec = 24;
  idle(c, 6);
  if (m10) wr<2>(c, frame + 6, (uint16_t)(vec * 4));
  wa(c, 7) = frame;
  wr<2>(c, frame, old);
  wr<2>(c, frame + 2, pc >> 16);
  uint32_t target = read<4>(c, vbr(c) + (uint32_t)vec * 4, FC_SUPERVISOR_DATA);
  jump(c, target);
}

// Builds the frame for the fault recorded in c.fault_*: the 68000 7-word group-0 frame, or the
// 68010 29-word format $8 frame (bus and address error alike).
void Exec::group0(Cpu& c) {
  if (c.in_group0_) {
    c.halted_ = true;
    c.halt_pc_ = c.inst_.pc;
    c.halt_address_ = c.fault_addr_;
    std::snprintf(c.halt_text_, sizeof c.halt_text_, "double bus fault at PC=0x%06X address=0x%06X",
                  c.inst_.pc & 0xFFFFFF, c.fault_addr_ & 0xFFFFFF);
    c.halt_reason_ = c.halt_text_;
    return;
  }
  c.in_group0_ = true;
  int vec = c.fault_berr_ ? 2 : 3;
  if (c.model_ == Model::MC68010) {
    // Roll the instruction back to its start so that RTE can rerun it.
    // The log holds the old values of the registers, USP, S, T and the mask the instruction
    // changed; the registers are then in the instruction's own mode.
    for (uint32_t i = c.inst_.undo_n; i-- > 0;) *c.undo_log_[i].reg = c.undo_log_[i].old;
    c.inst_.undo_n = 0;
    uint16_t old = c.inst_sr();
    c.cur_pages_ = c.pages_[c.s_ ? 1 : 0];
    c.close_windows();
    set_sr(c, old);
    set_supervisor(c, true);
    c.t_ = false;
    c.loop_mode_ = false;
    idle(c, 8);
    uint16_t ssw = (uint16_t)((c.fault_write_ ? 0 : kSswRead) |
                              (c.fault_instr_ ? kSswInstructionFetch : kSswDataFetch) | (c.fault_fc_ & 7));
    uint16_t frame[29] = {};
    frame[0] = old;
    frame[1] = (uint16_t)(c.inst_.pc >> 16);
    frame[2] = (uint16_t)c.inst_.pc;
    frame[3] = (uint16_t)(kFrameFormatBusFault | vec * 4);
    frame[4] = ssw;
    frame[5] = (uint16_t)(c.fault_addr_ >> 16);
    frame[6] = (uint16_t)c.fault_addr_;
    frame[8] = c.fault_data_;
    frame[12] = c.ird_;
    frame[13] = 0x4D38;
    frame[14] = (uint16_t)(c.inst_.pc >> 16);
    frame[15] = (uint16_t)c.inst_.pc;
    uint32_t sp = c.r_.a[7] - 58;
    for (int i = 28; i >= 0; i--) wr<2>(c, sp + 2 * i, frame[i]);
    wa(c, 7) = sp;
    uint32_t target = read<4>(c, vbr(c) + vec * 4, FC_SUPERVISOR_DATA);
    jump(c, target);
  } else {
    if (c.inst_.post_undo && !c.fault_berr_) wa(c, c.inst_.post_undo - 1) -= 4;
    uint16_t old = sr(c);
    set_supervisor(c, true);
    c.t_ = false;
    idle(c, 12);  // the aborted bus cycle still takes its 4 clocks
    uint16_t ssw = (uint16_t)((c.ird_ & 0xFFE0) | (c.fault_write_ ? 0 : 0x10) |
                              (c.fault_fc_ & 7));
    uint32_t pc = c.fault_pc_;
    uint32_t sp = c.r_.a[7] - 14;
    wr<2>(c, sp + 12, pc & 0xFFFF);
    wr<2>(c, sp + 8, old);
    wr<2>(c, sp + 10, pc >> 16);
    wr<2>(c, sp + 6, c.ird_);
    wr<2>(c, sp + 4, c.fault_addr_ & 0xFFFF);
    wr<2>(c, sp + 0, ssw);
    wr<2>(c, sp + 2, c.fault_addr_ >> 16);
    wa(c, 7) = sp;
    idle(c, 2);
    uint32_t target = read<4>(c, vbr(c) + vec * 4, FC_SUPERVISOR_DATA);
    jump(c, target);
  }
  c.in_group0_ = false;
}
// ---------------------------------------------------------------------- decoder
// The opcode map by line; each family decodes its own lines (m68k_ops_*.cpp).
namespace {
Handler decode(uint16_t op, Model m) {
  switch (op >> 12) {
    case 0x0: return decode_immediate_bit_ops(op, m);
    case 0x1: case 0x2: case 0x3: case 0x7: return decode_move_ops(op, m);
    case 0x4: return decode_misc_ops(op, m);
    case 0x5: case 0x6: return decode_quick_branch_ops(op, m);
    case 0x8: case 0x9: case 0xB: case 0xC: case 0xD: return decode_arith_logic_ops(op, m);
    case 0xA: return &Exec::chain<&Exec::line_a>;
    case 0xE: return decode_shift_ops(op, m);
    default: return &Exec::chain<&Exec::line_f>;
  }
}
}  // namespace

void Exec::build_table(Model m, Handler* t) {
  for (uint32_t op = 0; op < 65536; op++) t[op] = decode((uint16_t)op, m);
}

// ---------------------------------------------------------------------- run loop
// Two loops: the outer one handles everything that is rare (trace, interrupts, STOP, the
// per-instruction tracer, yield) one instruction at a time; when none applies it runs a burst
// in the inner loop, which only executes instructions until cycles_ reaches limit_. Whatever
// can make the outer checks true during a burst (set_ipl, request_yield, an SR write, STOP,
// set_tracer) sets limit_ to 0, so the burst ends after the current instruction.
template <bool Restartable> void Exec::run_loop(Cpu& c, uint64_t target) {
  const Handler* table = g_table[Restartable ? 1 : 0];
  c.table_ = table;
  c.inner_table_ = g_inner_010;
  c.undo_cap_ = Restartable ? Cpu::kUndoLog : 0;
  Running run(c);
  for (;;) {
    try {
      for (;;) {
        if (!(HOT_CYCLES(c) < target) || c.yield_) break;
        if (c.trace_pending_) {
          c.trace_pending_ = false;
          c.inst_.pc = HOT_PC(c) - 4;
          if (Restartable) c.snapshot();
          exception(c, 9, HOT_PC(c) - 4, 6);
          continue;
        }
        if (c.nmi_pending_ || c.ipl_ > (int)c.mask_) {
          int level = c.ipl_;
          c.nmi_pending_ = false;
          c.inst_.pc = HOT_PC(c) - 4;
          if (Restartable) c.snapshot();
          take_interrupt(c, level);
          continue;
        }
        if (c.stopped_) {
          if (target > HOT_CYCLES(c)) c.stopped_cycles_ += target - HOT_CYCLES(c);
          HOT_CYCLES(c) = target;
          return;
        }
        if (c.t_ || c.tracer_ || c.break_check_) {
          if (c.break_check_ && call_out(c, [&] { return c.break_check_(c.pc_ - 4, c.s_); })) {
            c.break_hit_ = true;
            return;
          }
          begin_instruction(c);
          if (c.tracer_) call_out(c, [&] { c.tracer_(c.inst_.pc, c.cycles_, c.s_ != 0); });
          const bool trace = c.t_;
          const uint16_t op = c.ird_;
          c.limit_ = 0;  // one instruction, no chaining
          table[op](c, op);
          count_burst(c);
          c.trace_pending_ = trace;
          continue;
        }
        c.limit_ = target;
        begin_instruction(c);
        const uint16_t op = c.ird_;
        table[op](c, op);
        count_burst(c);
      }
      return;
    } catch (const Group0&) {
      count_burst(c);  // the instructions before the fault, then the faulted one
      c.instructions_++;
      try {
        group0(c);
      } catch (const Group0&) {
        c.in_group0_ = true;
        group0(c);  // reports the double fault
      } catch (const HaltSignal&) {
      }
      c.in_group0_ = false;
      if (c.halted_) return;
    } catch (const HaltSignal&) {
      count_burst(c);
      return;
    }
  }
}

// ---------------------------------------------------------------------- Cpu
Cpu::Cpu(Bus& bus, Model model) : bus_(bus), model_(model) {
  if (!page_store_) throw std::bad_alloc();
  std::call_once(g_table_once, [] {
    Exec::build_table(Model::MC68000, g_table[0]);
    Exec::build_table(Model::MC68010, g_inner_010);
    for (uint32_t op = 0; op < 65536; op++)
      g_table[1][op] = reads_then_writes_ccr((uint16_t)op) ? &Exec::save_ccr : g_inner_010[op];
    for (uint32_t op = 0; op < 65536; op++) g_loopable[op] = loopable((uint16_t)op);
  });
  r_.sr = kSrReset;
  unpack_sr(r_.sr);
}

void Cpu::map_fast(Space space, uint32_t base, uint32_t size, uint8_t* host, bool writable,
                   uint32_t wait_states) {
  for (uint32_t off = 0; off < size; off += 1024) {
    uint32_t page = ((base + off) & 0xFFFFFF) >> 10;
    Page& p = pages_[(int)space][page];
    // Bias: host address of guest address 0 through this page (0 is reserved for "unmapped";
    // a host block that would give 0 stays on the Bus path, which is slower but exact).
    uintptr_t bias = (uintptr_t)(host + off) - ((uintptr_t)page << 10);
    p.read = bias;
    p.write = writable ? bias : 0;
    p.clocks = 4 + wait_states;
  }
  close_windows();
}

void Cpu::unmap_fast(Space space, uint32_t base, uint32_t size) {
  for (uint32_t off = 0; off < size; off += 1024) {
    pages_[(int)space][((base + off) & 0xFFFFFF) >> 10] = Page{};
  }
  close_windows();
}

void Cpu::unmap_all_fast() {
  for (int i = 0; i < 2 * kPages; i++) page_store_[i] = Page{};
  close_windows();
}

void Cpu::save(State& s) const {
  s.r = r_;
  s.pc = pc_;
  s.synced_pc = synced_pc_;
  s.ird = ird_;
  s.irc = irc_;
  s.cycles = cycles();
  s.instructions = instructions_;
  s.user_exits = user_exits_;
  s.stopped_cycles = stopped_cycles_;
  s.budget = budget_;
  s.ipl = ipl_;
  s.nmi_pending = nmi_pending_;
  s.stopped = stopped_;
  s.halted = halted_;
  s.trace_pending = trace_pending_;
  s.loop_mode = loop_mode_;
  s.loop_pc = loop_pc_;
  std::memcpy(s.loop_words, loop_words_, sizeof loop_words_);
  s.halt_reason = halt_reason_;
  s.halt_pc = halt_pc_;
  s.halt_address = halt_address_;
}

void Cpu::restore(const State& s) {
  shut_fetch();  // what the window had not yet counted belongs to the state being replaced
  r_ = s.r;
  pc_ = s.pc;
  synced_pc_ = s.synced_pc;
  ird_ = s.ird;
  irc_ = s.irc;
  cycles_ = s.cycles;
  instructions_ = s.instructions;
  user_exits_ = s.user_exits;
  stopped_cycles_ = s.stopped_cycles;
  budget_ = s.budget;
  ipl_ = s.ipl;
  nmi_pending_ = s.nmi_pending;
  stopped_ = s.stopped;
  halted_ = s.halted;
  trace_pending_ = s.trace_pending;
  loop_mode_ = s.loop_mode;
  loop_pc_ = s.loop_pc;
  std::memcpy(loop_words_, s.loop_words, sizeof loop_words_);
  halt_reason_ = s.halt_reason;
  halt_pc_ = s.halt_pc;
  halt_address_ = s.halt_address;
  // What an abandoned instruction may have left behind.
  yield_ = false;
  limit_ = 0;
  in_group0_ = false;
  inst_.undo_n = 0;
  inst_.undo_ccr = 0;
  unpack_sr(r_.sr);
  cur_pages_ = pages_[s_ ? 1 : 0];
  close_windows();
}

bool Cpu::protect_writes(Space space, uint32_t address) {
  Page& p = pages_[(int)space][(address & 0xFFFFFF) >> 10];
  if (!p.write) return false;
  p.write = 0;
  write_page_ = kNoFetchPage;
  return true;
}

void Cpu::allow_writes(Space space, uint32_t address) {
  Page& p = pages_[(int)space][(address & 0xFFFFFF) >> 10];
  p.write = p.read;
  write_page_ = kNoFetchPage;
}

uint8_t* Cpu::fast_host(Space space, uint32_t address) const {
  uint32_t page = (address & 0xFFFFFF) >> 10;
  const Page& p = pages_[(int)space][page];
  return p.read ? reinterpret_cast<uint8_t*>(p.read + ((uintptr_t)page << 10)) : nullptr;
}

bool Cpu::fast_writable(Space space, uint32_t address) const {
  return pages_[(int)space][(address & 0xFFFFFF) >> 10].write != 0;
}

uint32_t Cpu::fast_wait_states(Space space, uint32_t address) const {
  return uint32_t(pages_[(int)space][(address & 0xFFFFFF) >> 10].clocks - 4);
}

uint16_t Cpu::pack_sr() const {
  return (uint16_t)((t_ ? kSrTrace : 0) | (s_ ? kSrSupervisor : 0) | mask_ << kSrIntMaskShift | Exec::ccr(*this));
}

void Cpu::unpack_sr(uint16_t sr) {
  Exec::set_ccr(*this, (uint8_t)sr);
  t_ = (sr >> kSrTraceShift) & 1;
  mask_ = (sr >> kSrIntMaskShift) & 7;
  s_ = (sr >> kSrSupervisorShift) & 1;
  // The windows stay open unless the space changes: run_until() comes here every time, and a
  // board that runs ten instructions per quantum would otherwise miss all three each time.
  if (cur_pages_ != pages_[s_ ? 1 : 0]) {
    cur_pages_ = pages_[s_ ? 1 : 0];
    close_windows();
  }
}

// Bus cycles outside the run loop (reset, a PC the platform set) that may fault. The slow bus
// path is an asm call (m68k_slow_call) the compiler takes for one that cannot throw, so a
// try block around an inlined access has no landing pad and a fault ended the process
// (std::terminate on m68k::Group0). Called through these volatile pointers, as the run loop
// calls its handlers through the decoder table, the calls keep their exception regions.
namespace {
// Each fills the core's hot state for the access and spills it after, faulted or not
// (m68k_hot_regs.h); the access itself is a function of its own with no handler or cleanup, so
// that a fault unwinds through its inline asm calls as through a handler's.
__attribute__((noinline)) void jump_running(Cpu& c, uint32_t pc) { Exec::jump(c, pc); }
__attribute__((noinline)) uint32_t read32_running(Cpu& c, uint32_t a) {
  return Exec::read<4>(c, a, FC_SUPERVISOR_PROGRAM);
}
void jump_out_of_line(Cpu& c, uint32_t pc) {
  Exec::fill(c);
  try {
    jump_running(c, pc);
  } catch (...) {
    Exec::spill(c);
    throw;
  }
  Exec::spill(c);
}
uint32_t read32_out_of_line(Cpu& c, uint32_t a) {
  Exec::fill(c);
  uint32_t v;
  try {
    v = read32_running(c, a);
  } catch (...) {
    Exec::spill(c);
    throw;
  }
  Exec::spill(c);
  return v;
}
void (*volatile g_jump)(Cpu&, uint32_t) = &jump_out_of_line;
uint32_t (*volatile g_read32)(Cpu&, uint32_t) = &read32_out_of_line;

// The caller's r13-r15, which the core takes while it runs (m68k_hot_regs.h) without saving
// them as the ABI asks of a callee: Cpu::run_until() and Cpu::reset() keep them for their scope.
#if M68K_HOT_REGS
struct HostRegs {
  uint64_t r13, r14, r15;
  HostRegs() { asm volatile("mov %%r13, %0\n\tmov %%r14, %1\n\tmov %%r15, %2" : "=m"(r13), "=m"(r14), "=m"(r15)); }
  ~HostRegs() { asm volatile("mov %0, %%r13\n\tmov %1, %%r14\n\tmov %2, %%r15" : : "m"(r13), "m"(r14), "m"(r15)); }
  HostRegs(const HostRegs&) = delete;
  HostRegs& operator=(const HostRegs&) = delete;
};
#else
struct HostRegs {};
#endif
}  // namespace

void Cpu::sync_in() {
  // a[7] is authoritative for the mode r_.sr names; the other stack pointer lives in usp/ssp.
  unpack_sr(r_.sr);
  if (r_.pc != synced_pc_) {
    // The platform moved the PC (a debugger): refill the queue from memory without clocks. No
    // instruction is running, so a fault here is no exception the core could take: the board
    // halts, saying where (it used to run on with a stale queue).
    loop_mode_ = false;
    uint64_t saved = cycles_;
    uint32_t pc = r_.pc;
    try {
      g_jump(*this, pc);
    } catch (const HaltSignal&) {
    } catch (const Group0&) {
      halt_here("no memory at the PC the debugger set,", pc, true);
    }
    cycles_ = saved;  // the debugger's PC costs no clocks, its refill's fetches included
  }
}

void Cpu::sync_out() {
  r_.sr = pack_sr();
  if (s_) r_.ssp = r_.a[7];
  else r_.usp = r_.a[7];
  r_.pc = pc_ - 4;
  synced_pc_ = r_.pc;
}

void Cpu::load_prefetch(uint16_t ird, uint16_t irc) {
  ird_ = ird;
  irc_ = irc;
  trace_pending_ = false;  // a fresh instruction boundary
  loop_mode_ = false;
  shut_fetch();  // the PC may now lie below the window's page
  pc_ = r_.pc + 4;
  synced_pc_ = r_.pc;
}

void Cpu::reset() {
  [[maybe_unused]] HostRegs keep;
  halted_ = stopped_ = false;
  loop_mode_ = false;
  unpack_sr(kSrReset);
  t_ = false;
  r_.vbr = 0;
  uint64_t before = cycles_;
  uint32_t pc = 0;
  bool vectors_read = false;
  try {
    uint32_t ssp = g_read32(*this, 0);
    pc = g_read32(*this, 4);
    vectors_read = true;
    r_.a[7] = ssp;
    r_.ssp = ssp;
    g_jump(*this, pc);
  } catch (const HaltSignal&) {  // the bus asked for the halt; its reason is set
  } catch (const Group0&) {  // nothing to take an exception with yet: the board halts, saying where
    if (vectors_read) halt_here("no memory at the reset PC", pc, true);
    else halt_here("no reset vectors", 0, false);
  }
  cycles_ = before + 40 + (cycles_ - before - 24);
  sync_out();
  if (halted_ && vectors_read) r_.pc = synced_pc_ = pc;  // where it would have started
}

// Halts the core for a fault outside any instruction (reset, a PC set by the platform), naming
// what (`what`, then the PC if `pc_known`), the kind of fault and its address.
void Cpu::halt_here(const char* what, uint32_t pc, bool pc_known) {
  halted_ = true;
  halt_pc_ = pc;
  halt_address_ = fault_addr_;
  const char* kind = fault_berr_ ? "bus error" : "address error";
  if (pc_known)
    std::snprintf(halt_text_, sizeof halt_text_, "%s 0x%06X (%s fetching the instruction at 0x%06X)", what,
                  pc & 0xFFFFFF, kind, fault_addr_ & 0xFFFFFF);
  else
    std::snprintf(halt_text_, sizeof halt_text_, "%s (%s at 0x%06X)", what, kind, fault_addr_ & 0xFFFFFF);
  halt_reason_ = halt_text_;
}

uint64_t Cpu::run_until(uint64_t cycle) {
  [[maybe_unused]] HostRegs keep;
  yield_ = false;
  break_hit_ = false;
  if (halted_) return cycles_;
  sync_in();
  if (halted_) {  // the PC the platform set leads nowhere: it stays as set, for the debugger
    synced_pc_ = r_.pc;
    return cycles_;
  }
  if (model_ == Model::MC68010) Exec::run_loop<true>(*this, cycle);
  else Exec::run_loop<false>(*this, cycle);
  sync_out();
  return cycles_;
}

void Cpu::set_ipl(int level) {
  limit_ = 0;  // re-check interrupts after the current instruction
  if (level == 7 && ipl_ != 7) nmi_pending_ = true;
  ipl_ = level;
}

}  // namespace m68k
