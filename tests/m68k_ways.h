// The ways of running the core that must give the same machine, for the CPU differentials
// (test_m68k_paths_agree: random blocks; test_m68k_embench_differential: Embench programs).
// The fast path (host pointers, the fetch, read and write windows, chained handlers) is the
// reference; the others are the Bus for every access, one instruction at a time (a debugger's
// break check), the run cut into slices, every RAM page write-protected (the journal's path), and
// one instruction per run_until() with the core saved and restored between them (each then starts
// with its windows closed: its first fetch goes through the slow path, which on x86-64 is an asm
// call that must leave the core's hot registers as the slow path left them, m68k_hot_regs.h).
// After a run the outcome is the registers, prefetch queue, clocks, instruction count, halt and
// stop state and every byte of RAM; expect_same() compares two.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_test_ram.h"

namespace m68k_ways {

enum class Way { Fast, OneAtATime, AllOnTheBus, Sliced, WriteProtected, Restored };
// Every way but the reference, Fast.
constexpr Way kOtherWays[] = {Way::OneAtATime, Way::AllOnTheBus, Way::Sliced, Way::WriteProtected, Way::Restored};
constexpr uint64_t kSlice = 997;  // the Sliced way's run_until steps, in clocks

inline const char* name(Way w) {
  switch (w) {
    case Way::Fast: return "fast";
    case Way::OneAtATime: return "one at a time";
    case Way::AllOnTheBus: return "all on the bus";
    case Way::Sliced: return "sliced";
    case Way::Restored: return "restored at every instruction";
    default: return "write-protected";
  }
}

// RAM for the core from address 0: each 1 KB guest page in a frame of its own, the frames in a
// shuffled order in host memory, so that a fast path that ran past its page would read another
// page's words. The Bus serves what the core does not reach on its fast path. Pages below
// `read_only_below` ignore writes; the rest of the 24-bit space and CPU space read as all ones
// and ignore writes (a derived bus sees those writes in outside_write); nothing adds wait states.
class ShuffledRam : public m68k::Bus, public M68kTestRam {
 public:
  static constexpr uint32_t kPage = 1024;

  ShuffledRam(uint32_t size, uint32_t seed, uint32_t read_only_below = 0)
      : M68kTestRam(size), size_(size), read_only_below_(read_only_below), host_(size),
        frame_(size / kPage) {
    for (uint32_t p = 0; p < frame_.size(); ++p) frame_[p] = p;
    std::mt19937 rng(seed ^ 0x5EED);
    std::shuffle(frame_.begin(), frame_.end(), rng);
  }
  uint32_t size() const { return size_; }
  uint8_t* at(uint32_t a) { return &host_[frame_[a / kPage] * kPage + a % kPage]; }
  // mem (the guest's view, where a loader writes) to the frames, and back.
  void to_frames() {
    for (uint32_t a = 0; a < size_; a += kPage) std::memcpy(at(a), &mem[a], kPage);
  }
  void from_frames() {
    for (uint32_t a = 0; a < size_; a += kPage) std::memcpy(&mem[a], at(a), kPage);
  }
  bool outside(const m68k::BusAccess& a) const {
    const int fc = a.fc & 7;
    return fc == 0 || fc == 3 || fc == 4 || fc == 7 || (a.address & 0xFFFFFF) >= size_;
  }
  m68k::BusResponse read(const m68k::BusAccess& a, uint16_t& d, uint32_t&) override {
    const uint32_t x = a.address & 0xFFFFFF;
    if (outside(a)) d = a.byte ? 0xFF : 0xFFFF;
    else if (a.byte) d = *at(x);
    else d = uint16_t(*at(x) << 8 | *at(x + 1));
    return m68k::BusResponse::Ok;
  }
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t d, uint32_t&) override {
    const uint32_t x = a.address & 0xFFFFFF;
    if (outside(a)) {
      outside_write(a, d);
      return m68k::BusResponse::Ok;
    }
    if (x < read_only_below_) return m68k::BusResponse::Ok;
    if (a.byte) {
      *at(x) = uint8_t(d);
    } else {
      *at(x) = uint8_t(d >> 8);
      *at(x + 1) = uint8_t(d);
    }
    return m68k::BusResponse::Ok;
  }

  // The way's set-up, before reset: RAM on the fast path (pages below read_only_below mapped
  // read-only) unless every access goes on the Bus, every writable page write-protected, or a
  // break check that never stops.
  void prepare(m68k::Cpu& c, Way way) {
    using m68k::Space;
    if (way != Way::AllOnTheBus) {
      for (Space sp : {Space::User, Space::Supervisor})
        for (uint32_t a = 0; a < size_; a += kPage)
          c.map_fast(sp, a, kPage, at(a), a >= read_only_below_);
    }
    if (way == Way::WriteProtected) {
      for (Space sp : {Space::User, Space::Supervisor})
        for (uint32_t a = read_only_below_; a < size_; a += kPage) c.protect_writes(sp, a);
    }
    if (way == Way::OneAtATime) c.set_break_check([](uint32_t, bool) { return false; });
  }

 protected:
  virtual void outside_write(const m68k::BusAccess&, uint16_t) {}

 private:
  uint32_t size_, read_only_below_;
  std::vector<uint8_t> host_;
  std::vector<uint32_t> frame_;
};

// Runs the core to clock `end`, or until it halts or `done` (set by the bus) is true: in one
// run_until call unless the way is Sliced (run_until at every multiple of kSlice) or Restored
// (an instruction per call, the core saved and restored after each).
inline void run(m68k::Cpu& c, Way way, uint64_t end, const bool& done) {
  if (way == Way::Restored) {
    while (!done && !c.halted() && c.cycles() < end) {
      c.run_until(std::min(end, c.cycles() + 1));
      m68k::Cpu::State s;
      c.save(s);
      c.restore(s);
    }
    return;
  }
  const uint64_t step = way == Way::Sliced ? kSlice : end;
  for (uint64_t t = 0; !done && !c.halted() && c.cycles() < end;) {
    t = std::min(end, t + step);
    if (c.cycles() < t) c.run_until(t);
  }
}

struct Outcome {
  m68k::Cpu::State s;
  std::vector<uint8_t> mem;
  std::string halt;
  bool stopped;
};

inline Outcome outcome(const m68k::Cpu& c, ShuffledRam& ram) {
  Outcome o;
  c.save(o.s);
  ram.from_frames();
  o.mem = ram.mem;
  o.halt = c.halted() ? c.halt_reason() : "";
  o.stopped = c.stopped();
  return o;
}

inline void expect_same(const Outcome& x, const Outcome& y, const std::string& what) {
  EXPECT_EQ(0, std::memcmp(x.s.r.d, y.s.r.d, sizeof x.s.r.d)) << what;
  EXPECT_EQ(0, std::memcmp(x.s.r.a, y.s.r.a, sizeof x.s.r.a)) << what;
  EXPECT_EQ(x.s.r.usp, y.s.r.usp) << what;
  EXPECT_EQ(x.s.r.ssp, y.s.r.ssp) << what;
  EXPECT_EQ(x.s.r.pc, y.s.r.pc) << what;
  EXPECT_EQ(x.s.r.sr, y.s.r.sr) << what;
  EXPECT_EQ(x.s.r.vbr, y.s.r.vbr) << what;
  EXPECT_EQ(x.s.ird, y.s.ird) << what;
  EXPECT_EQ(x.s.irc, y.s.irc) << what;
  EXPECT_EQ(x.s.cycles, y.s.cycles) << what;
  EXPECT_EQ(x.s.instructions, y.s.instructions) << what;
  EXPECT_EQ(x.s.loop_mode, y.s.loop_mode) << what;
  EXPECT_EQ(x.halt, y.halt) << what;
  EXPECT_EQ(x.stopped, y.stopped) << what;
  EXPECT_TRUE(x.mem == y.mem) << what << ": memory differs";
}

}  // namespace m68k_ways
