#include "board_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace testbed {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

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
  else if (key == "ram-mb") {
    double mb = number(v, key, where, 1.0 / 1024, double(TB_RAM_MAX_BYTES) / (1 << 20));
    b.ram_bytes = uint32_t(std::llround(mb * 1024)) * 1024;
  } else if (key == "quantum-us") quantum_us = number(v, key, where, 0.001, 1e6);
  else if (key == "clock-mhz") b.clock_hz = number(v, key, where, 0.001, 1000) * 1e6;
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

void BoardOptions::load_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw OptionError(path + ": cannot open configuration file");
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    std::string where = path + ":" + std::to_string(n);
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos) throw OptionError(where + ": expected 'key = value', got '" + line + "'");
    set(trim(line.substr(0, eq)), trim(line.substr(eq + 1)), where);
  }
}

void BoardOptions::parse(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      std::string key = a.substr(2), value;
      size_t eq = key.find('=');
      if (eq != std::string::npos) {
        value = key.substr(eq + 1);
        key = key.substr(0, eq);
      } else if (!is_flag(key)) {
        if (i + 1 >= args.size()) throw OptionError(a + ": missing value\n" + usage());
        value = args[++i];
      }
      if (key == "config") load_file(value);
      else set(key, value, a);
    } else if (image.empty() || i == args.size() - 1) {
      image = a;
    } else {
      throw OptionError("unexpected argument '" + a + "'\n" + usage());
    }
  }
  if (image.empty()) throw OptionError("no image: give IMAGE.elf or --image\n" + usage());
}

std::string BoardOptions::usage() {
  return "usage: testbed-board [--config FILE] [options] IMAGE.elf\n"
         "  --image FILE  --ram-mb N  --quantum-us Q  --clock-mhz F  --vcd FILE  --trace-instructions\n"
         "  --max-cycles N  --board-id N  --master true|false  --node N  --console stdout|none|file:PATH|tcp:PORT[,nowait]\n"
         "  --link none|files:UPLOAD_DIR,DOWNLOAD_DIR  --timer-hz N  --console-baud N  --link-baud N\n"
         "  --io-wait-states N  --ram-wait-states N  --fast-path true|false  --no-fast-path\n"
         "A configuration file holds the same options as 'key = value' lines (# comments).";
}

}  // namespace testbed
