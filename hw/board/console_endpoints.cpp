#include "console_endpoints.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "output_errors.h"

namespace testbed {

ConsoleSink::ConsoleSink(const std::string& log_path, std::FILE* terminal, bool selected)
    : terminal_(terminal), selected_(selected) {
  if (log_path.empty()) return;
  log_path_ = log_path;
  log_ = output::open_replayed(log_path, "w");
  if (!log_) throw std::runtime_error(log_path + ": cannot create console log: " + std::strerror(errno));
}

ConsoleSink::~ConsoleSink() {
  output::close(log_, log_path_);  // a failed write is recorded (output_errors.h)
  if (terminal_) std::fflush(terminal_);
}

void ConsoleSink::transmit(uint8_t byte, const sc_core::sc_time&) {
  ++bytes_;
  if (!first_line_done_) {
    if (byte == '\n' || first_line_.size() >= 160) first_line_done_ = true;
    else if (byte != '\r') first_line_.push_back(char(byte));
  }
  if (log_) std::fputc(byte, log_);
  if (selected_ && terminal_ && !terminal_written_.skip(1)) {
    std::fputc(byte, terminal_);
    if (byte == '\n') std::fflush(terminal_);
  }
}

bool CaptureEndpoint::receive(uint8_t& byte) {
  if (input_.empty()) return false;
  byte = input_.front();
  input_.pop_front();
  return true;
}

TcpEndpoint::TcpEndpoint(int port) : port_(port) {
  if (port < 1 || port > 65535) throw std::runtime_error("console TCP port " + std::to_string(port) + " is not 1..65535");
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("console TCP: socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // 127.0.0.1 only
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || ::listen(listen_fd_, 1) < 0) {
    std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw std::runtime_error("console TCP port 127.0.0.1:" + std::to_string(port) + ": " + why);
  }
}

TcpEndpoint::~TcpEndpoint() {
  if (client_fd_ >= 0) ::close(client_fd_);
  ::close(listen_fd_);
}

void TcpEndpoint::poll_accept() {
  if (client_fd_ >= 0) return;
  client_fd_ = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (client_fd_ >= 0) flush();
}

void TcpEndpoint::wait_for_client() {
  while (client_fd_ < 0) {
    pollfd p{listen_fd_, POLLIN, 0};
    ::poll(&p, 1, -1);
    poll_accept();
  }
}

void TcpEndpoint::flush() {
  while (client_fd_ >= 0 && !pending_.empty()) {
    ssize_t n = ::send(client_fd_, pending_.data(), pending_.size(), MSG_NOSIGNAL);
    if (n > 0) pending_.erase(0, size_t(n));
    else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    else {
      ::close(client_fd_);
      client_fd_ = -1;
    }
  }
}

void TcpEndpoint::transmit(uint8_t byte, const sc_core::sc_time&) {
  if (written_.skip(1)) return;  // time travel: sent when this stretch first ran
  if (pending_.size() < 65536) pending_ += char(byte);
  poll_accept();
  flush();
}

bool TcpEndpoint::receive(uint8_t& byte) {
  int answer;
  if (!input_.replay(answer)) {  // time travel: a poll answered before gets that answer
    answer = receive_live(byte) ? byte : output::ReplayedInput::kNothing;
    input_.record(answer);
  }
  if (answer == output::ReplayedInput::kNothing) return false;
  byte = uint8_t(answer);
  return true;
}

bool TcpEndpoint::receive_live(uint8_t& byte) {
  poll_accept();
  if (client_fd_ < 0) return false;
  ssize_t n = ::recv(client_fd_, &byte, 1, 0);
  if (n == 1) return true;
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
    ::close(client_fd_);
    client_fd_ = -1;
  }
  return false;
}

void ConsoleSwitch::add(SerialPort& port) {
  ports_.push_back(&port);
  port.connect(ports_.size() - 1 == selected_ ? &host_ : static_cast<SerialEndpoint*>(&sink_));
}

void ConsoleSwitch::select(size_t index) {
  if (index >= ports_.size())
    throw std::out_of_range("console switch: no board " + std::to_string(index) + " (have " +
                            std::to_string(ports_.size()) + ")");
  ports_[selected_]->connect(&sink_);
  selected_ = index;
  ports_[selected_]->connect(&host_);
}

}  // namespace testbed
