#include "network_interface.h"
#include "tlm_payload.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace testbed::centrenet {

const char* net_error_name(uint32_t code) {
  for (const tables::ValueSpec& v : ErrorCode::values)
    if (v.value == code) return v.name;
  return "UNKNOWN";
}

namespace {
// IN_SRC and MYADDR: node and slot of a board address.
uint32_t address_word(BoardAddress a) {
  using A = regs::net::MYADDR;
  static_assert(A::NODE::mask == regs::net::IN_SRC::NODE::mask && A::SLOT::mask == regs::net::IN_SRC::SLOT::mask);
  return A::NODE::put(a.node) | A::SLOT::put(a.slot);
}
// Destination of a header word.
BoardAddress header_dest(uint32_t h) {
  using H = regs::net::HEADER;
  return BoardAddress{uint8_t(H::DEST_NODE::get(h)), uint8_t(H::DEST_SLOT::get(h))};
}
}  // namespace

NetworkInterface::NetworkInterface(sc_module_name name, BoardAddress self, const NiParams& p, CentrenetBus& bus,
                                   unsigned port, std::function<bool(BoardAddress)> exists)
    : RegisterTarget(name, SC_ZERO_TIME, ni_rules()), target(socket), dma("dma"), irq("irq", false),
      in_queue("in_queue", 0u), target_socket(socket), self_(self), p_(p), bus_(bus), port_(port), exists_(std::move(exists)),
      buffer_(kBufferBytes, 0) {
  declare_registers();
  bus.attach(port, this, basename());
  SC_HAS_PROCESS(NetworkInterface);
  SC_THREAD(engine);
  SC_METHOD(drive_irq);
  sensitive << irq_ev_;
  dont_initialize();
}

void NetworkInterface::end_of_elaboration() {
  RegisterTarget::end_of_elaboration();
  if (p_.mode == DmaMode::kAnywhere && dma.size() == 0)
    SC_REPORT_ERROR(name(), "dma-anywhere mode needs the `dma` initiator socket bound to the board's memory");
  irq_.check_connected();
}

// ---- bus side -----------------------------------------------------------------------------

bool NetworkInterface::can_accept(const Frame& f) const {
  return inq_.size() < p_.input_queue_messages && inq_bytes_ + f.size() <= p_.input_queue_bytes;
}

void NetworkInterface::deliver(const FramePtr& f) {
  inq_.push_back(f);
  inq_bytes_ += f->size();
  ++stats_.messages_received;
  stats_.bytes_received += f->size();
  if (on_receive_) on_receive_(*f);
  update_irq();
}

void NetworkInterface::sent(const FramePtr& f) {
  ++stats_.messages_sent;
  stats_.bytes_sent += f->size();
}

unsigned NetworkInterface::output_used() const { return unsigned(bus_.queued(port_)) + (launch_busy_ ? 1 : 0); }

// The state changes in several processes (bus, CPU, DMA engine); one method drives the pin.
void NetworkInterface::update_irq() { irq_ev_.notify(SC_ZERO_TIME); }

void NetworkInterface::drive_irq() {
  // Every change of the input queue passes here (update_irq): one writer of the depth too.
  if (in_queue.read() != unsigned(inq_.size())) in_queue.write(unsigned(inq_.size()));
  bool level = regs::net::CTRL::RXIE::get(ctrl_) && !inq_.empty();
  if (level == irq_.level()) return;
  irq.write(level);
  irq_.set(level);
}

void NetworkInterface::set_error(uint32_t code) {
  error_ = code;
  if (code != kOk && code < kErrorCodes) ++stats_.errors[code];
}

// ---- registers ----------------------------------------------------------------------------

void NetworkInterface::declare_registers() {
  using namespace regs::net;
  using sc_core::sc_time;
  add_registers(tables::kNetRegisters);
  add_memory(kBufferOffset, kBufferBytes, buffer_.data());
  on_read_each<OUT_DESC>([this](unsigned n, const sc_time&) { return desc_[n]; });
  on_write_each<OUT_DESC>([this](unsigned n, uint32_t v, const sc_time&) { desc_[n] = v; });
  on_write<LAUNCH>([this](uint32_t v, const sc_time&) { launch(v); });
  on_read<STATUS>([this](const sc_time&) {
    uint32_t s = 0;
    if (!inq_.empty()) s |= status::kInputPending;
    if (launch_busy_) s |= status::kLaunchBusy;
    if (output_used() >= p_.output_queue_messages) s |= status::kOutputFull;
    if (storeback_busy_) s |= status::kStorebackBusy;
    if (error_ != kOk) s |= status::kError;
    s |= STATUS::ERROR_CODE::put(error_);
    s |= STATUS::IN_COUNT::put(uint32_t(std::min<size_t>(inq_.size(), 0xFF)));
    return s;
  });
  on_read<ERROR>([this](const sc_time&) { return error_; });
  on_write<ERROR>([this](uint32_t, const sc_time&) { error_ = kOk; });  // any write clears it
  on_read<CTRL>([this](const sc_time&) { return ctrl_; });
  on_write<CTRL>([this](uint32_t v, const sc_time&) {
    ctrl_ = v;
    update_irq();
  });
  on_read<IN_COUNT>([this](const sc_time&) { return uint32_t(inq_.size()); });
  on_read<IN_SRC>([this](const sc_time&) { return inq_.empty() ? 0 : address_word(inq_.front()->src); });
  on_read<IN_LEN>([this](const sc_time&) { return inq_.empty() ? 0 : uint32_t(inq_.front()->size()); });
  on_read<SB_ADDR>([this](const sc_time&) { return sb_addr_; });
  on_write<SB_ADDR>([this](uint32_t v, const sc_time&) { sb_addr_ = v; });
  on_read<SB_OFFSET>([this](const sc_time&) { return sb_offset_; });
  on_write<SB_OFFSET>([this](uint32_t v, const sc_time&) { sb_offset_ = v; });
  on_read<SB_LEN>([this](const sc_time&) { return sb_len_; });
  on_write<SB_LEN>([this](uint32_t v, const sc_time&) { sb_len_ = v; });
  on_write<RXCMD>([this](uint32_t v, const sc_time&) { rx_command(v); });
  on_read<MYADDR>([this](const sc_time&) { return address_word(self_); });
  on_read<MODE>([this](const sc_time&) -> uint32_t { return p_.mode == DmaMode::kAnywhere ? MODE::ANYWHERE : MODE::BUFFER_ONLY; });
  on_read<OUT_FREE>([this](const sc_time&) -> uint32_t {
    unsigned used = output_used();
    return used >= p_.output_queue_messages ? 0 : p_.output_queue_messages - used;
  });
  // The first 64 bytes of the head message (zero past its end or when the queue is empty).
  on_read_each<IN_WIN>([this](unsigned n, const sc_time&) -> uint32_t {
    if (inq_.empty()) return 0;
    uint8_t b[4] = {0, 0, 0, 0};
    const auto& pl = inq_.front()->payload;
    for (size_t i = 0; i < 4 && 4 * n + i < pl.size(); ++i) b[i] = pl[4 * n + i];
    return get_be(b, 4);
  });
}

// The board's bus charges the access cycle; registers add no wait states. What the access sees
// (queue state, a launch's timing) must be the state at its own time: catch up first.
void NetworkInterface::before_access(tlm::tlm_generic_payload&, sc_time& delay) {
  if (p_.sync_accesses && delay > sc_core::SC_ZERO_TIME &&
      sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
}

// A refused access (unmapped, read-only, bad size) also leaves BAD_ACCESS in ERROR.
void NetworkInterface::bad_access(tlm::tlm_generic_payload&) {
  ++stats_.bad_accesses;
  set_error(kBadAccess);
}

// ---- commands -----------------------------------------------------------------------------

bool NetworkInterface::in_buffer(uint32_t addr, uint32_t len) const {
  uint64_t lo = uint64_t(TB_NET_BASE) + kBufferOffset, hi = uint64_t(TB_NET_BASE) + TB_NET_SIZE;
  return addr >= lo && uint64_t(addr) + len <= hi;
}

uint32_t NetworkInterface::check_dma_range(uint32_t addr, uint32_t len) {
  uint64_t end = uint64_t(addr) + len;
  if (end > (uint64_t(1) << TB_ADDRESS_BITS)) return kDmaRange;
  if (in_buffer(addr, len)) return kOk;
  if (p_.mode == DmaMode::k1994) return kDmaRange;
  if (end > TB_NET_BASE && addr < uint64_t(TB_NET_BASE) + TB_NET_SIZE) return kDmaRange;  // own registers
  if (dma.size() == 0) return kDmaRange;
  // Probe both ends without side effects: a range past memory is refused before any byte moves.
  for (uint64_t probe : {uint64_t(addr), end - 1}) {
    uint8_t b = 0;
    tlm::tlm_generic_payload g;
    set_access(g, tlm::TLM_READ_COMMAND, probe, &b, 1);
    if (dma->transport_dbg(g) != 1) return kDmaRange;
  }
  return kOk;
}

void NetworkInterface::launch(uint32_t v) {
  using L = regs::net::LAUNCH;
  if (v & ~(L::OPERANDS::mask | L::PAIRS::mask)) return set_error(kBadCommand);
  if (launch_busy_) return set_error(kBusy);
  if (output_used() >= p_.output_queue_messages) return set_error(kOutFull);
  Job j;
  j.gather = true;
  j.operands = L::OPERANDS::get(v);
  j.pairs = L::PAIRS::get(v);
  if (1 + j.operands + 2 * j.pairs > kDescriptorWords) return set_error(kDescTooLong);
  j.desc = desc_;
  BoardAddress dst = header_dest(j.desc[0]);
  if (!dst.is_broadcast() && !exists_(dst)) return set_error(kBadDest);
  uint64_t total = 4 + 4 * uint64_t(j.operands);
  for (unsigned k = 0; k < j.pairs; ++k) {
    uint32_t addr = j.desc[1 + j.operands + 2 * k], len = j.desc[2 + j.operands + 2 * k];
    if (len == 0) return set_error(kZeroLength);
    if (uint32_t e = check_dma_range(addr, len)) return set_error(e);
    total += len;
  }
  if (total > p_.max_message_bytes) return set_error(kMsgTooLong);
  launch_busy_ = true;
  ++stats_.launches;
  jobs_.push_back(j);
  job_ev_.notify();
  set_error(kOk);
}

void NetworkInterface::rx_command(uint32_t v) {
  if (v != rxcmd::kStoreback && v != rxcmd::kPop && v != rxcmd::kStorebackPop) return set_error(kBadCommand);
  if (storeback_busy_) return set_error(kBusy);
  if (inq_.empty()) return set_error(kInEmpty);
  if (v == rxcmd::kPop) {
    inq_bytes_ -= inq_.front()->size();
    inq_.pop_front();
    ++stats_.pops;
    bus_.space_freed();
    update_irq();
    return set_error(kOk);
  }
  Job j;
  j.gather = false;
  j.sb_addr = sb_addr_;
  j.sb_offset = sb_offset_;
  j.sb_len = sb_len_;
  j.pop = v == rxcmd::kStorebackPop;
  if (j.sb_len == 0) return set_error(kZeroLength);
  if (uint64_t(j.sb_offset) + j.sb_len > inq_.front()->size()) return set_error(kSbRange);
  if (uint32_t e = check_dma_range(j.sb_addr, j.sb_len)) return set_error(e);
  storeback_busy_ = true;
  jobs_.push_back(j);
  job_ev_.notify();
  set_error(kOk);
}

// ---- DMA engine ---------------------------------------------------------------------------

// The next piece of a DMA transfer of `len` bytes at `addr` of which dma_done_ have moved: all of
// it in the buffer memory, one burst in RAM. Advances dma_done_, then waits for the piece's time
// (the engine's resumable site). False: RAM refused the burst (nothing waited).
bool NetworkInterface::dma_piece(bool to_memory, uint32_t addr, uint8_t* data, uint32_t len) {
  if (in_buffer(addr, len)) {
    uint8_t* m = &buffer_[addr - TB_NET_BASE - kBufferOffset];
    if (to_memory) std::memcpy(m, data, len);
    else std::memcpy(data, m, len);
    uint64_t words = (uint64_t(len) + 1) / 2;
    stats_.dma_buffer_words += words;
    dma_done_ = len;
    dma_wait(p_.buffer_word_time * double(words));
    return true;
  }
  tlm::tlm_generic_payload& g = dma_gp_;
  uint32_t done = dma_done_;
  uint32_t n = std::min(len - done, p_.dma_burst_bytes);
  set_access(g, to_memory ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, uint64_t(addr) + done, data + done, n);
  sc_time d = SC_ZERO_TIME;
  dma->b_transport(g, d);
  if (!g.is_response_ok()) return false;
  uint64_t words = (uint64_t(n) + 1) / 2;
  sc_time hold = d + p_.ram_word_time * double(words);
  sc_time now = sc_time_stamp();
  sc_time start = mem_port_ ? mem_port_->claim(SharedMemoryPort::kDma, now, hold) : now;
  stats_.dma_ram_words += words;
  stats_.dma_ram_time += hold;
  dma_done_ = done + n;
  dma_wait(start - now + hold);
  return true;
}

void NetworkInterface::dma_wait(const sc_time& t) {
  engine_wake_ = sc_time_stamp() + t;
  engine_site_ = EngineSite::Dma;
  wait(t);
  engine_site_ = EngineSite::Running;
}

void NetworkInterface::run_job(bool resumed) {
  if (job_.gather) run_gather(resumed);
  else run_storeback(resumed);
}

// The frame being gathered and the bytes being stored back are members, not locals: the
// engine waits during DMA, and a simulation may stop (or be saved) there. `resumed`: the engine
// comes back from a snapshot taken during this job's DMA and goes on where it was.
void NetworkInterface::run_gather(bool resumed) {
  const Job& j = job_;
  auto pair_len = [&j](unsigned k) { return j.desc[2 + j.operands + 2 * k]; };
  if (!resumed) {
    gathering_ = std::make_shared<Frame>();
    Frame* f = gathering_.get();
    f->src = self_;
    f->dst = header_dest(j.desc[0]);
    f->id = uint64_t(self_.node) << 40 | uint64_t(self_.slot) << 32 | ++seq_;
    size_t total = 4 + 4 * size_t(j.operands);
    for (unsigned k = 0; k < j.pairs; ++k) total += pair_len(k);
    f->payload.resize(total);
    for (unsigned i = 0; i <= j.operands; ++i) put_be(&f->payload[4 * i], 4, j.desc[i]);
    dma_pair_ = 0;
    dma_done_ = 0;
  }
  Frame* f = gathering_.get();
  size_t at = 4 + 4 * size_t(j.operands);
  for (unsigned k = 0; k < dma_pair_; ++k) at += pair_len(k);
  for (; dma_pair_ < j.pairs; ++dma_pair_) {
    uint32_t addr = j.desc[1 + j.operands + 2 * dma_pair_], len = pair_len(dma_pair_);
    while (dma_done_ < len) {
      if (!dma_piece(false, addr, f->payload.data() + at, len)) {
        gathering_.reset();
        launch_busy_ = false;
        set_error(kDmaRange);  // the message is not sent
        return;
      }
    }
    at += len;
    dma_done_ = 0;
  }
  f->posted = sc_time_stamp();
  launch_busy_ = false;
  bus_.post(port_, std::move(gathering_));
}

void NetworkInterface::run_storeback(bool resumed) {
  const Job& j = job_;
  if (!resumed) {
    const Frame& head = *inq_.front();  // pinned: pops are refused while a storeback runs
    storing_.assign(head.payload.begin() + j.sb_offset, head.payload.begin() + j.sb_offset + j.sb_len);
    dma_done_ = 0;
  }
  bool ok = true;
  while (ok && dma_done_ < j.sb_len) ok = dma_piece(true, j.sb_addr, storing_.data(), j.sb_len);
  storeback_busy_ = false;
  if (!ok) return set_error(kDmaRange);  // the message stays at the head
  ++stats_.storebacks;
  stats_.storeback_bytes += j.sb_len;
  if (j.pop) {
    inq_bytes_ -= inq_.front()->size();
    inq_.pop_front();
    ++stats_.pops;
    bus_.space_freed();
    update_irq();
  }
}

void NetworkInterface::engine() {
  if (restored_) {  // back to the wait the snapshot found the engine in, then on from there
    wait(restored_at_);
    if (engine_site_ == EngineSite::Idle) {
      wait(job_ev_);
      engine_site_ = EngineSite::Running;
    } else if (engine_site_ == EngineSite::Dma) {
      wait(engine_wake_ - sc_time_stamp());
      engine_site_ = EngineSite::Running;
      run_job(true);
    }
  }
  for (;;) {
    while (jobs_.empty()) {
      engine_site_ = EngineSite::Idle;
      wait(job_ev_);
      engine_site_ = EngineSite::Running;
    }
    job_ = jobs_.front();
    jobs_.pop_front();
    run_job(false);
  }
}

// ---- snapshots ----------------------------------------------------------------------------

void NetworkInterface::job_state(StateArchive& a, Job& j) {
  a.io(j.gather).io(j.desc).io(j.operands).io(j.pairs).io(j.sb_addr).io(j.sb_offset).io(j.sb_len).io(j.pop);
  if (a.loading() && (j.operands >= kDescriptorWords || 1 + j.operands + 2 * j.pairs > kDescriptorWords))
    throw StateError("snapshot: a network interface job's descriptor does not fit (operands " +
                     std::to_string(j.operands) + ", pairs " + std::to_string(j.pairs) + ")");
}

void NetworkInterface::state(StateArchive& a) {
  a.section(name()).expect("mode", int(p_.mode)).expect("input queue messages", p_.input_queue_messages);
  a.expect("output queue messages", p_.output_queue_messages).expect("buffer bytes", uint64_t(buffer_.size()));
  register_state(a);
  a.io(desc_).io(ctrl_).io(sb_addr_).io(sb_offset_).io(sb_len_).io(error_);
  a.raw(buffer_.data(), buffer_.size());  // in place: the register map points into it
  frames_state(a, inq_);
  a.io(inq_bytes_);
  uint64_t jobs = jobs_.size();
  a.io(jobs);
  if (a.loading()) jobs_.clear();
  for (uint64_t k = 0; k < jobs; ++k) {
    Job j = a.loading() ? Job{} : jobs_[size_t(k)];
    job_state(a, j);
    if (a.loading()) jobs_.push_back(j);
  }
  a.io(launch_busy_).io(storeback_busy_).io(seq_);
  frame_state(a, gathering_);
  a.io(storing_);
  NiStats& s = stats_;
  a.io(s.launches).io(s.messages_sent).io(s.bytes_sent).io(s.messages_received).io(s.bytes_received);
  a.io(s.storebacks).io(s.storeback_bytes).io(s.pops).io(s.dma_ram_words).io(s.dma_buffer_words);
  a.io(s.dma_ram_time).io(s.bad_accesses).io(s.errors);
  a.io(engine_site_).io(engine_wake_).io(dma_pair_).io(dma_done_);
  job_state(a, job_);
  // The pin, its depth signal and the line's level, put back without an edge (restorable_signal.h;
  // the line's sink, the board's interrupt controller, restores what it saw itself).
  bool pin = irq.read(), level = irq_.level();
  unsigned depth = in_queue.read();
  a.io(pin).io(level).io(depth);
  if (!a.loading()) return;
  if (engine_site_ == EngineSite::Dma && (job_.gather ? !gathering_ : inq_.empty() || storing_.size() < job_.sb_len))
    throw StateError("snapshot: " + std::string(name()) + ": a DMA job without its message");
  irq.restore(pin);
  in_queue.restore(depth);
  irq_.restore_level(level);
  restored_ = true;
  restored_at_ = a.when();
}

}  // namespace testbed::centrenet
