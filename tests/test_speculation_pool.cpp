// SpeculationPool (issue #36) without SystemC: sixteen 68010 cores, each on its own RAM with the
// RamJournal of exact mode, run chunk after chunk on the pool's threads -- all queued as in one
// delta cycle, then joined in order, the joiner running what is queued while it waits -- and
// every chunk is rolled back to its checkpoint one time in three (the journal puts RAM back) and
// run again. Each board's RAM and registers must end exactly as with one thread, and the work
// must have spread. Built a second time with ThreadSanitizer (test_speculation_pool_tsan): the
// pool's hand-over, the cores and the journals on the workers are then checked for races.
#include "ram_journal.h"
#include "speculation_pool.h"

#include <m68k_cpu.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

using namespace testbed;

namespace {

constexpr uint32_t kRam = 64 * 1024;

// A core alone on its RAM: nothing leaves the fast path (a bus cycle here would be a device).
class Board : public m68k::Bus, public SpeculationJob {
 public:
  explicit Board(unsigned seed) : ram_(kRam), cpu_(*this, m68k::Model::MC68010), journal_(cpu_) {
    // Reset vectors, then at 0x400: d0 = seed; loop: d0 = d0 * 5 + 1 (mulu, addq); store it at
    // (a0)+ through a 16 KB ring from 0x4000; bra loop.
    auto w16 = [&](uint32_t a, uint16_t v) { ram_[a] = uint8_t(v >> 8), ram_[a + 1] = uint8_t(v); };
    auto w32 = [&](uint32_t a, uint32_t v) { w16(a, uint16_t(v >> 16)), w16(a + 2, uint16_t(v)); };
    w32(0, 0x8000);
    w32(4, 0x400);
    const uint16_t code[] = {0x203C, uint16_t(seed >> 16), uint16_t(seed),  // move.l #seed,d0
                             0x41F9, 0x0000, 0x4000,                        // lea 0x4000,a0
                             0xC0FC, 0x0005,                                // mulu #5,d0
                             0x5280,                                        // addq.l #1,d0
                             0x20C0,                                        // move.l d0,(a0)+
                             0xB1FC, 0x0000, 0x8000,                        // cmpa.l #0x8000,a0
                             0x66F0,                                        // bne.s mulu
                             0x41F9, 0x0000, 0x4000,                        // lea 0x4000,a0
                             0x60E8};                                       // bra.s mulu
    for (size_t i = 0; i < sizeof code / 2; ++i) w16(0x400 + 2 * uint32_t(i), code[i]);
    for (auto sp : {m68k::Space::User, m68k::Space::Supervisor}) cpu_.map_fast(sp, 0, kRam, ram_.data(), true);
    cpu_.reset();
    journal_.start();
    commit();
  }
  m68k::BusResponse read(const m68k::BusAccess&, uint16_t&, uint32_t&) override { return m68k::BusResponse::BusError; }
  m68k::BusResponse write(const m68k::BusAccess& a, uint16_t d, uint32_t& w) override {
    return journal_.write(a, d, w) ? m68k::BusResponse::Ok : m68k::BusResponse::BusError;
  }
  int interrupt_acknowledge(int, uint64_t, uint32_t&) override { return kSpurious; }
  void reset_devices(uint64_t) override {}

  void execute() override { cpu_.run_until(target_); }
  void commit() {
    cpu_.save(ckpt_);
    journal_.commit();
  }
  void rollback() {
    journal_.undo();
    cpu_.restore(ckpt_);
  }
  uint64_t target_ = 0;
  std::vector<uint8_t> ram_;
  m68k::Cpu cpu_;
  RamJournal journal_;
  m68k::Cpu::State ckpt_{};
};

struct Result {
  std::vector<uint8_t> ram;
  uint32_t d0;
  uint64_t instructions;
};

std::vector<Result> run(unsigned threads, uint64_t& on_workers) {
  SpeculationPool pool(threads);
  std::vector<std::unique_ptr<Board>> boards;
  for (unsigned i = 0; i < 16; ++i) boards.push_back(std::make_unique<Board>(0x1234567u * (i + 1)));
  for (unsigned round = 0; round < 300; ++round) {
    for (auto& b : boards) {
      b->target_ = b->cpu_.cycles() + 2000 + 97 * (round % 7);
      pool.submit(*b);
    }
    for (size_t i = 0; i < boards.size(); ++i) {
      Board& b = *boards[i];
      pool.join(b);
      if ((round + i) % 3 == 0) {  // something reached it in its past: again from the checkpoint
        b.rollback();
        pool.submit(b);
        pool.join(b);
      }
      b.commit();
    }
  }
  std::vector<Result> out;
  on_workers = 0;
  for (auto& b : boards) {
    out.push_back({b->ram_, b->cpu_.regs().d[0], b->cpu_.instructions()});
    on_workers += b->ran_on_worker();
    pool.forget(*b);
  }
  return out;
}

}  // namespace

int main() {
  uint64_t w1 = 0, w4 = 0;
  std::vector<Result> one = run(1, w1), four = run(4, w4);
  int bad = 0;
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i].ram != four[i].ram || one[i].d0 != four[i].d0 || one[i].instructions != four[i].instructions) {
      std::printf("board %zu: 4 threads differ from 1 (d0 %08X / %08X, %llu / %llu instructions)\n", i,
                  unsigned(one[i].d0), unsigned(four[i].d0), (unsigned long long)one[i].instructions,
                  (unsigned long long)four[i].instructions);
      ++bad;
    }
    if (one[i].instructions < 20000) {
      std::printf("board %zu ran only %llu instructions\n", i, (unsigned long long)one[i].instructions);
      ++bad;
    }
  }
  if (w1 != 0) {
    std::printf("one thread: %llu runs on workers (there are none)\n", (unsigned long long)w1);
    ++bad;
  }
  std::printf("16 boards x 300 chunks (a third rolled back and run again): %llu runs on the 3 workers at 4 threads\n",
              (unsigned long long)w4);
  if (bad) return 1;
  std::printf("speculation pool: PASS\n");
  return 0;
}
