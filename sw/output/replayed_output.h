// Host outputs and inputs under time travel (sim/gdb/history.h). Going back in time runs a stretch of the
// machine's past again, bit for bit; what that stretch wrote to the host (a console, a log, a
// VCD) was written the first time and must be written once. Every streamed output counts the
// bytes it has been asked to write; a high-water mark per output, shared by every process of a
// time-travel session, says how far it has really been written: bytes below the mark are skipped.
// Outputs take their mark in the order they are created, which is the same in every run of a
// stretch (the machine and its writers are built before it starts).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace testbed::output {

class Replayed {
 public:
  static constexpr unsigned kSlots = 1024;
  Replayed() : slot_(next_slot()++) {}
  Replayed(const Replayed&) = delete;
  Replayed& operator=(const Replayed&) = delete;
  // `n` bytes are about to be written: how many at the front an earlier run has written already.
  uint64_t skip(uint64_t n) {
    uint64_t at = written_;
    written_ += n;
    if (slot_ >= kSlots) return 0;  // more outputs than marks: written every time
    uint64_t& mark = marks()[slot_];
    if (mark >= written_) return n;
    uint64_t s = mark > at ? mark - at : 0;
    mark = written_;
    return s;
  }
  // A time-travel session begins: the marks move to memory every process of it shares (kSlots
  // words), and from now on count for all of them.
  static void share_marks(uint64_t* shared) {
    std::memcpy(shared, marks(), kSlots * sizeof(uint64_t));
    marks() = shared;
  }

 private:
  static unsigned& next_slot() {
    static unsigned n = 0;
    return n;
  }
  static uint64_t*& marks() {
    static uint64_t local[kSlots] = {};
    static uint64_t* m = local;
    return m;
  }
  unsigned slot_;
  uint64_t written_ = 0;
};

// Host input under time travel: a live source (the operator's terminal, a TCP console) answers a
// poll as the person at it happens to type, so a stretch run again must get the answers the first
// run got. Each poll of a source is numbered (the polls come at simulated times, the same in every
// run); the characters it gave, with their poll's number, are logged where every process of the
// session sees them. A poll a run before has answered is answered from the log.
class ReplayedInput {
 public:
  static constexpr unsigned kSlots = 8;
  static constexpr size_t kEntries = size_t(1) << 16;
  static constexpr int kNothing = -1;
  struct Log {
    uint64_t polls, n;  // polls answered so far, characters logged
    uint64_t seq[kEntries];
    int32_t answer[kEntries];
  };
  ReplayedInput() : slot_(next_slot()++) {}
  ReplayedInput(const ReplayedInput&) = delete;
  ReplayedInput& operator=(const ReplayedInput&) = delete;
  // True (and the answer) when this poll was answered before; false: ask the source, then record().
  bool replay(int& answer) {
    Log* l = log();
    if (!l || polls_ >= l->polls) return false;
    uint64_t k = polls_++;
    while (cursor_ < l->n && l->seq[cursor_] < k) ++cursor_;
    answer = cursor_ < l->n && l->seq[cursor_] == k ? l->answer[cursor_] : kNothing;
    return true;
  }
  void record(int answer) {
    uint64_t k = polls_++;
    Log* l = log();
    if (!l) return;
    l->polls = k + 1;
    if (answer == kNothing) return;
    if (l->n < kEntries) {
      l->seq[l->n] = k;
      l->answer[l->n++] = answer;
      cursor_ = l->n;
    } else if (l->n++ == kEntries) {
      std::fprintf(stderr, "testbed: reverse execution: more than %zu characters typed; going back past them "
                           "replays without the later ones\n", kEntries);
    }
  }
  static size_t shared_size() { return kSlots * sizeof(Log); }
  // A time-travel session begins: the logs live in `area` (shared_size() bytes, zeroed).
  static void share_logs(void* area) { logs() = static_cast<Log*>(area); }

 private:
  Log* log() const { return logs() && slot_ < kSlots ? logs() + slot_ : nullptr; }
  static unsigned& next_slot() {
    static unsigned n = 0;
    return n;
  }
  static Log*& logs() {
    static Log* l = nullptr;
    return l;
  }
  unsigned slot_;
  uint64_t polls_ = 0, cursor_ = 0;
};

// fopen for a streamed output (a trace, a VCD): the same FILE* API, its bytes through a Replayed
// (a glibc cookie stream over the real file). nullptr (errno set) when the file cannot be opened.
inline std::FILE* open_replayed(const std::string& path, const char* mode) {
  struct Cookie {
    std::FILE* f;
    Replayed r;
  };
  std::FILE* f = std::fopen(path.c_str(), mode);
  if (!f) return nullptr;
  std::setvbuf(f, nullptr, _IONBF, 0);  // the cookie stream buffers: a flush of it reaches the file
  cookie_io_functions_t io{};
  io.write = [](void* c, const char* buf, size_t n) -> ssize_t {
    auto* k = static_cast<Cookie*>(c);
    size_t s = size_t(k->r.skip(n));
    if (s < n && std::fwrite(buf + s, 1, n - s, k->f) != n - s) return -1;
    return ssize_t(n);
  };
  io.close = [](void* c) -> int {
    auto* k = static_cast<Cookie*>(c);
    int rc = std::fclose(k->f);
    delete k;
    return rc;
  };
  auto* k = new Cookie{f, {}};
  std::FILE* out = fopencookie(k, mode, io);
  if (!out) {
    std::fclose(f);
    delete k;
  }
  return out;
}

}  // namespace testbed::output
