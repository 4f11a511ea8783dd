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
  for (;;) {
    while (dir.to_serialise.empty()) wait(dir.queued);
    // The frame stays at the queue's head while it is serialised (no owning local across wait).
    size_t bytes = dir.to_serialise.front()->size();
    sc_time t = serialise_time(bytes);
    wait(t);
    dir.stats.busy_time += t;
    ++dir.stats.frames;
    dir.stats.bytes += bytes;
    dir.in_flight.emplace_back(sc_time_stamp() + p_.hop_latency, std::move(dir.to_serialise.front()));
    dir.to_serialise.pop_front();
    dir.launched.notify();
  }
}

void FibreLink::receiver(unsigned d) {
  Direction& dir = dir_[d];
  unsigned far = 1 - d;
  for (;;) {
    while (dir.in_flight.empty()) wait(dir.launched);
    sc_time at = dir.in_flight.front().first;
    if (at > sc_time_stamp()) wait(at - sc_time_stamp());
    FramePtr f = std::move(dir.in_flight.front().second);
    dir.in_flight.pop_front();
    bus_[far]->post(port_[far], std::move(f));
  }
}

}  // namespace testbed::centrenet
