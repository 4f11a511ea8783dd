#include "rsp_server.h"

#include <tlm>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace testbed::gdb {

namespace {

const char* kTargetXml =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\">\n"
    "  <architecture>m68k</architecture>\n"
    "  <feature name=\"org.gnu.gdb.m68k.core\">\n"
    "    <reg name=\"d0\" bitsize=\"32\"/>\n    <reg name=\"d1\" bitsize=\"32\"/>\n"
    "    <reg name=\"d2\" bitsize=\"32\"/>\n    <reg name=\"d3\" bitsize=\"32\"/>\n"
    "    <reg name=\"d4\" bitsize=\"32\"/>\n    <reg name=\"d5\" bitsize=\"32\"/>\n"
    "    <reg name=\"d6\" bitsize=\"32\"/>\n    <reg name=\"d7\" bitsize=\"32\"/>\n"
    "    <reg name=\"a0\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"a1\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"a2\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"a3\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"a4\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"a5\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"fp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "    <reg name=\"ps\" bitsize=\"32\"/>\n"
    "    <reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "  </feature>\n"
    "</target>\n";

const char kHex[] = "0123456789abcdef";

std::string hex32(uint32_t v) {
  std::string s(8, '0');
  for (int i = 0; i < 8; ++i) s[i] = kHex[(v >> (28 - 4 * i)) & 15];
  return s;
}

std::string to_hex(const uint8_t* p, size_t n) {
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses a hex number from s[pos..] up to a character in `stop` (or the end); false if it is
// empty, has a non-hex digit or does not fit in 32 bits.
bool parse_hex(const std::string& s, size_t& pos, uint32_t& v, const char* stop = "") {
  v = 0;
  size_t start = pos;
  while (pos < s.size() && !std::strchr(stop, s[pos])) {
    int h = hexval(s[pos]);
    if (h < 0 || pos - start >= 8) return false;
    v = v << 4 | uint32_t(h);
    ++pos;
  }
  return pos > start;
}

bool from_hex(const std::string& s, size_t pos, size_t n, std::vector<uint8_t>& out) {
  if (s.size() - pos != 2 * n) return false;
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    int a = hexval(s[pos + 2 * i]), b = hexval(s[pos + 2 * i + 1]);
    if (a < 0 || b < 0) return false;
    out[i] = uint8_t(a << 4 | b);
  }
  return true;
}

std::string hex_text(const std::string& t) { return to_hex(reinterpret_cast<const uint8_t*>(t.data()), t.size()); }

}  // namespace

GdbOptions parse_gdb_options(const std::string& spec, size_t boards) {
  GdbOptions o;
  size_t comma = spec.find(',');
  std::string port_text = spec.substr(0, comma);
  char* end = nullptr;
  long port = std::strtol(port_text.c_str(), &end, 10);
  bool ok = !port_text.empty() && !*end && port > 0 && port + long(boards) - 1 <= 65535;
  while (ok && comma != std::string::npos) {
    size_t next = spec.find(',', comma + 1);
    std::string word = spec.substr(comma + 1, next == std::string::npos ? std::string::npos : next - comma - 1);
    if (word == "nowait") o.wait = false;
    else if (word == "noreverse") o.reverse = false;
    else ok = false;
    comma = next;
  }
  if (!ok)
    throw std::invalid_argument("--gdb: a port 1.." + std::to_string(65536 - long(boards)) +
                                ", optionally ',nowait' and ',noreverse': '" + spec + "'");
  o.port = int(port);
  return o;
}

GdbServer::GdbServer(sc_core::sc_module_name name, const std::vector<Board*>& boards, int base_port,
                     bool wait_for_client, const std::vector<std::string>& images, bool reverse)
    : sc_module(name), base_port_(base_port), waiting_first_(wait_for_client), reverse_(reverse),
      history_(boards.size()) {
  if (base_port <= 0 || base_port + int(boards.size()) - 1 > 65535)
    throw std::runtime_error("gdb: port " + std::to_string(base_port) + " out of range");
  clients_.resize(boards.size());
  // A debugger stops boards at instructions a rollback could undo: the platform takes its boards
  // out of exact mode and keeps the quantum, then the timing error, fine.
  for (Board* b : boards) {
    sc_core::sc_time was = CpuTiming::attach_debugger(*b);
    if (was > sc_core::SC_ZERO_TIME)
      std::fprintf(stderr, "gdb: exact mode is off while a debugger is attached; quantum %s -> %g us\n",
                   was.to_string().c_str(), CpuTiming::kDebugQuantumUs);
  }
  for (size_t i = 0; i < boards.size(); ++i) {
    targets_.push_back(std::make_unique<GdbTarget>(*this, *boards[i], int(i)));
    if (i < images.size()) targets_.back()->set_image(images[i]);
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(uint16_t(base_port + int(i)));
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || ::listen(fd, 2) < 0) {
      std::string why = std::strerror(errno);
      if (fd >= 0) ::close(fd);
      for (auto& c : clients_)
        if (c.listen_fd >= 0) ::close(c.listen_fd);
      throw std::runtime_error("gdb: cannot listen on 127.0.0.1:" + std::to_string(base_port + int(i)) + ": " + why);
    }
    clients_[i].listen_fd = fd;
  }
  SC_THREAD(poll_process);
}

GdbServer::~GdbServer() {
  // The simulation is over: a gdb waiting for its board to stop hears how it ended (W: the
  // guest's exit code; X: the CPU halted).
  for (size_t i = 0; i < clients_.size(); ++i) {
    if (clients_[i].fd < 0 || !clients_[i].want_stop_reply) continue;
    const BoardResult& r = targets_[i]->board().result();
    char buf[16];
    if (!r.halt_reason.empty()) std::snprintf(buf, sizeof buf, "X%02x", 9);
    else if (!r.finished) continue;
    else std::snprintf(buf, sizeof buf, "W%02x", r.exit_code == 1 ? 0u : unsigned(r.exit_code & 0xFF));
    send_packet(i, buf);
  }
  for (auto& c : clients_) {
    if (c.fd >= 0) ::close(c.fd);
    if (c.listen_fd >= 0) ::close(c.listen_fd);
  }
}

// ------------------------------------------------------------------ the machine's run state

bool GdbServer::machine_should_stop() const {
  if (killed_) return false;
  if (traveling()) return false;  // the past runs again to the instant asked for, whoever holds a board
  if (waiting_first_) return true;
  for (const Client& c : clients_)
    if (c.fd >= 0 && c.halted) return true;
  return false;
}

bool GdbServer::all_started() const {
  for (const auto& t : targets_)
    if (!t->started() && !t->board().cpu().done()) return false;
  return true;
}

// Stops the boards found (breakpoint, watchpoint, step, Ctrl-C) tell their gdb.
void GdbServer::note_stops() {
  // A thread a gdb resumed stopped on another board (it migrated there): that gdb's stop.
  for (auto& tj : targets_) {
    int owner;
    uint32_t th, addr;
    GdbTarget::StopKind kind;
    while (tj->take_follow_stop(owner, th, kind, addr)) {
      Client& c = clients_[size_t(owner)];
      if (c.fd < 0 || c.halted) {  // nobody waits for it: the thread runs on
        unfollow_all(size_t(owner));
        continue;
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "T05thread:%x;%s", th, kind == GdbTarget::StopKind::Breakpoint ? "swbreak:;" : "");
      c.signal = 5;
      c.last_stop = buf;
      c.stop_thread = th;
      c.gen_thread = 0;  // gdb takes a stop's thread for the one Hg named (remote.c, record_currthread)
      c.halted = true;
      c.interrupt = false;
      unfollow_all(size_t(owner));
      if (c.want_stop_reply) {
        c.want_stop_reply = false;
        send_packet(size_t(owner), c.last_stop);
      }
    }
  }
  for (size_t i = 0; i < targets_.size(); ++i) {
    GdbTarget& t = *targets_[i];
    Client& c = clients_[i];
    if (c.fd < 0) {
      t.clear_stop();
      c.interrupt = false;
      continue;
    }
    bool stop = false;
    if (t.stop_kind() != GdbTarget::StopKind::None) {
      stop = true;
      c.signal = 5;
      c.last_stop = stop_reply(i);
      t.clear_stop();
    } else if (c.interrupt) {
      if (!c.halted) {
        stop = true;
        c.signal = 2;
        c.last_stop = stop_reply(i);
      }
    }
    c.interrupt = false;
    if (!stop) continue;
    c.halted = true;
    c.stop_thread = 0;
    c.gen_thread = 0;
    unfollow_all(i);
    if (c.want_stop_reply) {
      c.want_stop_reply = false;
      send_packet(i, c.last_stop);
    }
  }
}

// The board TOS thread `thread` is on, for board i's gdb: board i if it is there, else the board
// it has migrated to.
GdbTarget& GdbServer::board_of(size_t i, uint32_t thread) {
  GdbTarget::Thread found;
  GdbTarget& here = *targets_[i];
  if (thread < GdbTarget::kTosThread || !here.tos() || here.find_thread(thread, found)) return here;
  for (auto& t : targets_)
    if (t.get() != &here && t->tos() && t->find_thread(thread, found)) return *t;
  return here;
}

void GdbServer::unfollow_all(size_t i) {
  for (auto& t : targets_) t->unfollow(int(i));
}

std::string GdbServer::stop_reply(size_t i) {
  GdbTarget& t = *targets_[i];
  char buf[64];
  std::snprintf(buf, sizeof buf, "T%02xthread:%x;", clients_[i].signal, t.current_thread());
  std::string s = buf;
  switch (t.stop_kind()) {
    case GdbTarget::StopKind::Breakpoint: s += "swbreak:;"; break;
    case GdbTarget::StopKind::Watchpoint:
      s += t.stop_watch_type() == 2 ? "watch:" : t.stop_watch_type() == 3 ? "rwatch:" : "awatch:";
      s += hex32(t.stop_address()) + ";";
      break;
    default: break;
  }
  return s;
}

void GdbServer::boundary(GdbTarget* t) {
  size_t board = size_t(t->index());
  if (travel_.arrived) travel_arrived();
  note_stops();
  auto now = std::chrono::steady_clock::now();
  if (now - last_poll_ >= std::chrono::milliseconds(5)) {
    last_poll_ = now;
    if (history_.front_gone()) _exit(1);  // the session was killed
    poll_sockets(0);
    note_stops();
  }
  // While the machine runs forward, its past is kept every quarter second of host time (a
  // runner resumed here goes on with the session it was handed).
  if (!machine_should_stop() && history_.active() && !traveling()) take_checkpoint(board, false);
  if (machine_should_stop()) hold(board);
}

void GdbServer::restored_at(sc_core::sc_time t) {
  start_ = t;
  for (auto& tg : targets_) tg->restored();
}

void GdbServer::poll_process() {
  if (start_ > sc_core::SC_ZERO_TIME) wait(start_);  // a restored machine's processes resume then
  const uint64_t period = sc_core::sc_time(1, sc_core::SC_MS).value();
  for (;;) {
    if (machine_should_stop()) hold();
    // Every millisecond from time 0, a restored run's too: this process is one more pending
    // activity the CPUs' synchronisations see, so a run restored with --gdb has the same ones as
    // the run it was saved from.
    uint64_t t = sc_core::sc_time_stamp().value();
    wait(sc_core::sc_time::from_value((t / period + 1) * period - t));
    bool all_done = true;
    for (auto& t : targets_) all_done = all_done && t->board().cpu().done();
    if (all_done || killed_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_poll_ >= std::chrono::milliseconds(5)) {
      last_poll_ = now;
      if (history_.front_gone()) _exit(1);
      poll_sockets(0);
      note_stops();
    }
  }
}

// The machine stands still: this SystemC process blocks on the sockets (nothing else runs,
// simulated time stands) until every attached gdb has resumed its board. Nothing the machine
// does depends on where or how long it stood, which is what lets its past be run again (a board
// inside a bus cycle a device holds, such as a monitor read, stays in it). Only at the very start
// does it let every board reach its first instruction (delta cycles, no time), so that gdb sees
// them reset.
void GdbServer::hold(size_t board) {
  while (!killed_ && machine_should_stop()) {
    if (!all_started()) {
      wait(sc_core::SC_ZERO_TIME);
      continue;
    }
    // The past is kept from the first stop on, and at stops a quarter second apart; a stop the
    // poll process found (Ctrl-C) has no board's instant to keep, unless it is the first.
    if (reverse_ && !traveling() && (board != History::kNoBoard || !history_.active()))
      take_checkpoint(board, !history_.active());
    if (killed_ || !machine_should_stop()) break;
    for (size_t i = 0; i < clients_.size(); ++i) process_input(i, true);
    note_stops();
    if (killed_ || !machine_should_stop()) break;
    poll_sockets(200);
    note_stops();
    if (history_.front_gone()) _exit(1);
  }
  // The machine runs again with a snapshot asked for: sc_start returns to the tool at the end of
  // this delta cycle, and it saves the machine at its next instant at rest.
  if (!snapshot_request_.empty() && !killed_) sc_core::sc_pause();
}

// ------------------------------------------------------------------ sockets

void GdbServer::poll_sockets(int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<std::pair<size_t, bool>> who;  // client, listening socket
  for (size_t i = 0; i < clients_.size(); ++i) {
    fds.push_back({clients_[i].listen_fd, POLLIN, 0});
    who.push_back({i, true});
    if (clients_[i].fd >= 0) {
      fds.push_back({clients_[i].fd, POLLIN, 0});
      who.push_back({i, false});
    }
  }
  int n = ::poll(fds.data(), fds.size(), timeout_ms);
  if (n <= 0) return;
  for (size_t k = 0; k < fds.size(); ++k) {
    if (!fds[k].revents) continue;
    size_t i = who[k].first;
    if (who[k].second) accept_client(i);
    else if (clients_[i].fd == fds[k].fd) read_client(i);
  }
}

void GdbServer::accept_client(size_t i) {
  int fd = ::accept4(clients_[i].listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) return;
  Client& c = clients_[i];
  if (c.fd >= 0) read_client(i);  // the previous gdb may have gone and its close not been read yet
  if (c.fd >= 0) {  // one gdb per board
    const char busy[] = "$E10#a6";
    (void)!::write(fd, busy, sizeof busy - 1);
    ::close(fd);
    return;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  c.fd = fd;
  c.in.clear();
  c.halted = true;  // attaching stops the machine
  c.gen_thread = 0;
  c.want_stop_reply = false;
  c.interrupt = false;
  c.signal = 5;
  c.gen_thread = 0;
  c.last_stop = "T05thread:1;";
  c.attached_stop = true;
  c.told_read = c.told_write = false;
  c.follow = c.stop_thread = c.cont_thread = 0;
  waiting_first_ = false;
  std::fprintf(stderr, "gdb: %s attached on port %d\n", targets_[i]->board().name(), port(i));
}

void GdbServer::drop_client(size_t i) {
  Client& c = clients_[i];
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  c.in.clear();
  c.halted = c.want_stop_reply = c.interrupt = false;
  c.follow = 0;
  unfollow_all(i);
  targets_[i]->clear_all();
  targets_[i]->set_space(GdbTarget::Space::Supervisor);
  targets_[i]->set_step_over_kernel(true);
}

void GdbServer::read_client(size_t i) {
  Client& c = clients_[i];
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n > 0) {
      c.in.append(buf, size_t(n));
      if (c.in.size() > 4 * kMaxPacket) process_input(i, false);  // bounded: never keep more
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0 && errno == EINTR) continue;
    std::fprintf(stderr, "gdb: %s detached (connection closed)\n", targets_[i]->board().name());
    drop_client(i);  // EOF or error: as a detach; half a packet is thrown away
    return;
  }
  process_input(i, false);
}

void GdbServer::send_raw(size_t i, const std::string& bytes) {
  Client& c = clients_[i];
  size_t off = 0;
  int tries = 0;
  while (c.fd >= 0 && off < bytes.size()) {
    ssize_t n = ::send(c.fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += size_t(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && ++tries < 1000) {
      pollfd p{c.fd, POLLOUT, 0};
      ::poll(&p, 1, 10);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    drop_client(i);
    return;
  }
}

void GdbServer::send_packet(size_t i, const std::string& body) {
  uint8_t sum = 0;
  std::string out = "$";
  for (char ch : body) {  // escape what may not appear in a packet
    if (ch == '$' || ch == '#' || ch == '}' || ch == '*') {
      out += '}';
      out += char(ch ^ 0x20);
      sum = uint8_t(sum + '}' + (ch ^ 0x20));
    } else {
      out += ch;
      sum = uint8_t(sum + uint8_t(ch));
    }
  }
  out += '#';
  out += kHex[sum >> 4];
  out += kHex[sum & 15];
  send_raw(i, out);
}

// Takes acknowledgements, Ctrl-C and whole packets off the input. Packets are answered only
// while the machine stands (`packets`); a packet that arrives while it runs stops it first.
void GdbServer::process_input(size_t i, bool packets) {
  Client& c = clients_[i];
  while (c.fd >= 0 && !c.in.empty()) {
    char ch = c.in[0];
    if (ch == '\x03') {
      c.interrupt = true;
      c.in.erase(0, 1);
      continue;
    }
    if (ch != '$') {  // '+', '-' and anything outside a packet
      c.in.erase(0, 1);
      continue;
    }
    size_t hash = c.in.find('#');
    if (hash == std::string::npos) {
      if (c.in.size() > kMaxPacket + 4) {  // oversized: refused, thrown away
        c.in.clear();
        send_raw(i, "-");
        send_packet(i, "E02");
      }
      return;
    }
    if (hash > kMaxPacket + 1) {
      c.in.erase(0, std::min(c.in.size(), hash + 3));
      send_raw(i, "-");
      send_packet(i, "E02");
      continue;
    }
    if (c.in.size() < hash + 3) return;  // the checksum has not arrived yet
    if (!packets) {
      c.halted = true;  // stop the machine to answer it
      return;
    }
    std::string body = c.in.substr(1, hash - 1);
    int h1 = hexval(c.in[hash + 1]), h2 = hexval(c.in[hash + 2]);
    c.in.erase(0, hash + 3);
    uint8_t sum = 0;
    for (char b : body) sum = uint8_t(sum + uint8_t(b));
    if (h1 < 0 || h2 < 0 || uint8_t(h1 << 4 | h2) != sum) {
      send_raw(i, "-");  // gdb sends it again
      continue;
    }
    send_raw(i, "+");
    // Binary data is escaped with '}' (X packets): undo it.
    std::string p;
    p.reserve(body.size());
    for (size_t k = 0; k < body.size(); ++k) {
      if (body[k] == '}' && k + 1 < body.size()) p += char(body[++k] ^ 0x20);
      else p += body[k];
    }
    handle_packet(i, p);
  }
}

// ------------------------------------------------------------------ packets

// The packets, as VCML's gdbserver keeps them: a table of handlers keyed by the packet's prefix
// (or, for queries named in full, the whole packet), searched in order, the first match
// answering. A packet no entry matches gets the empty reply ("not supported").
struct GdbServer::PacketHandler {
  enum Match { Prefix, Whole };
  const char* key;
  Match match;
  void (GdbServer::*handle)(const Packet&);  // or, when null, the fixed `answer`
  const char* answer;
};

void GdbServer::handle_packet(size_t i, const std::string& p) {
  static const PacketHandler kHandlers[] = {
      {"?", PacketHandler::Prefix, &GdbServer::on_stop_reason, nullptr},
      {"g", PacketHandler::Prefix, &GdbServer::on_read_registers, nullptr},
      {"G", PacketHandler::Prefix, &GdbServer::on_write_registers, nullptr},
      {"p", PacketHandler::Prefix, &GdbServer::on_read_register, nullptr},
      {"P", PacketHandler::Prefix, &GdbServer::on_write_register, nullptr},
      {"m", PacketHandler::Prefix, &GdbServer::on_read_memory, nullptr},
      {"M", PacketHandler::Prefix, &GdbServer::on_write_memory, nullptr},
      {"X", PacketHandler::Prefix, &GdbServer::on_write_memory, nullptr},
      {"c", PacketHandler::Prefix, &GdbServer::on_resume, nullptr},
      {"s", PacketHandler::Prefix, &GdbServer::on_resume, nullptr},
      {"C", PacketHandler::Prefix, &GdbServer::on_resume, nullptr},
      {"S", PacketHandler::Prefix, &GdbServer::on_resume, nullptr},
      // vCont names the thread a step is of (c and s leave it to Hc, which gdb sets to "any" when
      // the other threads run too, and Hg has moved to whichever thread `info threads` read last)
      {"vCont?", PacketHandler::Whole, nullptr, "vCont;c;C;s;S"},
      {"vCont;", PacketHandler::Prefix, &GdbServer::on_vcont, nullptr},
      {"bs", PacketHandler::Whole, &GdbServer::on_reverse, nullptr},
      {"bc", PacketHandler::Whole, &GdbServer::on_reverse, nullptr},
      {"D", PacketHandler::Prefix, &GdbServer::on_detach, nullptr},
      {"k", PacketHandler::Prefix, &GdbServer::on_kill, nullptr},
      {"H", PacketHandler::Prefix, &GdbServer::on_set_thread, nullptr},
      {"T", PacketHandler::Prefix, &GdbServer::on_thread_alive, nullptr},
      {"Z", PacketHandler::Prefix, &GdbServer::on_breakpoint, nullptr},
      {"z", PacketHandler::Prefix, &GdbServer::on_breakpoint, nullptr},
      {"qSupported", PacketHandler::Prefix, &GdbServer::on_supported, nullptr},
      {"qXfer:features:read:target.xml:", PacketHandler::Prefix, &GdbServer::on_target_xml, nullptr},
      {"qXfer:features:read:", PacketHandler::Prefix, nullptr, "E00"},  // no other annex
      {"qAttached", PacketHandler::Whole, nullptr, "1"},
      {"qC", PacketHandler::Whole, &GdbServer::on_current_thread, nullptr},
      {"qfThreadInfo", PacketHandler::Whole, &GdbServer::on_thread_list, nullptr},
      {"qsThreadInfo", PacketHandler::Whole, nullptr, "l"},  // the whole list went in the first reply
      {"qThreadExtraInfo,", PacketHandler::Prefix, &GdbServer::on_thread_extra_info, nullptr},
      {"qRcmd,", PacketHandler::Prefix, &GdbServer::on_monitor_command, nullptr},
      {"qSymbol::", PacketHandler::Whole, nullptr, "OK"},
  };
  GdbTarget& t = *targets_[i];
  Client& c = clients_[i];
  // gdb names a thread (Hg) only when it changes its mind: by default it means the one it last
  // stopped in, which the board's `current` is unless that stop was of a thread followed to
  // another board (on_resume).
  uint32_t th = c.gen_thread ? c.gen_thread : c.stop_thread ? c.stop_thread : t.current_thread();
  const Packet k{i, p, t, c, th, board_of(i, th), t.space() == GdbTarget::Space::User};
  if (p.empty()) return reply(k, "");
  for (const PacketHandler& h : kHandlers) {
    bool match = h.match == PacketHandler::Whole ? p == h.key : p.compare(0, std::strlen(h.key), h.key) == 0;
    if (!match) continue;
    if (h.handle) return (this->*h.handle)(k);
    return reply(k, h.answer);
  }
  reply(k, "");
}

void GdbServer::on_stop_reason(const Packet& k) {
  if (k.c.attached_stop) {  // stopped by attaching: the thread is whichever runs now
    char buf[32];
    std::snprintf(buf, sizeof buf, "T05thread:%x;", k.t.current_thread());
    return reply(k, buf);
  }
  reply(k, k.c.last_stop);
}

void GdbServer::on_read_registers(const Packet& k) {
  std::string s;
  for (int r = 0; r < GdbTarget::kRegs; ++r) s += hex32(k.tt.thread_reg(k.th, r));
  reply(k, s);
}

void GdbServer::on_write_registers(const Packet& k) {
  std::vector<uint8_t> b;
  if (!from_hex(k.p, 1, 4 * GdbTarget::kRegs, b)) return reply(k, "E01");
  for (int r = 0; r < GdbTarget::kRegs; ++r)
    k.tt.set_thread_reg(k.th, r, uint32_t(b[4 * r]) << 24 | uint32_t(b[4 * r + 1]) << 16 | uint32_t(b[4 * r + 2]) << 8 | b[4 * r + 3]);
  machine_changed();
  reply(k, "OK");
}

void GdbServer::on_read_register(const Packet& k) {
  size_t pos = 1;
  uint32_t n;
  if (!parse_hex(k.p, pos, n) || pos != k.p.size()) return reply(k, "E01");
  if (n >= uint32_t(GdbTarget::kRegs)) return reply(k, "E00");
  reply(k, hex32(k.tt.thread_reg(k.th, int(n))));
}

void GdbServer::on_write_register(const Packet& k) {
  const std::string& p = k.p;
  size_t pos = 1;
  uint32_t n;
  std::vector<uint8_t> b;
  if (!parse_hex(p, pos, n, "=") || pos >= p.size() || p[pos] != '=' || !from_hex(p, pos + 1, 4, b))
    return reply(k, "E01");
  if (n >= uint32_t(GdbTarget::kRegs)) return reply(k, "E00");
  if (!k.tt.set_thread_reg(k.th, int(n), uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3]))
    return reply(k, "E14");
  machine_changed();
  reply(k, "OK");
}

void GdbServer::on_read_memory(const Packet& k) {
  const std::string& p = k.p;
  size_t pos = 1;
  uint32_t addr, len;
  if (!parse_hex(p, pos, addr, ",") || pos >= p.size() || p[pos] != ',') return reply(k, "E01");
  ++pos;
  if (!parse_hex(p, pos, len) || pos != p.size()) return reply(k, "E01");
  len = std::min<uint32_t>(len, kMaxPacket / 2 - 16);
  std::vector<uint8_t> b(len);
  bool handled = false;
  unsigned got = len ? k.tt.thread_read(k.th, addr, b.data(), len, handled) : 0;
  if (len && !handled) got = k.t.read(addr, b.data(), len, k.user);
  if (len && !got) {
    explain_unmapped(k, addr, handled, false);
    return reply(k, "E14");  // EFAULT: nothing there
  }
  reply(k, to_hex(b.data(), got));
}

// An 'm' or 'M' error reply carries a number only (gdb 13 says "Cannot access memory at address
// ..."): when the address was looked up in a user space -- a TOS thread's, or the one on the CPU
// with `monitor space user` -- and the board has it physically (RAM: a DMA buffer's bus address,
// the kernel's memory), say on the simulator's console, once per gdb for reads and once for writes
// (gdb's `set var` and `restore` say no more than `x` does), why and how to reach it.
void GdbServer::explain_unmapped(const Packet& k, uint32_t addr, bool in_thread, bool write) {
  uint8_t b;
  bool& told = write ? k.c.told_write : k.c.told_read;  // a write after a read is said again: how to write it
  if (told || (!in_thread && !k.user) || k.tt.read(addr, &b, 1, false) != 1) return;
  told = true;
  std::string space = in_thread ? "the address space of thread " + k.tt.describe(k.th) : "the user space on the CPU";
  std::fprintf(stderr,
               "gdb: %s: 0x%x is not mapped in %s, so gdb cannot %s it there; it is a physical address of "
               "the board: `thread 1` (the board's CPU) and `monitor space supervisor` %s it (said once per gdb%s)\n",
               k.tt.board().basename(), addr, space.c_str(), write ? "write to" : "access", write ? "write" : "read",
               write ? " for writes" : "");
}

// M: the data in hex; X: binary (unescaped by process_input).
void GdbServer::on_write_memory(const Packet& k) {
  const std::string& p = k.p;
  size_t pos = 1;
  uint32_t addr, len;
  if (!parse_hex(p, pos, addr, ",") || pos >= p.size() || p[pos] != ',') return reply(k, "E01");
  ++pos;
  if (!parse_hex(p, pos, len, ":") || pos >= p.size() || p[pos] != ':') return reply(k, "E01");
  ++pos;
  std::vector<uint8_t> b;
  if (p[0] == 'M') {
    if (!from_hex(p, pos, len, b)) return reply(k, "E01");
  } else {
    if (p.size() - pos != len) return reply(k, "E01");
    b.assign(p.begin() + long(pos), p.end());
  }
  bool handled = false;
  unsigned put = len ? k.tt.thread_write(k.th, addr, b.data(), len, handled) : 0;
  if (len && !handled) put = k.t.write(addr, b.data(), len, k.user);
  if (put) machine_changed();
  if (put != len) {
    if (!put) explain_unmapped(k, addr, handled, true);
    return reply(k, "E14");
  }
  reply(k, "OK");
}

// c, s, C, S: the board resumes (a step for s and S); the stop reply comes when it stops.
void GdbServer::on_resume(const Packet& k) {
  const std::string& p = k.p;
  size_t pos = 1;
  if (p[0] == 'C' || p[0] == 'S') {  // the signal is ignored: there are no signals to deliver
    uint32_t sig;
    if (!parse_hex(p, pos, sig, ";")) return reply(k, "E01");
    if (pos < p.size()) ++pos;
  }
  if (pos < p.size()) {
    uint32_t addr;
    if (!parse_hex(p, pos, addr) || pos != p.size()) return reply(k, "E01");
    k.tt.set_thread_reg(k.th, 17, addr);
    machine_changed();
  }
  resume(k, p[0] == 's' || p[0] == 'S', k.c.cont_thread ? k.c.cont_thread : k.th);
}

// vCont;ACTION[:THREAD];...: a step (s, S) of the thread it names, the others continuing (c, C),
// or all continuing. Signals are ignored, as for C and S; t and r are not offered (vCont?).
void GdbServer::on_vcont(const Packet& k) {
  const std::string& p = k.p;
  bool step = false, any = false;
  uint32_t th = 0;
  for (size_t pos = 5; pos < p.size();) {  // at the ';' before an action
    size_t end = p.find(';', pos + 1);
    if (end == std::string::npos) end = p.size();
    std::string a = p.substr(pos + 1, end - pos - 1);
    pos = end;
    if (a.empty() || (a[0] != 'c' && a[0] != 'C' && a[0] != 's' && a[0] != 'S')) return reply(k, "E01");
    size_t colon = a.find(':');
    uint32_t id = 0;
    if (colon != std::string::npos) {
      size_t at = colon + 1;
      if (at < a.size() && a[at] == 'p') {  // p<pid>.<tid> (multiprocess): the thread part
        size_t dot = a.find('.', at);
        if (dot == std::string::npos) return reply(k, "E01");
        at = dot + 1;
      }
      if (a.compare(at, std::string::npos, "-1") != 0 && (!parse_hex(a, at, id) || at != a.size())) return reply(k, "E01");
    }
    any = true;
    if ((a[0] == 's' || a[0] == 'S') && !step) {  // the thread stepped (the first step named)
      step = true;
      th = id;
    }
  }
  if (!any) return reply(k, "E01");
  resume(k, step, th ? th : k.c.stop_thread ? k.c.stop_thread : k.t.current_thread());
}

void GdbServer::resume(const Packet& k, bool step, uint32_t th) {
  // The TOS thread gdb resumes may be on another board (it migrated there while stopped in a
  // step or at a breakpoint: gdb still steps it) and may migrate during this run: the step and
  // the user-space breakpoints follow it to whichever board it runs on (GdbTarget::follow), so
  // `next` over a call that migrates it stops on its next line, wherever that runs. The board
  // this gdb holds then just runs on.
  GdbTarget& tt = th == k.th ? k.tt : board_of(k.i, th);
  if (th < GdbTarget::kTosThread || !k.t.step_over_kernel()) th = 0;
  unfollow_all(k.i);
  k.c.follow = th;
  bool here = !th || &tt == &k.t;
  k.t.resume(step && here);
  if (th && (step || k.t.has_user_breaks())) {
    uint32_t pc = tt.thread_reg(th, 17);
    for (auto& tj : targets_)
      if (tj.get() != &k.t || !here) tj->follow(int(k.i), k.t, th, step, pc, tj.get() == &tt && tj->current_thread() == th);
  }
  k.c.attached_stop = false;
  k.c.halted = false;
  k.c.want_stop_reply = true;
}

void GdbServer::on_detach(const Packet& k) {
  reply(k, "OK");
  std::fprintf(stderr, "gdb: %s detached\n", k.t.board().name());
  k.t.clear_all();
  unfollow_all(k.i);
  k.c.follow = 0;
  k.t.resume(false);
  k.c.halted = k.c.want_stop_reply = false;
}

void GdbServer::on_kill(const Packet& k) {
  std::fprintf(stderr, "gdb: killed from %s's gdb\n", k.t.board().name());
  killed_ = true;
  sc_core::sc_stop();
}

// Hg picks the thread g, G, p, P, m, M and X act on; Hc is accepted (the whole board resumes).
void GdbServer::on_set_thread(const Packet& k) {
  const std::string& p = k.p;
  if (p.size() < 3 || (p[1] != 'g' && p[1] != 'c')) return reply(k, "E01");
  if (p[1] == 'c') {  // the whole board resumes; a step is of this thread
    size_t pos = 2;
    uint32_t id;
    k.c.cont_thread = parse_hex(p, pos, id) && pos == p.size() ? id : 0;
    return reply(k, "OK");
  }
  if (p.compare(2, std::string::npos, "-1") == 0 || p.compare(2, std::string::npos, "0") == 0) {
    k.c.gen_thread = 0;
    return reply(k, "OK");
  }
  size_t pos = 2;
  uint32_t id;
  GdbTarget::Thread found;
  if (!parse_hex(p, pos, id) || pos != p.size() || !board_of(k.i, id).find_thread(id, found)) return reply(k, "E01");
  // By its id, not "whichever runs", even for the one that runs now: it may migrate while it runs.
  k.c.gen_thread = id;
  reply(k, "OK");
}

void GdbServer::on_thread_alive(const Packet& k) {
  size_t pos = 1;
  uint32_t id;
  GdbTarget::Thread found;
  if (!parse_hex(k.p, pos, id) || pos != k.p.size() || !board_of(k.i, id).find_thread(id, found)) return reply(k, "E01");
  reply(k, "OK");
}

// Z and z: insert and remove breakpoints (0, 1) and watchpoints (2, 3, 4).
void GdbServer::on_breakpoint(const Packet& k) {
  const std::string& p = k.p;
  if (p.size() < 2 || p[1] < '0' || p[1] > '4') return reply(k, "");
  size_t pos = 2;
  uint32_t addr, kind;
  if (pos >= p.size() || p[pos] != ',') return reply(k, "E01");
  ++pos;
  if (!parse_hex(p, pos, addr, ",;") || pos >= p.size() || p[pos] != ',') return reply(k, "E01");
  ++pos;
  if (!parse_hex(p, pos, kind, ";")) return reply(k, "E01");
  int type = p[1] - '0';
  bool ok = p[0] == 'Z' ? k.t.insert(type, addr, kind) : k.t.remove(type, addr, kind);
  reply(k, ok ? "OK" : "E01");
}

void GdbServer::on_supported(const Packet& k) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "PacketSize=%x;qXfer:features:read+;swbreak+;hwbreak+%s", kMaxPacket,
                reverse_ ? ";ReverseStep+;ReverseContinue+" : "");
  reply(k, buf);
}

void GdbServer::on_target_xml(const Packet& k) {
  const std::string& p = k.p;
  size_t pos = 31;
  uint32_t off, len;
  if (!parse_hex(p, pos, off, ",") || pos >= p.size() || p[pos] != ',') return reply(k, "E01");
  ++pos;
  if (!parse_hex(p, pos, len) || pos != p.size()) return reply(k, "E01");
  std::string xml = kTargetXml;
  if (off >= xml.size()) return reply(k, "l");
  std::string part = xml.substr(off, std::min<size_t>(len, kMaxPacket / 2));
  reply(k, (off + part.size() >= xml.size() ? "l" : "m") + part);
}

void GdbServer::on_current_thread(const Packet& k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "QC%x", k.t.current_thread());
  reply(k, buf);
}

void GdbServer::on_thread_list(const Packet& k) {
  std::string s = "m";
  std::vector<uint32_t> ids;
  for (const auto& th2 : k.t.threads()) ids.push_back(th2.id);
  if (k.c.follow && &board_of(k.i, k.c.follow) != &k.t) ids.push_back(k.c.follow);  // followed away
  for (uint32_t id : ids) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%x", s.size() > 1 ? "," : "", id);
    s += buf;
  }
  reply(k, s);
}

void GdbServer::on_thread_extra_info(const Packet& k) {
  size_t pos = 17;
  uint32_t id;
  if (!parse_hex(k.p, pos, id) || pos != k.p.size()) return reply(k, "E01");
  GdbTarget& on = board_of(k.i, id);
  std::string s = on.describe(id);
  if (s.empty()) return reply(k, "E01");
  if (&on != &k.t) s += std::string(", on ") + on.board().basename();
  reply(k, hex_text(s));
}

// qRcmd: gdb's `monitor` command, its text in hex.
void GdbServer::on_monitor_command(const Packet& k) {
  const std::string& p = k.p;
  std::vector<uint8_t> b;
  if ((p.size() - 6) % 2 || !from_hex(p, 6, (p.size() - 6) / 2, b)) return reply(k, "E01");
  std::string out = monitor_command(k.i, std::string(b.begin(), b.end()));
  if (out.empty()) return reply(k, "OK");
  reply(k, hex_text(out));
}

std::string GdbServer::monitor_command(size_t i, const std::string& cmd) {
  GdbTarget& t = *targets_[i];
  std::string c = cmd;
  while (!c.empty() && (c.back() == ' ' || c.back() == '\n')) c.pop_back();
  char buf[256];
  if (c == "cycles") {
    std::snprintf(buf, sizeof buf, "%s: cycles %llu instructions %llu\n", t.board().basename(),
                  (unsigned long long)t.core().cycles(), (unsigned long long)t.core().instructions());
    return buf;
  }
  if (c == "time") return "kernel time " + sc_core::sc_time_stamp().to_string() + "\n";
  if (c == "snapshot" || !c.rfind("snapshot ", 0)) return monitor_snapshot(c.size() > 9 ? c.substr(9) : "");
  if (c == "history") {  // the instants reverse execution can start from
    if (!reverse_) return "reverse execution is off (--gdb PORT,noreverse)\n";
    std::string s = "reverse execution: " + std::to_string(history_.size()) + " instant(s) kept\n";
    for (size_t k = 0; k < history_.size(); ++k) {
      History::Position p = history_.at(k);
      std::snprintf(buf, sizeof buf, "%zu: kernel time %s, %s\n", k,
                    sc_core::sc_time(double(p.time_ps), sc_core::SC_PS).to_string().c_str(),
                    p.board < targets_.size() ? targets_[p.board]->board().basename() : "before the boards ran");
      s += buf;
    }
    return s;
  }
  if (c == "machine") {  // every board: the whole machine's instant (reverse execution takes all of it back)
    std::string s = "kernel time " + sc_core::sc_time_stamp().to_string() + "\n";
    for (auto& tj : targets_) {
      std::snprintf(buf, sizeof buf, "%s: cycles %llu instructions %llu\n", tj->board().basename(),
                    (unsigned long long)tj->core().cycles(), (unsigned long long)tj->core().instructions());
      s += buf;
    }
    return s;
  }
  if (c == "step user" || c == "step kernel" || c == "step") {
    if (c != "step") t.set_step_over_kernel(c == "step user");
    return t.step_over_kernel() ? "a step in a TOS thread's user code runs through the kernel (traps, interrupts, faults)\n"
                                : "a step stops at the kernel's first instruction\n";
  }
  if (c == "space user") t.set_space(GdbTarget::Space::User);
  else if (c == "space supervisor") t.set_space(GdbTarget::Space::Supervisor);
  else if (c == "space any") t.set_space(GdbTarget::Space::Any);
  else if (c == "space") {
  } else
    return "monitor commands: cycles, time, machine, history, snapshot FILE, space [user|supervisor|any], "
           "step [user|kernel]\n";
  const char* names[] = {"supervisor", "user", "any"};
  return std::string("breakpoints, watchpoints and memory: ") + names[int(t.space())] + " space\n";
}

// `monitor snapshot FILE`: the machine is not at rest while gdb holds it (a board stands between
// two instructions, inside its quantum), so the file is written when it next is, just after the
// machine runs again -- within one quantum of simulated time; stderr names the instant.
std::string GdbServer::monitor_snapshot(std::string file) {
  while (!file.empty() && file.front() == ' ') file.erase(0, 1);
  if (!snapshots_) return "snapshots: this tool cannot save its machine\n";
  if (!snapshot_refusal_.empty()) return "snapshots: " + snapshot_refusal_ + "\n";
  if (file.empty()) return "usage: monitor snapshot FILE (written when the machine next rests after you resume it)\n";
  snapshot_request_ = file;
  return "snapshot " + file + ": written at the first instant at which the machine can be saved after it runs again "
         "(stderr names it); a reverse command before then drops the request\n";
}

// ------------------------------------------------------------------ reverse execution

History::Position GdbServer::position(size_t board) const {
  History::Position p;
  p.board = board;
  p.time_ps = sc_core::sc_time_stamp().value();
  for (const auto& t : targets_) p.counts.push_back(t->core().instructions());
  return p;
}

// A checkpoint here (history.h), at most every quarter second of host time unless `always`. A
// runner resumed from it takes up the session it was handed and goes on from here.
void GdbServer::take_checkpoint(size_t board, bool always) {
  auto now = std::chrono::steady_clock::now();
  if (!always && (board == History::kNoBoard || now - last_checkpoint_ < std::chrono::milliseconds(250))) return;
  last_checkpoint_ = now;
  if (history_.checkpoint(position(board))) load_session(history_.resumed());
}

void GdbServer::machine_changed() {
  if (!history_.active() || !history_.size()) return;
  history_.forget();
  std::fprintf(stderr, "gdb: a debugger changed the machine: reverse execution goes back to here at most\n");
}

bool GdbServer::travel_checks(int board) const {
  return traveling() && (uint64_t(board) == travel_.board || (travel_.kind == Travel::Record && uint64_t(board) == travel_.who));
}

// Before each instruction of a board the travel concerns: the end, then what the pass looks for.
bool GdbServer::travel_check(GdbTarget& t, uint32_t pc, bool supervisor) {
  Travel& v = travel_;
  uint64_t b = uint64_t(t.index()), n = t.core().instructions();
  // A thread's instruction that an interrupt or a fault met before it ran is not one of its
  // steps (the thread comes back to the same pc): an instant of a thread counts once the board
  // has run an instruction since.
  if (v.pending && b == v.who) {
    v.pending = false;
    if (n > v.found_pending) {
      v.found = true;
      v.found_count = v.found_pending;
      v.found_stop = Travel::Step;
      v.found_addr = pc;
    }
  }
  if (b == v.board && n >= v.count) {
    v.arrived = true;
    return true;
  }
  if (v.kind == Travel::Record && b == v.who) {
    if (v.step && v.thread) {
      if (t.runs_user_thread(v.thread, supervisor, v.known, v.is)) {
        v.pending = true;
        v.found_pending = n;
      }
    } else if (v.step || t.break_at(pc, supervisor)) {
      v.found = true;
      v.found_count = n;
      v.found_stop = v.step ? Travel::Step : Travel::Breakpoint;
      v.found_addr = pc;
    }
  }
  return false;
}

// A watched access during a pass of `bc`: the instant before the instruction that made it (its
// count is not yet up), where reverse-continue stops with the value as it was.
void GdbServer::travel_access(GdbTarget& t, const m68k::BusAccess& a, unsigned len) {
  Travel& v = travel_;
  if (v.kind != Travel::Record || v.step || uint64_t(t.index()) != v.who) return;
  uint32_t addr;
  int type;
  if (!t.watch_hit(a, len, addr, type)) return;
  v.found = true;
  v.found_count = t.core().instructions();
  v.found_stop = Travel::Watchpoint;
  v.found_addr = addr;
  v.found_type = type;
}

// The board the travel waited for reached its instant (at its boundary, outside the core).
void GdbServer::travel_arrived() {
  Travel v = travel_;
  travel_ = Travel{};
  for (auto& t : targets_) t->update_check();
  if (v.kind == Travel::RunTo) return travel_stop(v.who, v.stop, v.stop_addr, v.watch_type);
  if (v.found) {  // the last instant of the pass: run to it from the last checkpoint before it
    size_t k = history_.before(v.who, v.found_count);
    Travel r;
    r.kind = Travel::RunTo;
    r.who = r.board = v.who;
    r.count = v.found_count;
    r.stop = v.found_stop;
    r.stop_addr = v.found_addr;
    r.watch_type = v.found_type;
    travel(k == SIZE_MAX ? v.from : k, r);
  }
  if (v.from > 0 && v.from < history_.size()) {  // nothing in this stretch: the one before it
    History::Position end = history_.at(v.from);
    if (end.board < end.counts.size()) {
      Travel r = v;
      r.from = v.from - 1;
      r.board = end.board;
      r.count = end.counts[end.board];
      r.found = r.known = r.arrived = r.pending = false;
      travel(v.from - 1, r);
    }
  }
  Travel r;  // nothing before: the beginning of the history
  r.kind = Travel::RunTo;
  r.who = v.who;
  r.board = History::kNoBoard;
  r.stop = Travel::Begin;
  travel(0, r);
}

// The stop at the end of a reverse command, as the gdb that asked hears it.
void GdbServer::travel_stop(size_t i, uint8_t stop, uint32_t addr, int type) {
  Client& c = clients_[i];
  char buf[80];
  std::snprintf(buf, sizeof buf, "T05thread:%x;", targets_[i]->current_thread());
  std::string s = buf;
  if (stop == Travel::Breakpoint) s += "swbreak:;";
  else if (stop == Travel::Watchpoint) s += std::string(type == 2 ? "watch:" : type == 3 ? "rwatch:" : "awatch:") + hex32(addr) + ";";
  else if (stop == Travel::Begin) s += "replaylog:begin;";
  c.signal = 5;
  c.last_stop = s;
  c.halted = true;
  c.stop_thread = 0;
  c.gen_thread = 0;
  c.interrupt = false;
  if (c.fd >= 0 && c.want_stop_reply) {
    c.want_stop_reply = false;
    send_packet(i, s);
  }
}

// bs (reverse-stepi) and bc (reverse-continue).
void GdbServer::on_reverse(const Packet& k) {
  // A board that has ended runs no instruction again: its instant would never come round.
  if (k.t.board().cpu().done()) return reply(k, "E01");
  bool step = k.p == "bs";
  // A step of a TOS thread in user code goes back to that thread's previous instruction.
  uint32_t th = k.c.cont_thread ? k.c.cont_thread : k.th;
  if (th < GdbTarget::kTosThread || !k.t.step_over_kernel() || !k.t.tos() || &board_of(k.i, th) != &k.t) th = 0;
  unfollow_all(k.i);
  k.c.follow = 0;
  k.c.attached_stop = false;
  k.c.halted = false;
  k.c.want_stop_reply = true;
  History::Position here = position(k.i);
  Travel v;
  v.who = uint32_t(k.i);
  v.board = k.i;
  if (step && !th) {  // the board's previous instruction: straight there
    uint64_t n = here.counts[k.i];
    size_t c = n ? history_.before(k.i, n - 1) : SIZE_MAX;
    if (c != SIZE_MAX) {
      v.kind = Travel::RunTo;
      v.count = n - 1;
      travel(c, v);
    }
  } else {  // the last instant that stops it, looked for stretch by stretch from the present back
    size_t c = history_.before(here);
    if (c != SIZE_MAX) {
      v.kind = Travel::Record;
      v.from = c;
      v.count = here.counts[k.i];
      v.step = step;
      v.thread = th;
      travel(c, v);
    }
  }
  travel_stop(k.i, Travel::Begin, 0, 0);  // nothing kept before this instant
}

// ------------------------------------------------------------------ the session a runner takes up

namespace {
struct Encoder {
  std::string s;
  void u(uint64_t v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& x) {
    u(x.size());
    s += x;
  }
};
struct Decoder {
  const std::string& s;
  size_t p = 0;
  uint64_t u() {
    uint64_t v = 0;
    if (p + sizeof v <= s.size()) std::memcpy(&v, s.data() + p, sizeof v);
    p += sizeof v;
    return v;
  }
  std::string str() {
    size_t n = size_t(u());
    std::string x = p + n <= s.size() ? s.substr(p, n) : std::string();
    p += n;
    return x;
  }
};
}  // namespace

// Hands the machine to a runner of checkpoint `k` that will travel as `v`: what every gdb set and
// where each stands, and their sockets.
void GdbServer::travel(size_t k, const Travel& v) {
  Encoder e;
  e.s.append(reinterpret_cast<const char*>(&v), sizeof v);
  for (const auto& t : targets_) {
    GdbTarget::Points p = t->points();
    e.u(uint64_t(p.space));
    e.u(p.step_over_kernel);
    for (const auto* list : {&p.breaks, &p.watches}) {
      e.u(list->size());
      for (const GdbTarget::Point& x : *list) {
        e.u(uint64_t(x.type));
        e.u(x.addr);
        e.u(x.len);
        e.u(uint64_t(x.space));
      }
    }
  }
  std::vector<int> fds;
  for (const Client& c : clients_) {
    e.u(c.fd >= 0);
    if (c.fd >= 0) fds.push_back(c.fd);
    e.str(c.in);
    e.u(c.halted);
    e.u(c.want_stop_reply);
    e.u(c.attached_stop);
    e.u(uint64_t(c.signal));
    e.str(c.last_stop);
    e.u(c.gen_thread);
    e.u(c.told_read);
    e.u(c.told_write);
    e.u(c.follow);
    e.u(c.stop_thread);
    e.u(c.cont_thread);
  }
  history_.go(k, e.s, fds);
}

void GdbServer::load_session(const History::Command& cmd) {
  static_assert(std::is_trivially_copyable_v<Travel>);
  Decoder d{cmd.session};
  if (cmd.session.size() >= sizeof(Travel)) std::memcpy(&travel_, cmd.session.data(), sizeof(Travel));
  d.p = sizeof(Travel);
  for (auto& t : targets_) {
    GdbTarget::Points p;
    p.space = GdbTarget::Space(d.u());
    p.step_over_kernel = d.u() != 0;
    for (auto* list : {&p.breaks, &p.watches}) {
      size_t n = size_t(d.u());
      for (size_t j = 0; j < n && d.p < cmd.session.size(); ++j) {
        GdbTarget::Point x;
        x.type = int(d.u());
        x.addr = uint32_t(d.u());
        x.len = uint32_t(d.u());
        x.space = GdbTarget::Space(d.u());
        list->push_back(x);
      }
    }
    t->set_points(p);
  }
  size_t next_fd = 0;
  for (Client& c : clients_) {
    if (c.fd >= 0) ::close(c.fd);  // the checkpoint's, of its time
    bool has = d.u() != 0;
    c.fd = has && next_fd < cmd.fds.size() ? cmd.fds[next_fd++] : -1;
    c.in = d.str();
    c.halted = d.u() != 0;
    c.want_stop_reply = d.u() != 0;
    c.attached_stop = d.u() != 0;
    c.signal = int(d.u());
    c.last_stop = d.str();
    c.gen_thread = uint32_t(d.u());
    c.told_read = d.u() != 0;
    c.told_write = d.u() != 0;
    c.follow = uint32_t(d.u());
    c.stop_thread = uint32_t(d.u());
    c.cont_thread = uint32_t(d.u());
    c.interrupt = false;
  }
  waiting_first_ = false;
  last_checkpoint_ = std::chrono::steady_clock::now();
  for (auto& t : targets_) t->update_check();
  if (travel_.kind == Travel::RunTo && travel_.board == History::kNoBoard) travel_arrived();  // here already
}

}  // namespace testbed::gdb
