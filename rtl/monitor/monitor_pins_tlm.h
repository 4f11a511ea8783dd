// Co-simulation: the verilated monitor RTL (Verilator's C++ model, Vmonitor_cosim) behind the same
// TLM-2.0 target sockets as the SystemC/TLM model (hw/monitor: one socket per SMI, one for the
// MMI), through a TLM-to-pin adapter. It stands in for the TLM monitor in a SystemC platform.
//
// Timing: monitor clock t is [t * period, (t + 1) * period); its rising edge is at
// t * period + period / 2. An access belongs to the clock of sc_time_stamp() + delay; the adapter
// waits until then, drives the pins before the edge (a held write stays on the pins while the
// SMI answers wait), samples the registered read data after the edge and returns at the start
// of the next clock (delay zero): one access per clock per socket, as a CPU bus cycle.
// Accesses: 2 or 4 bytes, 2-aligned, big-endian; a 4-byte access at +0 (DATA_HI, DATA_LO) or +8
// (LOST/STALL) is one move.l. Initiators are SC_THREADs (b_transport waits).
//
// Clocked on demand: no SystemC process toggles a clock. The pins change only when an access
// drives or releases them, so before any pin changes or is read the model is clocked through
// every rising edge earlier than now with the pins as they are (catch_up), in a plain loop of
// Verilator's eval. Every clock of the run is still clocked, assertions included (the machine
// catches up at the end of its run), and each edge sees the pins the free-running clock
// process's edge saw. What goes is the SystemC scheduling of two clock edges per 100 ns: 29% of
// the host instructions of the co-simulated demo's first 50 ms (callgrind, 7.16 G before, 5.11 G
// after). The rest is Verilator's eval itself, which runs the logic fed by the inputs (each SMI
// filter classifying the word on its pins) at every call, twice a clock.
#pragma once
#include <systemc>
// verilated.h, when it finds SystemC included, calls sc_time_stamp() unqualified (as after
// systemc.h); a file that included <systemc> before this header would not compile otherwise.
using sc_core::sc_time_stamp;

#include <Vmonitor_cosim.h>

#include "verilated_bits.h"

#include <testbed/memory_map.h>
#include <testbed/register_tables.h>

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

namespace tbrtl {

class MonitorPins : public sc_core::sc_module {
 public:
  static constexpr unsigned kSmi = 5;  // Vmonitor_cosim is monitor_top at its default parameters

  std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<MonitorPins>>> smi;  // [k-1]
  tlm_utils::simple_target_socket<MonitorPins> mmi{"mmi"};

  explicit MonitorPins(sc_core::sc_module_name n, sc_core::sc_time period = sc_core::sc_time(100, sc_core::SC_NS))
      : sc_module(n), period_(period), ctx_(std::make_unique<VerilatedContext>()),
        rtl_(std::make_unique<Vmonitor_cosim>(ctx_.get(), "rtl")) {
    for (unsigned k = 1; k <= kSmi; ++k) {
      smi.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<MonitorPins>>(
          sc_core::sc_gen_unique_name("smi")));
      smi.back()->register_b_transport(this, &MonitorPins::smi_transport, int(k));
    }
    mmi.register_b_transport(this, &MonitorPins::mmi_transport);
    // Reset with one rising edge before clock 0 (at time 0, as the clock process did in delta
    // cycles); clock t's edge is then at t * period + period / 2.
    rtl_->rst = 1;
    rtl_->eval();
    rtl_->clk = 1;
    rtl_->eval();
    rtl_->clk = 0;
    rtl_->eval();
    rtl_->rst = 0;
    rtl_->eval();
  }
  ~MonitorPins() override { rtl_->final(); }

  uint64_t bad_accesses() const { return bad_; }
  // Clocks the model through every rising edge before now: the machine calls it at the end of
  // its run, so that the RTL has run (and checked its assertions) over the whole of it.
  void catch_up() {
    const uint64_t now = sc_core::sc_time_stamp().value(), p = period_.value();
    while (clocks_ * p + p / 2 < now) {
      ctx_->time(clocks_ * p + p / 2);
      rtl_->clk = 1;
      rtl_->eval();
      rtl_->clk = 0;
      rtl_->eval();
      ++clocks_;
    }
  }
  uint64_t clocks() const { return clocks_; }  // rising edges clocked since reset
  // The MMI's stall count (clocks it waited on a full FIFO) as of now.
  uint32_t stall_clocks() {
    catch_up();
    return rtl_->obs_stall_clocks;
  }

 private:
  uint64_t clock_at(const sc_core::sc_time& t) const { return t.value() / period_.value(); }
  sc_core::sc_time start_of(uint64_t c) const { return double(c) * period_; }
  // Waits until the access's own clock (or the next clock start if the edge has passed).
  uint64_t enter(sc_core::sc_time& delay) {
    sc_core::sc_time t = sc_core::sc_time_stamp() + delay;
    delay = sc_core::SC_ZERO_TIME;
    uint64_t c = clock_at(t);
    if (t >= start_of(c) + period_ * 0.4) ++c;  // too close to (or past) this clock's edge
    if (start_of(c) > sc_core::sc_time_stamp()) wait(start_of(c) - sc_core::sc_time_stamp());
    catch_up();  // the pins about to change belong to this clock's edge, not an earlier one
    return c;
  }
  void after_edge(uint64_t c) {
    wait(start_of(c) + period_ * 0.6 - sc_core::sc_time_stamp());
    catch_up();
  }
  void to_next_clock(uint64_t c) { wait(start_of(c + 1) - sc_core::sc_time_stamp()); }
  // The SMI and MMI registers (sw/tables/registers/monitor.toml) as the RTL ports present them.
  static constexpr unsigned kRegionMask = TB_MON_SIZE - 1;
  static constexpr unsigned kLost = TB_MON_SMI_LOST_OFF, kStall = TB_MON_MMI_STALL_OFF;
  static_assert(kLost == kStall, "LOST and STALL share the 32-bit read-port slot of the RTL");

  static bool legal(tlm::tlm_generic_payload& p) {
    unsigned len = p.get_data_length();
    return (len == 2 || len == 4) && !(p.get_address() & 1) && !p.get_byte_enable_ptr() &&
           p.get_streaming_width() >= len && (p.is_read() || p.is_write());
  }
  static void put(tlm::tlm_generic_payload& p, uint32_t v) {
    unsigned char* d = p.get_data_ptr();
    if (p.get_data_length() == 4) {
      d[0] = uint8_t(v >> 24), d[1] = uint8_t(v >> 16), d[2] = uint8_t(v >> 8), d[3] = uint8_t(v);
    } else {
      d[0] = uint8_t(v >> 8), d[1] = uint8_t(v);
    }
  }
  // The 32-bit register view at `a` (see the RTL ports) as the bytes of this access.
  static uint32_t slice(uint32_t view, unsigned a, unsigned len) {
    if (len == 4) return view;
    if (a == kLost || a == kStall) return view >> 16;  // high half of a 32-bit register
    return view & 0xFFFF;
  }

  void smi_transport(int k, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    unsigned i = unsigned(k - 1), a = unsigned(p.get_address() & kRegionMask), len = p.get_data_length();
    bool ok = legal(p) && (p.is_write() ? a == TB_MON_SMI_EVENT_OFF && len == 2
                                        : (len == 2 && (a == TB_MON_SMI_STATUS_OFF || a == TB_MON_SMI_LEVEL_OFF ||
                                                        a == kLost || a == kLost + 2)) ||
                                              (len == 4 && a == kLost));
    if (!ok) {
      ++bad_;
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint64_t c = enter(delay);
    bits::set(rtl_->smi_addr, i * 4, 4, a);
    if (p.is_write()) {
      unsigned char* d = p.get_data_ptr();
      bits::set(rtl_->smi_wdata, i * 16, 16, uint16_t(d[0] << 8 | d[1]));
      bits::set(rtl_->smi_wr, i, 1, 1);
      for (;;) {  // wait states: hold the write until the SMI takes it at an edge
        wait(start_of(c) + period_ * 0.4 - sc_core::sc_time_stamp());
        catch_up();
        rtl_->eval();  // smi_wait is combinational: of the pins as driven now (each edge's eval settles them first)
        if (!(bits::get(rtl_->smi_wait, i, 1))) break;
        ++c;
      }
      after_edge(c);
      bits::set(rtl_->smi_wr, i, 1, 0);
      } else {
      after_edge(c);
      put(p, slice(bits::get(rtl_->smi_rdata, i * 32, 32), a, len));
    }
    to_next_clock(c);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // The filter registers (FLT_SEL and up): 16-bit accesses of a register the table declares, or
  // a move.l of a 32-bit one; writes only to rw registers.
  static const testbed::tables::RegSpec* filter_access(unsigned a, unsigned len, bool write) {
    if (a < TB_MON_FLT_SEL_OFF) return nullptr;
    for (const auto& r : testbed::tables::kMonMmiRegisters) {
      if (a < r.offset || a >= r.offset + r.bytes) continue;
      bool ok = write ? r.access == testbed::tables::RegAccess::RW && len == 2
                      : len == 2 || (r.bytes == 4 && a == r.offset);
      return ok ? &r : nullptr;
    }
    return nullptr;
  }

  void mmi_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    unsigned a = unsigned(p.get_address() & kRegionMask), len = p.get_data_length();
    const testbed::tables::RegSpec* fr = legal(p) ? filter_access(a, len, p.is_write()) : nullptr;
    if (fr) {
      uint64_t c = enter(delay);
      rtl_->m_addr = uint8_t(a);
      rtl_->m_long = 0;
      if (p.is_write()) {
        const unsigned char* d = p.get_data_ptr();
        rtl_->m_wdata = uint16_t(d[0] << 8 | d[1]);
        rtl_->m_wr = 1;
      } else {
        rtl_->m_rd = 1;
      }
        after_edge(c);
      rtl_->m_rd = 0;
      rtl_->m_wr = 0;
        // The RTL answers a 32-bit register whole at its offset: a 16-bit read there is its high half.
      uint32_t v = rtl_->m_rdata;
      if (p.is_read()) put(p, len == 4 ? v : fr->bytes == 4 && a == fr->offset ? v >> 16 : v & 0xFFFF);
      to_next_clock(c);
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    if (!legal(p) || !p.is_read() || a > kStall + 2 || (len == 4 && a != TB_MON_MMI_DATA_HI_OFF && a != kStall)) {
      ++bad_;
      p.set_response_status(legal(p) && p.is_write() ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                                     : tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint64_t c = enter(delay);
    rtl_->m_addr = uint8_t(a);
    rtl_->m_long = len == 4;
    rtl_->m_rd = 1;
    after_edge(c);
    rtl_->m_rd = 0;
    put(p, slice(rtl_->m_rdata, a, len));
    to_next_clock(c);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sc_core::sc_time period_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vmonitor_cosim> rtl_;
  uint64_t clocks_ = 0;  // rising edges clocked since reset: clock clocks_'s edge is the next
  uint64_t bad_ = 0;
};

}  // namespace tbrtl
