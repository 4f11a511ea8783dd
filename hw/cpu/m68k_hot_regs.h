// The core's hot state while it runs: the prefetch address (Cpu::pc_), the clock count
// (Cpu::cycles_) and the burst's instruction budget (Cpu::budget_). Each handler changes them
// and the next one reads them; kept in Cpu they made chains of stores and the loads that wait
// for them through every instruction. On x86-64 with GCC they live in host registers while the
// core runs (GCC's global register variables, r13-r15, which the core's own files never use
// otherwise: -ffixed-r13/14/15 in CMakeLists.txt), and in Cpu at any other time:
//   - Exec::fill() loads them where the core starts running (the run loop; the accesses of
//     reset() and of a PC the platform set), Exec::spill() stores them where it stops, and
//     Exec::call_out() spills them around every call out of the core (a Bus access, the
//     interrupt acknowledge, RESET, BKPT, the debugger's break check, the tracer), so that what
//     is called sees Cpu's members as they are and may change them (a stall);
//   - the slow-path asm call (Exec's slow_call) names them as operands it changes;
//   - Cpu::run_until() and Cpu::reset(), the ways into the core, keep their caller's r13-r15
//     (HostRegs, m68k_cpu.cpp): the core takes the registers without saving them as a callee must.
// Elsewhere (another host or compiler) HOT_PC(c) and the rest are the members themselves and
// spill() and fill() do nothing (also with -DM68K_NO_HOT_REGS). Only the core's files include
// this (through m68k_exec.h).
#pragma once
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(M68K_NO_HOT_REGS)
#define M68K_HOT_REGS 1
register uint32_t m68k_hot_pc asm("r15");
register uint64_t m68k_hot_cycles asm("r14");
register uint32_t m68k_hot_budget asm("r13");
#define HOT_PC(c) m68k_hot_pc
#define HOT_CYCLES(c) m68k_hot_cycles
#define HOT_BUDGET(c) m68k_hot_budget
#else
#define M68K_HOT_REGS 0
#define HOT_PC(c) ((c).pc_)
#define HOT_CYCLES(c) ((c).cycles_)
#define HOT_BUDGET(c) ((c).budget_)
#endif
