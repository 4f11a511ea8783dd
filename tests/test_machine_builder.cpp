// MachineBuilder::add_device with the device's own parameters (issue 62): they reach the model's
// DeviceArgs::params as a machine file's [[boards.devices]] keys would, with TOML's types; a key
// the model does not read is refused when the machine is built, naming it; the entry's own keys
// are refused as parameters. A machine with a user device builds without SystemC's W506 warning.
// The model is linked in with TESTBED_LINKED_DEVICE_MODEL.
#include <gtest/gtest.h>

#include "machine_builder.h"

namespace {

struct Knob : testbed::Device {
  explicit Knob(const testbed::DeviceArgs& a) : Device(a) {
    knob = a.params.get_int("knob", -1, 0, 1000);
    label = a.params.get_string("label", "");
  }
  static inline int64_t knob = -1;
  static inline std::string label;
};

// linked in, registered at start-up without a hand-written declaration
TESTBED_LINKED_DEVICE_MODEL(Knob, "knob", 0x10);

testbed::MachineBuilder two_boards() {
  testbed::MachineBuilder m(TESTBED_FIRMWARE_DIR);
  m.set("board.image", "\"demo.elf\"");
  m.add_board("master", 0, 0).add_board("earth", 0, 1);
  return m;
}

TEST(MachineBuilder, DeviceParametersReachTheModel) {
  auto m = two_boards();
  m.add_device("earth", "k0", "knob", 0xFE1000, {{"knob", "40"}, {"label", "\"forty\""}});
  auto machine = m.build("with_params");
  EXPECT_EQ(Knob::knob, 40);
  EXPECT_EQ(Knob::label, "forty");
  // a user device's window is named dev.<name>: no SystemC W506 warning for its socket
  EXPECT_EQ(sc_core::sc_report_handler::get_count(sc_core::SC_ID_ILLEGAL_CHARACTERS_), 0);
}

TEST(MachineBuilder, BareWordParameterIsAString) {
  auto m = two_boards();
  m.add_device("earth", "k0", "knob", 0xFE1000, {{"label", "plain"}});
  auto machine = m.build("bare_word");
  EXPECT_EQ(Knob::label, "plain");
}

TEST(MachineBuilder, ParameterTheModelDoesNotReadIsRefused) {
  auto m = two_boards();
  m.add_device("earth", "k0", "knob", 0xFE1000, {{"nob", "1"}});
  try {
    auto machine = m.build("unread_key");
    FAIL() << "built with a parameter the model does not read";
  } catch (const testbed::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("nob"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("has no such setting"), std::string::npos) << e.what();
  }
}

TEST(MachineBuilder, EntryKeysAreNotParameters) {
  for (const char* key : {"name", "address", "library", "model"}) {
    auto m = two_boards();
    EXPECT_THROW(m.add_device("earth", "k0", "knob", 0xFE1000, {{key, "1"}}), testbed::ConfigError) << key;
  }
}

}  // namespace
