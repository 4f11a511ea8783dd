// The Centrenet bus of one node: up to 16 board controllers plus the node's fibre-link ports,
// one frame at a time, granted round-robin.
//
// Timing: a frame occupies the bus for frame_overhead + (frame_header_bytes + payload) / rate.
// Arbitration is round-robin from the port after the last owner, so under saturation every
// requester gets one frame in turn. A frame whose receiver cannot take it (input queue or
// link buffer full) is not sent: it waits at the head of its sender's queue (back-pressure),
// the arbiter passes over that sender, and the wait is counted (frames and time) per port.
// Nothing is dropped. Broadcasts go to every other port at once and wait until all can take it.
#pragma once
#include <systemc>

#include <deque>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "centrenet_config.h"
#include "frame.h"
#include "restorable_signal.h"

namespace testbed::centrenet {

// Anything attached to a bus port: a network interface or one end of a fibre link.
class BusController {
 public:
  virtual ~BusController() = default;
  // Room for this frame now? (the bus asks before granting, and only the bus fills it)
  virtual bool can_accept(const Frame& f) const = 0;
  // The frame has crossed the bus and is now the receiver's.
  virtual void deliver(const FramePtr& f) = 0;
  // The bus has taken (and finished sending) the head of this controller's output queue.
  virtual void sent(const FramePtr& f) { (void)f; }
};

struct PortStats {
  uint64_t frames_sent = 0, bytes_sent = 0;
  uint64_t frames_received = 0, bytes_received = 0;
  sc_core::sc_time queue_delay_total;   // posted -> granted, summed over frames sent
  sc_core::sc_time queue_delay_max;
  uint64_t backpressure_frames = 0;     // frames that had to wait for receiver space
  sc_core::sc_time backpressure_time;   // total time such frames waited for space
};

struct BusStats {
  uint64_t frames = 0, bytes = 0;       // payload bytes (framing excluded)
  sc_core::sc_time busy_time;
  std::vector<PortStats> ports;
};

class CentrenetBus : public sc_core::sc_module {
 public:
  CentrenetBus(sc_core::sc_module_name name, unsigned node, unsigned ports, const BusParams& p);

  unsigned node() const { return node_; }
  unsigned port_count() const { return unsigned(ports_.size()); }
  void attach(unsigned port, BusController* c, std::string label);
  // Where frames for a destination go from this bus: the port for a board address.
  // The network installs it; it returns -1 for an address nobody on the tree has.
  void set_router(std::function<int(BoardAddress)> r) { router_ = std::move(r); }

  // Queue a frame for sending from `port` (its controller's output queue).
  void post(unsigned port, FramePtr f);
  size_t queued(unsigned port) const { return ports_.at(port).txq.size(); }
  // A controller freed receive space: re-run arbitration for senders that were waiting.
  void space_freed() { wake_.notify(sc_core::SC_ZERO_TIME); }

  sc_core::sc_time transfer_time(size_t payload_bytes) const;
  const BusStats& stats() const { return stats_; }
  double utilisation() const;  // busy time / simulated time so far
  const std::string& port_label(unsigned port) const { return ports_.at(port).label; }

  // VCD: owner port (-1 idle), low 32 bits of the frame id, busy; the frame on the bus: its
  // source and destination processor (node * 16 + slot; -1 broadcast), its first payload word
  // (the NI's header word: destination and TOS's tag) and its bytes; per port the frames waiting
  // in the controller's output queue (txq_<label>). waveforms/tbwaves.py names them.
  void add_to_trace(sc_core::sc_trace_file* tf);

  // Snapshots (hw/bus/state_archive.h): the output queues, the frame on the bus, arbitration,
  // statistics and the trace signals' values. at_rest: the arbiter waits for a sender or for
  // the end of a transfer (the sites it resumes from; arbiter()).
  void state(StateArchive& a);
  bool at_rest() const { return site_ != Site::Running; }

 private:
  struct Port {
    BusController* ctl = nullptr;
    std::string label;
    std::deque<FramePtr> txq;
    bool blocked = false;
    sc_core::sc_time blocked_since;
  };
  void arbiter();
  void end_transfer();
  void targets_of(unsigned src, const Frame& f, std::vector<unsigned>& out) const;

  unsigned node_;
  BusParams p_;
  std::vector<Port> ports_;
  std::function<int(BoardAddress)> router_;
  unsigned last_ = 0;
  FramePtr current_;               // the frame on the bus
  std::vector<unsigned> targets_;  // its receivers' ports
  sc_core::sc_event wake_;
  BusStats stats_;
  // Where the arbiter waits: for a sender (wake_), for the end of current_'s transfer (at
  // transfer_end_); Running between.
  enum class Site : uint8_t { Running, Idle, Transfer };
  Site site_ = Site::Running;
  sc_core::sc_time transfer_end_;
  bool restored_ = false;  // built from a snapshot: the arbiter resumes (arbiter())
  sc_core::sc_time restored_at_;
  bool tracing_ = false;
  testbed::RestorableSignal<int> sig_owner_;
  testbed::RestorableSignal<uint32_t> sig_frame_;
  testbed::RestorableSignal<bool> sig_busy_;
  testbed::RestorableSignal<int> sig_src_, sig_dst_;
  testbed::RestorableSignal<uint32_t> sig_header_, sig_bytes_;
  std::vector<std::unique_ptr<testbed::RestorableSignal<unsigned>>> sig_txq_;  // per port
  sc_core::sc_event txq_changed_;  // the NI posts and the arbiter takes: one method writes the depths
  void trace_queue(unsigned) { if (tracing_) txq_changed_.notify(sc_core::SC_ZERO_TIME); }
  void write_queues();
};

}  // namespace testbed::centrenet
