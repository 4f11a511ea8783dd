#include "host_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace testbed {

namespace {

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::vector<uint8_t> read_host_file(const std::string& path, const std::string& what) {
  // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer; a
  // regular file's reads ignore it.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) throw HostFileError(path + ": cannot open" + (what.empty() ? "" : " " + what) + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw HostFileError(path + ": read error: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw HostFileError(path + ": not a regular file (a folder or a device cannot be read whole)");
  // The size fstat gives, then on to the end: a file that grows meanwhile is read to its end.
  std::vector<uint8_t> bytes(size_t(st.st_size) + 1);
  size_t got = 0;
  for (;;) {
    if (got == bytes.size()) bytes.resize(bytes.size() * 2);
    ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw HostFileError(path + ": read error: " + std::strerror(errno));
    }
    if (n == 0) break;
    got += size_t(n);
  }
  bytes.resize(got);
  return bytes;
}

}  // namespace testbed
