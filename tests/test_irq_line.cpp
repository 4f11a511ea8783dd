// The interrupt output every device raises through (hw/bus/irq_line.h): a line its builder
// neither connected nor left open stops the model at elaboration with the device's name, instead
// of dropping every interrupt; a line left open on purpose is accepted; a connected line hands
// its sink each change of level once. Each test elaborates a model of its own (PER_PROCESS).
#include <gtest/gtest.h>

#include <systemc>

#include <stdexcept>
#include <string>
#include <vector>

#include "board_tlm_harness.h"
#include "irq_line.h"
#include "serial_port.h"
#include "timer.h"

using namespace testbed;
using testbed_test::TestInitiator;

// libsystemc wants an sc_main; test_per_process_main.cpp provides main() and the tests call sc_start.
int sc_main(int, char**) { return 1; }

namespace {

// A board-like parent, so the refusal must carry the device's full name.
struct Shelf : sc_core::sc_module {
  TestInitiator cpu_t{"cpu_t"}, cpu_s{"cpu_s"};
  Timer timer{"timer"};
  SerialPort serial{"serial"};
  explicit Shelf(sc_core::sc_module_name n) : sc_module(n) {
    cpu_t.socket.bind(timer.socket);
    cpu_s.socket.bind(serial.socket);
  }
};

std::string elaboration_error() {
  try {
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(IrqLine, AnUnconnectedLineIsRefusedAtElaborationNamingTheDevice) {
  Shelf shelf("shelf7");
  shelf.serial.irq_line().connect([](bool) {});  // only the timer's line is forgotten
  std::string error = elaboration_error();
  EXPECT_NE(error.find("shelf7.timer"), std::string::npos) << error;
  EXPECT_NE(error.find("interrupt line is not connected"), std::string::npos) << error;
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME) << "the simulation must not have run";
}

TEST(IrqLine, ALineLeftOpenOnPurposeIsAccepted) {
  Shelf shelf("shelf");
  shelf.timer.irq_line().leave_open("this test has no interrupt controller");
  shelf.serial.irq_line().leave_open("this test has no interrupt controller");
  EXPECT_EQ(elaboration_error(), "");
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_US));
  EXPECT_TRUE(shelf.timer.irq_line().left_open());
}

TEST(IrqLine, AConnectedLineDeliversEachChangeOfLevelOnce) {
  IrqLine line("dev0");
  std::vector<bool> seen;
  line.connect([&](bool l) { seen.push_back(l); });
  for (bool l : {false, true, true, false, false, true, true, true, false}) line.set(l);
  EXPECT_EQ(seen, (std::vector<bool>{true, false, true, false}));
  EXPECT_FALSE(line.level());
  EXPECT_NO_THROW(line.check_connected());
  // One sink per line: a second builder wiring the same output is refused, by name.
  try {
    line.connect([](bool) {});
    FAIL() << "a second connect was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("dev0"), std::string::npos) << e.what();
  }
}

// (Apart from the elaborating tests: an exception thrown after sc_start has switched to SystemC's
// coroutine stacks makes AddressSanitizer warn that it cannot follow the stack.)
TEST(IrqLine, ALineLeftOpenCanStillBeConnectedByItsBuilder) {
  IrqLine line("ni");
  EXPECT_THROW(line.leave_open(""), std::invalid_argument);  // a reason is required
  line.leave_open("no board yet");
  std::vector<bool> seen;
  line.connect([&](bool l) { seen.push_back(l); });
  line.set(true);
  EXPECT_EQ(seen, std::vector<bool>{true});
  EXPECT_FALSE(line.left_open());
}
