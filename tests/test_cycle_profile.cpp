// The cycle profile (hw/board/cycle_profile.h): each instruction gets the cycles until the next
// one starts, counted at its address and mode; the last one, whose end is not known, gets none.
// (That a run rolled back in exact mode is counted once is shown on a whole machine: the
// experiment's check "earth's cycle profile ... holds each instruction it ran once".)
#include "cycle_profile.h"

#include <gtest/gtest.h>

#include <sstream>

using testbed::CycleProfile;

TEST(CycleProfile, EachInstructionGetsTheCyclesToTheNextAtItsAddressAndMode) {
  CycleProfile p;
  p.instruction(0x100, true, 0);
  p.instruction(0x102, true, 4);
  p.instruction(0x2000, false, 12);   // user mode: an RTE went there
  p.instruction(0x100, true, 20);     // an exception's processing went to 0x2000
  p.instruction(0x102, true, 24);
  p.instruction(0x104, true, 300);    // 0x102 was a STOP: its wait is its own
  std::ostringstream os;
  p.write(os);
  EXPECT_EQ(os.str(),
            "000100 S 8 2\n"
            "000102 S 284 2\n"
            "002000 U 8 1\n");
  EXPECT_EQ(p.cycles(), 300u);
}

TEST(CycleProfile, AnEmptyProfileWritesNothing) {
  CycleProfile p;
  p.instruction(0x100, true, 7);  // one instruction: its end never came
  std::ostringstream os;
  p.write(os);
  EXPECT_EQ(os.str(), "");
  EXPECT_EQ(p.cycles(), 0u);
}
