// Centrenet snapshots: a network saved mid-traffic (frames on the bus, on the fibre, in DMA) and
// restored in a new process runs on exactly as the uninterrupted run does: every frame arrives
// with the same contents at the same time, the interrupt lines and signals change at the same
// times and nowhere else, and the statistics, memories and buffers end equal. Taking a snapshot
// changes nothing, and a snapshot of another network is refused with the reason.
//
// SystemC elaborates once per process, so each run is a child process (fork) that writes what it
// saw to files; the test compares them: U runs uninterrupted, S takes snapshots at several times
// and runs on, R<k> restores S's k-th snapshot and runs to the same end.
#include "test_centrenet_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "memory_port.h"
#include "state_archive.h"

using namespace tb_test;
using testbed::SharedMemoryPort;
using testbed::StateArchive;
using testbed::StateError;

// libsystemc wants an sc_main; the per-process main provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

namespace {

using Log = std::vector<std::string>;

std::string stamp() { return std::to_string(sc_core::sc_time_stamp().value()); }

std::string hex(const std::vector<uint8_t>& v) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t b : v) {
    s += d[b >> 4];
    s += d[b & 15];
  }
  return s;
}

uint64_t fnv(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// One board's software, resumable as a model is: every `period` it drains the head of its input
// queue (storeback and pop, or a plain pop), launches its next message (gathered by DMA from
// memory it then scribbles over) and logs what it did, all at one instant; between ticks it waits
// (its one site).
struct Driver : sc_core::sc_module {
  Driver(sc_core::sc_module_name n, Host& h, NetworkInterface& ni, uint8_t* mem, std::vector<BoardAddress> others,
         unsigned index, unsigned messages, Log& log)
      : sc_module(n), host_(h), ni_(ni), mem_(mem), others_(std::move(others)), index_(index), messages_(messages),
        log_(log), period_(sc_time(9.137 + 3.31 * index, SC_US)), next_(sc_time(1.7 * (index + 1), SC_US)),
        rng_(0x9E3779B97F4A7C15ull * (index + 1)) {
    SC_HAS_PROCESS(Driver);
    SC_THREAD(run);
  }

  bool at_rest() const { return waiting_; }
  void state(StateArchive& a) {
    a.section(name());
    a.io(next_).io(rng_).io(ticks_).io(launched_).io(drained_).io(waiting_);
    if (!a.loading()) return;
    restored_ = true;
    restored_at_ = a.when();
  }

 private:
  void run() {
    if (restored_) {
      wait(restored_at_);
      wait(next_ - sc_core::sc_time_stamp());
      waiting_ = false;
      tick();
    }
    for (;;) {
      waiting_ = true;
      wait(next_ - sc_core::sc_time_stamp());
      waiting_ = false;
      tick();
    }
  }

  uint32_t random() {
    rng_ = rng_ * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(rng_ >> 33);
  }

  void tick() {
    next_ += period_;
    std::string me = ni_.basename();
    if (ticks_++ == 0) host_.set(TB_NET_CTRL_OFF, testbed::regs::net::CTRL::RXIE::mask);
    bool anywhere = ni_.mode() == DmaMode::kAnywhere;
    uint32_t st = host_.reg(TB_NET_STATUS_OFF);
    if ((st & status::kInputPending) && !(st & status::kStorebackBusy)) {
      uint32_t src = host_.reg(TB_NET_IN_SRC_OFF), len = host_.reg(TB_NET_IN_LEN_OFF), w1 = host_.win(1);
      uint32_t e;
      if (drained_ % 3 == 2) {
        e = host_.rxcmd(rxcmd::kPop);
      } else {
        uint32_t area = (anywhere ? 0x8000u : kBuf + 0x4000u) + (drained_ % 4) * 0x800u;
        host_.set(TB_NET_SB_ADDR_OFF, area);
        host_.set(TB_NET_SB_OFFSET_OFF, 0);
        host_.set(TB_NET_SB_LEN_OFF, len);
        e = host_.rxcmd(rxcmd::kStorebackPop);
      }
      ++drained_;
      log_.push_back(stamp() + " " + me + " drain src " + std::to_string(src) + " len " + std::to_string(len) +
                     " w1 " + std::to_string(w1) + " -> " + net_error_name(e));
    }
    if (launched_ < messages_) {
      uint32_t r = random();
      BoardAddress dst = r % 7 == 0 ? kBroadcast : others_[(r >> 3) % others_.size()];
      uint32_t len = 1 + (r >> 7) % 300, off = (r >> 16) % 0x800;
      uint32_t from = anywhere ? 0x1000 + off : kBuf + off;
      uint32_t e = host_.send(dst, uint16_t(launched_), {index_, launched_}, {{from, len}});
      if (e == kOk) {
        ++launched_;
        // What the gather has not read yet changes under it: the message holds what DMA saw.
        uint8_t* p = anywhere ? mem_ + from : ni_.buffer() + off;
        for (uint32_t k = 0; k < 64; ++k) p[(k * 5) % len] = uint8_t(random());
      }
      log_.push_back(stamp() + " " + me + " launch " + dst.str() + " len " + std::to_string(len) + " -> " +
                     net_error_name(e));
    }
  }

  Host& host_;
  NetworkInterface& ni_;
  uint8_t* mem_;
  std::vector<BoardAddress> others_;
  unsigned index_, messages_;
  Log& log_;
  sc_time period_;
  sc_time next_;
  uint64_t rng_;
  uint64_t ticks_ = 0;
  uint32_t launched_ = 0, drained_ = 0;
  bool waiting_ = false;
  bool restored_ = false;
  sc_time restored_at_;
};

// Logs every value change of an NI's interrupt pin and input-queue depth: a restore that wrote
// them (an edge the uninterrupted run never had) shows here.
struct Watcher : sc_core::sc_module {
  Watcher(sc_core::sc_module_name n, NetworkInterface& ni, Log& log) : sc_module(n), ni_(ni), log_(log) {
    SC_HAS_PROCESS(Watcher);
    SC_METHOD(changed);
    sensitive << ni.irq << ni.in_queue;
    dont_initialize();
  }
  void changed() {
    log_.push_back(stamp() + " " + ni_.basename() + " pin " + std::to_string(ni_.irq.read()) + " depth " +
                   std::to_string(ni_.in_queue.read()));
  }
  NetworkInterface& ni_;
  Log& log_;
};

struct Scenario {
  NetworkConfig cfg;
  unsigned messages = 40;  // per board
  sc_time end = sc_time(2, SC_MS);
  std::vector<sc_time> snapshots;
};

// The network with a RAM, a memory port shared with DMA, a driver and a watcher per board, and
// the log of everything observable.
struct TestMachine {
  Log log;
  Rig rig;
  std::vector<std::unique_ptr<SharedMemoryPort>> ports;
  std::vector<std::unique_ptr<Driver>> drivers;
  std::vector<std::unique_ptr<Watcher>> watchers;

  explicit TestMachine(const Scenario& s) : rig(s.cfg) {
    for (size_t i = 0; i < rig.addrs.size(); ++i) {
      BoardAddress me = rig.addrs[i];
      NetworkInterface& ni = rig.ni(me);
      std::string tag = ni.basename();
      ports.push_back(std::make_unique<SharedMemoryPort>());
      ni.set_memory_port(ports.back().get());
      ni.on_receive([this, tag](const Frame& f) {
        log.push_back(stamp() + " " + tag + " recv " + std::to_string(f.id) + " " + f.src.str() + ">" + f.dst.str() +
                      " posted " + std::to_string(f.posted.value()) + " " + hex(f.payload));
      });
      ni.irq_line().connect([this, tag](bool l) { log.push_back(stamp() + " " + tag + " irq " + std::to_string(l)); });
      std::vector<BoardAddress> others;
      for (BoardAddress a : rig.addrs)
        if (a != me) others.push_back(a);
      drivers.push_back(std::make_unique<Driver>(("driver_" + tag).c_str(), rig.host(me), ni, rig.mem(me).data(),
                                                 others, unsigned(i), s.messages, log));
      watchers.push_back(std::make_unique<Watcher>(("watch_" + tag).c_str(), ni, log));
    }
  }

  bool at_rest() const {
    if (!rig.net->at_rest()) return false;
    for (const auto& d : drivers)
      if (!d->at_rest()) return false;
    return true;
  }
  void state(StateArchive& a) {
    rig.net->state(a);
    for (size_t i = 0; i < rig.addrs.size(); ++i) {
      rig.ram[i]->state(a);
      a.section("memory port " + std::to_string(i));
      ports[i]->state(a);
      drivers[i]->state(a);
    }
    a.finish();
  }
  // What the run leaves: statistics (the network's report and the rest of each NI's), memories,
  // buffers, lines and signals.
  std::string final_state() {
    std::ostringstream os;
    rig.net->report(os);
    for (size_t i = 0; i < rig.addrs.size(); ++i) {
      NetworkInterface& ni = rig.ni(rig.addrs[i]);
      const NiStats& s = ni.stats();
      os << ni.basename() << " bytes " << s.bytes_sent << "/" << s.bytes_received << " storeback " << s.storeback_bytes
         << " pops " << s.pops << " ram time " << s.dma_ram_time.value() << " ram "
         << fnv(rig.ram[i]->data(), rig.ram[i]->size()) << " buffer " << fnv(ni.buffer(), kBufferBytes) << " pin "
         << ni.irq.read() << " depth " << ni.in_queue.read() << " line " << ni.irq_line().level() << " inputs "
         << ni.input_count() << " port " << ports[i]->free_at().value() << " dma claims " << ports[i]->stats(SharedMemoryPort::kDma).claims << "\n";
    }
    for (unsigned n = 0; n < rig.net->config().nodes.size(); ++n) {
      const BusStats& b = rig.net->bus(n).stats();
      os << "bus" << n << " busy " << b.busy_time.value();
      for (const PortStats& p : b.ports)
        os << " [" << p.queue_delay_total.value() << " " << p.queue_delay_max.value() << " " << p.backpressure_frames
           << " " << p.backpressure_time.value() << "]";
      os << "\n";
      if (FibreLink* l = rig.net->uplink(n))
        os << "link" << n << " " << l->down_stats().busy_time.value() << " " << l->up_stats().busy_time.value() << "\n";
    }
    return os.str();
  }
};

// Restores the machine in start_of_simulation: after elaboration, before any process runs.
struct Restorer : sc_core::sc_module {
  Restorer(sc_core::sc_module_name n, TestMachine& m, const std::vector<uint8_t>& bytes, sc_time when)
      : sc_module(n), m_(m), bytes_(bytes), when_(when) {}
  void start_of_simulation() override {
    try {
      StateArchive a(bytes_, when_);
      m_.state(a);
    } catch (const std::exception& e) {
      error = e.what();
      sc_core::sc_stop();
    }
  }
  TestMachine& m_;
  const std::vector<uint8_t>& bytes_;
  sc_time when_;
  std::string error;
};

// ---- runs in child processes, results in files --------------------------------------------

struct Dir {
  std::string path;
  Dir() {
    std::string t = ::testing::TempDir() + "centrenet_snapshot_XXXXXX";
    std::vector<char> b(t.begin(), t.end());
    b.push_back(0);
    if (!mkdtemp(b.data())) throw std::runtime_error("mkdtemp failed");
    path = b.data();
  }
  ~Dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator()(const std::string& name) const { return path + "/" + name; }
};

void write_file(const std::string& path, const std::string& s) {
  std::ofstream f(path, std::ios::binary);
  f << s;
  if (!f) throw std::runtime_error("cannot write " + path);
}
std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::string join(const Log& log, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < log.size(); ++i) s += log[i] + "\n";
  return s;
}
Log lines(const std::string& s) {
  Log v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// Runs `f` in a child process; its exception's message, if any, in `error`. True: it succeeded.
template <class F> bool in_child(F f, std::string& error, const std::string& error_file) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int rc = 0;
    try {
      f();
    } catch (const std::exception& e) {
      write_file(error_file, e.what());
      rc = 1;
    }
    std::fflush(nullptr);
    void (*volatile leave)(int) = _exit;  // as test_per_process_main.cpp: no ASan stack warning
    leave(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  error = read_file(error_file);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The run to s.end, saving a snapshot at each of s.snapshots (the first instant at or after it at
// which nothing is pending and every process waits where it resumes from): snap<k> holds its
// time (ps) on the first line and its state after; at<k> the log lines seen before it.
void run(const Scenario& s, const Dir& dir, const std::string& tag) {
  TestMachine m(s);
  size_t k = 0;
  for (sc_time t : s.snapshots) {
    if (sc_core::sc_time_stamp() < t) sc_core::sc_start(t - sc_core::sc_time_stamp());
    while (sc_core::sc_get_status() == sc_core::SC_PAUSED &&
           (!m.at_rest() || sc_core::sc_pending_activity_at_current_time()))
      sc_core::sc_start(sc_core::sc_pending_activity_at_current_time() ? sc_core::SC_ZERO_TIME
                                                                        : sc_core::sc_time_to_pending_activity());
    StateArchive a;
    m.state(a);
    const auto& d = a.data();
    write_file(dir("snap" + std::to_string(k)),
               std::to_string(sc_core::sc_time_stamp().value()) + "\n" + std::string(d.begin(), d.end()));
    write_file(dir("at" + std::to_string(k)), std::to_string(m.log.size()));
    ++k;
  }
  sc_core::sc_start(s.end - sc_core::sc_time_stamp());
  write_file(dir(tag + ".log"), join(m.log));
  write_file(dir(tag + ".final"), m.final_state());
}

// A new machine of `s` restored from snapshot file `snap`, run to s.end.
void restore(const Scenario& s, const Dir& dir, const std::string& snap, const std::string& tag) {
  std::string file = read_file(snap);
  size_t nl = file.find('\n');
  sc_time when = sc_time::from_value(std::stoull(file.substr(0, nl)));
  std::vector<uint8_t> bytes(file.begin() + long(nl) + 1, file.end());
  TestMachine m(s);
  Restorer r("restorer", m, bytes, when);
  sc_core::sc_start(s.end);
  if (!r.error.empty()) throw StateError(r.error);
  write_file(dir(tag + ".log"), join(m.log));
  write_file(dir(tag + ".final"), m.final_state());
}

// U, S and each R<k>; every comparison.
void check_round_trips(const Scenario& s) {
  Dir dir;
  std::string err;
  ASSERT_TRUE(in_child([&] { run(Scenario{s.cfg, s.messages, s.end, {}}, dir, "u"); }, err, dir("u.err"))) << err;
  ASSERT_TRUE(in_child([&] { run(s, dir, "s"); }, err, dir("s.err"))) << err;
  Log u = lines(read_file(dir("u.log")));
  std::string u_final = read_file(dir("u.final"));
  ASSERT_GT(u.size(), 200u) << "the traffic is too thin to test anything";
  // Taking snapshots changes nothing.
  EXPECT_EQ(join(lines(read_file(dir("s.log")))), join(u));
  EXPECT_EQ(read_file(dir("s.final")), u_final);
  for (size_t k = 0; k < s.snapshots.size(); ++k) {
    std::string snap = dir("snap" + std::to_string(k)), tag = "r" + std::to_string(k);
    uint64_t when = std::stoull(read_file(snap).substr(0, read_file(snap).find('\n')));
    // Every thread waits where it resumes from between any two steps, traffic or not: the
    // snapshot is taken at the time asked (or at the instant's end, when events fall on it).
    EXPECT_LT(when - s.snapshots[k].value(), sc_time(1, SC_US).value()) << "snapshot " << k;
    ASSERT_TRUE(in_child([&] { restore(s, dir, snap, tag); }, err, dir(tag + ".err")))
        << "snapshot " << k << ": " << err;
    size_t at = std::stoul(read_file(dir("at" + std::to_string(k))));
    ASSERT_LT(at, u.size());
    EXPECT_EQ(read_file(dir(tag + ".log")), join(u, at)) << "snapshot " << k << " at " << when << " ps";
    EXPECT_EQ(read_file(dir(tag + ".final")), u_final) << "snapshot " << k << " at " << when << " ps";
  }
}

std::vector<sc_time> times(double first_us, double step_us, unsigned n) {
  std::vector<sc_time> v;
  for (unsigned k = 0; k < n; ++k) v.push_back(sc_time(first_us + step_us * k, SC_US));
  return v;
}

}  // namespace

// Three boards on one bus, DMA to all of RAM through ports shared with a CPU's cycles, input
// queues of two messages (senders wait for room): snapshots across the traffic, each restored in
// a new process, give the rest of the uninterrupted run.
TEST(CentrenetSnapshot, ABusOfThreeBoardsRestoredMidTrafficRunsOnAsIfUninterrupted) {
  Scenario s;
  s.cfg = NetworkConfig::single_node(3);
  s.cfg.ni.mode = DmaMode::kAnywhere;
  s.cfg.ni.input_queue_messages = 2;
  s.snapshots = times(13.3, 17.9, 30);
  check_round_trips(s);
}

// Two nodes of two boards joined by fibre (a link holding two frames per direction), 1994 mode
// (DMA to the buffer memory only): frames serialising and in flight on the link are restored too.
TEST(CentrenetSnapshot, ATreeWithAFibreLinkRestoredMidTrafficRunsOnAsIfUninterrupted) {
  Scenario s;
  s.cfg = NetworkConfig::tree(2, 2, 1);
  s.cfg.fibre.buffer_frames = 2;
  s.cfg.ni.input_queue_messages = 3;
  s.snapshots = times(21.1, 11.3, 40);
  check_round_trips(s);
}

// A snapshot restores only the network it was taken of: another queue size is refused, naming
// the interface and both values.
TEST(CentrenetSnapshot, ASnapshotOfAnotherNetworkIsRefusedWithTheReason) {
  Scenario s;
  s.cfg = NetworkConfig::single_node(3);
  s.snapshots = {sc_time(50, SC_US)};
  s.end = sc_time(100, SC_US);
  Dir dir;
  std::string err;
  ASSERT_TRUE(in_child([&] { run(s, dir, "s"); }, err, dir("s.err"))) << err;
  Scenario other = s;
  other.cfg.ni.input_queue_messages = 5;
  EXPECT_FALSE(in_child([&] { restore(other, dir, dir("snap0"), "r"); }, err, dir("r.err")));
  EXPECT_NE(err.find("net.ni_0_0"), std::string::npos) << err;
  EXPECT_NE(err.find("input queue messages is 8 in the snapshot, 5 in this machine"), std::string::npos) << err;
}
