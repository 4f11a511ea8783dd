// Debug sections out of an m68k ELF executable, for the copy that goes on a board.
//
// Programs are built with -g so that gdb on the host shows lines, locals and a whole backtrace;
// the board needs none of it (DWARF is three times the code), and a TOS filestore is RAM and a
// LAN upload runs at 3 KB/s. tos-mkfs therefore stores a program without its .debug_* sections:
// what the loader reads (ELF header, program headers, every loaded byte) stays at the same file
// offsets, unchanged; the symbol table stays (section indices renumbered).
//
//   std::vector<uint8_t> small = testbed::strip_debug(bytes);   // bytes as they were when there
//                                                               // is nothing to strip
#pragma once
#include <cstdint>
#include <vector>

namespace testbed {

// The file without its non-loaded .debug* sections. Anything that is not a well-formed ELF32
// big-endian file with a section table (including a file made malformed on purpose, which the
// loader must see as it is) is returned unchanged.
std::vector<uint8_t> strip_debug(const std::vector<uint8_t>& elf);

}  // namespace testbed
