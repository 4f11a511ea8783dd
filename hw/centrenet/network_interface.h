// A board's Centrenet network interface, after the Alewife CMMU's message interface:
//
//  * send: software fills the memory-mapped output descriptor (header word, operand words,
//    address/length pairs) and writes LAUNCH; the interface copies the descriptor, gathers the
//    pairs' bytes by DMA and queues the message for the bus (output queue).
//  * receive: messages land in a hardware input queue; a window shows the head message's
//    first 64 bytes; a storeback command DMAs any byte range of it to memory, a pop discards
//    it; the receive interrupt is raised while the queue is not empty (CTRL.RXIE).
//  * ERROR holds the result of the last command (codes below); every error is counted.
//
// Sockets: `target` answers the NET region of the board's bus (addresses either relative to
// the region or absolute, TB_NET_BASE..); `dma` is the initiator for DMA into board memory
// (needed in dma-anywhere mode, optional in 1994 mode); `irq_line()` is the interrupt output
// (`irq` shows its level).
//
// DMA timing: buffer memory costs buffer_word_time per 16-bit word; board RAM costs
// ram_word_time per word plus the target's annotated latency, in bursts of dma_burst_bytes,
// each burst holding the board's SharedMemoryPort (if one is wired in) so that the CPU sees
// the cycles DMA steals. The register map is sw/tables/registers/net.toml.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <testbed/memory_map.h>
#include <testbed/register_tables.h>

#include <array>
#include <deque>
#include <functional>
#include <vector>

#include "centrenet_bus.h"
#include "irq_line.h"
#include "memory_port.h"
#include "register_target.h"
#include "restorable_signal.h"

namespace testbed::centrenet {

// ERROR.CODE values (meanings in sw/tables/registers/net.toml and docs/memory_map.md).
using ErrorCode = regs::net::ERROR::CODE;
enum NetError : uint32_t {
  kOk = ErrorCode::OK,
  kDescTooLong = ErrorCode::DESC_TOO_LONG,
  kZeroLength = ErrorCode::ZERO_LENGTH,
  kDmaRange = ErrorCode::DMA_RANGE,
  kBadDest = ErrorCode::BAD_DEST,
  kMsgTooLong = ErrorCode::MSG_TOO_LONG,
  kOutFull = ErrorCode::OUT_FULL,
  kInEmpty = ErrorCode::IN_EMPTY,
  kSbRange = ErrorCode::SB_RANGE,
  kBadCommand = ErrorCode::BAD_COMMAND,
  kBusy = ErrorCode::BUSY,
  kBadAccess = ErrorCode::BAD_ACCESS,
  kErrorCodes = sizeof(ErrorCode::values) / sizeof(ErrorCode::values[0]),
};
const char* net_error_name(uint32_t code);

namespace status {
using S = regs::net::STATUS;
constexpr uint32_t kInputPending = S::INPUT_PENDING::mask;
constexpr uint32_t kLaunchBusy = S::LAUNCH_BUSY::mask;
constexpr uint32_t kOutputFull = S::OUTPUT_FULL::mask;
constexpr uint32_t kStorebackBusy = S::STOREBACK_BUSY::mask;
constexpr uint32_t kError = S::ERROR::mask;
}  // namespace status

namespace rxcmd {
constexpr uint32_t kStoreback = regs::net::RXCMD::STOREBACK, kPop = regs::net::RXCMD::POP,
                   kStorebackPop = regs::net::RXCMD::STOREBACK_POP;
}

constexpr unsigned kDescriptorWords = regs::net::OUT_DESC::count;
constexpr unsigned kWindowWords = regs::net::IN_WIN::count;
constexpr uint32_t kBufferOffset = TB_NET_BUFFER_OFF;
constexpr uint32_t kBufferBytes = TB_NET_SIZE - TB_NET_BUFFER_OFF;

// Header word helpers (software's view; also used by tests and the bench).
constexpr uint32_t make_header(BoardAddress dst, uint16_t tag) {
  using H = regs::net::HEADER;
  return uint32_t(dst.node) << H::DEST_NODE::shift | uint32_t(dst.slot) << H::DEST_SLOT::shift | tag;
}
constexpr uint32_t make_launch(unsigned operands, unsigned pairs) {
  using L = regs::net::LAUNCH;
  return L::OPERANDS::put(operands) | L::PAIRS::put(pairs);
}

struct NiStats {
  uint64_t launches = 0;              // accepted launches
  uint64_t messages_sent = 0, bytes_sent = 0;          // handed to the bus
  uint64_t messages_received = 0, bytes_received = 0;
  uint64_t storebacks = 0, storeback_bytes = 0, pops = 0;
  uint64_t dma_ram_words = 0, dma_buffer_words = 0;
  sc_core::sc_time dma_ram_time;      // time DMA held board RAM
  uint64_t bad_accesses = 0;
  std::array<uint64_t, kErrorCodes> errors{};  // per error code (errors[0] unused)
};

// The registers (sw/tables/registers/net.toml) are 32-bit and read live (no latching); a read of
// LAUNCH or RXCMD returns 0; a refused access also sets ERROR to BAD_ACCESS.
inline RegisterRules ni_rules() {
  RegisterRules r;
  r.latch_long_reads = false;
  r.write_only_reads_zero = true;
  r.address_mask = TB_NET_SIZE - 1;
  return r;
}

class NetworkInterface : public RegisterTarget, public BusController {
 public:
  tlm::tlm_target_socket<32>& target;  // the register socket (RegisterTarget::socket)
  tlm_utils::simple_initiator_socket_optional<NetworkInterface> dma;
  testbed::RestorableSignal<bool> irq;  // the interrupt line, observable (waveforms, tests)
  testbed::RestorableSignal<unsigned> in_queue;  // frames in the input queue (waveforms: the network's VCD)
  // The interrupt output, as every device has it: given the new level whenever `irq` changes
  // (a board: ni.irq_line().connect([&](bool l) { board.set_irq(testbed::IrqSource::Net, l); })).
  testbed::IrqLine& irq_line() { return irq_; }
  tlm::tlm_target_socket<32>& target_socket;  // the same socket as `target` (Board::attach_net)

  // `exists` tells whether a board address is on the network (for BAD_DEST).
  NetworkInterface(sc_core::sc_module_name name, BoardAddress self, const NiParams& p, CentrenetBus& bus,
                   unsigned port, std::function<bool(BoardAddress)> exists);

  BoardAddress address() const { return self_; }
  DmaMode mode() const { return p_.mode; }
  const NiStats& stats() const { return stats_; }
  // Optional: the board's memory port, shared with its CPU (see memory_port.h).
  void set_memory_port(SharedMemoryPort* port) { mem_port_ = port; }
  // Optional observer of every message arriving in the input queue (tests, traces).
  void on_receive(std::function<void(const Frame&)> f) { on_receive_ = std::move(f); }
  size_t input_count() const { return inq_.size(); }
  uint8_t* buffer() { return buffer_.data(); }

  // Snapshots (hw/bus/state_archive.h): registers, buffer memory, queues, the job the DMA engine
  // runs and how far it got, statistics, the interrupt's level. at_rest: the engine waits for a
  // job or for a DMA piece's time (the sites it resumes from). A restored interface's engine
  // waits until the snapshot's time, then redoes that wait (engine()).
  void state(StateArchive& a);
  bool at_rest() const { return engine_site_ != EngineSite::Running; }

  // BusController
  bool can_accept(const Frame& f) const override;
  void deliver(const FramePtr& f) override;
  void sent(const FramePtr& f) override;

 private:
  struct Job {
    bool gather = true;
    std::array<uint32_t, kDescriptorWords> desc{};
    unsigned operands = 0, pairs = 0;
    uint32_t sb_addr = 0, sb_offset = 0, sb_len = 0;
    bool pop = false;
  };

  void declare_registers();
  void before_access(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override;
  void bad_access(tlm::tlm_generic_payload& p) override;
  void end_of_elaboration() override;

  void launch(uint32_t v);
  void rx_command(uint32_t v);
  void set_error(uint32_t code);
  void update_irq();
  void drive_irq();
  unsigned output_used() const;

  uint32_t check_dma_range(uint32_t addr, uint32_t len);  // kOk or kDmaRange
  bool in_buffer(uint32_t addr, uint32_t len) const;
  bool dma_piece(bool to_memory, uint32_t addr, uint8_t* data, uint32_t len);
  void dma_wait(const sc_core::sc_time& t);
  void engine();
  void run_job(bool resumed);
  void run_gather(bool resumed);
  void run_storeback(bool resumed);
  static void job_state(StateArchive& a, Job& j);

  BoardAddress self_;
  NiParams p_;
  CentrenetBus& bus_;
  unsigned port_;
  std::function<bool(BoardAddress)> exists_;
  SharedMemoryPort* mem_port_ = nullptr;
  std::function<void(const Frame&)> on_receive_;
  testbed::IrqLine irq_{name()};

  std::array<uint32_t, kDescriptorWords> desc_{};  // OUT_DESCn
  uint32_t ctrl_ = 0, sb_addr_ = 0, sb_offset_ = 0, sb_len_ = 0;
  std::vector<uint8_t> buffer_;
  uint32_t error_ = kOk;
  std::deque<FramePtr> inq_;
  size_t inq_bytes_ = 0;
  std::deque<Job> jobs_;
  bool launch_busy_ = false, storeback_busy_ = false;
  sc_core::sc_event job_ev_, irq_ev_;
  uint64_t seq_ = 0;
  std::shared_ptr<Frame> gathering_;  // the message the engine is gathering
  std::vector<uint8_t> storing_;
  tlm::tlm_generic_payload dma_gp_;      // the bytes the engine is storing back
  NiStats stats_;
  // The engine: where it waits (for a job; for a DMA piece's time, until engine_wake_; Running
  // between), the job it runs, and its progress: pair dma_pair_ of a gather (storeback: one
  // range), dma_done_ bytes of that range moved.
  enum class EngineSite : uint8_t { Running, Idle, Dma };
  EngineSite engine_site_ = EngineSite::Running;
  sc_core::sc_time engine_wake_;
  Job job_;
  unsigned dma_pair_ = 0;
  uint32_t dma_done_ = 0;
  bool restored_ = false;  // built from a snapshot: the engine resumes (engine())
  sc_core::sc_time restored_at_;
};

}  // namespace testbed::centrenet
