// A machine snapshot on disk (README "Snapshots"): the state every model saved through
// StateArchive (hw/bus/state_archive.h), compressed (zlib), behind a header a person can read
// (`head -c 600 FILE`) and a CRC-32 over the whole file.
//
//   testbed snapshot\n                      magic
//   u32 format version                       kFormat
//   u32 n, n bytes of "key: value\n" lines   format, build, tool, machine, time_ps, time
//   u64 n, n bytes                           the state, zlib-compressed
//   u64                                      the state's length uncompressed
//   u32                                      CRC-32 of everything before it
//
// A snapshot is restored only by the build that wrote it (the executable's GNU build-id: the
// models' layout and code are that build's), by the same tool, into the machine it was taken of
// (`machine`: a digest of what defines it -- configuration, images -- that the tool computes).
// Anything else is refused with a message that says which of these differs, or that the file is
// not a snapshot, is cut short or corrupted.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace testbed::snapshot {

constexpr uint32_t kFormat = 1;

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Header {
  uint32_t format = kFormat;
  std::string build;    // this_build(): the tool's version line and the executable's build-id
  std::string tool;     // "testbed-board", "testbed"
  std::string machine;  // the tool's digest of the machine (Digest below)
  uint64_t time_ps = 0; // the kernel time it was taken at
};

// The header this build writes and expects for `tool`'s snapshot of the machine with digest
// `machine` (time_ps is the caller's).
Header header_for(const std::string& tool, const std::string& machine);

// The running executable: "<version line>, build-id <hex>" (the hex of the whole executable's
// FNV-1a hash when it has no build-id note).
std::string this_build(const std::string& tool);

// 64-bit FNV-1a over what defines a machine, in the order the tool adds it (not a security
// digest: it tells a snapshot of another machine from this one's).
class Digest {
 public:
  Digest& add(const void* data, size_t n);
  Digest& add(const std::string& s) {
    uint64_t n = s.size();
    add(&n, sizeof n);
    return add(s.data(), s.size());
  }
  Digest& add_file(const std::string& path);  // its bytes (throws Error naming it if unreadable)
  std::string hex() const;

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

void write(const std::string& path, const Header& h, const std::vector<uint8_t>& state);
// Reads and checks `path` against `expect` (format, build, tool, machine): the state, and the
// file's header in `got`. Throws Error saying why a file is refused.
std::vector<uint8_t> read(const std::string& path, const Header& expect, Header* got);

}  // namespace testbed::snapshot
