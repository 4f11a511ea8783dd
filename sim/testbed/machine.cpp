#include "machine.h"

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "filestore.h"
#include "monitor_pins_tlm.h"

namespace testbed {

BoardConsole::BoardConsole(const std::string& log_path, std::FILE* terminal)
    : log_(std::fopen(log_path.c_str(), "w")), terminal_(terminal) {
  if (!log_) throw std::runtime_error(log_path + ": cannot create console log");
}

namespace {
struct termios saved_termios;
double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

BoardConsole::~BoardConsole() {
  std::fclose(log_);
  if (raw_) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
}

void BoardConsole::set_tcp(int port) {
  tcp_ = std::make_unique<TcpEndpoint>(port);
  if (!real_time_) wall_start_ = wall_seconds();
  real_time_ = true;
}

void BoardConsole::set_interactive() {
  interactive_ = true;
  if (!real_time_) wall_start_ = wall_seconds();
  real_time_ = true;
  if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_termios) == 0) {
    struct termios raw = saved_termios;
    cfmakeraw(&raw);
    raw.c_oflag |= OPOST; /* keep "\n" -> "\r\n" on output */
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    raw_ = true;
  }
}

bool BoardConsole::receive(uint8_t& byte) {
  if (!input_.empty()) {
    if (!prompt_seen_) return false;
    byte = input_.front();
    input_.pop_front();
    if (byte == '\n' && !prompts_.empty()) prompt_seen_ = false; /* the next line waits for a prompt */
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
    interactive_ = false; /* end of input */
    return false;
  }
  if (c == 0x1D) { /* Ctrl-] */
    std::fprintf(terminal_ ? terminal_ : stdout, "\r\n[testbed: Ctrl-] - run ended by the operator]\r\n");
    sc_core::sc_stop();
    return false;
  }
  byte = uint8_t(c);
  return true;
}

void BoardConsole::set_prompt(const std::string& prompts) {
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

void BoardConsole::transmit(uint8_t byte, const sc_core::sc_time& t) {
  ++bytes_;
  if (tcp_) tcp_->transmit(byte, t);
  if (!first_line_done_) {
    if (byte == '\n' || first_line_.size() >= 160) first_line_done_ = true;
    else if (byte != '\r') first_line_.push_back(char(byte));
  }
  if (!prompts_.empty()) {
    recent_.push_back(char(byte));
    if (recent_.size() > 64) recent_.erase(0, recent_.size() - 64);
    for (auto& p : prompts_)
      if (recent_.size() >= p.size() && recent_.compare(recent_.size() - p.size(), p.size(), p) == 0) prompt_seen_ = true;
  }
  std::fputc(byte, log_);
  if (selected_ && terminal_) {
    std::fputc(byte, terminal_);
    if (byte == '\n') std::fflush(terminal_);
  }
}

IrqForwarder::IrqForwarder(sc_core::sc_module_name n, sc_core::sc_signal<bool>& line, Board& board, IrqSource src)
    : sc_module(n), line_(line), board_(board), src_(src) {
  SC_METHOD(forward);
  sensitive << line_;
  dont_initialize();
}

Machine::Machine(sc_core::sc_module_name name, const MachineSpec& spec) : sc_module(name), spec_(spec) {
  namespace fs = std::filesystem;
  fs::create_directories(spec_.out_dir);
  tlm::tlm_global_quantum::instance().set(spec_.quantum);

  if (spec_.rtl_monitor) {
    rtl_monitor_ = std::make_unique<tbrtl::MonitorPins>("monitor_rtl", spec_.mon.clock_period);
  } else {
    monitor_ = std::make_unique<monitor::Monitor>("monitor", spec_.mon);
    if (spec_.probe) {
      probe_ = std::make_unique<monitor::RecordingProbe>();
      monitor_->set_probe(probe_.get());
    }
    latency_ = std::make_unique<MonitorLatency>(spec_.mon.params.n_smi, monitor_->engine().observer());
    monitor_->engine().set_observer(latency_.get());
  }
  net_ = std::make_unique<centrenet::CentrenetNetwork>("centrenet", spec_.net);

  for (auto& bs : spec_.boards) {
    BoardConfig c = spec_.board;
    c.id = uint16_t(bs.slot);
    c.node = uint16_t(bs.node);
    c.master = bs.master;
    c.ram_bytes = bs.ram_bytes;
    c.validate();
    auto b = std::make_unique<Board>(bs.name.c_str(), c);
    auto& ni = net_->ni(centrenet::BoardAddress{uint8_t(bs.node), uint8_t(bs.slot)});
    b->attach_net(ni.target);
    irqs_.push_back(std::make_unique<IrqForwarder>((bs.name + "_net_irq").c_str(), ni.irq, *b, IrqSource::Net));
    if (spec_.net.ni.mode == centrenet::DmaMode::kAnywhere) {
      // The NI's DMA reaches this board's physical RAM; its bursts and the CPU share the port.
      ni.dma.bind(b->dma_target());
      ni.set_memory_port(&b->memory_port());
    }
    if (bs.node == 0 && bs.master) {
      if (rtl_monitor_) b->attach_monitor(rtl_monitor_->mmi);
      else b->attach_monitor(monitor_->mmi().socket);
    } else if (bs.node == 0 && bs.slot <= spec_.mon.params.n_smi) {
      if (rtl_monitor_) b->attach_monitor(*rtl_monitor_->smi[bs.slot - 1]);
      else b->attach_monitor(monitor_->smi(bs.slot).socket);
    }
    consoles_.push_back(std::make_unique<BoardConsole>((fs::path(spec_.out_dir) / (bs.name + ".console.log")).string(),
                                                       stdout));
    consoles_.back()->select(bs.name == spec_.console);
    if (bs.master && !spec_.input.empty()) {
      std::ifstream in(spec_.input, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      consoles_.back()->type(text.str());
      consoles_.back()->set_prompt(spec_.input_prompt);
    }
    if (bs.master && spec_.interactive) consoles_.back()->set_interactive();
    if (bs.master && spec_.console_tcp) consoles_.back()->set_tcp(spec_.console_tcp);
    b->console().connect(consoles_.back().get());
    if (bs.master) {
      std::string up = spec_.upload_dir.empty() ? spec_.out_dir : spec_.upload_dir;
      link_ = std::make_unique<FileService>(up, spec_.out_dir);
      b->link().connect(link_.get());
    }
    if (!spec_.board_vcd.empty()) {
      vcds_.push_back(std::make_unique<BusVcd>(spec_.board_vcd + "." + bs.name + ".vcd", bs.name));
      b->cpu().set_observer(vcds_.back().get());
    }
    // The filestore is one more segment of the boot image: the board's one loader places both.
    ElfImage image = load_elf(bs.image);
    if (!bs.filestore.empty()) {
      std::vector<uint8_t> store = filestore::read_file(bs.filestore);
      filestore::check_image(store, bs.filestore, bs.ram_bytes);
      filestore::add_segment(image, store, bs.filestore);
    }
    b->load_image(image);
    b->on_exit([this](Board&) {
      if (++finished_ == boards_.size()) sc_core::sc_stop();
    });
    boards_.push_back(std::move(b));
  }
}

Machine::~Machine() = default;

void Machine::run() {
  if (spec_.stop_time == sc_core::SC_ZERO_TIME) sc_core::sc_start();
  else sc_core::sc_start(spec_.stop_time);
  if (monitor_) monitor_->catch_up();
}

}  // namespace testbed
