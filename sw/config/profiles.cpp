// Machine profiles (Config::apply_profile): named sets of settings a machine file selects with
// `profile = "NAME"`. "default" is the file as it is. Every setting of a profile is a fact with
// its source, or the one calibration the profile names; the reasons are printed into the
// documentation (sim/configs/testbed.toml, docs/profiles.md).
#include "config.h"

namespace testbed {

namespace {
const std::vector<Config::ProfileSetting> kNone;  // "default": the machine file as it is
}  // namespace

const std::vector<std::string>& Config::profile_names() {
  static const std::vector<std::string> names{"default", "1994"};
  return names;
}

const std::vector<Config::ProfileSetting>& Config::profile_settings(const std::string& name) {
  static const std::vector<ProfileSetting> p1994{
      // The one calibration. Table 6's local slope (1.95 ms per 1000 bytes) is a copy inside one
      // board: nothing but the CPU running TOS's code, so it measures how fast the 1994 machine
      // ran that code, and nothing else. The default profile (a 10 MHz 68010 running GCC 12 -O2
      // code) gives 1.07 ms/K (`testbed-experiment local`, full size, commit of this profile);
      // the clock that makes the model's 68010 run TOS's code at the report's speed is
      // 10 MHz x 1.07 / 1.95 = 5.49 MHz, taken to the nearest whole MHz, 5 (the monitor counts
      // its 1 us tick in CPU clocks, so the clock must be whole MHz; the slope then predicted is
      // 2.14 ms/K, 10% above the report's). It is not the board's clock: the report gives none.
      // With the report's 1.2 MIPS (sections 2.1, 3.3.7; the model's 68010 runs GCC 12 -O2 code
      // at 9.8 cycles an instruction: m68k-bench, bench-workload-r200, 410,219,868 cycles for
      // 41.7 M instructions), 5 MHz is 0.51 MIPS of GCC 12's instructions: the 1994 code took
      // about 2.3 times the instructions for the same work, which is the report's own
      // diagnosis ("a better compiler or hand-coding in assembler", section 3.4). The clock
      // slows every instruction alike: every other number of sections 3 and 4 is a prediction.
      {"cpu.clock_mhz", "5.0",
       "calibrated on Table 6's local slope (1.95 ms/K; the default gives 1.07 ms/K at 10 MHz: 5.49 MHz, "
       "to the nearest whole MHz the monitor's 1 us tick allows): the speed at which the 1994 machine ran "
       "TOS's code; with the report's 1.2 MIPS it says the 1988 compiler's code took 2.3x GCC 12's instructions"},
  };
  return name == "1994" ? p1994 : kNone;
}

}  // namespace testbed
