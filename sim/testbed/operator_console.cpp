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
// A script's text as a message shows it: CR and LF escaped, control characters as ^X.
std::string visible(const std::string& t) {
  std::string o;
  for (unsigned char c : t) {
    if (c == '\r') o += "\\r";
    else if (c == '\n') o += "\\n";
    else if (c < 32) o += std::string("^") + char(c + 64);
    else o += char(c);
  }
  return o;
}
// What a line waits for, as "`$ ` or `[console: master]\r\n`".
std::string visible(const std::vector<std::string>& texts) {
  std::string o;
  for (size_t i = 0; i < texts.size(); ++i) o += (i ? " or `" : "`") + visible(texts[i]) + "`";
  return o.empty() ? std::string("nothing") : o;
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

void OperatorConsole::state(StateArchive& a) {
  if (interactive_ || tcp_ || real_time_)
    throw StateError("snapshot: an operator typing live (run.interactive, a TCP console) cannot be saved");
  ConsoleSink::state(a);
  a.section("operator console");
  const std::string given = script_text_;
  const std::deque<Step> given_steps = steps_;
  a.io(script_text_).io(typed_total_).io(lines_typed_);
  uint64_t n = steps_.size();
  a.io(n);
  if (a.loading()) steps_.assign(size_t(n), Step{});
  for (Step& s : steps_) a.io(s.text).io(s.wait_for).io(s.line);
  a.io(typed_).io(prompts_).io(expected_).io(wait_since_).io(recent_).io(prompt_seen_).io(script_);
  if (a.loading() && script_text_ != given) take_script(given, given_steps);
}

// Restored from a snapshot of a run with another script: until its first byte is typed, a script
// has changed nothing but what the console waits for (the prompts seen so far, `recent_`, are the
// machine's output), so this run's script can take over there and the run is the one it would
// have been from the start. Both runs need a script: the master's receiver polls only when there
// is input (SerialPort's rx_thread), so a run without one is another machine.
void OperatorConsole::take_script(const std::string& text, std::deque<Step> steps) {
  if (typed_total_ > 0)
    throw StateError("snapshot: its session script had typed " + std::to_string(typed_total_) + " byte(s) (" +
                     std::to_string(lines_typed_) +
                     " line(s)): restore it with the same script (run.input), or take it before the script types");
  if (text.empty() || script_text_.empty())
    throw StateError(std::string("snapshot: taken with") + (script_text_.empty() ? "out" : "") +
                     " a session script, restored with" + (text.empty() ? "out" : "") +
                     " one: the master's receiver polls only when there is input, so give both runs a script "
                     "(run.input) or neither");
  const std::vector<std::string>& first = steps.empty() ? prompts_ : steps.front().wait_for;
  if (first != expected_)
    throw StateError("snapshot: its session script's first line waits for " + visible(expected_) +
                     ", this run's for " + visible(first) + ": a booted snapshot takes a script that begins as its own");
  script_text_ = text;
  steps_ = std::move(steps);
  typed_ = 0;
}

std::string OperatorConsole::script_progress() const {
  if (!script_) return "no session script";
  if (typed_total_ == 0) return "the session script has typed nothing yet";
  return "the session script has typed " + std::to_string(typed_total_) + " byte(s), " +
         std::to_string(lines_typed_) + " line(s)";
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
  script_ = !text.empty();
  script_text_ = text;
  prompts_.clear();
  size_t a = 0;
  while (a <= prompts.size()) {
    size_t b = prompts.find('|', a);
    if (b == std::string::npos) b = prompts.size();
    if (b > a) prompts_.push_back(prompts.substr(a, b - a));
    a = b + 1;
  }
  // Split into steps; a directive applies to the step after it.
  std::vector<std::string> wait_next = prompts_;
  int line = 1;
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    size_t e = i;
    while (e < text.size() && text[e] != '\n' && text[e] != 0x03 && text[e] != 0x1A && text[e] != 0x04) ++e;
    std::string piece = text.substr(i, e < text.size() ? e - i + 1 : std::string::npos);
    i = e + 1;
    bool ends_line = piece.back() == '\n';
    if (line_start && piece.rfind("@wait ", 0) == 0) {
      std::string what = piece.substr(6);
      while (!what.empty() && (what.back() == '\n' || what.back() == '\r')) what.pop_back();
      if (!what.empty()) wait_next = {what};
    } else {
      if (line_start && piece.rfind("@@", 0) == 0) piece.erase(0, 1);
      steps_.push_back({piece, wait_next, line});
      wait_next = prompts_;
    }
    line_start = ends_line;
    if (ends_line) ++line;
  }
  typed_ = 0;
  if (!steps_.empty()) expect(steps_.front().wait_for);
  else expect(prompts_);
}

void OperatorConsole::expect(const std::vector<std::string>& texts) {
  expected_ = texts;
  prompt_seen_ = expected_.empty();
  wait_since_ = sc_core::sc_time_stamp();
}

bool OperatorConsole::waiting(sc_core::sc_time& since, std::string& what) const {
  if (steps_.empty() || prompt_seen_) return false;
  since = wait_since_;
  std::string t = steps_.front().text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  what = "line " + std::to_string(steps_.front().line) + " (" + visible(t) + ") for " + visible(expected_);
  return true;
}

bool OperatorConsole::receive(uint8_t& byte) {
  if (!steps_.empty()) {
    if (!prompt_seen_) return false;
    byte = uint8_t(steps_.front().text[typed_++]);
    ++typed_total_;
    if (typed_ == steps_.front().text.size()) {
      ++lines_typed_;
      // The line is typed: the next waits for its prompt (a person types Ctrl-C, Ctrl-Z and
      // Ctrl-D without Enter and then waits for the shell) or its @wait text.
      steps_.pop_front();
      typed_ = 0;
      expect(steps_.empty() ? prompts_ : steps_.front().wait_for);
    }
    return true;
  }
  if (!real_time_) return false;
  if (tcp_ && tcp_->receive(byte)) return true;
  if (!interactive_) return false;
  int answer;
  if (!typed_live_.replay(answer)) {  // time travel: a poll answered before gets that answer
    answer = read_terminal();
    typed_live_.record(answer);
  }
  if (answer == kEndOfInput) {
    interactive_ = false;
    return false;
  }
  if (answer == output::ReplayedInput::kNothing) return false;
  byte = uint8_t(answer);
  return true;
}

// The terminal's next character, kNothing if none is typed, kEndOfInput at its end.
int OperatorConsole::read_terminal() {
  // Real time: the simulation may not run ahead of the wall clock while the operator types.
  double ahead = sc_core::sc_time_stamp().to_seconds() - (wall_seconds() - wall_start_);
  if (ahead > 0) usleep(useconds_t(std::min(ahead, 0.1) * 1e6));
  struct pollfd p = {STDIN_FILENO, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return output::ReplayedInput::kNothing;
  char c;
  if (::read(STDIN_FILENO, &c, 1) != 1) return kEndOfInput;
  if (c == 0x1D) {  // Ctrl-]
    std::fprintf(terminal() ? terminal() : stdout, "\r\n[testbed: Ctrl-] - run ended by the operator]\r\n");
    sc_core::sc_stop();
    return output::ReplayedInput::kNothing;
  }
  return uint8_t(c);
}

void OperatorConsole::transmit(uint8_t byte, const sc_core::sc_time& t) {
  ConsoleSink::transmit(byte, t);
  if (tcp_) tcp_->transmit(byte, t);
  if (!expected_.empty()) {
    recent_.push_back(char(byte));
    if (recent_.size() > 256) recent_.erase(0, recent_.size() - 256);
    for (auto& p : expected_)
      if (recent_.size() >= p.size() && recent_.compare(recent_.size() - p.size(), p.size(), p) == 0)
        prompt_seen_ = true;
    if (prompt_seen_ && pause_at_prompt_ && typed_total_ == 0) {
      pause_at_prompt_ = false;
      sc_core::sc_pause();
    }
  }
}

}  // namespace testbed
