// monitor-decode: the MMI word stream -> time-ordered text trace, binary trace, VCD per board.
// Usage: monitor-decode [--n-smi N] [--tick-ns N] [--text FILE|-] [--binary FILE]
//                       [--vcd-prefix PREFIX] STREAM
// Exit status: 0 decoded, 1 the stream broke (where is printed; what came before is written),
// 2 usage or file errors.
#include "monitor_decoder.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

using namespace testbed::monitor_decoder;

static int usage(const std::string& why) {
  std::cerr << "monitor-decode: " << why << "\n"
            << "usage: monitor-decode [--n-smi N] [--tick-ns N] [--text FILE|-] [--binary FILE] "
               "[--vcd-prefix PREFIX] STREAM\n";
  return 2;
}

int main(int argc, char** argv) {
  Options opt;
  std::string in, text = "-", binary, vcd;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(what) + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--n-smi") {
        opt.n_smi = unsigned(std::stoul(value("--n-smi")));
        if (opt.n_smi < 1 || opt.n_smi > 15) return usage("--n-smi must be 1..15");
      } else if (a == "--tick-ns") {
        opt.tick_ps = std::stoull(value("--tick-ns")) * 1000;
        if (!opt.tick_ps) return usage("--tick-ns must be > 0");
      } else if (a == "--text") text = value("--text");
      else if (a == "--binary") binary = value("--binary");
      else if (a == "--vcd-prefix") vcd = value("--vcd-prefix");
      else if (!a.empty() && a[0] == '-') return usage("unknown option " + a);
      else if (in.empty()) in = a;
      else return usage("more than one input stream");
    } catch (const std::exception& e) {
      return usage(a + ": " + e.what());
    }
  }
  if (in.empty()) return usage("no input stream");
  std::ifstream f(in, std::ios::binary);
  if (!f) return usage("cannot read " + in);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Result r = decode_bytes(bytes, opt);
  auto open = [](const std::string& path, std::ofstream& o) {
    o.open(path, std::ios::binary);
    if (!o) throw std::runtime_error("cannot write " + path);
  };
  try {
    if (text == "-") write_text(std::cout, r, opt);
    else if (!text.empty()) { std::ofstream o; open(text, o); write_text(o, r, opt); }
    if (!binary.empty()) { std::ofstream o; open(binary, o); write_binary(o, r, opt); }
    if (!vcd.empty())
      for (unsigned k = 1; k <= opt.n_smi; ++k) {
        std::ofstream o;
        open(vcd + ".board" + std::to_string(k) + ".vcd", o);
        write_vcd(o, r, k, opt);
      }
  } catch (const std::exception& e) {
    std::cerr << "monitor-decode: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "monitor-decode: " << in << ": " << r.events_excluding_markers() << " events, " << r.markers
            << " wrap markers, " << r.empty_reads << " empty reads\n";
  if (!r.ok) {
    std::cerr << "monitor-decode: " << in << ": stream broken at " << r.error << "\n";
    return 1;
  }
  return 0;
}
