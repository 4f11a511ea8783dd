// A fibre-optic link joining a node's bus to its parent's bus: full duplex, one channel per
// direction. Each end is a controller on its bus. A frame the near bus delivers to the link
// is serialised at the link rate (frame_overhead + (header + payload) / rate, one frame at a
// time), arrives hop_latency later at the far end, and is posted there for the far bus to
// arbitrate. A direction holds at most buffer_frames frames (serialising, in flight, or
// waiting for the far bus); when full it refuses more, which back-pressures the near bus.
#pragma once
#include <systemc>

#include <array>
#include <deque>
#include <memory>

#include "centrenet_bus.h"

namespace testbed::centrenet {

struct LinkDirectionStats {
  uint64_t frames = 0, bytes = 0;
  sc_core::sc_time busy_time;  // serialising
};

class FibreLink : public sc_core::sc_module {
 public:
  // End 0 on `parent` bus port `parent_port`, end 1 on `child` bus port `child_port`.
  FibreLink(sc_core::sc_module_name name, const FibreParams& p, CentrenetBus& parent, unsigned parent_port,
            CentrenetBus& child, unsigned child_port);

  sc_core::sc_time serialise_time(size_t payload_bytes) const;
  const LinkDirectionStats& down_stats() const { return dir_[0].stats; }  // parent -> child
  const LinkDirectionStats& up_stats() const { return dir_[1].stats; }    // child -> parent

  // Snapshots (hw/bus/state_archive.h): per direction the frames serialising, in flight and
  // waiting, the occupancy and statistics. at_rest: each of the four threads waits for work or
  // for its frame's time (the sites it resumes from; serialiser(), receiver()).
  void state(StateArchive& a);
  bool at_rest() const;

 private:
  struct End : BusController {
    FibreLink* link = nullptr;
    unsigned index = 0;  // frames delivered to this end travel in direction `index`
    bool can_accept(const Frame& f) const override;
    void deliver(const FramePtr& f) override;
    void sent(const FramePtr& f) override;
  };
  // Where a thread waits: for work (Idle), for its frame's time (Busy: the serialiser until
  // serialised_at, the receiver until the head of in_flight arrives); Running between.
  enum class Site : uint8_t { Running, Idle, Busy };
  struct Direction {
    std::deque<FramePtr> to_serialise;
    std::deque<std::pair<sc_core::sc_time, FramePtr>> in_flight;
    unsigned occupancy = 0;
    sc_core::sc_event queued, launched;
    LinkDirectionStats stats;
    Site serialiser = Site::Running, receiver = Site::Running;
    sc_core::sc_time serialised_at;
  };
  void serialiser(unsigned d);
  void serialised(unsigned d);
  void serialise_down() { serialiser(0); }
  void serialise_up() { serialiser(1); }
  void receive_down() { receiver(0); }
  void receive_up() { receiver(1); }
  void receiver(unsigned d);
  void arrived(unsigned d);

  FibreParams p_;
  std::array<CentrenetBus*, 2> bus_;
  std::array<unsigned, 2> port_;
  std::array<End, 2> end_;
  std::array<Direction, 2> dir_;
  bool restored_ = false;  // built from a snapshot: the threads resume
  sc_core::sc_time restored_at_;
};

}  // namespace testbed::centrenet
