// A Centrenet frame: one message on its way from one board to another (or to all of them).
//
// A message travels as a single frame. Its payload is the message byte stream exactly as the
// receiving network interface presents it: the header word, the operand words, then the bytes
// gathered by DMA, all in guest (big-endian) order. Broadcast frames are shared by every
// receiver, hence the shared pointer to a const frame.
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace testbed::centrenet {

// A board's Centrenet address: the node (bus) it sits on and its slot on that bus.
struct BoardAddress {
  uint8_t node = 0;
  uint8_t slot = 0;
  bool operator==(const BoardAddress& o) const { return node == o.node && slot == o.slot; }
  bool operator!=(const BoardAddress& o) const { return !(*this == o); }
  bool is_broadcast() const { return node == 0xFF && slot == 0xFF; }
  std::string str() const {
    return is_broadcast() ? std::string("broadcast")
                          : "(" + std::to_string(node) + "," + std::to_string(slot) + ")";
  }
};

// Every board except the sender, on every node of the tree.
inline constexpr BoardAddress kBroadcast{0xFF, 0xFF};

struct Frame {
  uint64_t id = 0;            // network-wide sequence number (traces, tests)
  BoardAddress src;
  BoardAddress dst;           // kBroadcast for a broadcast
  std::vector<uint8_t> payload;
  sc_core::sc_time posted;    // when it entered the source's output queue
  size_t size() const { return payload.size(); }
};

using FramePtr = std::shared_ptr<const Frame>;

}  // namespace testbed::centrenet
