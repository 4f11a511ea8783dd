// Fuzz target: the MMI word stream decoder (sw/monitor_decoder), as monitor-decode and testbed
// use it: decode, then every writer and the local-communication FSM over what was decoded.
// A bad stream must end in Result::ok == false with a reason, never in a crash.
#include "fuzz_targets.h"

#include <ostream>
#include <streambuf>
#include <vector>

#include "monitor_decoder.h"

namespace {
struct NullBuf : std::streambuf {
  int overflow(int c) override { return c; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace md = testbed::monitor_decoder;
  std::vector<uint8_t> bytes(data, data + size);
  md::Options opt;
  // The first byte, when there is one, also picks the number of SMIs (1..15), as --n-smi does.
  if (size) opt.n_smi = 1 + data[0] % 15;
  md::Result r = md::decode_bytes(bytes, opt);
  if (!r.ok && r.error.empty()) __builtin_trap();  // a refusal must say why
  NullBuf nb;
  std::ostream out(&nb);
  md::write_text(out, r, opt);
  md::write_binary(out, r, opt);
  for (unsigned b = 1; b <= opt.n_smi; ++b) md::write_vcd(out, r, b, opt);
  (void)md::local_comms(r, opt.n_smi);
  return 0;
}
