#include "monitor_decoder.h"

#include <testbed/events.h>

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace testbed::monitor_decoder {

namespace {
struct Source {
  bool have_ts = false;
  uint16_t ts = 0;
  uint64_t ts_offset = 0;
  uint64_t wraps = 0;
  uint64_t last_ticks = 0;
};

std::string hex4(uint16_t w) {
  char b[8];
  std::snprintf(b, sizeof b, "%04X", w);
  return b;
}
}  // namespace

std::string event_name(uint16_t word) {
  if ((word & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE || (word & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE) {
    char b[16];
    std::snprintf(b, sizeof b, "%s_%02X", (word & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE ? "WRAP" : "FILTER",
                  word & 0xFF);
    return b;
  }
#define TB_X(name, first, follows, desc) \
  if (word == (first)) return #name;
  TB_EVENT_LIST(TB_X)
#undef TB_X
  if (!(word & EV_CONTINUE_BIT) && (word & EV_SCHEDULE_BIT))
    return "SCHED(" + std::to_string(word & EV_TID_MASK) + ")";
  return "EVENT_" + hex4(word);
}

Result decode(const std::vector<uint32_t>& words, const Options& opt) {
  Result r;
  std::vector<Source> src(opt.n_smi + 1);
  auto fail = [&](uint64_t off, const std::string& why) {
    r.ok = false;
    r.error_offset = off;
    r.error = "word " + std::to_string(off) + " (byte " + std::to_string(off * 4) + "): " + why;
  };
  for (uint64_t i = 0; i < words.size() && r.ok; ++i) {
    uint32_t w = words[i];
    r.words = i + 1;
    if (w & 0x80000000u) {
      if (w != 0x80000000u) {
        char b[64];
        std::snprintf(b, sizeof b, "empty read 0x%08X carries data", w);
        fail(i, b);
        break;
      }
      ++r.empty_reads;
      continue;
    }
    if (w & 0x7FF00000u) {
      char b[64];
      std::snprintf(b, sizeof b, "reserved bits set in 0x%08X", w);
      fail(i, b);
      break;
    }
    unsigned k = (w >> 16) & 0xF;
    if (k < 1 || k > opt.n_smi) {
      fail(i, "source " + std::to_string(k) + " is not an SMI (1.." + std::to_string(opt.n_smi) + ")");
      break;
    }
    Source& s = src[k];
    uint16_t v = uint16_t(w);
    if (!s.have_ts) {
      s.have_ts = true;
      s.ts = v;
      s.ts_offset = i;
      continue;
    }
    s.have_ts = false;
    bool marker = (v & EV_WRAP_MARKER_MASK) == EV_WRAP_MARKER_VALUE;  // convention 1: always
    uint64_t wraps = s.wraps;
    if (marker) {
      uint64_t step = ((v & 0xFF) - (s.wraps & 0xFF)) & 0xFF;
      if (step == 0) {
        fail(i, "SMI " + std::to_string(k) + ": wrap marker " + hex4(v) + " repeats the wrap count");
        break;
      }
      wraps += step;
    }
    uint64_t ticks = (wraps << 16) | s.ts;
    if (ticks < s.last_ticks) {
      fail(i, "SMI " + std::to_string(k) + ": time stamp " + hex4(s.ts) + " goes back in time (pairing broken?)");
      break;
    }
    s.wraps = wraps;
    s.last_ticks = ticks;
    // The SMI's filter marker: settings changed (it never stands for an event).
    bool fmarker = (v & EV_WRAP_MARKER_MASK) == EV_FILTER_MARKER_VALUE;
    if (fmarker) r.filter_changes.push_back({ticks, k, unsigned(v & 0xFF)});
    r.events.push_back({ticks, k, v, marker || fmarker, i});
    r.markers += marker;
  }
  if (r.ok) {
    for (unsigned k = 1; k <= opt.n_smi; ++k)
      if (src[k].have_ts) {
        r.truncated = true;
        fail(src[k].ts_offset, "stream ends after a time stamp from SMI " + std::to_string(k) +
                                   " without its event (truncated)");
        break;
      }
  }
  std::stable_sort(r.events.begin(), r.events.end(), [](const Event& a, const Event& b) {
    return a.ticks != b.ticks ? a.ticks < b.ticks : a.board < b.board;
  });
  return r;
}

Result decode_bytes(const std::vector<uint8_t>& bytes, const Options& opt) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = uint32_t(bytes[4 * i]) << 24 | uint32_t(bytes[4 * i + 1]) << 16 | uint32_t(bytes[4 * i + 2]) << 8 |
               bytes[4 * i + 3];
  Result r = decode(words, opt);
  if ((r.ok || r.truncated) && bytes.size() % 4) {
    r.truncated = true;
    r.ok = false;
    r.error_offset = words.size();
    r.error = "word " + std::to_string(words.size()) + " (byte " + std::to_string(words.size() * 4) +
              "): stream truncated inside a word (" + std::to_string(bytes.size() % 4) + " trailing bytes)";
  }
  return r;
}

void PhaseStats::add(uint64_t ticks) {
  if (!count || ticks < min) min = ticks;
  if (!count || ticks > max) max = ticks;
  sum += ticks;
  ++count;
}

std::vector<LocalComms> local_comms(const Result& r, unsigned n_smi) {
  enum State { kIdle, kFirst, kBlocked, kSecond };
  struct Fsm {
    State state = kIdle;
    uint64_t t_first = 0, t_blocked = 0, t_second = 0;
    bool cont = false;  // the last word announced another word of its event
  };
  std::vector<LocalComms> out(n_smi + 1);
  std::vector<Fsm> fsm(n_smi + 1);
  for (const Event& e : r.events) {  // time order; within a board, stream order
    if (e.marker || e.board < 1 || e.board > n_smi) continue;
    Fsm& f = fsm[e.board];
    LocalComms& c = out[e.board];
    bool arg = f.cont;  // as write_text: bit 15 announces one more word of the same event
    f.cont = (e.word & EV_CONTINUE_BIT) != 0;
    if (arg || (e.word != EV_TRAP7 && e.word != EV_TRAP70 && e.word != EV_TRAP72)) continue;
    switch (f.state) {
      case kIdle:
        if (e.word == EV_TRAP7) {
          f.state = kFirst;
          f.t_first = e.ticks;
        } else {
          ++c.broken;
        }
        break;
      case kFirst:
        if (e.word == EV_TRAP70) {
          f.state = kBlocked;
          f.t_blocked = e.ticks;
        } else {
          ++c.broken;
          f.state = e.word == EV_TRAP7 ? kFirst : kIdle;
          f.t_first = e.ticks;
        }
        break;
      case kBlocked:
        if (e.word == EV_TRAP7) {
          f.state = kSecond;
          f.t_second = e.ticks;
        } else {
          ++c.broken;
          f.state = kIdle;
        }
        break;
      case kSecond:
        if (e.word == EV_TRAP72) {
          ++c.messages;
          c.first.add(f.t_blocked - f.t_first);
          c.second.add(e.ticks - f.t_second);
          c.total.add(e.ticks - f.t_first);
          f.state = kIdle;
        } else {
          ++c.broken;
          f.state = e.word == EV_TRAP7 ? kFirst : kIdle;
          f.t_first = e.ticks;
        }
        break;
    }
  }
  for (unsigned b = 1; b <= n_smi; ++b) out[b].open = fsm[b].state != kIdle;
  return out;
}

void write_text(std::ostream& out, const Result& r, const Options& opt) {
  out << "# testbed monitor trace v1: ticks time_ns board word name (tick = " << opt.tick_ps << " ps)\n";
  std::vector<bool> cont(opt.n_smi + 1, false);
  // Stream order within a board is time order, so argument words follow their event here too.
  for (const Event& e : r.events) {
    char b[96];
    std::snprintf(b, sizeof b, "%llu %llu %u 0x%04X ", (unsigned long long)e.ticks,
                  (unsigned long long)(e.ticks * opt.tick_ps / 1000), e.board, e.word);
 std::string name = cont[e.board] && !e.marker ? "ARG(" + std::to_string(e.word & 0x7FFF) + ")" : event_name(e.word);
    if (!e.marker) cont[e.board] = e.word & EV_CONTINUE_BIT;
    out << b << name << '\n';
  }
  out << "# events " << r.events_excluding_markers() << " markers " << r.markers << " empty_reads "
      << r.empty_reads << (r.ok ? " ok" : " BROKEN: " + r.error) << '\n';
  if (!r.filter_changes.empty()) out << "# filter_markers " << r.filter_changes.size() << '\n';
}

void write_binary(std::ostream& out, const Result& r, const Options& opt) {
  auto put = [&out](uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out.put(char((v >> (8 * i)) & 0xFF));
  };
  out.write("TBMT", 4);
  put(1, 2);  // version
  put(0, 2);
  put(opt.tick_ps, 8);
  put(r.events.size(), 8);
  for (const Event& e : r.events) {
    put(e.ticks, 8);
    put(e.board, 1);
    put(e.marker ? 1 : 0, 1);
    put(e.word, 2);
  }
}

void write_vcd(std::ostream& out, const Result& r, unsigned board, const Options& opt) {
  // event: the word (x until the first: 0 would read as OVERFLOW); name: the event's name as
  // write_text gives it (SCHED(tid), ARG(n) for an operand word, WRAP_nn), a VCD string that
  // GTKWave shows without a filter; count: events so far.
  out << "$comment Testbed monitor events of board " << board << " (monitor-decode) $end\n"
      << "$timescale 1ps $end\n$scope module board" << board << " $end\n"
      << "$var wire 16 e event [15:0] $end\n$var string 1 s name $end\n$var wire 32 n count [31:0] $end\n"
      << "$upscope $end\n$enddefinitions $end\n#0\nbx e\ns- s\nb0 n\n";
  uint64_t count = 0, last = ~0ull;
  bool cont = false;
  std::string names;
  auto flush_names = [&] {
    if (!names.empty()) out << 's' << names << " s\n";
    names.clear();
  };
  for (const Event& e : r.events) {
    if (e.board != board) continue;
    uint64_t t = e.ticks * opt.tick_ps;
    if (t != last) {
      flush_names();
      out << '#' << t << '\n';
    }
    last = t;
    std::string bits;
    for (int b = 15; b >= 0; --b) bits += ((e.word >> b) & 1) ? '1' : '0';
    out << 'b' << bits << " e\n";
    std::string name = cont && !e.marker ? "ARG(" + std::to_string(e.word & 0x7FFF) + ")" : event_name(e.word);
    if (!e.marker) cont = e.word & EV_CONTINUE_BIT;
    names += (names.empty() ? "" : ",") + name;  // events in one tick: one change
    ++count;
    std::string cb;
    for (uint64_t c = count; c; c >>= 1) cb.insert(cb.begin(), (c & 1) ? '1' : '0');
    out << 'b' << cb << " n\n";
  }
  flush_names();
}

}  // namespace testbed::monitor_decoder
