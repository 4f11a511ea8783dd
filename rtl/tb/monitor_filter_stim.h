// Seeded random stimulus for the SMI's event filter: the base Stimulus's timing (idle, sparse and
// bursting CPUs; a draining, slow or stalled master) with event words drawn like TOS's (table
// codes with their continuation words, schedule words, codes the table lacks) and, in the
// master's free clocks, random settings writes (FLT_SEL included, sometimes to no SMI or to a
// read-only register) and reads of every filter register. Compared RTL against the TLM engine.
#pragma once
#include "monitor_lockstep.h"

#include <testbed/events.h>
#include <testbed/register_tables.h>

#include <vector>

namespace tbrtl {

class FilterStimulus {
 public:
  FilterStimulus(const Params& p, const Profile& prof, uint64_t seed, unsigned write_per_mille = 4)
      : p_(p), base_(p, prof, seed), rng_(seed ^ 0xF17E4ull), write_pm_(write_per_mille) {
#define X(name, code, cls, index, follows) codes_.push_back(uint16_t(code | (follows ? EV_CONTINUE_BIT : 0)));
    TB_EVENT_FILTER_LIST(X)
#undef X
  }

  ClockOps next(uint16_t busy) {
    ClockOps ops = base_.next(busy);
    for (unsigned i = 0; i < p_.n_smi; ++i)
      if (ops.write_start >> i & 1) ops.word[i] = word();
    bool data = ops.mmi_read == kMmiDataHi || ops.mmi_read == kMmiDataLo;
    if (!data && rng_.chance(write_pm_)) {
      ops.mmi_read = -1;
      ops.mmi_long = false;
      setting(ops);
    } else if (!data && ops.mmi_read >= 0 && rng_.chance(600)) {
      ops.mmi_read = int16_t(readable());
    }
    return ops;
  }
  uint64_t settings_writes() const { return writes_; }

 private:
  uint16_t word() {
    unsigned r = rng_.below(100);
    uint16_t w;
    if (r < 55) w = codes_[rng_.below(unsigned(codes_.size()))];
    else if (r < 70) w = uint16_t(EV_SCHEDULE_BIT | rng_.below(8) | (rng_.chance(50) ? EV_CONTINUE_BIT : 0));
    else if (r < 80) w = uint16_t(rng_.below(0x4000) | (rng_.chance(300) ? EV_CONTINUE_BIT : 0));  // mostly OTHER
    else w = uint16_t(rng_.next());  // data words (continuations) or anything
    // 0xAAnn and 0xABnn are the SMI's own markers.
    if ((w & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE || (w & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE) w ^= 0x0400;
    return w;
  }

  uint16_t classes() {
    switch (rng_.below(4)) {
      case 0: return uint16_t(rng_.next());
      case 1: return uint16_t(1u << rng_.below(16));
      case 2: return uint16_t(~(1u << rng_.below(16)));
      default: return 0xFFFF;
    }
  }

  void setting(ClockOps& ops) {
    namespace R = testbed::regs::mon;
    ++writes_;
    uint16_t v = 0;
    unsigned off;
    switch (rng_.below(16)) {
      case 0: off = R::FLT_SEL::offset; v = uint16_t(rng_.below(10) == 0 ? rng_.below(16) : 1 + rng_.below(p_.n_smi)); break;
      case 1: off = R::FLT_CTL::offset; v = uint16_t(rng_.chance(800) ? 1 : rng_.below(4)); break;
      case 2: off = R::FLT_CLASS_PASS::offset; v = classes(); break;
      case 3: off = R::FLT_MATCH_CLASSES::offset; v = classes(); break;
      case 4: off = R::FLT_MATCH_VALUE::offset; v = uint16_t(rng_.chance(500) ? EV_SCHEDULE_BIT | rng_.below(8) : rng_.next()); break;
      case 5: off = R::FLT_MATCH_MASK::offset; v = uint16_t(rng_.chance(500) ? 0xFFFF : rng_.next()); break;
      case 6: off = R::FLT_DECIM_SEL::offset;
        v = rng_.chance(500) ? uint16_t(R::FLT_DECIM_SEL::BY_CLASS::mask | rng_.below(16))
                             : uint16_t(codes_[rng_.below(unsigned(codes_.size()))] & 0x7FFF);
        break;
      case 7: off = R::FLT_DECIM_N::offset; v = uint16_t(rng_.below(12)); break;
      case 8: off = R::FLT_GUARD_CLASSES::offset; v = classes(); break;
      case 9: off = R::FLT_GUARD_LIMIT::offset; v = uint16_t(rng_.below(40)); break;
      case 10: off = R::FLT_GUARD_WINDOW::offset; v = uint16_t(rng_.chance(100) ? 0 : 1 + rng_.below(400)); break;
      case 11: case 12: off = R::FLT_CODE_PASS::offset_of(rng_.below(8));
        v = uint16_t(rng_.chance(300) ? 0xFFFF : rng_.next());
        break;
      case 13: off = R::FLT_PASSED::offset_of(rng_.below(16)); v = 0xFFFF; break;  // read-only: ignored
      default: off = R::FLT_CTL::offset; v = 1; break;
    }
    ops.mmi_write = int16_t(off);
    ops.mmi_wdata = v;
  }

  unsigned readable() {
    namespace R = testbed::regs::mon;
    unsigned r = rng_.below(8);
    if (r < 3) return R::FLT_PASSED::offset_of(rng_.below(16)) + 2 * rng_.below(2);
    if (r < 5) return R::FLT_FILTERED::offset_of(rng_.below(16)) + 2 * rng_.below(2);
    if (r == 5) return R::FLT_TRIPPED::offset;
    if (r == 6) return R::FLT_GUARD_DROPS::offset + 2 * rng_.below(2);
    return R::FLT_SEL::offset + 2 * rng_.below(0x58);  // any offset up to the end of FLT_FILTERED (some unmapped)
  }

  Params p_;
  Stimulus base_;
  Rng rng_;
  unsigned write_pm_;
  std::vector<uint16_t> codes_;
  uint64_t writes_ = 0;
};

}  // namespace tbrtl
