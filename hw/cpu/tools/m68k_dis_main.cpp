// m68k-dis: the project's 68000/68010 disassembler on the command line.
//
//   m68k-dis [--68000] image.elf                 executable segments of an ELF image
//   m68k-dis [--68000] [--vma A] --binary f.bin  a raw binary loaded at A (default 0)
//   m68k-dis [--68000] [--vma A] --hex 4e71 2f00 ...   words given in hex
//
// Lines look like objdump's: "     400:\t46fc 2700      \tmovew #9984,%sr".
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tool_args.h"
#include "elf_loader.h"
#include "m68k_disasm.h"
#include "host_file.h"
#include "version.h"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: m68k-dis [--68000] image.elf\n"
               "       m68k-dis [--68000] [--vma ADDR] --binary file.bin\n"
               "       m68k-dis [--68000] [--vma ADDR] --hex WORD...\n");
  return 2;
}

// Disassembles bytes[0..size) loaded at `base`; words past the end read as 0.
void dump(uint32_t base, const std::vector<uint8_t>& bytes, m68k::DisasmCpu cpu,
          const std::map<uint32_t, std::string>& labels) {
  auto fetch = [&](uint32_t a) -> uint16_t {
    uint32_t off = a - base;
    uint16_t hi = off < bytes.size() ? bytes[off] : 0;
    uint16_t lo = off + 1 < bytes.size() ? bytes[off + 1] : 0;
    return static_cast<uint16_t>(hi << 8 | lo);
  };
  uint32_t end = base + static_cast<uint32_t>(bytes.size());
  for (uint32_t pc = base; pc + 1 < end;) {
    auto l = labels.find(pc);
    if (l != labels.end()) std::printf("\n%08x <%s>:\n", pc, l->second.c_str());
    std::string text;
    int len = m68k::disassemble(pc, fetch, text, cpu);
    std::string hex;
    for (int i = 0; i < len; i += 2) {
      char w[8];
      std::snprintf(w, sizeof w, "%04x ", fetch(pc + static_cast<uint32_t>(i)));
      hex += w;
    }
    std::printf("%8x:\t%-15s\t%s\n", pc, hex.c_str(), text.c_str());
    pc += static_cast<uint32_t>(len);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "m68k-dis")) return 0;
  m68k::DisasmCpu cpu = m68k::DisasmCpu::MC68010;
  uint32_t vma = 0;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("usage: m68k-dis [--68000] image.elf\n"
                  "       m68k-dis [--68000] [--vma ADDR] --binary file.bin\n"
                  "       m68k-dis [--68000] [--vma ADDR] --hex WORD...\n"
                  "  disassembles 68010 (or --68000) code; ADDR 0..0xFFFFFFFF (decimal or 0x hex)\n");
      return 0;
    }
    if (a == "--68000") {
      cpu = m68k::DisasmCpu::MC68000;
    } else if (a == "--vma" && i + 1 < argc) {
      vma = static_cast<uint32_t>(testbed::tool_args::whole("m68k-dis", "--vma", argv[++i], 0, 0xFFFFFFFFull, 0));
    } else {
      break;
    }
  }
  if (i >= argc) return usage();
  std::string mode = argv[i];
  if (mode == "--hex") {
    std::vector<uint8_t> bytes;
    for (++i; i < argc; ++i) {
      char* end = nullptr;
      unsigned long w = std::strtoul(argv[i], &end, 16);
      if (*end || w > 0xffff) {
        std::fprintf(stderr, "m68k-dis: '%s' is not a 16-bit hex word\n", argv[i]);
        return 2;
      }
      bytes.push_back(static_cast<uint8_t>(w >> 8));
      bytes.push_back(static_cast<uint8_t>(w));
    }
    dump(vma, bytes, cpu, {});
    return 0;
  }
  if (mode == "--binary") {
    if (i + 1 >= argc) return usage();
    std::vector<uint8_t> bytes;
    try {
      bytes = testbed::read_host_file(argv[i + 1]);
    } catch (const testbed::HostFileError& e) {
      std::fprintf(stderr, "m68k-dis: %s\n", e.what());
      return 2;
    }
    dump(vma, bytes, cpu, {});
    return 0;
  }
  if (mode.rfind("--", 0) == 0 || i + 1 != argc) return usage();
  try {
    testbed::ElfImage image = testbed::load_elf(mode);
    std::map<uint32_t, std::string> labels;
    for (const auto& [name, value] : image.symbols) {
      // Source-file symbols (STT_FILE, value 0) are not places in the code.
      auto dot = name.rfind('.');
      std::string ext = dot == std::string::npos ? "" : name.substr(dot);
      if (ext == ".c" || ext == ".S" || ext == ".s" || ext == ".cpp") continue;
      labels.emplace(value, name);
    }
    for (const auto& seg : image.segments) {
      if (!(seg.flags & 1)) continue;  // PF_X
      dump(seg.vaddr, seg.data, cpu, labels);
    }
  } catch (const testbed::ElfError& e) {
    std::fprintf(stderr, "m68k-dis: %s\n", e.what());
    return 2;  // bad input (README: exit status)
  }
  return 0;
}
