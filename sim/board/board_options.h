// Options of the single-board simulator, from a TOML configuration file read through the
// project's config layer (sw/config/config.h: typed, range-checked, --set overrides, unknown
// keys rejected) and the command line (which wins). Every bad value is reported with where it
// came from ("board.toml:7: board.ram_kb" or "--ram-mb") and what is allowed.
#pragma once
#include "board.h"
#include "config.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace testbed {

class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BoardOptions {
  BoardConfig board;
  CpuTiming timing;  // the platform's quantum and mode, applied by the program
  std::string image;
  std::string filestore;           // TOS filestore image loaded at TOS_FS_BASE ("" = none)
  std::string vcd;                 // empty: none
  bool trace_instructions = false;
  uint64_t max_cycles = 0;         // 0: unlimited
  std::string console = "stdout";  // stdout | none | file:PATH | tcp:PORT
  std::string link = "none";       // none | files:UPLOAD_DIR,DOWNLOAD_DIR

  // Sets one option by name (without "--"); `where` names the source for messages.
  void set(const std::string& key, const std::string& value, const std::string& where);
  // Reads every setting of `cfg` (sections cpu, board, run, trace); throws ConfigError on a
  // bad value and OptionError naming any key it does not know.
  void load_config(const Config& cfg);
  // argv: [--config FILE.toml] [--set section.key=value]... [--key value | --flag]... [IMAGE]
  void parse(const std::vector<std::string>& args);
  static std::string usage();
};

}  // namespace testbed
