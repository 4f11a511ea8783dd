// A 68000/68010 disassembler whose text is exactly what GNU objdump prints (Debian's
// m68k-linux-gnu-objdump, MIT syntax: "movel %d2,%sp@-", "moveal %sp@(12),%a0", "bccs 0x1a").
//
// Self-contained (no dependency on the core), so that tools, tracers and tests can use it
// while the core is built separately. What it prints where objdump and a real 68010 disagree
// (68020+ extension-word fields, F-line coprocessor words) is in hw/cpu/DISASSEMBLER.md.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace m68k {

// Which processor's instruction set to decode. MC68000 turns the 68010 additions (movec,
// moves, rtd, bkpt, move from ccr) into ".short 0x...." as objdump -m m68k:68000 does.
// (A separate enum rather than the core's Model, so this file does not depend on the core.)
enum class DisasmCpu { MC68000, MC68010 };

// Disassemble the instruction at `pc`; `fetch(addr)` returns the 16-bit word at addr (even
// addresses only; it may be called for words just beyond an invalid instruction). Returns the
// instruction length in bytes (2 for an undefined word, printed ".short 0x4afb"); `out` gets
// the text objdump -D -b binary -m m68k:68010 prints for it, addresses as 0x-prefixed hex.
int disassemble(uint32_t pc, const std::function<uint16_t(uint32_t)>& fetch, std::string& out,
                DisasmCpu cpu = DisasmCpu::MC68010);

}  // namespace m68k
