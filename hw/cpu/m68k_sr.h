// The status register's bits and the 68010 bus-fault frame's words, named once for the core,
// its tools, the simulator (debugger, machine report) and the tests (M68000 PRM 1.3.2 and
// 6.4.1; MC68010 user's manual 5.5.4.1). scripts/lint_facts.py fails on a copy written by hand.
#pragma once

#include <cstdint>

namespace m68k {

// SR: T - S - - I2 I1 I0 | the CCR (X N Z V C). The shifts are for unpacking into the core's
// separate flags.
constexpr uint16_t kSrTrace = 0x8000;  // T: trace exception after each instruction
constexpr int kSrTraceShift = 15;
constexpr uint16_t kSrSupervisor = 0x2000;  // S: supervisor state (A7 is the SSP)
constexpr int kSrSupervisorShift = 13;
constexpr uint16_t kSrIntMask = 0x0700;  // I2..I0: interrupts at or below this level wait
constexpr int kSrIntMaskShift = 8;
constexpr uint16_t kSrSystemByte = 0xFF00;  // what MOVE to CCR leaves alone
// At reset: supervisor, every interrupt masked (also STOP #$2700's usual operand).
constexpr uint16_t kSrReset = kSrSupervisor | kSrIntMask;

// The special status word of a 68010 bus or address error frame (format 8).
constexpr uint16_t kSswInstructionFetch = 0x2000;  // IF: the fault was on an instruction prefetch
constexpr uint16_t kSswDataFetch = 0x1000;         // DF: the fault was on a data access
constexpr uint16_t kSswRead = 0x0100;              // RW: 1 for a read
// The frame's format/vector word: format 8 (the 29-word bus fault frame) in its top nibble.
constexpr uint16_t kFrameFormatBusFault = 0x8000;

}  // namespace m68k
