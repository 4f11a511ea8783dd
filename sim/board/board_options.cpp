#include "board_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace testbed {

namespace {

double number(const std::string& v, const std::string& key, const std::string& where, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || errno || !std::isfinite(d) || d < lo || d > hi) {
    std::ostringstream m;
    m << where << ": " << key << " = '" << v << "' is not a number in " << lo << " .. " << hi;
    throw OptionError(m.str());
  }
  return d;
}

bool boolean(const std::string& v, const std::string& key, const std::string& where) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  throw OptionError(where + ": " + key + " = '" + v + "' is not a boolean (true/false)");
}

bool is_flag(const std::string& key) { return key == "trace-instructions" || key == "no-fast-path"; }

}  // namespace

void BoardOptions::set(const std::string& key, const std::string& v, const std::string& where) {
  BoardConfig& b = board;
  if (key == "image") image = v;
  else if (key == "filestore") filestore = v;
  else if (key == "ram-mb") {
    double mb = number(v, key, where, 1.0 / 1024, double(TB_RAM_MAX_BYTES) / (1 << 20));
    b.ram_bytes = uint32_t(std::llround(mb * 1024)) * 1024;
  } else if (key == "quantum-us") timing.quantum_us = number(v, key, where, CpuTiming::kQuantumMinUs, CpuTiming::kQuantumMaxUs);
  else if (key == "threads") timing.threads = unsigned(number(v, key, where, 0, CpuTiming::kMaxThreads));
  else if (key == "clock-mhz") b.clock_hz = number(v, key, where, 0.1, 1000) * 1e6;
  else if (key == "vcd") vcd = v;
  else if (key == "trace-instructions") trace_instructions = v.empty() || boolean(v, key, where);
  else if (key == "max-cycles") max_cycles = uint64_t(number(v, key, where, 0, 1e18));
  else if (key == "board-id") b.id = uint16_t(number(v, key, where, 0, 15));
  else if (key == "master") b.master = boolean(v, key, where);
  else if (key == "node") b.node = uint16_t(number(v, key, where, 0, 65535));
  else if (key == "console") {
    if (v != "stdout" && v != "none" && v.rfind("file:", 0) && v.rfind("tcp:", 0))
      throw OptionError(where + ": console = '" + v + "': use stdout, none, file:PATH or tcp:PORT[,nowait]");
    if (!v.rfind("tcp:", 0)) {
      std::string port = v.substr(4);
      if (port.size() > 7 && port.compare(port.size() - 7, 7, ",nowait") == 0) port.resize(port.size() - 7);
      number(port, key, where, 1, 65535);
    }
    console = v;
  } else if (key == "link") {
    if (v != "none" && (v.rfind("files:", 0) || v.find(',') == std::string::npos))
      throw OptionError(where + ": link = '" + v + "': use none or files:UPLOAD_DIR,DOWNLOAD_DIR");
    link = v;
  } else if (key == "timer-hz") b.timer_tick_hz = uint32_t(number(v, key, where, 1, 1e9));
  else if (key == "console-baud") b.console_baud = uint32_t(number(v, key, where, 50, 1e7));
  else if (key == "link-baud") b.link_baud = uint32_t(number(v, key, where, 50, 1e7));
  else if (key == "io-wait-states") b.io_wait_states = unsigned(number(v, key, where, 0, 64));
  else if (key == "ram-wait-states") b.ram_wait_states = unsigned(number(v, key, where, 0, 64));
  else if (key == "fast-path") b.fast_path = boolean(v, key, where);
  else if (key == "no-fast-path") b.fast_path = false;
  else throw OptionError(where + ": unknown option '" + key + "'\n" + usage());
}

void BoardOptions::load_config(const Config& cfg) {
  // The board's settings have one reader, shared with testbed (BoardConfig::read); a single
  // board also takes its identity from [board].
  board.read(cfg);
  board.read_identity(cfg);
  timing.read(cfg);
  filestore = cfg.section("board").get_string("filestore", filestore);

  Config run = cfg.section("run");
  image = run.get_string("image", image);
  max_cycles = uint64_t(run.get_int("max_cycles", int64_t(max_cycles), 0, int64_t(1e18)));
  // console and link have their own syntax: checked as on the command line.
  std::string where = cfg.source_name() + ": ";
  if (run.has("console")) set("console", run.get_string("console", console), where + "run.console");
  if (run.has("link")) set("link", run.get_string("link", link), where + "run.link");

  Config trace = cfg.section("trace");
  vcd = trace.get_string("vcd", vcd);
  trace_instructions = trace.get_bool("instructions", trace_instructions);

  // A misspelt key would otherwise be ignored silently.
  std::vector<std::string> unused = cfg.unused_keys();
  if (!unused.empty()) {
    std::string list;
    for (auto& k : unused) list += (list.empty() ? "" : ", ") + k;
    throw OptionError(cfg.source_name() + ": unknown setting(s): " + list +
                      " (known: cpu.{clock_mhz,quantum_us,model,fast_path,exact}, board.{id,master,node,ram_kb,"
                      "timer_tick_hz,console_baud,link_baud,io_wait_states,ram_wait_states,rom_wait_states,"
                      "mmu_walk_clocks,filestore}, run.{image,max_cycles,console,link}, trace.{vcd,instructions})");
  }
}

void BoardOptions::parse(const std::vector<std::string>& args) {
  // The configuration file (and --set overrides of it) first, whatever the order: the command
  // line's own options win over it.
  std::string config_path;
  std::vector<std::string> overrides;
  std::vector<std::pair<std::string, std::string>> options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      std::string key = a.substr(2), value;
      size_t eq = key.find('=');
      if (eq != std::string::npos && key.compare(0, 3, "set") != 0) {
        value = key.substr(eq + 1);
        key = key.substr(0, eq);
      } else if (!is_flag(key)) {
        if (i + 1 >= args.size()) throw OptionError(a + ": missing value\n" + usage());
        value = args[++i];
      }
      if (key == "config") {
        if (!config_path.empty()) throw OptionError("--config: only one configuration file");
        config_path = value;
      } else if (key == "set") {
        overrides.push_back(value);
      } else {
        options.emplace_back(key, value);
      }
    } else if (image.empty()) {
      image = a;
    } else {  // one board, one image: a second one would be ignored silently
      throw OptionError("one image only: '" + image + "' and '" + a + "' given (testbed runs several boards)\n" +
                        usage());
    }
  }
  std::string cli_image = image;
  if (!config_path.empty() || !overrides.empty()) {
    Config cfg = config_path.empty() ? Config::from_string("", "--set") : Config::from_file(config_path);
    for (auto& o : overrides) cfg.apply_override(o);
    cfg.apply_profile();
    load_config(cfg);
  }
  if (!cli_image.empty()) image = cli_image;
  for (auto& [key, value] : options) set(key, value, "--" + key);
  if (image.empty()) throw OptionError("no image: give IMAGE.elf or --image\n" + usage());
}

std::string BoardOptions::usage() {
  return "usage: testbed-board [--config FILE.toml] [--set section.key=value]... [options] IMAGE.elf\n"
         "  --image FILE  --ram-mb N  --quantum-us Q  --threads N  --clock-mhz F  --vcd FILE  --trace-instructions\n"
         "  --max-cycles N  --board-id N  --master true|false  --node N  --console stdout|none|file:PATH|tcp:PORT[,nowait]\n"
         "  --link none|files:UPLOAD_DIR,DOWNLOAD_DIR  --timer-hz N  --console-baud N  --link-baud N\n"
         "  --io-wait-states N  --ram-wait-states N  --fast-path true|false  --no-fast-path\n"
         "  --filestore FILE  (a TOS filestore image, tos-mkfs, loaded at TOS_FS_BASE in RAM)\n"
         "The configuration file is TOML (sim/configs/board.toml: [cpu], [board], [run], [trace]);\n"
         "--set overrides one of its settings; the options above win over both.";
}

}  // namespace testbed
