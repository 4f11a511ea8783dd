// monitor-decode: the MMI word stream -> time-ordered text trace, binary trace, VCD per board.
// Usage: monitor-decode [--n-smi N] [--tick-ns N] [--text FILE|-] [--binary FILE]
//                       [--vcd-prefix PREFIX] STREAM
// Exit status: 0 decoded, 1 the stream broke (where is printed; what came before is written),
// 2 usage or file errors.
#include "monitor_decoder.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include "host_file.h"
#include "version.h"

using namespace testbed::monitor_decoder;

static int usage(const std::string& why) {
  std::cerr << "monitor-decode: " << why << "\n"
            << "usage: monitor-decode [--n-smi N] [--tick-ns N] [--text FILE|-] [--binary FILE] "
               "[--vcd-prefix PREFIX] STREAM\n";
  return 2;
}

// A whole decimal number (no sign, no trailing characters) in [lo, hi], or an exception naming it.
static unsigned long long whole(const std::string& option, const std::string& v, unsigned long long lo,
                                unsigned long long hi) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = v.empty() || v[0] == '-' || v[0] == '+' ? 0 : std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || !end || *end || errno || n < lo || n > hi)
    throw std::invalid_argument(option + " " + v + ": expected a whole number from " + std::to_string(lo) + " to " +
                                std::to_string(hi));
  return n;
}

// Writes to a file are checked when it is closed: a full disk is an error, not a short trace.
static void finish(std::ofstream& o, const std::string& path) {
  o.close();
  if (!o) throw std::runtime_error("writing " + path + " failed: " + std::strerror(errno ? errno : EIO));
}

int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "monitor-decode")) return 0;
  Options opt;
  std::string in, text = "-", binary, vcd;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(what) + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "-h" || a == "--help") {
        std::cout << "monitor-decode: the MMI word stream -> time-ordered text trace, binary trace, VCD per board\n"
                     "usage: monitor-decode [--n-smi N] [--tick-ns N] [--text FILE|-] [--binary FILE] "
                     "[--vcd-prefix PREFIX] STREAM\n"
                     "  --n-smi N         SMIs on the monitoring bus, 1..15 (default 5)\n"
                     "  --tick-ns N       the timestamp tick in ns, 1..1000000000 (default 1000)\n"
                     "  --text FILE|-     the time-ordered named events (default -, stdout; '' for none)\n"
                     "  --binary FILE     the binary trace\n"
                     "  --vcd-prefix P    one VCD per board, P.boardK.vcd\n"
                     "exit status: 0 decoded, 1 the stream broke (where is printed), 2 usage or file errors\n";
        return 0;
      } else if (a == "--n-smi") {
        opt.n_smi = unsigned(whole("--n-smi", value("--n-smi"), 1, 15));
      } else if (a == "--tick-ns") {
        opt.tick_ps = whole("--tick-ns", value("--tick-ns"), 1, 1000000000ull) * 1000;
      } else if (a == "--text") text = value("--text");
      else if (a == "--binary") binary = value("--binary");
      else if (a == "--vcd-prefix") vcd = value("--vcd-prefix");
      else if (!a.empty() && a[0] == '-') return usage("unknown option " + a);
      else if (in.empty()) in = a;
      else return usage("more than one input stream");
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  if (in.empty()) return usage("no input stream");
  std::error_code ec;
  if (std::filesystem::is_directory(in, ec)) return usage(in + ": is a folder, not a stream file");
  std::vector<uint8_t> bytes;
  try {
    bytes = testbed::read_host_file(in);
  } catch (const testbed::HostFileError& e) {
    return usage(e.what());
  }
  Result r = decode_bytes(bytes, opt);
  auto open = [](const std::string& path, std::ofstream& o) {
    o.open(path, std::ios::binary);
    if (!o) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  };
  try {
    if (text == "-") {
      write_text(std::cout, r, opt);
      std::cout.flush();
      if (!std::cout) throw std::runtime_error("writing the text trace to standard output failed");
    } else if (!text.empty()) { std::ofstream o; open(text, o); write_text(o, r, opt); finish(o, text); }
    if (!binary.empty()) { std::ofstream o; open(binary, o); write_binary(o, r, opt); finish(o, binary); }
    if (!vcd.empty())
      for (unsigned k = 1; k <= opt.n_smi; ++k) {
        std::ofstream o;
        std::string path = vcd + ".board" + std::to_string(k) + ".vcd";
        open(path, o);
        write_vcd(o, r, k, opt);
        finish(o, path);
      }
  } catch (const std::exception& e) {
    std::cerr << "monitor-decode: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "monitor-decode: " << in << ": " << r.events_excluding_markers() << " events, " << r.markers
            << " wrap markers, " << r.filter_changes.size() << " filter markers, " << r.empty_reads << " empty reads\n";
  if (!r.ok) {
    std::cerr << "monitor-decode: " << in << ": stream broken at " << r.error << "\n";
    return 1;
  }
  return 0;
}
