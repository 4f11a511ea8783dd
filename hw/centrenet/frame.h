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

#include "state_archive.h"

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

// Frames in a snapshot are saved by value by each holder (a bus queue, a link, an input queue)
// and rebuilt on restore. A broadcast frame shared by several holders comes back as equal
// copies: identity does not matter, since frames are const once posted and no model compares
// frame pointers (ids and contents are what traces and tests see).
inline void frame_state(StateArchive& a, Frame& f) {
  a.io(f.id).io(f.src.node).io(f.src.slot).io(f.dst.node).io(f.dst.slot).io(f.payload).io(f.posted);
}
// A held frame, or none.
template <class F> void frame_state(StateArchive& a, std::shared_ptr<F>& p) {
  bool held = p != nullptr;
  a.io(held);
  if (!a.loading()) {
    if (held) {
      Frame copy = *p;
      frame_state(a, copy);
    }
    return;
  }
  p.reset();
  if (!held) return;
  auto f = std::make_shared<Frame>();
  frame_state(a, *f);
  p = std::move(f);
}
// A queue of frames.
template <class Q> void frames_state(StateArchive& a, Q& q) {
  uint64_t n = q.size();
  a.io(n);
  if (!a.loading()) {
    for (auto& f : q) frame_state(a, f);
    return;
  }
  q.clear();
  for (uint64_t i = 0; i < n; ++i) {  // a count past the bytes left stops at the first frame short
    typename Q::value_type f;
    frame_state(a, f);
    q.push_back(std::move(f));
  }
}

}  // namespace testbed::centrenet
