// A debugger's hooks into the CPU initiator (sim/gdb uses them): none of them costs anything
// while no hook is set.
#pragma once
#include "m68k_bus.h"

#include <cstdint>

namespace testbed {

class CpuDebugHook {
 public:
  virtual ~CpuDebugHook() = default;
  // In the CPU thread at an instruction boundary, before each run of the core (and after one
  // that stopped at a breakpoint, a watchpoint or the end of a single step). It may wait() or
  // block the host thread (the whole simulation then stops); the initiator keeps its local
  // time across the kernel time that passes meanwhile.
  virtual void boundary() = 0;
  // Every bus cycle on the slow path that completed (address as the CPU drives it).
  virtual void access(const m68k::BusAccess& a, unsigned len) = 0;
  // True if the fast path must not map the 1 KB page at `base` (a watchpoint lies in it), so
  // that accesses to it come through access().
  virtual bool keep_off_fast_path(uint32_t base, bool supervisor) = 0;
};

}  // namespace testbed
