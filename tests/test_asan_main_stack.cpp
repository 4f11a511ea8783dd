// An exception thrown and caught on the main stack while SystemC runs -- in an SC_METHOD, after
// the first coroutine switch -- leaves that stack clean for the calls after it, as long as
// AsanMainStack gives ASan the main stack's bounds (SystemC 2.3.4 gives it none: see
// hw/board/asan_main_stack.h). Without the guard the sanitized tree reports a stack-buffer-overflow
// in use_the_stack() below, or at least ASan's warning, which fails the test (parallel.cmake).
// Without ASan the test runs the same code and proves nothing more than that it runs.
#include <gtest/gtest.h>

#include <systemc>

#include "asan_main_stack.h"

// libsystemc wants an sc_main; gtest_main provides main() and the test calls sc_start.
int sc_main(int, char**) { return 1; }

namespace {

struct Thrown {};

// Frames with arrays, so that ASan poisons redzones in each; the throw unwinds them all.
[[gnu::noinline]] void throw_from_deep(int depth) {
  volatile char pad[200];
  pad[0] = char(depth);
  if (depth == 0) throw Thrown{};
  throw_from_deep(depth - 1);
  pad[1] = pad[0];
}

// A frame that covers the unwound ones: ASan poisons only a frame's redzones on entry, so redzones
// left behind by the throw would lie inside this array.
[[gnu::noinline]] int use_the_stack() {
  volatile char big[32 * 1024];
  for (size_t i = 0; i < sizeof big; ++i) big[i] = char(i & 0x7F);
  return big[100];
}

SC_MODULE(MainStackUser) {
  sc_core::sc_event go;
  int used = -1;
  SC_CTOR(MainStackUser) {
    SC_THREAD(thread);
    SC_METHOD(method);
    sensitive << go;
    dont_initialize();
  }
  // SystemC switches to this coroutine and back to main. It never ends: SystemC 2.3.4 leaves a
  // thread that returns without telling ASan of the switch back (its abort path), so ASan went on
  // taking the dead coroutine's stack for the main thread's, and LeakSanitizer's scan of it at
  // exit crashed in about a third of the runs ("Tracer caught signal 11").
  void thread() {
    wait(1, sc_core::SC_NS);
    go.notify();
    wait(never);
  }
  sc_core::sc_event never;
  void method() {  // runs on the main stack, as SpeculationPool::join does from an interrupt
    [[maybe_unused]] testbed::AsanMainStack stack;
    try {
      throw_from_deep(30);
    } catch (const Thrown&) {
    }
    used = use_the_stack();
  }
};

}  // namespace

TEST(AsanMainStack, AnExceptionCaughtOnTheMainStackLeavesItClean) {
  MainStackUser m("m");
  sc_core::sc_start();
  EXPECT_EQ(m.used, 100);
}
