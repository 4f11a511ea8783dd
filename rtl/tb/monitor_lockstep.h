// Seeded random stimulus for the monitoring hardware and a lockstep runner that drives several
// tbrtl::Model implementations with it and compares every clock: write acceptance (wait
// states), every register read (the master-read word stream included) and the observed state
// (time stamp, SMI levels, lost counts, MMI level, stall clocks).
#pragma once
#include "monitor_model.h"

#include <testbed/events.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace tbrtl {

// splitmix64: deterministic on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
  bool chance(unsigned per_mille) { return below(1000) < per_mille; }
};

// Per-phase behaviour: each SMI's CPU is idle, sparse or bursting (a write every clock it can);
// the master drains (a read every clock), reads slowly, or stalls (no data reads at all).
struct Profile {
  unsigned phase_min = 500, phase_max = 20000;   // clocks per phase
  unsigned sparse_per_mille = 20;                // write chance per clock in a sparse phase
  unsigned reg_read_per_mille = 200;             // status/level/lost/stall reads
  bool allow_stall = true;
};

class Stimulus {
 public:
  Stimulus(const Params& p, const Profile& prof, uint64_t seed) : p_(p), prof_(prof), rng_(seed) {
    smi_mode_.assign(p.n_smi, 0);
    smi_left_.assign(p.n_smi, 0);
  }

  // busy: bit i set while SMI i+1's CPU is held in a write.
  ClockOps next(uint16_t busy) {
    ClockOps ops;
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      if (smi_left_[i] == 0) {
        smi_mode_[i] = rng_.below(3);  // 0 idle, 1 sparse, 2 burst
        smi_left_[i] = prof_.phase_min + rng_.below(prof_.phase_max - prof_.phase_min + 1);
      }
      --smi_left_[i];
      if (busy >> i & 1) continue;
      bool w = smi_mode_[i] == 2 || (smi_mode_[i] == 1 && rng_.chance(prof_.sparse_per_mille));
      if (w) {
        ops.write_start |= uint16_t(1u << i);
        uint16_t w = uint16_t(rng_.next());
        if ((w & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE) w ^= 0x0100;  // the wrap markers' own
        ops.word[i] = w;
      } else if (rng_.chance(prof_.reg_read_per_mille)) {
        static const int8_t regs[] = {kSmiStatus, kSmiLevel, kSmiLost, kSmiLostLo};
        ops.smi_read[i] = regs[rng_.below(4)];
      }
    }
    if (m_left_ == 0) {
      m_mode_ = rng_.below(prof_.allow_stall ? 3 : 2);  // 0 drain, 1 slow, 2 stalled
      m_left_ = prof_.phase_min + rng_.below(prof_.phase_max - prof_.phase_min + 1);
    }
    --m_left_;
    bool data = m_mode_ == 0 || (m_mode_ == 1 && rng_.chance(30));
    if (data) {
      if (expect_lo_) {
        ops.mmi_read = kMmiDataLo;
        expect_lo_ = false;
      } else {
        ops.mmi_read = kMmiDataHi;
        ops.mmi_long = rng_.chance(500);
        expect_lo_ = !ops.mmi_long;
      }
    } else if (!expect_lo_ && rng_.chance(prof_.reg_read_per_mille)) {
      static const int8_t regs[] = {kMmiStatus, kMmiLevel, kMmiStall, kMmiStallLo};
      // Now and then an offset with no register (reads 0).
      ops.mmi_read = rng_.chance(20) ? int8_t(0xC) : regs[rng_.below(4)];
    }
    return ops;
  }

 private:
  Params p_;
  Profile prof_;
  Rng rng_;
  std::vector<unsigned> smi_mode_, smi_left_;
  unsigned m_mode_ = 0, m_left_ = 0;
  bool expect_lo_ = false;
};

// What a run reached (the corners the tests require).
struct RunStats {
  uint64_t clocks = 0, writes = 0, waits = 0, lost = 0, words = 0, empty_reads = 0;
  uint64_t smi_full_clocks = 0, smi_empty_clocks = 0, mmi_full_clocks = 0, mmi_empty_clocks = 0;
  uint32_t stall_clocks = 0, max_smi_level = 0, max_mmi_level = 0;
  unsigned wraps_seen = 0, markers_read = 0;
  std::vector<uint32_t> stream;  // the master-read words: source << 16 | word
};

class Lockstep {
 public:
  Lockstep(const Params& p, std::vector<Model*> models) : p_(p), models_(std::move(models)) {}

  // Runs `clocks` clocks of `stim`; returns "" or the first difference.
  template <class Stim>
  std::string run(Stim& stim, uint64_t clocks) {
    std::vector<ClockOut> outs(models_.size());
    for (uint64_t n = 0; n < clocks; ++n, ++t_) {
      ClockOps ops = stim.next(busy_);
      uint16_t started = ops.write_start;
      for (size_t m = 0; m < models_.size(); ++m) models_[m]->clock(ops, outs[m]);
      Observed o0 = models_[0]->observe();
      for (size_t m = 1; m < models_.size(); ++m) {
        const ClockOut &a = outs[0], &b = outs[m];
        if (a.accepted != b.accepted) return diff(m, "write acceptance", a.accepted, b.accepted);
        for (unsigned i = 0; i < p_.n_smi; ++i)
          if (ops.smi_read[i] >= 0 && a.smi_read[i] != b.smi_read[i])
            return diff(m, "SMI " + std::to_string(i + 1) + " read +" + std::to_string(ops.smi_read[i]),
                        a.smi_read[i], b.smi_read[i]);
        if (ops.mmi_read >= 0 && a.mmi_read != b.mmi_read)
          return diff(m, "MMI read +" + std::to_string(ops.mmi_read) + (ops.mmi_long ? ".l" : ""),
                      a.mmi_read, b.mmi_read);
        Observed ob = models_[m]->observe();
        if (!(o0 == ob)) return diff_state(m, o0, ob);
      }
      busy_ = uint16_t((busy_ | started) & ~outs[0].accepted);
      account(ops, outs[0], o0, started);
    }
    return "";
  }
  const RunStats& stats() const { return st_; }
  uint64_t now() const { return t_; }

 private:
  std::string diff(size_t m, const std::string& what, uint64_t a, uint64_t b) {
    std::ostringstream s;
    s << "clock " << t_ << ": " << what << ": " << models_[0]->name() << " 0x" << std::hex << a << ", "
      << models_[m]->name() << " 0x" << b;
    return s.str();
  }
  std::string diff_state(size_t m, const Observed& a, const Observed& b) {
    std::ostringstream s;
    s << "clock " << t_ << ": state differs (" << models_[0]->name() << " / " << models_[m]->name() << "): ts "
      << a.ts << "/" << b.ts << ", mmi level " << a.mmi_level << "/" << b.mmi_level << ", stall "
      << a.stall_clocks << "/" << b.stall_clocks;
    for (unsigned i = 0; i < p_.n_smi; ++i)
      s << ", smi" << i + 1 << " level " << a.smi_level[i] << "/" << b.smi_level[i] << " lost "
        << a.smi_lost[i] << "/" << b.smi_lost[i];
    return s.str();
  }
  void account(const ClockOps& ops, const ClockOut& out, const Observed& o, uint16_t started) {
    ++st_.clocks;
    for (unsigned i = 0; i < p_.n_smi; ++i) {
      if (out.accepted >> i & 1) ++st_.writes;
      if ((started >> i & 1) && !(out.accepted >> i & 1)) ++st_.waits;
      st_.smi_full_clocks += o.smi_level[i] == p_.smi_depth;
      st_.smi_empty_clocks += o.smi_level[i] == 0;
      st_.max_smi_level = std::max(st_.max_smi_level, o.smi_level[i]);
    }
    uint64_t lost = 0;
    for (unsigned i = 0; i < p_.n_smi; ++i) lost += o.smi_lost[i];
    st_.lost = lost;
    st_.mmi_full_clocks += o.mmi_level == p_.mmi_depth;
    st_.mmi_empty_clocks += o.mmi_level == 0;
    st_.max_mmi_level = std::max(st_.max_mmi_level, o.mmi_level);
    st_.stall_clocks = o.stall_clocks;
    if (o.ts < last_ts_) ++st_.wraps_seen;
    last_ts_ = o.ts;
    if (ops.mmi_read == kMmiDataHi) {
      uint32_t hi = ops.mmi_long ? out.mmi_read >> 16 : out.mmi_read;
      if (hi & 0x8000) {
        ++st_.empty_reads;
        pending_src_ = -1;
      } else if (ops.mmi_long) {
        push_word(hi, out.mmi_read & 0xFFFF);
      } else {
        pending_src_ = int(hi & 0xF);
      }
    } else if (ops.mmi_read == kMmiDataLo && pending_src_ >= 0) {
      push_word(unsigned(pending_src_), out.mmi_read);
      pending_src_ = -1;
    }
  }
  void push_word(unsigned src, uint32_t w) {
    st_.stream.push_back(src << 16 | w);
    ++st_.words;
  }

  Params p_;
  std::vector<Model*> models_;
  uint64_t t_ = 0;
  uint16_t busy_ = 0;
  uint16_t last_ts_ = 0;
  int pending_src_ = -1;
  RunStats st_;
};

// Checks the master-read stream: sources are 1..n_smi; per source the words alternate time
// stamp, event; absolute time (epoch from the 0xAAnn markers, nn counting wraps) never goes
// back. The stimulus never writes 0xAAnn itself (reserved for markers by the event table).
inline std::string check_stream(const std::vector<uint32_t>& stream, unsigned n_smi, unsigned* markers = nullptr) {
  std::vector<int> phase(n_smi + 1, 0);
  std::vector<uint32_t> ts(n_smi + 1, 0);
  std::vector<uint64_t> last(n_smi + 1, 0), epoch(n_smi + 1, 0);
  unsigned mk = 0;
  for (size_t n = 0; n < stream.size(); ++n) {
    unsigned src = stream[n] >> 16, w = stream[n] & 0xFFFF;
    std::string at = "word " + std::to_string(n) + " (source " + std::to_string(src) + "): ";
    if (src < 1 || src > n_smi) return at + "no such source";
    if (phase[src] == 0) {
      ts[src] = w;
    } else {
      if ((w & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE) {
        ++mk;
        uint64_t e = (epoch[src] & ~uint64_t(0xFF)) | (w & 0xFF);
        if (e < epoch[src]) e += 256;
        epoch[src] = e;
      }
      uint64_t a = epoch[src] << 16 | ts[src];
      if (a < last[src]) return at + "time went back";
      last[src] = a;
    }
    phase[src] ^= 1;
  }
  if (markers) *markers = mk;
  return "";
}

}  // namespace tbrtl
