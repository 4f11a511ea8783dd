#include "centrenet_bus.h"

#include <stdexcept>

using namespace sc_core;

namespace testbed::centrenet {

CentrenetBus::CentrenetBus(sc_module_name name, unsigned node, unsigned ports, const BusParams& p)
    : sc_module(name), node_(node), p_(p), ports_(ports),
      sig_owner_("owner", -1), sig_frame_("frame", 0), sig_busy_("busy", false),
      sig_src_("src", -1), sig_dst_("dst", -1), sig_header_("header", 0), sig_bytes_("bytes", 0) {
  stats_.ports.resize(ports);
  for (unsigned i = 0; i < ports; ++i)
    sig_txq_.push_back(std::make_unique<testbed::RestorableSignal<unsigned>>(("txq" + std::to_string(i)).c_str(), 0u));
  SC_HAS_PROCESS(CentrenetBus);
  SC_THREAD(arbiter);
  SC_METHOD(write_queues);
  sensitive << txq_changed_;
  dont_initialize();
}

void CentrenetBus::attach(unsigned port, BusController* c, std::string label) {
  if (port >= ports_.size())
    throw std::out_of_range(std::string(name()) + ": attach to port " + std::to_string(port) +
                            " of " + std::to_string(ports_.size()));
  if (ports_[port].ctl) throw std::logic_error(std::string(name()) + ": port " + std::to_string(port) + " attached twice");
  ports_[port].ctl = c;
  ports_[port].label = std::move(label);
}

void CentrenetBus::post(unsigned port, FramePtr f) {
  if (port >= ports_.size() || !ports_[port].ctl)
    throw std::logic_error(std::string(name()) + ": post from unattached port " + std::to_string(port));
  ports_[port].txq.push_back(std::move(f));
  trace_queue(port);
  wake_.notify(SC_ZERO_TIME);
}

sc_time CentrenetBus::transfer_time(size_t payload_bytes) const {
  return p_.frame_overhead + sc_time(double(p_.frame_header_bytes + payload_bytes) / p_.rate_bytes_per_s, SC_SEC);
}

double CentrenetBus::utilisation() const {
  double now = sc_time_stamp().to_seconds();
  return now > 0 ? stats_.busy_time.to_seconds() / now : 0.0;
}

void CentrenetBus::add_to_trace(sc_trace_file* tf) {
  tracing_ = true;
  std::string n = name();
  sc_core::sc_trace(tf, sig_owner_, n + ".owner");
  sc_core::sc_trace(tf, sig_frame_, n + ".frame");
  sc_core::sc_trace(tf, sig_busy_, n + ".busy");
  sc_core::sc_trace(tf, sig_src_, n + ".src");
  sc_core::sc_trace(tf, sig_dst_, n + ".dst");
  sc_core::sc_trace(tf, sig_header_, n + ".header");
  sc_core::sc_trace(tf, sig_bytes_, n + ".bytes");
  for (unsigned i = 0; i < ports_.size(); ++i)
    sc_core::sc_trace(tf, *sig_txq_[i], n + ".txq_" + (ports_[i].label.empty() ? std::to_string(i) : ports_[i].label));
}

void CentrenetBus::write_queues() {
  for (unsigned i = 0; i < ports_.size(); ++i) sig_txq_[i]->write(unsigned(ports_[i].txq.size()));
}

void CentrenetBus::targets_of(unsigned src, const Frame& f, std::vector<unsigned>& out) const {
  out.clear();
  if (f.dst.is_broadcast()) {
    for (unsigned i = 0; i < ports_.size(); ++i)
      if (i != src && ports_[i].ctl) out.push_back(i);
    return;
  }
  int r = router_ ? router_(f.dst) : -1;
  if (r < 0 || unsigned(r) >= ports_.size() || !ports_[unsigned(r)].ctl)
    // The network interface refuses bad destinations at launch (BAD_DEST), so this is a
    // wiring error in the model, not guest behaviour.
    SC_REPORT_ERROR(name(), ("no route from node " + std::to_string(node_) + " to " + f.dst.str()).c_str());
  out.push_back(unsigned(r));
}

// Nothing heap-owning lives on this thread's stack across a wait (the frame on the bus and
// its receivers are members), so a simulation that stops mid-transfer leaks nothing, and a
// snapshot finds everything the arbiter needs to go on.
void CentrenetBus::arbiter() {
  if (restored_) {  // back to the wait the snapshot found the arbiter in, then on from there
    wait(restored_at_);
    if (site_ == Site::Idle) {
      wait(wake_);
      site_ = Site::Running;
    } else if (site_ == Site::Transfer) {
      wait(transfer_end_ - sc_time_stamp());
      site_ = Site::Running;
      end_transfer();
    }
  }
  std::vector<unsigned>& targets = targets_;
  const unsigned n = unsigned(ports_.size());
  for (;;) {
    int pick = -1;
    for (unsigned k = 1; k <= n && pick < 0; ++k) {
      unsigned i = (last_ + k) % n;
      Port& pt = ports_[i];
      if (pt.txq.empty()) continue;
      targets_of(i, *pt.txq.front(), targets);
      bool room = true;
      for (unsigned t : targets) room = room && ports_[t].ctl->can_accept(*pt.txq.front());
      if (room) {
        pick = int(i);
      } else if (!pt.blocked) {
        pt.blocked = true;
        pt.blocked_since = sc_time_stamp();
        ++stats_.ports[i].backpressure_frames;
      }
    }
    if (pick < 0) {
      site_ = Site::Idle;
      wait(wake_);
      site_ = Site::Running;
      continue;
    }
    unsigned i = unsigned(pick);
    last_ = i;
    Port& pt = ports_[i];
    PortStats& ps = stats_.ports[i];
    if (pt.blocked) {
      pt.blocked = false;
      ps.backpressure_time += sc_time_stamp() - pt.blocked_since;
    }
    current_ = pt.txq.front();
    pt.txq.pop_front();
    trace_queue(i);
    const FramePtr& f = current_;
    sc_time q = sc_time_stamp() - f->posted;
    ps.queue_delay_total += q;
    if (q > ps.queue_delay_max) ps.queue_delay_max = q;
    sc_time t = transfer_time(f->size());
    if (tracing_) {
      sig_owner_.write(int(i));
      sig_frame_.write(uint32_t(f->id));
      sig_busy_.write(true);
      auto proc = [](const BoardAddress& a) { return a.is_broadcast() ? -1 : int(a.node) * 16 + int(a.slot); };
      sig_src_.write(proc(f->src));
      sig_dst_.write(proc(f->dst));
      const auto& pl = f->payload;
      sig_header_.write(pl.size() >= 4 ? uint32_t(pl[0]) << 24 | uint32_t(pl[1]) << 16 | uint32_t(pl[2]) << 8 | pl[3] : 0);
      sig_bytes_.write(uint32_t(pl.size()));
    }
    transfer_end_ = sc_time_stamp() + t;
    site_ = Site::Transfer;
    wait(t);
    site_ = Site::Running;
    end_transfer();
  }
}

// current_ has crossed the bus from port last_ to targets_.
void CentrenetBus::end_transfer() {
  Port& pt = ports_[last_];
  PortStats& ps = stats_.ports[last_];
  const FramePtr& f = current_;
  sc_time t = transfer_time(f->size());
  if (tracing_) {
    sig_owner_.write(-1);
    sig_busy_.write(false);
    sig_src_.write(-1);
    sig_dst_.write(-1);
  }
  stats_.busy_time += t;
  ++stats_.frames;
  stats_.bytes += f->size();
  ++ps.frames_sent;
  ps.bytes_sent += f->size();
  for (unsigned tp : targets_) {
    // Only this bus fills its receivers, so the room seen at the grant is still there.
    if (!ports_[tp].ctl->can_accept(*f))
      SC_REPORT_ERROR(name(), ("receiver on port " + std::to_string(tp) + " lost room during a transfer").c_str());
    ports_[tp].ctl->deliver(f);
    ++stats_.ports[tp].frames_received;
    stats_.ports[tp].bytes_received += f->size();
  }
  FramePtr done = std::move(current_);
  pt.ctl->sent(done);
}

// ---- snapshots ----------------------------------------------------------------------------

void CentrenetBus::state(StateArchive& a) {
  a.section(name()).expect("ports", port_count());
  for (Port& pt : ports_) {
    a.expect("port attached", pt.ctl != nullptr);
    frames_state(a, pt.txq);
    a.io(pt.blocked).io(pt.blocked_since);
  }
  a.io(last_);
  frame_state(a, current_);
  a.io(targets_);
  a.io(stats_.frames).io(stats_.bytes).io(stats_.busy_time);
  for (PortStats& ps : stats_.ports) {
    a.io(ps.frames_sent).io(ps.bytes_sent).io(ps.frames_received).io(ps.bytes_received);
    a.io(ps.queue_delay_total).io(ps.queue_delay_max).io(ps.backpressure_frames).io(ps.backpressure_time);
  }
  a.io(site_).io(transfer_end_);
  // The trace signals' values, put back without a value change (restorable_signal.h), so a
  // restored run traced into a VCD goes on from what the bus showed.
  int owner = sig_owner_.read(), src = sig_src_.read(), dst = sig_dst_.read();
  uint32_t frame = sig_frame_.read(), header = sig_header_.read(), bytes = sig_bytes_.read();
  bool busy = sig_busy_.read();
  std::vector<unsigned> txq;
  for (auto& q : sig_txq_) txq.push_back(q->read());
  a.io(owner).io(src).io(dst).io(frame).io(header).io(bytes).io(busy).io(txq);
  if (!a.loading()) return;
  if (last_ >= ports_.size() || txq.size() != ports_.size())
    throw StateError("snapshot: " + std::string(name()) + ": a port past the bus's " + std::to_string(ports_.size()));
  for (unsigned t : targets_)
    if (t >= ports_.size() || !ports_[t].ctl)
      throw StateError("snapshot: " + std::string(name()) + ": a receiver on port " + std::to_string(t) +
                       " that is not attached");
  if (site_ == Site::Transfer && !current_)
    throw StateError("snapshot: " + std::string(name()) + ": a transfer without its frame");
  sig_owner_.restore(owner);
  sig_src_.restore(src);
  sig_dst_.restore(dst);
  sig_frame_.restore(frame);
  sig_header_.restore(header);
  sig_bytes_.restore(bytes);
  sig_busy_.restore(busy);
  for (size_t i = 0; i < txq.size(); ++i) sig_txq_[i]->restore(txq[i]);
  restored_ = true;
  restored_at_ = a.when();
}

}  // namespace testbed::centrenet
