// The host decoder reads the SMI's filter markers 0xABnn: they are markers, not events (a
// filtered event is neither decoded nor lost), listed with their time, board and generation,
// named FILTER_nn in the text trace, and do not move the clock as wrap markers do.
#include <gtest/gtest.h>

#include "monitor_decoder.h"

#include <testbed/events.h>

#include <sstream>

namespace md = testbed::monitor_decoder;

TEST(MonitorDecoderFilter, FilterMarkersAreMarkersWithTimeBoardAndGeneration) {
  auto w = [](unsigned src, uint16_t v) { return uint32_t(src) << 16 | v; };
  std::vector<uint32_t> s = {w(2, 100), w(2, EV_TRAP7),
                             w(2, 150), w(2, uint16_t(EV_FILTER_MARKER_VALUE | 1)),
                             w(3, 0), w(3, uint16_t(EV_WRAP_MARKER_VALUE | 1)),
                             w(2, 200), w(2, EV_TRAP72),
                             w(2, 300), w(2, uint16_t(EV_FILTER_MARKER_VALUE | 2))};
  md::Options opt;
  md::Result r = md::decode(s, opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.events_excluding_markers(), 2u);
  EXPECT_EQ(r.markers, 1u);  // the wrap marker (board 3)
  ASSERT_EQ(r.filter_changes.size(), 2u);
  EXPECT_EQ(r.filter_changes[0].board, 2u);
  EXPECT_EQ(r.filter_changes[0].ticks, 150u);  // no wrap: 0xABnn is not a wrap marker
  EXPECT_EQ(r.filter_changes[0].generation, 1u);
  EXPECT_EQ(r.filter_changes[1].generation, 2u);
  std::ostringstream txt;
  md::write_text(txt, r, opt);
  EXPECT_NE(txt.str().find("0xAB01 FILTER_01"), std::string::npos) << txt.str();
  EXPECT_NE(txt.str().find("# filter_markers 2"), std::string::npos);
  EXPECT_NE(txt.str().find("# events 2 "), std::string::npos);
}
