// The contract between the 68000/68010 core and whatever platform it sits in.
//
// The core is free of SystemC: a platform (the SystemC board, the vector runner, the benchmark)
// implements m68k::Bus for everything that is not plain memory, and hands the core host pointers
// for plain memory pages (the TLM-2.0 DMI idea, at MMU-page granularity so that a paged MMU can
// hand out per-page translations too).
//
// Timing: the core counts CPU clocks from reset. Every bus callback receives the clock at which
// its bus cycle starts, so a device sees the access at the right time within the instruction;
// the callback answers with the wait states it inserts (extra clocks beyond the 4-clock cycle).
#pragma once
#include <cstdint>

namespace m68k {

// Function codes FC2..FC0 as driven on the bus.
enum FunctionCode : uint8_t {
  FC_USER_DATA = 1,
  FC_USER_PROGRAM = 2,
  FC_SUPERVISOR_DATA = 5,
  FC_SUPERVISOR_PROGRAM = 6,
  FC_CPU_SPACE = 7,  // interrupt acknowledge, breakpoint acknowledge
};

inline bool fc_is_supervisor(uint8_t fc) { return fc & 4; }

struct BusAccess {
  uint32_t address;  // 24-bit physical-bus address as the CPU drives it (A23..A1, plus A0 for bytes)
  uint8_t fc;        // FunctionCode
  bool write;
  bool byte;         // byte access: UDS if address is even, LDS if odd; else a word access
  uint64_t cycle;    // CPU clock at which this bus cycle starts (clocks since reset)
};

enum class BusResponse : uint8_t {
  Ok,
  BusError,  // BERR: the core takes a bus-error exception (68010: format $8 frame, restartable)
  Halt,      // HALT: the core stops as after a double bus fault; the platform says why
};

class Bus {
 public:
  virtual ~Bus() = default;

  // Slow path, for every access not covered by a fast page. For a word access `data` is the
  // 16-bit bus value; for a byte access the byte is in the low 8 bits (whatever the lane).
  // `wait` is preset to 0; set it to the wait states this cycle adds.
  virtual BusResponse read(const BusAccess& a, uint16_t& data, uint32_t& wait) = 0;
  virtual BusResponse write(const BusAccess& a, uint16_t data, uint32_t& wait) = 0;

  // Interrupt acknowledge cycle for `level` (1..7). Return a vector number (0..255),
  // kAutovector for an autovectored interrupt, or kSpurious when no device answers (BERR).
  static constexpr int kAutovector = -1;
  static constexpr int kSpurious = -2;
  virtual int interrupt_acknowledge(int level, uint64_t cycle, uint32_t& wait) {
    (void)level; (void)cycle; (void)wait;
    return kAutovector;
  }

  // The RESET instruction asserts the RESET line (124 clocks); devices reset themselves.
  virtual void reset_devices(uint64_t cycle) { (void)cycle; }

  // A BKPT #n (68010) breakpoint-acknowledge cycle; returning false makes it an illegal
  // instruction, as on a board with no breakpoint hardware.
  virtual bool breakpoint_acknowledge(int n, uint64_t cycle) { (void)n; (void)cycle; return false; }
};

// Address spaces of the fast page table: user accesses (FC 1, 2) and supervisor accesses (FC 5, 6)
// are separate so that a paged MMU can translate user pages while supervisor runs physical.
enum class Space : uint8_t { User = 0, Supervisor = 1 };

}  // namespace m68k
