// m68k-bench IMAGE [--model 68000|68010] [--expect-checksum X] [--expect-instructions N]
//
// Runs the reference CPU workload (../shared/bench/workload) on the core with 16 MiB of flat
// RAM until it writes 1 to 0x00FFFFF4, then prints instructions, emulated clocks, host time,
// the checksum at 0x00FFFFF0 and, last, "MIPS <value>".
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "elf_loader.h"
#include "m68k_cpu.h"
#include "tool_args.h"
#include "host_file.h"
#include "version.h"

namespace {

constexpr uint32_t kRam = 1u << 24;
constexpr uint32_t kDonePage = 0xFFFC00;  // left off the fast path so the Bus sees the stores

uint32_t be32(const uint8_t* p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

// An ELF image through the project's one loader (sw/elf: validated headers and segments, every
// segment inside the 16 MiB flat memory), or a flat binary loaded at 0. Errors name the file.
bool load_image(const std::string& path, std::vector<uint8_t>& mem, std::string& error) {
  std::vector<uint8_t> d;
  try {
    d = testbed::read_host_file(path);
  } catch (const testbed::HostFileError& e) {
    error = e.what();
    return false;
  }
  if (d.size() >= 4 && std::memcmp(d.data(), "\x7f" "ELF", 4) == 0) {
    try {
      testbed::ElfImage image = testbed::parse_elf(d, path);
      testbed::check_image_fits(image, {{0, kRam, "the bench's 16 MiB flat memory"}});
      for (const auto& seg : image.segments) {
        std::memcpy(&mem[seg.paddr], seg.data.data(), seg.data.size());
        std::memset(&mem[seg.paddr + seg.data.size()], 0, seg.memsz - seg.data.size());
      }
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
    return true;
  }
  if (d.size() > kRam) {
    error = path + ": a flat binary larger than the 16 MiB memory";
    return false;
  }
  std::memcpy(mem.data(), d.data(), d.size());
  return true;
}

class BenchBus : public m68k::Bus {
 public:
  BenchBus(std::vector<uint8_t>& mem, m68k::Cpu*& cpu) : mem_(mem), cpu_(cpu) {}
  m68k::BusResponse read(const m68k::BusAccess& a, uint16_t& d, uint32_t&) override {
    uint32_t x = a.address & 0xFFFFFF;
    d = a.byte ? mem_[x] : (uint16_t)(mem_[x & ~1u] << 8 | mem_[x | 1]);
    return m68k::BusResponse::Ok;
  }
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t d, uint32_t&) override {
    uint32_t x = a.address & 0xFFFFFF;
    if (a.byte) {
      mem_[x] = (uint8_t)d;
    } else {
      mem_[x] = (uint8_t)(d >> 8);
      mem_[x + 1] = (uint8_t)d;
    }
    // The long store of 1 to 0xFFFFF4 ends with its low word at 0xFFFFF6.
    if ((x & ~1u) == 0xFFFFF6 && be32(&mem_[0xFFFFF4]) == 1) {
      done = true;
      cpu_->request_yield();
    }
    return m68k::BusResponse::Ok;
  }
  bool done = false;

 private:
  std::vector<uint8_t>& mem_;
  m68k::Cpu*& cpu_;
};

}  // namespace

int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "m68k-bench")) return 0;
  std::string image;
  m68k::Model model = m68k::Model::MC68000;
  long long expect_sum = -1, expect_insns = -1;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    namespace ta = testbed::tool_args;
    if (a == "-h" || a == "--help") {
      std::printf("usage: m68k-bench IMAGE [--model 68000|68010] [--expect-checksum X] [--expect-instructions N]\n"
                  "  runs IMAGE on the bare CPU core and prints MIPS; X and N are 0..0xFFFFFFFF / 0..2^63-1 "
                  "(decimal or 0x hex)\n");
      return 0;
    }
    if ((a == "--model" || a == "--expect-checksum" || a == "--expect-instructions") && i + 1 >= argc)
      ta::refuse("m68k-bench", a + " needs a value");
    if (a == "--model") {
      std::string m = argv[++i];
      if (m != "68000" && m != "68010") ta::refuse("m68k-bench", "--model '" + m + "': expected 68000 or 68010");
      model = m == "68010" ? m68k::Model::MC68010 : m68k::Model::MC68000;
    } else if (a == "--expect-checksum") {
      expect_sum = (long long)ta::whole("m68k-bench", "--expect-checksum", argv[++i], 0, 0xFFFFFFFFull, 0);
    } else if (a == "--expect-instructions") {
      expect_insns = (long long)ta::whole("m68k-bench", "--expect-instructions", argv[++i], 0, 0x7FFFFFFFFFFFFFFFull, 0);
    } else if (!a.empty() && a[0] == '-') {
      ta::refuse("m68k-bench", "unknown option " + a);
    } else if (!image.empty()) {
      ta::refuse("m68k-bench", "more than one IMAGE");
    } else {
      image = a;
    }
  }
  if (image.empty()) {
    std::fprintf(stderr, "usage: m68k-bench IMAGE [--model 68000|68010] [--expect-checksum X] [--expect-instructions N]\n");
    return 2;
  }
  std::vector<uint8_t> mem(kRam, 0);
  std::string load_error;
  if (!load_image(image, mem, load_error)) {
    std::fprintf(stderr, "m68k-bench: cannot load %s: %s\n", image.c_str(), load_error.c_str());
    return 2;
  }
  m68k::Cpu* cpu_ptr = nullptr;
  BenchBus bus(mem, cpu_ptr);
  m68k::Cpu cpu(bus, model);
  cpu_ptr = &cpu;
  for (auto space : {m68k::Space::User, m68k::Space::Supervisor})
    cpu.map_fast(space, 0, kDonePage, mem.data(), true);
  cpu.reset();

  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  while (!bus.done && !cpu.halted() && !cpu.stopped()) cpu.run_until(cpu.cycles() + 100000000);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu_secs = (double)(std::clock() - c0) / CLOCKS_PER_SEC;

  uint32_t sum = be32(&mem[0xFFFFF0]);
  std::printf("instructions %llu\n", (unsigned long long)cpu.instructions());
  std::printf("cycles %llu\n", (unsigned long long)cpu.cycles());
  std::printf("seconds %.3f (process CPU %.3f; the host is shared, so wall time can be longer)\n",
              secs, cpu_secs);
  std::printf("checksum 0x%08X\n", sum);
  int rc = 0;
  if (!bus.done) {
    std::printf("error: workload did not finish (%s)\n", cpu.halted() ? cpu.halt_reason() : "stopped");
    rc = 1;
  }
  if (expect_sum >= 0 && sum != (uint32_t)expect_sum) {
    std::printf("error: checksum mismatch, expected 0x%08llX\n", expect_sum);
    rc = 1;
  }
  if (expect_insns >= 0 && cpu.instructions() != (uint64_t)expect_insns) {
    std::printf("error: instruction count mismatch, expected %lld\n", expect_insns);
    rc = 1;
  }
  // Process CPU time is the figure to compare on a shared host (wall time includes waiting).
  std::printf("MIPS of process CPU time %.1f\n",
              cpu_secs > 0 ? cpu.instructions() / cpu_secs / 1e6 : 0.0);
  std::printf("MIPS %.1f\n", secs > 0 ? cpu.instructions() / secs / 1e6 : 0.0);
  return rc;
}
