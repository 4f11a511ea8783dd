#include "bus_vcd.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "output_errors.h"
#include "replayed_output.h"

namespace testbed {

BusVcd::BusVcd(const std::string& path, const std::string& board_name) : f_(output::open_replayed(path, "w")), path_(path) {
  if (!f_) throw std::runtime_error(path + ": cannot create VCD file: " + std::strerror(errno));
  std::fprintf(f_,
               "$comment Testbed board %s: every bus cycle the CPU sends over TLM. testbed and testbed-board "
               "turn the CPU's fast path (DMI) off while this is written, so RAM and ROM cycles are here too; "
               "a CPU with the fast path on would leave them out. $end\n",
               board_name.c_str());
  std::fprintf(f_, "$timescale 1ns $end\n$scope module %s $end\n", board_name.c_str());
  std::fprintf(f_, "$var wire 24 a address $end\n$var wire 16 d data $end\n$var wire 3 f fc $end\n");
  std::fprintf(f_, "$var wire 1 r rw $end\n$var wire 1 s as $end\n$var wire 3 i ipl $end\n$var wire 1 b berr $end\n");
  std::fprintf(f_, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\nb0 a\nb0 d\nb0 f\n1r\n0s\nb0 i\n0b\n$end\n");
}

BusVcd::~BusVcd() { output::close(f_, path_); }  // a failed write is recorded (output_errors.h)

void BusVcd::at(const sc_core::sc_time& t) {
  uint64_t ns = uint64_t(t.to_seconds() * 1e9 + 0.5);
  if (ns < last_ns_) ns = last_ns_;  // never backwards
  if (ns != last_ns_ || !started_) std::fprintf(f_, "#%llu\n", (unsigned long long)ns);
  last_ns_ = ns;
  started_ = true;
}

void BusVcd::vec(const char* id, uint32_t v, int bits) {
  char buf[40];
  int n = 0;
  for (int i = bits - 1; i >= 0; --i) buf[n++] = (v >> i & 1) ? '1' : '0';
  buf[n] = 0;
  std::fprintf(f_, "b%s %s\n", buf, id);
}

void BusVcd::bus_cycle(const BusCycleRecord& r) {
  ++cycles_;
  at(r.start);
  vec("a", r.address, 24);
  vec("d", r.data, 16);
  vec("f", r.fc, 3);
  std::fprintf(f_, "%cr\n1s\n%cb\n", r.write ? '0' : '1', r.bus_error ? '1' : '0');
  at(r.start + r.duration);
  std::fprintf(f_, "0s\n0b\n");
}

void BusVcd::ipl(const sc_core::sc_time& t, int level) {
  at(t);
  vec("i", uint32_t(level), 3);
}

}  // namespace testbed
