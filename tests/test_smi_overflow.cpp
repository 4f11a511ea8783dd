// An SMI keeps exactly smi_depth events of a burst the poller cannot drain, then loses and
// counts the rest; STATUS.FULL rises exactly when the next event would be lost.
#include <gtest/gtest.h>

#include "monitor_engine.h"

using namespace testbed::monitor;

TEST(SmiOverflow, BurstOverflowsAtExactlyTheFifoDepth) {
  for (unsigned depth : {1u, 7u, 1024u}) {
    MonitorParams p;
    p.smi_depth = depth;
    p.word_clocks = 1000000;  // the poller's first slot (clock 0) finds SMI 1 empty, the next
    p.empty_clocks = 1000000; // comes long after the burst
    MonitorEngine e(p);
    RecordingProbe probe;
    e.set_probe(&probe);
    const unsigned extra = 13;
    uint64_t c = 1;
    for (unsigned i = 0; i < depth + extra; ++i) {
      c = e.write_event(1, c, uint16_t(i & 0x3FFF));
      uint16_t status = e.smi_status(1, c);
      EXPECT_EQ(e.smi_level(1, c), std::min(i + 1, depth)) << "depth " << depth << " write " << i;
      EXPECT_EQ(status & 1, i + 1 >= depth ? 1 : 0) << "FULL, depth " << depth << " write " << i;
      EXPECT_EQ(status & 2, 0);
      c += p.write_gap;
    }
    EXPECT_EQ(e.smi_lost(1, c), extra);
    ASSERT_EQ(probe.records.size(), depth + extra);
    for (unsigned i = 0; i < probe.records.size(); ++i) EXPECT_EQ(probe.records[i].kept, i < depth) << i;
    EXPECT_EQ(e.smi_level(2, c), 0u);
    EXPECT_EQ(e.smi_status(2, c), 2u);  // EMPTY
  }
}

TEST(SmiOverflow, WrapMarkerWaitsForRoomAndIsNeverLost) {
  MonitorParams p;
  p.tick_div = 1;
  p.smi_depth = 4;
  p.n_smi = 1;
  p.word_clocks = 50000;  // one slot at 0 (empty), next at 50000 pops, then at 150000
  p.empty_clocks = 50000;
  MonitorEngine e(p);
  uint64_t c = 10;
  for (int i = 0; i < 4; ++i) c = e.write_event(1, c, 7) + p.write_gap;
  EXPECT_EQ(e.smi_status(1, c) & 1, 1);
  // The wrap at 65536 finds the FIFO full (the pop at 50000 was refilled below): the marker waits.
  c = e.write_event(1, 50001, 8);  // refills the slot the pop at 50000 freed
  EXPECT_EQ(e.smi_level(1, 65536), 4u);
  EXPECT_EQ(e.smi_status(1, 65536) & 1, 1);  // FULL: the marker holds the next free entry
  // Poller: 50000 pop, next slot 50000 + 2*50000 = 150000 pops again; the marker takes that room
  // at the next clock even though a CPU write comes later.
  EXPECT_EQ(e.smi_level(1, 150000), 3u);
  EXPECT_EQ(e.smi_level(1, 150001), 4u);
  e.write_event(1, 150002, 9);
  EXPECT_EQ(e.smi_lost(1, 150002), 1u);
  // Same-clock rule: a write in the clock of a pop gives the room to the marker first.
  MonitorEngine f(p);
  c = 10;
  for (int i = 0; i < 4; ++i) c = f.write_event(1, c, 7) + p.write_gap;
  f.write_event(1, 50001, 8);
  f.write_event(1, 150000, 9);  // step 4 of the pop's clock: marker first, then 9 finds it full
  EXPECT_EQ(f.smi_lost(1, 150000), 1u);
  EXPECT_EQ(f.smi_level(1, 150000), 4u);
}
