// Tells AddressSanitizer the main thread's real stack while a speculative run executes on it.
//
// SystemC 2.3.4's QuickThreads coroutines annotate every switch for ASan
// (__sanitizer_start_switch_fiber), but give the primordial coroutine -- the main thread's own
// stack, where the scheduler and every SC_METHOD run -- an empty stack. After the first switch ASan
// therefore believes the main stack is [0, 0) and ignores __asan_handle_no_return there ("ASan is
// ignoring requested __asan_handle_no_return: stack type: default top: 0x0"). A C++ exception
// thrown and caught on the main stack then leaves the frames it unwound poisoned, and a later call
// that reuses that stack is reported as a stack-buffer-overflow that is not one. The CPU model
// throws on purpose (a speculative run abandoned at a device access, a bus error), and a run can
// execute on the main stack: an SC_METHOD that raises an interrupt joins the board's pending run
// and, when no worker took it, runs it itself (SpeculationPool::join). For the length of such a
// run this guard gives ASan the main stack's true bounds, then puts back what SystemC had set, so
// SystemC's own next switch finds the state it left. Without ASan it is empty.
#ifndef TESTBED_HW_BOARD_ASAN_MAIN_STACK_H
#define TESTBED_HW_BOARD_ASAN_MAIN_STACK_H

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include <cstddef>
#include <cstdint>
#endif

namespace testbed {

#if defined(__SANITIZE_ADDRESS__)
class AsanMainStack {
 public:
  AsanMainStack() {
    const Bounds& b = main_bounds();
    auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (!b.size || here < b.bottom || here >= b.bottom + b.size) return;  // a coroutine's or a worker's stack: ASan knows it
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, reinterpret_cast<const void*>(b.bottom), b.size);
    __sanitizer_finish_switch_fiber(fake, &old_bottom_, &old_size_);
    active_ = true;
  }
  ~AsanMainStack() {
    if (!active_) return;
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, old_bottom_, old_size_);
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
  }
  AsanMainStack(const AsanMainStack&) = delete;
  AsanMainStack& operator=(const AsanMainStack&) = delete;

 private:
  struct Bounds {
    uintptr_t bottom = 0;
    size_t size = 0;
  };
  // The bounds of the thread that first asks: the kernel's thread, which is the main thread.
  static const Bounds& main_bounds() {
    static const Bounds b = [] {
      Bounds r;
      pthread_attr_t a;
      if (pthread_getattr_np(pthread_self(), &a) == 0) {
        void* addr = nullptr;
        size_t size = 0;
        if (pthread_attr_getstack(&a, &addr, &size) == 0) r = {reinterpret_cast<uintptr_t>(addr), size};
        pthread_attr_destroy(&a);
      }
      return r;
    }();
    return b;
  }
  const void* old_bottom_ = nullptr;
  size_t old_size_ = 0;
  bool active_ = false;
};
#else
struct AsanMainStack {};
#endif

}  // namespace testbed

#endif
