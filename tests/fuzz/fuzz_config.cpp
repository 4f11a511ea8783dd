// Fuzz target: the configuration reader (sw/config) and the machine's checks of it
// (MachineSpec::from_config), as testbed reads a file: parse, apply one `--set` override taken
// from the input's first line, then build the spec. Bad input must end in an exception with a
// message, never in a crash; the firmware folder does not exist, so no image is read.
#include "fuzz_targets.h"

#include <string>

#include "config.h"
#include "machine_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    testbed::Config cfg = testbed::Config::from_string(text, "fuzz.toml");
    std::string first = text.substr(0, text.find('\n'));
    if (first.size() > 1 && first[0] == '#') {
      try {
        cfg.apply_override(first.substr(1));
      } catch (const testbed::ConfigError&) {
      }
    }
    testbed::MachineSpec spec = testbed::MachineSpec::from_config(cfg, "/nonexistent-fuzz-firmware");
    (void)spec;
  } catch (const std::exception& e) {
    if (!*e.what()) __builtin_trap();  // every refusal says what is wrong
  }
  return 0;
}

extern "C" const char* const* fuzz_dictionary() {
  static const char* const words[] = {
      "[board]\n", "[[boards]]\n", "[cpu]\n", "[monitor]\n", "[run]\n", "[trace]\n", "[centrenet]\n",
      "[[centrenet.nodes]]\n", "slot = ", "node = ", "name = ", "image = ", "ram_mb = ", "clock_mhz = ",
      "smis = ", "quantum_us = ", "stop_ms = ", "parent = ", "master = true\n", "= 0\n", "= -1\n",
      "= 1e308\n", "= nan\n", "= inf\n", "= 4294967296\n", "= \"\"\n", "\"", "=", "\n", "[", "]", ".", nullptr};
  return words;
}

// SystemC's library wants one; the fuzz target never elaborates a model (MachineSpec only uses
// sc_time), so it is never called.
int sc_main(int, char**) { return 0; }
