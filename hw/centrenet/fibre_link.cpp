#include "fibre_link.h"

using namespace sc_core;

namespace testbed::centrenet {

FibreLink::FibreLink(sc_module_name name, const FibreParams& p, CentrenetBus& parent, unsigned parent_port,
                     CentrenetBus& child, unsigned child_port)
    : sc_module(name), p_(p), bus_{&parent, &child}, port_{parent_port, child_port} {
  for (unsigned e = 0; e < 2; ++e) {
    end_[e].link = this;
    end_[e].index = e;
  }
  parent.attach(parent_port, &end_[0], std::string(basename()) + ".down");
  child.attach(child_port, &end_[1], std::string(basename()) + ".up");
  SC_HAS_PROCESS(FibreLink);
  SC_THREAD(serialise_down);
  SC_THREAD(serialise_up);
  SC_THREAD(receive_down);
  SC_THREAD(receive_up);
}

sc_time FibreLink::serialise_time(size_t payload_bytes) const {
  return p_.frame_overhead + sc_time(double(p_.frame_header_bytes + payload_bytes) / p_.rate_bytes_per_s, SC_SEC);
}

bool FibreLink::End::can_accept(const Frame& f) const {
  (void)f;
  return link->dir_[index].occupancy < link->p_.buffer_frames;
}

void FibreLink::End::deliver(const FramePtr& f) {
  Direction& d = link->dir_[index];
  ++d.occupancy;
  d.to_serialise.push_back(f);
  d.queued.notify();
}

// The far bus took a frame that arrived at this end: it travelled in the other direction.
void FibreLink::End::sent(const FramePtr& f) {
  (void)f;
  unsigned d = 1 - index;
  --link->dir_[d].occupancy;
  link->bus_[d]->space_freed();  // the near bus of that direction may have a sender waiting
}

void FibreLink::serialiser(unsigned d) {
  Direction& dir = dir_[d];
  if (restored_) {  // back to the wait the snapshot found the serialiser in, then on from there
    wait(restored_at_);
    if (dir.serialiser == Site::Idle) {
      wait(dir.queued);
      dir.serialiser = Site::Running;
    } else if (dir.serialiser == Site::Busy) {
      wait(dir.serialised_at - sc_time_stamp());
      dir.serialiser = Site::Running;
      serialised(d);
    }
  }
  for (;;) {
    while (dir.to_serialise.empty()) {
      dir.serialiser = Site::Idle;
      wait(dir.queued);
      dir.serialiser = Site::Running;
    }
    // The frame stays at the queue's head while it is serialised (no owning local across wait).
    sc_time t = serialise_time(dir.to_serialise.front()->size());
    dir.serialised_at = sc_time_stamp() + t;
    dir.serialiser = Site::Busy;
    wait(t);
    dir.serialiser = Site::Running;
    serialised(d);
  }
}

// The head of to_serialise has left: it arrives at the far end hop_latency from now.
void FibreLink::serialised(unsigned d) {
  Direction& dir = dir_[d];
  size_t bytes = dir.to_serialise.front()->size();
  dir.stats.busy_time += serialise_time(bytes);
  ++dir.stats.frames;
  dir.stats.bytes += bytes;
  dir.in_flight.emplace_back(sc_time_stamp() + p_.hop_latency, std::move(dir.to_serialise.front()));
  dir.to_serialise.pop_front();
  dir.launched.notify();
}

void FibreLink::receiver(unsigned d) {
  Direction& dir = dir_[d];
  if (restored_) {  // back to the wait the snapshot found the receiver in, then on from there
    wait(restored_at_);
    if (dir.receiver == Site::Idle) {
      wait(dir.launched);
      dir.receiver = Site::Running;
    } else if (dir.receiver == Site::Busy) {
      wait(dir.in_flight.front().first - sc_time_stamp());
      dir.receiver = Site::Running;
      arrived(d);
    }
  }
  for (;;) {
    while (dir.in_flight.empty()) {
      dir.receiver = Site::Idle;
      wait(dir.launched);
      dir.receiver = Site::Running;
    }
    sc_time at = dir.in_flight.front().first;
    if (at > sc_time_stamp()) {
      dir.receiver = Site::Busy;
      wait(at - sc_time_stamp());
      dir.receiver = Site::Running;
    }
    arrived(d);
  }
}

// The head of in_flight has reached the far end: the far bus arbitrates for it.
void FibreLink::arrived(unsigned d) {
  Direction& dir = dir_[d];
  unsigned far = 1 - d;
  FramePtr f = std::move(dir.in_flight.front().second);
  dir.in_flight.pop_front();
  bus_[far]->post(port_[far], std::move(f));
}

// ---- snapshots ----------------------------------------------------------------------------

bool FibreLink::at_rest() const {
  for (const Direction& dir : dir_)
    if (dir.serialiser == Site::Running || dir.receiver == Site::Running) return false;
  return true;
}

void FibreLink::state(StateArchive& a) {
  a.section(name()).expect("buffer frames", p_.buffer_frames);
  for (Direction& dir : dir_) {
    frames_state(a, dir.to_serialise);
    uint64_t n = dir.in_flight.size();
    a.io(n);
    if (a.loading()) dir.in_flight.clear();
    for (uint64_t k = 0; k < n; ++k) {
      std::pair<sc_time, FramePtr> e;
      if (!a.loading()) e = dir.in_flight[size_t(k)];
      a.io(e.first);
      frame_state(a, e.second);
      if (a.loading()) dir.in_flight.push_back(std::move(e));
    }
    a.io(dir.occupancy).io(dir.stats.frames).io(dir.stats.bytes).io(dir.stats.busy_time);
    a.io(dir.serialiser).io(dir.receiver).io(dir.serialised_at);
    if (a.loading() && ((dir.serialiser == Site::Busy && dir.to_serialise.empty()) ||
                        (dir.receiver == Site::Busy && dir.in_flight.empty())))
      throw StateError("snapshot: " + std::string(name()) + ": a frame's time without the frame");
  }
  if (!a.loading()) return;
  restored_ = true;
  restored_at_ = a.when();
}

}  // namespace testbed::centrenet
