#include "smi_filter.h"

#include <testbed/events.h>
#include <testbed/register_tables.h>

#include <vector>

namespace testbed::monitor {

namespace {
using namespace regs::mon;

// code (bits 13..0 of a first word) -> Info, from events.toml (EV_FILTER_LIST).
const std::vector<SmiFilter::Info>& code_table() {
  static const std::vector<SmiFilter::Info> t = [] {
    std::vector<SmiFilter::Info> v(EV_TID_MASK + 1, SmiFilter::Info{EV_FILTER_CLASS_OTHER, -1, 0});
#define X(name, code, cls, index, follows) v[code] = SmiFilter::Info{cls, index, follows};
    TB_EVENT_FILTER_LIST(X)
#undef X
    return v;
  }();
  return t;
}

constexpr unsigned kCodePassEnd = FLT_CODE_PASS::offset_of(SmiFilter::kCodeRegs);
}  // namespace

SmiFilter::Info SmiFilter::classify(uint16_t word) {
  if (word & EV_SCHEDULE_BIT) return Info{EV_FILTER_CLASS_SCHED, -1, uint8_t(word & EV_CONTINUE_BIT ? 1 : 0)};
  Info i = code_table()[word & EV_TID_MASK];
  if (!(word & EV_CONTINUE_BIT)) i.follows = 0;  // the table's words follow only a first word with bit 15
  else if (i.index < 0) i.follows = 1;           // an unknown code with bit 15: one word follows (convention)
  return i;
}

// The settings after reset are the tables' (sw/tables/registers/monitor.toml), as the RTL's are.
SmiFilter::SmiFilter() : class_pass_(FLT_CLASS_PASS::reset) { code_pass_.fill(FLT_CODE_PASS::reset); }

uint16_t SmiFilter::guard_count(unsigned cls, uint64_t ticks) const {
  return window_ != 0 && gwin_[cls] == window(ticks) ? gcount_[cls] : 0;
}

uint16_t SmiFilter::tripped(uint64_t ticks) const {
  if (window_ == 0) return 0;
  uint16_t t = 0;
  for (unsigned c = 0; c < kClasses; ++c)
    if ((guard_classes_ >> c & 1) && guard_count(c, ticks) >= guard_limit_) t = uint16_t(t | 1u << c);
  return t;
}

bool SmiFilter::decide(uint16_t word, const Info& info, uint64_t ticks) {
  if (!enable_) return true;
  unsigned c = info.cls;
  if (!(class_pass_ >> c & 1)) return ++drops_[kClass], false;
  if (info.index >= 0 && !(code_pass_[unsigned(info.index) / 16] >> (unsigned(info.index) % 16) & 1))
    return ++drops_[kCode], false;
  if ((match_classes_ >> c & 1) && (word & match_mask_) != (match_value_ & match_mask_)) return ++drops_[kMatch], false;
  bool by_class = decim_sel_ & FLT_DECIM_SEL::BY_CLASS::mask;
  unsigned key = FLT_DECIM_SEL::KEY::get(decim_sel_);
  bool selected = by_class ? c == (key & 0xF) : (word & 0x7FFF) == key;
  if (selected && decim_n_ > 1) {
    bool keep = decim_count_ == 0;
    decim_count_ = uint16_t(decim_count_ + 1 == decim_n_ ? 0 : decim_count_ + 1);
    if (!keep) return ++drops_[kDecim], false;
  }
  if (window_ != 0 && (guard_classes_ >> c & 1)) {
    uint64_t w = window(ticks);
    if (gwin_[c] != w) {
      gwin_[c] = w;
      gcount_[c] = 0;
    }
    if (gcount_[c] >= guard_limit_) {
      ++guard_drops_;
      ++drops_[kGuard];
      return false;
    }
    ++gcount_[c];
  }
  return true;
}

bool SmiFilter::offer(uint16_t word, uint64_t ticks) {
  unsigned cls;
  bool pass;
  if (follow_left_ > 0) {
    --follow_left_;
    cls = follow_cls_;
    pass = follow_pass_;
    if (!pass) ++drops_[kContinuation];
  } else {
    Info info = classify(word);
    cls = info.cls;
    pass = decide(word, info, ticks);
    follow_left_ = info.follows;
    follow_pass_ = pass;
    follow_cls_ = uint8_t(cls);
  }
  if (pass) ++passed_[cls];
  else ++filtered_[cls];
  return pass;
}

bool SmiFilter::write(unsigned off, uint16_t v, uint64_t ticks) {
  switch (off) {
    case FLT_CTL::offset: enable_ = v & FLT_CTL::ENABLE::mask; break;
    case FLT_CLASS_PASS::offset: class_pass_ = v; break;
    case FLT_MATCH_CLASSES::offset: match_classes_ = v; break;
    case FLT_MATCH_VALUE::offset: match_value_ = v; break;
    case FLT_MATCH_MASK::offset: match_mask_ = v; break;
    case FLT_DECIM_SEL::offset: decim_sel_ = v; break;
    case FLT_DECIM_N::offset: decim_n_ = v; break;
    case FLT_GUARD_CLASSES::offset: guard_classes_ = v; break;
    case FLT_GUARD_LIMIT::offset: guard_limit_ = v; break;
    case FLT_GUARD_WINDOW::offset: window_ = v; break;
    default:
      if (off >= FLT_CODE_PASS::offset_of(0) && off < kCodePassEnd && off % 2 == 0) {
        code_pass_[(off - FLT_CODE_PASS::offset_of(0)) / 2] = v;
        break;
      }
      return false;
  }
  ++gen_;
  decim_count_ = 0;
  start_ = ticks;
  // A new window 0 begins: every class's count starts again.
  gcount_.fill(0);
  gwin_.fill(0);
  return true;
}

bool SmiFilter::read(unsigned off, uint64_t ticks, uint32_t& v) const {
  switch (off) {
    case FLT_CTL::offset: v = uint32_t(gen_) << FLT_CTL::GEN::shift | (enable_ ? FLT_CTL::ENABLE::mask : 0u); return true;
    case FLT_CLASS_PASS::offset: v = class_pass_; return true;
    case FLT_MATCH_CLASSES::offset: v = match_classes_; return true;
    case FLT_MATCH_VALUE::offset: v = match_value_; return true;
    case FLT_MATCH_MASK::offset: v = match_mask_; return true;
    case FLT_DECIM_SEL::offset: v = decim_sel_; return true;
    case FLT_DECIM_N::offset: v = decim_n_; return true;
    case FLT_GUARD_CLASSES::offset: v = guard_classes_; return true;
    case FLT_GUARD_LIMIT::offset: v = guard_limit_; return true;
    case FLT_GUARD_WINDOW::offset: v = window_; return true;
    case FLT_TRIPPED::offset: v = tripped(ticks); return true;
    case FLT_GUARD_DROPS::offset: v = guard_drops_; return true;
    case FLT_GUARD_DROPS::offset + 2: v = guard_drops_ & 0xFFFF; return true;
    default: break;
  }
  if (off >= FLT_CODE_PASS::offset_of(0) && off < kCodePassEnd && off % 2 == 0) {
    v = code_pass_[(off - FLT_CODE_PASS::offset_of(0)) / 2];
    return true;
  }
  for (auto [base, arr] : {std::pair{FLT_PASSED::offset_of(0), &passed_}, std::pair{FLT_FILTERED::offset_of(0), &filtered_}}) {
    if (off >= base && off < base + 4 * kClasses && off % 2 == 0) {
      uint32_t x = (*arr)[(off - base) / 4];
      v = (off - base) % 4 ? x & 0xFFFF : x;
      return true;
    }
  }
  return false;
}

}  // namespace testbed::monitor
