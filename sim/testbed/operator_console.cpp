#include "operator_console.h"

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

namespace testbed {

namespace {
struct termios saved_termios;
double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

OperatorConsole::OperatorConsole(const std::string& log_path, std::FILE* terminal, bool selected)
    : ConsoleSink(log_path, terminal, selected) {}

OperatorConsole::~OperatorConsole() {
  if (raw_) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
}

void OperatorConsole::real_time() {
  if (!real_time_) wall_start_ = wall_seconds();
  real_time_ = true;
}

void OperatorConsole::set_tcp(int port) {
  tcp_ = std::make_unique<TcpEndpoint>(port);
  real_time();
}

void OperatorConsole::set_interactive() {
  interactive_ = true;
  real_time();
  if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_termios) == 0) {
    struct termios raw = saved_termios;
    cfmakeraw(&raw);
    raw.c_oflag |= OPOST;  // keep "\n" -> "\r\n" on output
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    raw_ = true;
  }
}

void OperatorConsole::type(const std::string& text, const std::string& prompts) {
  input_.insert(input_.end(), text.begin(), text.end());
  script_ = !text.empty();
  prompts_.clear();
  size_t a = 0;
  while (a <= prompts.size()) {
    size_t b = prompts.find('|', a);
    if (b == std::string::npos) b = prompts.size();
    if (b > a) prompts_.push_back(prompts.substr(a, b - a));
    a = b + 1;
  }
  prompt_seen_ = prompts_.empty();
}

bool OperatorConsole::receive(uint8_t& byte) {
  if (!input_.empty()) {
    if (!prompt_seen_) return false;
    byte = input_.front();
    input_.pop_front();
    // The next line waits for a prompt: after Enter, and after Ctrl-C, Ctrl-Z and Ctrl-D, which
    // a person types without Enter and then waits for the shell (a script writes the next
    // command right after one of them).
    if ((byte == '\n' || byte == 0x03 || byte == 0x1A || byte == 0x04) && !prompts_.empty()) prompt_seen_ = false;
    return true;
  }
  if (!real_time_) return false;
  // Real time: the simulation may not run ahead of the wall clock while the operator types.
  double ahead = sc_core::sc_time_stamp().to_seconds() - (wall_seconds() - wall_start_);
  if (ahead > 0) usleep(useconds_t(std::min(ahead, 0.1) * 1e6));
  if (tcp_ && tcp_->receive(byte)) return true;
  if (!interactive_) return false;
  struct pollfd p = {STDIN_FILENO, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return false;
  char c;
  if (::read(STDIN_FILENO, &c, 1) != 1) {
    interactive_ = false;  // end of input
    return false;
  }
  if (c == 0x1D) {  // Ctrl-]
    std::fprintf(terminal() ? terminal() : stdout, "\r\n[testbed: Ctrl-] - run ended by the operator]\r\n");
    sc_core::sc_stop();
    return false;
  }
  byte = uint8_t(c);
  return true;
}

void OperatorConsole::transmit(uint8_t byte, const sc_core::sc_time& t) {
  ConsoleSink::transmit(byte, t);
  if (tcp_) tcp_->transmit(byte, t);
  if (!prompts_.empty()) {
    recent_.push_back(char(byte));
    if (recent_.size() > 64) recent_.erase(0, recent_.size() - 64);
    for (auto& p : prompts_)
      if (recent_.size() >= p.size() && recent_.compare(recent_.size() - p.size(), p.size(), p) == 0)
        prompt_seen_ = true;
  }
}

}  // namespace testbed
