// The operator's console of the Testbed: the master's console line (TOS switches it in software
// among the six shells). Its output goes where every board's does (ConsoleSink: the log and,
// when shown, this terminal); what the operator types enters from a session script (run.input:
// each line waits for one of the prompts, as a person waits for the shell), from this terminal
// in raw mode (--interactive; Ctrl-] ends the run), or from a TCP client on 127.0.0.1 that can
// attach at any time (--console-tcp). With a terminal or TCP the simulation is held to real time
// so that typing is not outrun.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "console_endpoints.h"

namespace testbed {

class OperatorConsole : public ConsoleSink {
 public:
  OperatorConsole(const std::string& log_path, std::FILE* terminal, bool selected);
  ~OperatorConsole() override;
  void transmit(uint8_t byte, const sc_core::sc_time& t) override;
  bool receive(uint8_t& byte) override;
  bool has_input() const override { return !steps_.empty() || interactive_ || tcp_; }

  // A session script; `prompts` ('|'-separated, e.g. a shell's "$ " and TOS's
  // "[console: master]\r\n" when the console comes back): each line waits for one of them to
  // appear on the console before it is typed. "" types everything at once. Ctrl-C, Ctrl-Z and
  // Ctrl-D end a line as Enter does (the command after one follows it on the same line).
  // A line `@wait TEXT` is not typed: the line after it waits for TEXT instead of a prompt (a
  // running program's output, before a Ctrl-C for it); `@@` types a line's leading `@`.
  void type(const std::string& text, const std::string& prompts);
  // The session script has been typed to its end and the prompt after its last line has
  // appeared: the operator has nothing more to say (false without a script).
  bool script_done() const { return script_ && steps_.empty() && prompt_seen_; }
  // A script line waits for its prompt or text: since when, and which line for what (as
  // "line 2 (^C) for `$ `"); false when none waits.
  bool waiting(sc_core::sc_time& since, std::string& what) const;
  void set_interactive();  // stdin in raw mode until the console is destroyed
  void set_tcp(int port);  // throws std::runtime_error naming the port
  // The session script's progress with the sink's state; a live operator (the terminal, TCP)
  // cannot be saved. A snapshot taken before its script typed anything is the machine booted and
  // waiting for the operator: restored, it takes this run's script instead (sessions sharing one
  // boot), if that script's first line waits for the same text; StateError says why not.
  void state(StateArchive& a) override;
  // For the snapshot's message: "typed nothing yet" or how far the script has got.
  std::string script_progress() const;
  bool script_begun() const { return typed_total_ > 0; }
  // The kernel pauses (sc_pause) when the script's first line may be typed: its prompt has
  // appeared, nothing is typed yet (--snapshot-at-prompt: the machine booted).
  void pause_at_first_prompt() { pause_at_prompt_ = true; }

 private:
  // One line of a script (ended by Enter, Ctrl-C, Ctrl-Z or Ctrl-D), typed once one of
  // `wait_for` has appeared on the console (at once if empty).
  struct Step {
    std::string text;
    std::vector<std::string> wait_for;
    int line = 0;
  };
  void real_time();
  void expect(const std::vector<std::string>& texts);
  void take_script(const std::string& text, std::deque<Step> steps);
  std::deque<Step> steps_;
  size_t typed_ = 0;  // bytes of steps_.front() typed
  std::string script_text_;  // the script as given
  uint64_t typed_total_ = 0;  // bytes of it typed
  int lines_typed_ = 0;
  bool pause_at_prompt_ = false;
  std::vector<std::string> prompts_, expected_;
  sc_core::sc_time wait_since_;
  std::string recent_;
  bool prompt_seen_ = true;
  bool script_ = false;
  bool interactive_ = false;
  static constexpr int kEndOfInput = 256;
  int read_terminal();
  output::ReplayedInput typed_live_;  // what the terminal gave each poll, for time travel
  bool raw_ = false;
  std::unique_ptr<TcpEndpoint> tcp_;
  bool real_time_ = false;
  double wall_start_ = 0;
};

}  // namespace testbed
