// Host outputs under time travel (sim/gdb/history.h). Going back in time runs a stretch of the
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
