// The Embench differential (issue #64): real compiled programs, the Embench-IoT benchmarks
// (third_party/embench-iot, built by firmware/embench as 68000 and 68010 code), give the same
// machine whichever way the core runs them, and the right answer. For each benchmark and model
// the image runs from reset to its exit on the fast path and again each other way of
// m68k_ways.h but the restored one (every access on the Bus, one instruction at a time, in
// slices, every page write-protected); registers, prefetch queue, clocks, instruction count,
// halt/stop state, every byte of RAM and the words it reported must agree, and the benchmark's own verify_benchmark()
// must have said right (the exit code), so a core that is wrong alike on every path fails too.
// Where the random-block differential (test_m68k_paths_agree) covers what random words do, this
// covers what a compiler emits: long loops, calls, the runtime's helpers, tables, byte data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "elf_loader.h"
#include "m68k_cpu.h"
#include "m68k_ways.h"
#include "testbed/memory_map.h"

namespace {

using namespace m68k;
using namespace m68k_ways;

// A benchmark that has not exited by this clock never will.
constexpr uint64_t kMaxCycles = uint64_t(1) << 32;

// The benchmarks (EMBENCH_BENCHMARKS, comma-separated, from tests/cpu.cmake: the folders of
// third_party/embench-iot/src, the images firmware/embench builds).
std::vector<std::string> benchmarks() {
  std::vector<std::string> out;
  std::stringstream list(EMBENCH_BENCHMARKS);
  for (std::string b; std::getline(list, b, ',');)
    if (!b.empty()) out.push_back(b);
  return out;
}

// The board image's RAM (from 0 to its link script's __stack_top) in shuffled frames, and the
// simulator-control block past it, where the image reports: benchmark()'s value as the checksum,
// then the exit code (lib/crt0.S, embench_main.c), whose write ends the run.
class EmbenchBus : public ShuffledRam {
 public:
  EmbenchBus(const testbed::ElfImage& image, uint32_t seed)
      : ShuffledRam(image.symbol("__stack_top"), seed) {
    testbed::check_image_fits(image, {{0, size(), "the image's RAM"}});
    for (const auto& seg : image.segments)
      std::copy(seg.data.begin(), seg.data.end(), mem.begin() + seg.paddr);
    to_frames();
  }
  void attach(Cpu& c) { cpu_ = &c; }
  uint32_t simctl(uint32_t address) const {
    const uint8_t* p = &simctl_[address - TB_SIMCTL_BASE];
    return uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3];
  }
  bool exited = false;
  std::vector<uint8_t> simctl_ = std::vector<uint8_t>(TB_SIMCTL_SIZE);

 protected:
  void outside_write(const BusAccess& a, uint16_t d) override {
    const uint32_t x = a.address & 0xFFFFFF;
    if (x < TB_SIMCTL_BASE || x >= TB_SIMCTL_BASE + TB_SIMCTL_SIZE) return;
    if (a.byte) {
      simctl_[x - TB_SIMCTL_BASE] = uint8_t(d);
    } else {
      simctl_[x - TB_SIMCTL_BASE] = uint8_t(d >> 8);
      simctl_[x - TB_SIMCTL_BASE + 1] = uint8_t(d);
    }
    // The exit code's long store ends with its low word.
    if ((x & ~1u) == TB_SIMCTL_EXIT + 2) {
      exited = true;
      cpu_->request_yield();
    }
  }

 private:
  Cpu* cpu_ = nullptr;
};

struct ImageRun {
  Outcome o;
  bool exited;
  std::vector<uint8_t> simctl;
  uint32_t exit_code, checksum;
};

ImageRun run_image(const testbed::ElfImage& image, Model m, uint32_t seed, Way way) {
  EmbenchBus b(image, seed);
  Cpu c(b, m);
  b.attach(c);
  b.prepare(c, way);
  c.reset();
  m68k_ways::run(c, way, kMaxCycles, b.exited);
  return {outcome(c, b), b.exited, b.simctl_, b.simctl(TB_SIMCTL_EXIT), b.simctl(TB_SIMCTL_CHECKSUM)};
}

class EmbenchDifferential : public ::testing::TestWithParam<std::string> {};

TEST_P(EmbenchDifferential, RunsTheSameOnEveryPathAndVerifies) {
  const std::string bench = GetParam();
  uint32_t seed = 2166136261u;  // the frames' shuffle: FNV-1a of the name
  for (char ch : bench) seed = (seed ^ uint8_t(ch)) * 16777619u;
  for (Model m : {Model::MC68000, Model::MC68010}) {
    const std::string cpu = m == Model::MC68010 ? "68010" : "68000";
    const std::string path = std::string(TESTBED_FIRMWARE_DIR) + "/embench-" + bench + "-" + cpu + ".elf";
    const testbed::ElfImage image = testbed::load_elf(path);
    const std::string what = bench + " (" + cpu + " code on the " + cpu + ")";

    const ImageRun fast = run_image(image, m, seed, Way::Fast);
    ASSERT_TRUE(fast.exited) << what << ": no exit after " << fast.o.s.cycles << " clocks"
                             << (fast.o.halt.empty() ? "" : ", halted: " + fast.o.halt);
    // 1: verify_benchmark() says right; 0x101 it says wrong, 0x102 a check inside the benchmark
    // failed (embench_main.c, embench_libc.c); 0x200 + vector: an unexpected exception (crt0).
    EXPECT_EQ(uint32_t(TB_SIMCTL_EXIT_SUCCESS), fast.exit_code)
        << what << ": exit code 0x" << std::hex << fast.exit_code << std::dec
        << " (benchmark() returned " << fast.checksum << ")";
    // It ran the benchmark: a million instructions at least.
    EXPECT_GT(fast.o.s.instructions, 1000000u) << what;
    std::printf("embench %s %s: %llu instructions, %llu clocks, benchmark() %u, exit code 0x%X\n",
                bench.c_str(), cpu.c_str(), (unsigned long long)fast.o.s.instructions,
                (unsigned long long)fast.o.s.cycles, fast.checksum, fast.exit_code);

    for (Way w : kOtherWays) {
      // The restored way costs a save and a restore per instruction, and a benchmark runs
      // millions (under the sanitizers a minute of the suite for every benchmark together): the
      // random-block differential runs it on both models, and it fails there as here without the
      // slow call's register operands (tests/test_m68k_paths_agree.cpp).
      if (w == Way::Restored) continue;
      const ImageRun other = run_image(image, m, seed, w);
      const std::string against = what + ", " + name(w) + " against fast";
      EXPECT_TRUE(other.exited) << against;
      expect_same(fast.o, other.o, against);
      EXPECT_TRUE(fast.simctl == other.simctl) << against << ": the reported words differ";
      if (HasFailure()) return;
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Embench, EmbenchDifferential, ::testing::ValuesIn(benchmarks()), test_name);

}  // namespace
