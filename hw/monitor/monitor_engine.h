// The monitoring hardware's state machine: global clock, the SMI FIFOs, the monitoring-bus
// poller and the MMI FIFO, exactly as MONITOR_SPEC.md defines them per clock, but evaluated
// lazily: nothing runs per clock. The engine jumps from one clock where something happens
// (a wrap, a marker finding room, a bus push, a poll slot, a queued CPU write) to the next,
// and skips runs of empty slots and stalls arithmetically.
//
// Time is in monitor clocks. Operations name the clock at which they happen:
//  - CPU writes with a clock after the engine's present are queued and take effect, in clock
//    order, at their clock (step 4) when the engine gets there. So initiators that run ahead
//    (temporal decoupling) interleave exactly, as long as nobody observes the state first.
//  - Reads (and advance_to) bring the engine to their clock first.
//  - An operation whose clock is already in the engine's past (another access observed a later
//    clock first) happens at the present clock instead and is counted in late_accesses().
// SystemC-free, deterministic.
#pragma once
#include "monitor_params.h"
#include "monitor_probe.h"
#include "smi_filter.h"

#include <testbed/register_tables.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace testbed {
class StateArchive;
}
namespace testbed::monitor {

class MonitorEngine {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  explicit MonitorEngine(const MonitorParams& p);

  const MonitorParams& params() const { return p_; }
  const GlobalClock& clock() const { return gc_; }

  // --- SMI k (1..n_smi) -------------------------------------------------------------------
  // A CPU write of `word` to EVENT at `clock`. Returns the clock at which the SMI accepts it
  // (later than `clock` when write_gap holds it; the difference is wait states).
  uint64_t write_event(unsigned k, uint64_t clock, uint16_t word);
  uint16_t smi_status(unsigned k, uint64_t clock);   // bit 0 FULL, bit 1 EMPTY
  uint16_t smi_level(unsigned k, uint64_t clock);
  uint32_t smi_lost(unsigned k, uint64_t clock);

  // --- MMI (step 5) ------------------------------------------------------------------------
  uint16_t mmi_data_hi(uint64_t clock);  // pops: bit 15 EMPTY, bits 3..0 source
  uint16_t mmi_data_lo(uint64_t clock);  // the held word
  uint32_t mmi_peek(uint64_t clock);     // debug: DATA_HI:DATA_LO of the head, without popping
  uint16_t mmi_status(uint64_t clock);   // bit 0 FULL, bit 1 EMPTY
  uint16_t mmi_level(uint64_t clock);
  uint32_t mmi_stall(uint64_t clock);    // the STALL register (low 32 bits of stall_clocks)
  // The filter registers (FLT_SEL and the selected SMI's FLT_ registers, by MON offset), step 5
  // like the master's other accesses. mmi_filter_write returns false (and counts it in
  // filter_refused()) for a write that is not to a writable setting or has no SMI selected;
  // mmi_filter_read returns false for an offset with no readable filter register (value 0), and
  // reads 0 with no SMI selected.
  bool mmi_filter_write(unsigned offset, uint16_t value, uint64_t clock);
  bool mmi_filter_read(unsigned offset, uint64_t clock, uint32_t& value);
  uint64_t filter_refused() const { return filter_refused_; }
  const SmiFilter& filter(unsigned k) const { return smi_.at(k - 1).filter; }

  // Applies steps 1..4 of every clock up to and including `clock`.
  void advance_to(uint64_t clock);
  // The next clock (> the present) at which the MMI FIFO gains an entry without any further
  // access, or kNever when none is predictable (nothing in flight and every SMI empty).
  uint64_t next_mmi_push() const;

  // Present: steps 1..3 (and the queued writes of step 4) are done for clocks < present_end().
  uint64_t present_end() const { return next_; }
  uint64_t late_accesses() const { return late_; }
  uint64_t stall_clocks() const { return stall_clocks_; }
  uint64_t accepted_writes() const { return writes_; }
  uint64_t lost_total() const;
  unsigned smi_fill(unsigned k) const { return smi_.at(k - 1).count; }
  unsigned mmi_fill() const { return mmi_count_; }

  void set_probe(MonitorProbe* p) { probe_ = p; }
  void set_observer(MonitorObserver* o) { obs_ = o; }
  // Its state in a snapshot (monitor_state.cpp, with the SystemC modules: the engine stays free
  // of SystemC).
  void state(StateArchive& a);
  MonitorObserver* observer() const { return obs_; }  // to chain another observer in front

 private:
  struct Smi {
    std::vector<uint32_t> fifo;
    unsigned head = 0, count = 0;
    uint32_t lost = 0;
    bool marker_pending = false;    // a wrap marker waits
    bool fmarker_pending = false;   // a filter marker waits (after any wrap marker)
    uint64_t marker_due = kNever;   // step 2 of this clock finds room (a pop at the clock before)
    uint64_t step2_marker = kNever; // the clock whose step 2 pushed a marker (one per step)
    SmiFilter filter;
    std::deque<std::pair<uint64_t, uint16_t>> queued;  // accepted writes in the engine's future
    uint64_t last_write = kNever;
  };

  Smi& smi(unsigned k);
  uint64_t sync(uint64_t clock);   // brings the engine to `clock` (or the present if later)
  void process_clock(uint64_t c, uint64_t target);
  void try_marker(unsigned k, uint64_t c);
  static bool waits(const Smi& m) { return m.marker_pending || m.fmarker_pending; }
  void apply_write(unsigned k, uint64_t c, uint16_t word);
  void smi_push(unsigned k, uint64_t c, uint32_t entry);
  void mmi_push(uint64_t c, unsigned src, uint16_t word);
  unsigned next_k(unsigned k) const { return k % p_.n_smi + 1; }

  MonitorParams p_;
  GlobalClock gc_;
  std::vector<Smi> smi_;
  uint64_t next_ = 0;              // first clock not yet processed
  uint64_t late_ = 0, writes_ = 0, filter_refused_ = 0;
  uint16_t flt_sel_ = 0;

  // Poller.
  unsigned k_ = 1;
  uint64_t s_ = 0;
  bool stalling_ = false;
  uint64_t stall_clocks_ = 0;
  uint64_t push_ts_at_ = kNever, push_ev_at_ = kNever;  // the pair in flight
  unsigned push_src_ = 0;
  uint16_t push_ts_ = 0, push_ev_ = 0;

  // MMI FIFO and holding register.
  std::vector<uint32_t> mmi_;
  unsigned mmi_head_ = 0, mmi_count_ = 0;
  static constexpr uint16_t kDataHiEmpty = regs::mon::MMI_DATA_HI::EMPTY::mask;
  uint16_t hold_hi_ = kDataHiEmpty, hold_lo_ = 0;

  MonitorProbe* probe_ = nullptr;
  MonitorObserver* obs_ = nullptr;
};

}  // namespace testbed::monitor
