#include "history.h"

#include "replayed_output.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace testbed::gdb {

// Every process of the session sees this memory (MAP_SHARED before the first fork). File
// descriptors in it are those of the live process (a runner is handed every one of them).
struct History::Entry {
  pid_t pid;
  int fd;          // the live process's end of the checkpoint's socket
  size_t board;
  uint64_t total;  // instructions run by the machine at the checkpoint: the order of the past
  uint64_t time_ps;
};

struct History::Shared {
  pid_t front, live;
  int over;        // the session has ended: checkpoints go
  uint32_t n;      // checkpoints kept, in order of `total`
  uint64_t marks[output::Replayed::kSlots];
  Entry e[kMaxCheckpoints];
  // then kMaxCheckpoints x boards instruction counts
};

uint64_t History::Position::total() const {
  uint64_t t = 0;
  for (uint64_t c : counts) t += c;
  return t;
}

History::History(size_t boards) : boards_(boards) {}

// The shared memory stays mapped to the end of the process: the outputs' marks are in it, and
// the last of them are written when the consoles and traces close, after the server has gone.
History::~History() = default;

History::Entry& History::entry(size_t k) const { return shared_->e[k]; }
uint64_t* History::counts(size_t k) const {
  return reinterpret_cast<uint64_t*>(reinterpret_cast<char*>(shared_) + sizeof(Shared)) + k * boards_;
}
size_t History::size() const { return shared_ ? shared_->n : 0; }

History::Position History::at(size_t k) const {
  Position p;
  p.board = entry(k).board;
  p.time_ps = entry(k).time_ps;
  p.counts.assign(counts(k), counts(k) + boards_);
  return p;
}

size_t History::before(const Position& p) const {
  uint64_t t = p.total();
  size_t found = SIZE_MAX;
  for (size_t k = 0; k < size(); ++k)
    if (entry(k).total < t) found = k;
  return found;
}

size_t History::before(size_t board, uint64_t count) const {
  size_t found = SIZE_MAX;
  for (size_t k = 0; k < size(); ++k) {
    uint64_t c = counts(k)[board];
    if (c < count || (c == count && (entry(k).board == board || entry(k).board == kNoBoard))) found = k;
  }
  return found;
}

bool History::front_gone() const {
  return shared_ && ::kill(shared_->front, 0) != 0 && errno == ESRCH;
}

// The first checkpoint: this process becomes the front, a child goes on as the live machine.
void History::activate() {
  size_t counts = kMaxCheckpoints * boards_ * sizeof(uint64_t);
  shared_size_ = sizeof(Shared) + counts + output::ReplayedInput::shared_size();
  void* m = ::mmap(nullptr, shared_size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error(std::string("gdb: reverse execution: mmap: ") + std::strerror(errno));
  shared_ = static_cast<Shared*>(m);
  std::memset(shared_, 0, shared_size_);
  shared_->front = ::getpid();
  output::Replayed::share_marks(shared_->marks);
  output::ReplayedInput::share_logs(reinterpret_cast<char*>(shared_) + sizeof(Shared) + counts);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // runners are orphaned on purpose: they come to the front
  std::fflush(nullptr);
  pid_t live = ::fork();
  if (live < 0) throw std::runtime_error(std::string("gdb: reverse execution: fork: ") + std::strerror(errno));
  if (live > 0) front_loop(live);
  shared_->live = ::getpid();
}

// The front waits for the session: the live process's status is the simulator's.
void History::front_loop(pid_t live) {
  shared_->live = live;
  ::close_range(3, ~0u, 0);  // no socket of the session stays open because of the front
  int status = 0;
  bool have = false;
  for (;;) {
    int st = 0;
    pid_t p = ::waitpid(-1, &st, 0);
    if (p < 0) {
      if (errno == EINTR) continue;
      break;  // no child left
    }
    if (!have && p == shared_->live) {
      status = st;
      have = true;
      shared_->over = 1;
    }
  }
  if (!have) _exit(1);
  if (WIFSIGNALED(status)) {
    ::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));
    _exit(128 + WTERMSIG(status));
  }
  _exit(WEXITSTATUS(status));
}

bool History::checkpoint(const Position& at) {
  if (!shared_) activate();
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  uint64_t total = at.total();
  for (size_t k = 0; k < size(); ++k)
    if (entry(k).total == total) return false;
  thin();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) return false;
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return false;
  }
  if (pid == 0) {
    wait_as_checkpoint(sv[1]);  // returns in a runner
    ::close(sv[1]);
    return true;
  }
  ::close(sv[1]);
  size_t k = size();
  while (k > 0 && entry(k - 1).total > total) --k;
  for (size_t j = size(); j > k; --j) {
    entry(j) = entry(j - 1);
    std::memcpy(counts(j), counts(j - 1), boards_ * sizeof(uint64_t));
  }
  entry(k) = Entry{pid, sv[0], at.board, total, at.time_ps};
  for (size_t b = 0; b < boards_; ++b) counts(k)[b] = b < at.counts.size() ? at.counts[b] : 0;
  ++shared_->n;
  return false;
}

// A checkpoint: blocked until a live process asks for a runner (or the session ends). The
// runner is forked twice so that it is orphaned to the front, which then learns its status.
void History::wait_as_checkpoint(int fd) {
  static char buf[1 << 18];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, 200);
    if (shared_->over || (::kill(shared_->front, 0) != 0 && errno == ESRCH)) _exit(0);
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (r <= 0) continue;
    iovec io{buf, sizeof buf};
    alignas(cmsghdr) char ctl[CMSG_SPACE(sizeof(int) * 250)];
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = ctl;
    msg.msg_controllen = sizeof ctl;
    ssize_t n = ::recvmsg(fd, &msg, 0);
    if (n <= 0) continue;
    std::vector<int> fds;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        const int* v = reinterpret_cast<const int*>(CMSG_DATA(c));
        fds.insert(fds.end(), v, v + k);
      }
    pid_t x = ::fork();
    if (x == 0) {
      if (::fork() != 0) _exit(0);
      resumed_.session.assign(buf, size_t(n));
      // The first size() descriptors are the checkpoints' sockets, in order; the rest the gdbs'.
      size_t k = 0;
      for (; k < size() && k < fds.size(); ++k) entry(k).fd = fds[k];
      resumed_.fds.assign(fds.begin() + long(k), fds.end());
      shared_->live = ::getpid();
      return;
    }
    for (int f : fds) ::close(f);
    if (x > 0) ::waitpid(x, nullptr, 0);
  }
}

void History::go(size_t k, const std::string& session, const std::vector<int>& client_fds) {
  std::vector<int> fds;
  for (size_t j = 0; j < size(); ++j) fds.push_back(entry(j).fd);
  fds.insert(fds.end(), client_fds.begin(), client_fds.end());
  std::vector<char> ctl(CMSG_SPACE(sizeof(int) * fds.size()));
  iovec io{const_cast<char*>(session.data()), session.size()};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  if (!fds.empty()) {
    msg.msg_control = ctl.data();
    msg.msg_controllen = ctl.size();
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  pid_t me = ::getpid();
  std::fflush(nullptr);
  if (::sendmsg(entry(k).fd, &msg, 0) < 0) {
    std::fprintf(stderr, "gdb: reverse execution: the checkpoint does not answer (%s)\n", std::strerror(errno));
    _exit(1);
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (shared_->live == me) {
    if (std::chrono::steady_clock::now() > until) {
      std::fprintf(stderr, "gdb: reverse execution: no runner took the machine over\n");
      _exit(1);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  _exit(0);
}

void History::drop(size_t k) {
  ::kill(entry(k).pid, SIGKILL);
  ::close(entry(k).fd);
  for (size_t j = k; j + 1 < size(); ++j) {
    entry(j) = entry(j + 1);
    std::memcpy(counts(j), counts(j + 1), boards_ * sizeof(uint64_t));
  }
  --shared_->n;
}

// Full: every other checkpoint of the older half goes (the first, history's beginning, stays),
// so the past is kept densest near the present.
void History::thin() {
  if (size() < kMaxCheckpoints) return;
  for (size_t k = 1; k < size() / 2; ++k) drop(k);
}

void History::forget() {
  while (size() > 0) drop(size() - 1);
}

}  // namespace testbed::gdb
