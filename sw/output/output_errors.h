// Write errors on output files (traces, console logs, downloads, decoded results): recorded
// where they happen, reported by the tool at the end of the run, never silently ignored.
// A file opened with fopen is closed with output::close(), which notices an earlier failed
// write (ferror) or a failed final flush (a full disk, /dev/full) and records it.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace testbed::output {

struct Failure {
  std::string path;
  std::string why;
};

// Every failure recorded in this process, one per path, in the order they happened.
inline std::vector<Failure>& failures() {
  static std::vector<Failure> list;
  return list;
}

inline void failed(const std::string& path, const std::string& why) {
  for (auto& f : failures())
    if (f.path == path) return;
  failures().push_back({path, why});
}

// Closes `f` (nothing when null) and records a write error seen on it; true when all went well.
inline bool close(std::FILE* f, const std::string& path) {
  if (!f) return true;
  bool bad = std::ferror(f) != 0;
  int err = bad ? EIO : 0;
  errno = 0;
  if (std::fclose(f) != 0) {
    bad = true;
    err = errno ? errno : EIO;
  }
  if (bad) failed(path, err == EIO ? "a write failed (input/output error or full disk)" : std::strerror(err));
  return !bad;
}

}  // namespace testbed::output
