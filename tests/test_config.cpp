// Configuration: typed, range-checked values; errors name file, line and key; overrides win;
// unread keys are reported so a typo never passes silently.
#include <gtest/gtest.h>

#include "config.h"

using testbed::Config;
using testbed::ConfigError;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Config, ReadsTypedValuesWithDefaults) {
  auto c = Config::from_string("[cpu]\nclock_mhz = 10\nmodel = \"68010\"\n[trace]\nvcd = true\n", "m.toml");
  EXPECT_EQ(c.section("cpu").get_int("clock_mhz", 1, 1, 100), 10);
  EXPECT_EQ(c.section("cpu").get_int("quantum_us", 7, 1, 100), 7);
  EXPECT_EQ(c.section("cpu").get_choice("model", "68000", {"68000", "68010"}), "68010");
  EXPECT_TRUE(c.section("trace").get_bool("vcd", false));
  EXPECT_DOUBLE_EQ(c.section("cpu").get_double("clock_mhz", 0, 0, 50), 10.0);
}

TEST(Config, OutOfRangeNamesFileLineAndKey) {
  auto c = Config::from_string("[cpu]\n\nclock_mhz = 1000\n", "m.toml");
  auto e = error_of([&] { c.section("cpu").get_int("clock_mhz", 10, 1, 100); });
  EXPECT_NE(e.find("m.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("cpu.clock_mhz"), std::string::npos) << e;
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
}

TEST(Config, WrongTypeAndBadChoiceAreErrors) {
  auto c = Config::from_string("a = \"ten\"\nb = \"68020\"\n", "m.toml");
  EXPECT_NE(error_of([&] { c.get_int("a", 0, 0, 10); }).find("expected an integer"), std::string::npos);
  EXPECT_NE(error_of([&] { c.get_choice("b", "68000", {"68000", "68010"}); }).find("one of 68000, 68010"),
            std::string::npos);
}

// A float where an integer belongs is refused, whatever its size (1e21 was cast unchecked by
// toml++: undefined behaviour, found by the fuzz harness).
TEST(Config, FloatForIntegerIsRefusedWhateverItsSize) {
  auto c = Config::from_string("small = 3.0\nhuge = 68068000000000000E21\n", "m.toml");
  EXPECT_NE(error_of([&] { c.get_int("small", 0, 0, 10); }).find("m.toml:1: small: expected an integer"),
            std::string::npos) << error_of([&] { c.get_int("small", 0, 0, 10); });
  EXPECT_NE(error_of([&] { c.get_int("huge", 0, 0, 10); }).find("expected an integer"), std::string::npos);
}

TEST(Config, SyntaxErrorNamesPosition) {
  auto e = error_of([] { Config::from_string("[cpu\nx=1\n", "bad.toml"); });
  EXPECT_NE(e.find("bad.toml:1"), std::string::npos) << e;
}

TEST(Config, OverridesReplaceAndCreateValues) {
  auto c = Config::from_string("[cpu]\nclock_mhz = 10\n[[board]]\nname = \"master\"\n[[board]]\nname = \"earth\"\n");
  c.apply_override("cpu.clock_mhz=8");
  c.apply_override("monitor.tick_us=2.5");
  c.apply_override("board.1.name=fire");
  c.apply_override("trace.vcd=out.vcd");
  EXPECT_EQ(c.section("cpu").get_int("clock_mhz", 0, 1, 100), 8);
  EXPECT_DOUBLE_EQ(c.section("monitor").get_double("tick_us", 0, 0, 10), 2.5);
  EXPECT_EQ(c.array_of_tables("board")[1].get_string("name", ""), "fire");
  EXPECT_EQ(c.section("trace").get_string("vcd", ""), "out.vcd");
  EXPECT_NE(error_of([&] { c.apply_override("nonsense"); }).find("key=value"), std::string::npos);
  EXPECT_NE(error_of([&] { c.apply_override("board.7.name=x"); }).find("no element 7"), std::string::npos);
}

TEST(Config, OverrideOfAStringStaysAString) {
  auto c = Config::from_string("[centrenet]\ndma = \"dma-anywhere\"\n[cpu]\nclock_mhz = 10\n");
  c.apply_override("centrenet.dma=1994");
  EXPECT_EQ(c.section("centrenet").get_string("dma", ""), "1994");
  c.apply_override("cpu.clock_mhz=8");  // a number replacing a number stays a number
  EXPECT_EQ(c.section("cpu").get_int("clock_mhz", 0, 1, 100), 8);
}

TEST(Config, ReportsKeysNothingRead) {
  auto c = Config::from_string("[cpu]\nclock_mhz = 10\nclok_mhz = 5\n[unknown]\nx = 1\n");
  c.section("cpu").get_int("clock_mhz", 0, 0, 100);
  auto unused = c.unused_keys();
  ASSERT_EQ(unused.size(), 2u);
  EXPECT_EQ(unused[0], "cpu.clok_mhz");
  EXPECT_EQ(unused[1], "unknown");
}

TEST(Config, MissingRequiredValueIsAnError) {
  auto c = Config::from_string("[[board]]\nname = \"x\"\n", "m.toml");
  auto e = error_of([&] { c.array_of_tables("board")[0].require_string("image"); });
  EXPECT_NE(e.find("board.0.image"), std::string::npos) << e;
}
