// The host's files read whole: the one reader for every image, filestore, snapshot, trace and
// vector file the tools and the models take in.
//
// One open, one fstat and reads of the file's size, where the stream iterators it replaces
// copied byte by byte: under ASan that loop was 15% of the perf samples of seed002's reduced
// experiment (each board of each run reads its ELF image and its 1 MB filestore; the counting
// network's runs have forty boards).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace testbed {

// Names the file and what went wrong: "PATH: not a regular file (...)", "PATH: cannot open
// WHAT: REASON", "PATH: read error: REASON".
struct HostFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bytes of the regular file at `path`. `what` names the file in "cannot open" ("image",
// "the snapshot"; empty: "PATH: cannot open: REASON"). A folder or a device is refused before
// anything is read (a device such as /dev/zero would read forever).
std::vector<uint8_t> read_host_file(const std::string& path, const std::string& what = "");

}  // namespace testbed
