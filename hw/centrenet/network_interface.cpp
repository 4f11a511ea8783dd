#include "network_interface.h"

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
constexpr uint32_t kDescEnd = TB_NET_OUT_DESC_OFF + 4 * kDescriptorWords;
constexpr uint32_t kWinEnd = TB_NET_IN_WIN_OFF + 4 * kWindowWords;
constexpr uint32_t kRegsEnd = TB_NET_OUT_FREE_OFF + 4;
static_assert(kDescEnd <= TB_NET_LAUNCH_OFF, "descriptor overlaps LAUNCH");
static_assert(kRegsEnd <= TB_NET_IN_WIN_OFF && kWinEnd <= 0x140, "register file layout");
static_assert(kBufferOffset >= 0x140, "buffer overlaps registers");

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
uint32_t be32(const uint8_t* b) { return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3]; }
void put_be32(uint8_t* b, uint32_t v) {
  b[0] = uint8_t(v >> 24); b[1] = uint8_t(v >> 16); b[2] = uint8_t(v >> 8); b[3] = uint8_t(v);
}
}  // namespace

NetworkInterface::NetworkInterface(sc_module_name name, BoardAddress self, const NiParams& p, CentrenetBus& bus,
                                   unsigned port, std::function<bool(BoardAddress)> exists)
    : sc_module(name), target("target"), dma("dma"), irq("irq", false), target_socket(target), self_(self), p_(p), bus_(bus),
      port_(port), exists_(std::move(exists)), buffer_(kBufferBytes, 0) {
  target.register_b_transport(this, &NetworkInterface::b_transport);
  target.register_transport_dbg(this, &NetworkInterface::transport_dbg);
  bus.attach(port, this, basename());
  SC_HAS_PROCESS(NetworkInterface);
  SC_THREAD(engine);
  SC_METHOD(drive_irq);
  sensitive << irq_ev_;
  dont_initialize();
}

void NetworkInterface::end_of_elaboration() {
  if (p_.mode == DmaMode::kAnywhere && dma.size() == 0)
    SC_REPORT_ERROR(name(), "dma-anywhere mode needs the `dma` initiator socket bound to the board's memory");
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
  bool level = (regs_[TB_NET_CTRL_OFF / 4] & 1) && !inq_.empty();
  if (level == irq_level_) return;
  irq_level_ = level;
  irq.write(level);
  if (irq_callback) irq_callback(level);
}

void NetworkInterface::set_error(uint32_t code) {
  error_ = code;
  if (code != kOk && code < kErrorCodes) ++stats_.errors[code];
}

// ---- registers ----------------------------------------------------------------------------

bool NetworkInterface::reg_mapped(uint32_t off) const {
  return off < kRegsEnd || (off >= TB_NET_IN_WIN_OFF && off < kWinEnd);
}

bool NetworkInterface::reg_writable(uint32_t off) const {
  if (off < kDescEnd) return true;
  switch (off) {
    case TB_NET_LAUNCH_OFF: case TB_NET_ERROR_OFF: case TB_NET_CTRL_OFF: case TB_NET_SB_ADDR_OFF:
    case TB_NET_SB_OFFSET_OFF: case TB_NET_SB_LEN_OFF: case TB_NET_RXCMD_OFF:
      return true;
    default:
      return false;
  }
}

uint32_t NetworkInterface::read_reg(uint32_t off) const {
  if (off < kDescEnd) return regs_[off / 4];
  if (off >= TB_NET_IN_WIN_OFF && off < kWinEnd) {
    if (inq_.empty()) return 0;
    uint8_t b[4] = {0, 0, 0, 0};
    const auto& pl = inq_.front()->payload;
    size_t at = off - TB_NET_IN_WIN_OFF;
    for (size_t i = 0; i < 4 && at + i < pl.size(); ++i) b[i] = pl[at + i];
    return be32(b);
  }
  switch (off) {
    case TB_NET_STATUS_OFF: {
      uint32_t s = 0;
      if (!inq_.empty()) s |= status::kInputPending;
      if (launch_busy_) s |= status::kLaunchBusy;
      if (output_used() >= p_.output_queue_messages) s |= status::kOutputFull;
      if (storeback_busy_) s |= status::kStorebackBusy;
      if (error_ != kOk) s |= status::kError;
      s |= regs::net::STATUS::ERROR_CODE::put(error_);
      s |= regs::net::STATUS::IN_COUNT::put(uint32_t(std::min<size_t>(inq_.size(), 0xFF)));
      return s;
    }
    case TB_NET_ERROR_OFF: return error_;
    case TB_NET_IN_COUNT_OFF: return uint32_t(inq_.size());
    case TB_NET_IN_SRC_OFF:
      return inq_.empty() ? 0 : address_word(inq_.front()->src);
    case TB_NET_IN_LEN_OFF: return inq_.empty() ? 0 : uint32_t(inq_.front()->size());
    case TB_NET_MYADDR_OFF: return address_word(self_);
    case TB_NET_MODE_OFF: return p_.mode == DmaMode::kAnywhere ? 1 : 0;
    case TB_NET_OUT_FREE_OFF: {
      unsigned used = output_used();
      return used >= p_.output_queue_messages ? 0 : p_.output_queue_messages - used;
    }
    case TB_NET_LAUNCH_OFF: case TB_NET_RXCMD_OFF: return 0;  // write-only
    default: return regs_[off / 4];                            // CTRL, SB_*
  }
}

void NetworkInterface::write_reg(uint32_t off, uint32_t v) {
  switch (off) {
    case TB_NET_ERROR_OFF: error_ = kOk; break;
    case TB_NET_CTRL_OFF: update_irq(); break;
    case TB_NET_LAUNCH_OFF: launch(v); break;
    case TB_NET_RXCMD_OFF: rx_command(v); break;
    default: break;  // descriptor words and SB_* are plain storage
  }
}

void NetworkInterface::b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
  // The board's bus charges the access cycle; registers add no wait states. What the access
  // sees (queue state, a launch's timing) must be the state at its own time: catch up first.
  if (p_.sync_accesses && delay > sc_core::SC_ZERO_TIME &&
      sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  uint64_t a = p.get_address();
  if (a >= TB_NET_BASE) a -= TB_NET_BASE;
  unsigned len = p.get_data_length();
  uint8_t* d = p.get_data_ptr();
  if (p.get_byte_enable_ptr() || p.get_streaming_width() < len) {
    set_error(kBadAccess);
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (a >= kBufferOffset) {
    if (a + len > TB_NET_SIZE) {
      set_error(kBadAccess);
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint8_t* m = &buffer_[a - kBufferOffset];
    if (p.is_read()) std::memcpy(d, m, len);
    else if (p.is_write()) std::memcpy(m, d, len);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  uint32_t off = uint32_t(a) & ~3u;
  if (len == 0 || len > 4 || (a & 3) + len > 4 || !reg_mapped(off)) {
    set_error(kBadAccess);
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  unsigned first = unsigned(a & 3);
  if (p.is_read()) {
    uint8_t b[4];
    put_be32(b, read_reg(off));
    std::memcpy(d, b + first, len);
  } else if (p.is_write()) {
    if (!reg_writable(off)) {
      set_error(kBadAccess);
      p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    uint8_t b[4];
    put_be32(b, regs_[off / 4]);
    std::memcpy(b + first, d, len);
    regs_[off / 4] = be32(b);
    if (first + len == 4) write_reg(off, regs_[off / 4]);  // acts on the low word / last byte
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned NetworkInterface::transport_dbg(tlm::tlm_generic_payload& p) {
  uint64_t a = p.get_address();
  if (a >= TB_NET_BASE) a -= TB_NET_BASE;
  unsigned len = p.get_data_length();
  uint8_t* d = p.get_data_ptr();
  if (a >= kBufferOffset) {
    if (a >= TB_NET_SIZE) return 0;
    len = unsigned(std::min<uint64_t>(len, TB_NET_SIZE - a));
    uint8_t* m = &buffer_[a - kBufferOffset];
    if (p.is_read()) std::memcpy(d, m, len);
    else if (p.is_write()) std::memcpy(m, d, len);
    return len;
  }
  if (!p.is_read()) return 0;  // debuggers do not trigger commands
  unsigned n = 0;
  for (; n < len && a + n < kBufferOffset; ++n) {
    uint32_t off = uint32_t(a + n) & ~3u;
    uint8_t b[4] = {0, 0, 0, 0};
    if (reg_mapped(off)) put_be32(b, read_reg(off));
    d[n] = b[(a + n) & 3];
  }
  return n;
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
    g.set_read();
    g.set_address(probe);
    g.set_data_ptr(&b);
    g.set_data_length(1);
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
  for (unsigned i = 0; i < kDescriptorWords; ++i) j.desc[i] = regs_[i];
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
  j.sb_addr = regs_[TB_NET_SB_ADDR_OFF / 4];
  j.sb_offset = regs_[TB_NET_SB_OFFSET_OFF / 4];
  j.sb_len = regs_[TB_NET_SB_LEN_OFF / 4];
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

bool NetworkInterface::dma_move(bool to_memory, uint32_t addr, uint8_t* data, uint32_t len) {
  if (in_buffer(addr, len)) {
    uint8_t* m = &buffer_[addr - TB_NET_BASE - kBufferOffset];
    if (to_memory) std::memcpy(m, data, len);
    else std::memcpy(data, m, len);
    uint64_t words = (uint64_t(len) + 1) / 2;
    stats_.dma_buffer_words += words;
    wait(p_.buffer_word_time * double(words));
    return true;
  }
  tlm::tlm_generic_payload& g = dma_gp_;
  for (uint32_t done = 0; done < len;) {
    uint32_t n = std::min(len - done, p_.dma_burst_bytes);
    g.set_command(to_memory ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    g.set_address(uint64_t(addr) + done);
    g.set_data_ptr(data + done);
    g.set_data_length(n);
    g.set_streaming_width(n);
    g.set_byte_enable_ptr(nullptr);
    g.set_dmi_allowed(false);
    g.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time d = SC_ZERO_TIME;
    dma->b_transport(g, d);
    if (!g.is_response_ok()) return false;
    uint64_t words = (uint64_t(n) + 1) / 2;
    sc_time hold = d + p_.ram_word_time * double(words);
    sc_time now = sc_time_stamp();
    sc_time start = mem_port_ ? mem_port_->claim(SharedMemoryPort::kDma, now, hold) : now;
    stats_.dma_ram_words += words;
    stats_.dma_ram_time += hold;
    wait(start - now + hold);
    done += n;
  }
  return true;
}

// The frame being gathered and the bytes being stored back are members, not locals: the
// engine waits during DMA, and a simulation may stop there.
void NetworkInterface::run_gather(const Job& j) {
  gathering_ = std::make_shared<Frame>();
  Frame* f = gathering_.get();
  f->src = self_;
  f->dst = header_dest(j.desc[0]);
  f->id = uint64_t(self_.node) << 40 | uint64_t(self_.slot) << 32 | ++seq_;
  auto& pl = f->payload;
  pl.resize(4 + 4 * j.operands);
  for (unsigned i = 0; i <= j.operands; ++i) put_be32(&pl[4 * i], j.desc[i]);
  for (unsigned k = 0; k < j.pairs; ++k) {
    uint32_t addr = j.desc[1 + j.operands + 2 * k], len = j.desc[2 + j.operands + 2 * k];
    size_t at = pl.size();
    pl.resize(at + len);
    if (!dma_move(false, addr, pl.data() + at, len)) {
      gathering_.reset();
      launch_busy_ = false;
      set_error(kDmaRange);  // the message is not sent
      return;
    }
  }
  f->posted = sc_time_stamp();
  launch_busy_ = false;
  bus_.post(port_, std::move(gathering_));
}

void NetworkInterface::run_storeback(const Job& j) {
  const Frame& head = *inq_.front();  // pinned: pops are refused while a storeback runs
  storing_.assign(head.payload.begin() + j.sb_offset, head.payload.begin() + j.sb_offset + j.sb_len);
  bool ok = dma_move(true, j.sb_addr, storing_.data(), j.sb_len);
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
  for (;;) {
    while (jobs_.empty()) wait(job_ev_);
    Job j = jobs_.front();
    jobs_.pop_front();
    if (j.gather) run_gather(j);
    else run_storeback(j);
  }
}

}  // namespace testbed::centrenet
