// Co-simulation: the verilated monitor RTL (Verilator --sc, Vmonitor_sc) behind the same TLM-2.0
// target sockets as the SystemC/TLM model (hw/monitor: one socket per SMI, one for the MMI),
// through a TLM-to-pin adapter. It stands in for the TLM monitor in a SystemC platform.
//
// Timing: monitor clock t is [t * period, (t + 1) * period); its rising edge is at
// t * period + period / 2. An access belongs to the clock of sc_time_stamp() + delay; the adapter
// waits until then, drives the pins before the edge (a held write stays on the pins while the
// SMI answers wait), samples the registered read data after the edge and returns at the start
// of the next clock (delay zero): one access per clock per socket, as a CPU bus cycle.
// Accesses: 2 or 4 bytes, 2-aligned, big-endian; a 4-byte access at +0 (DATA_HI, DATA_LO) or +8
// (LOST/STALL) is one move.l. Initiators are SC_THREADs (b_transport waits).
#pragma once
#include <Vmonitor_sc.h>

#include <testbed/memory_map.h>
#include <testbed/register_tables.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

namespace tbrtl {

class MonitorPins : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MonitorPins);
  static constexpr unsigned kSmi = 5;  // Vmonitor_sc is monitor_top at its default parameters

  std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<MonitorPins>>> smi;  // [k-1]
  tlm_utils::simple_target_socket<MonitorPins> mmi{"mmi"};

  explicit MonitorPins(sc_core::sc_module_name n, sc_core::sc_time period = sc_core::sc_time(100, sc_core::SC_NS))
      : sc_module(n), period_(period), rtl_("rtl") {
    for (unsigned k = 1; k <= kSmi; ++k) {
      smi.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<MonitorPins>>(
          sc_core::sc_gen_unique_name("smi")));
      smi.back()->register_b_transport(this, &MonitorPins::smi_transport, int(k));
    }
    mmi.register_b_transport(this, &MonitorPins::mmi_transport);
    rtl_.clk(clk_);
    rtl_.rst(rst_);
    rtl_.smi_wr(smi_wr_);
    rtl_.smi_addr(smi_addr_);
    rtl_.smi_wdata(smi_wdata_);
    rtl_.smi_wait(smi_wait_);
    rtl_.smi_rdata(smi_rdata_);
    rtl_.m_rd(m_rd_);
    rtl_.m_long(m_long_);
    rtl_.m_addr(m_addr_);
    rtl_.m_wr(m_wr_);
    rtl_.m_wdata(m_wdata_);
    rtl_.m_rdata(m_rdata_);
    rtl_.obs_ts(obs_ts_);
    rtl_.obs_wraps(obs_wraps_);
    rtl_.obs_smi_level(obs_smi_level_);
    rtl_.obs_smi_lost(obs_smi_lost_);
    rtl_.obs_mmi_level(obs_mmi_level_);
    rtl_.obs_stall_clocks(obs_stall_);
    rtl_.obs_poll(obs_poll_);
    rtl_.obs_poll_src(obs_poll_src_);
    rtl_.obs_poll_ack(obs_poll_ack_);
    rtl_.obs_stalled(obs_stalled_);
    SC_THREAD(clock_thread);
  }

  uint64_t bad_accesses() const { return bad_; }
  uint32_t mmi_level() const { return obs_mmi_level_.read(); }

 private:
  // Reset with one edge in delta cycles at time 0, then clock t's edge at t * period + period/2.
  void clock_thread() {
    rst_ = true;
    wait(sc_core::SC_ZERO_TIME);
    clk_ = true;
    wait(sc_core::SC_ZERO_TIME);
    clk_ = false;
    wait(sc_core::SC_ZERO_TIME);
    rst_ = false;
    wait(period_ / 2);
    for (;;) {
      clk_ = true;
      wait(period_ / 2);
      clk_ = false;
      wait(period_ / 2);
    }
  }

  uint64_t clock_at(const sc_core::sc_time& t) const { return t.value() / period_.value(); }
  sc_core::sc_time start_of(uint64_t c) const { return double(c) * period_; }
  // Waits until the access's own clock (or the next clock start if the edge has passed).
  uint64_t enter(sc_core::sc_time& delay) {
    sc_core::sc_time t = sc_core::sc_time_stamp() + delay;
    delay = sc_core::SC_ZERO_TIME;
    uint64_t c = clock_at(t);
    if (t >= start_of(c) + period_ * 0.4) ++c;  // too close to (or past) this clock's edge
    if (start_of(c) > sc_core::sc_time_stamp()) wait(start_of(c) - sc_core::sc_time_stamp());
    return c;
  }
  void after_edge(uint64_t c) { wait(start_of(c) + period_ * 0.6 - sc_core::sc_time_stamp()); }
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
    addr_ = (addr_ & ~(0xFu << (i * 4))) | a << (i * 4);
    smi_addr_ = addr_;
    if (p.is_write()) {
      unsigned char* d = p.get_data_ptr();
      wdata_.range(i * 16 + 15, i * 16) = uint16_t(d[0] << 8 | d[1]);
      smi_wdata_ = wdata_;
      wr_ |= 1u << i;
      smi_wr_ = wr_;
      for (;;) {  // wait states: hold the write until the SMI takes it at an edge
        wait(start_of(c) + period_ * 0.4 - sc_core::sc_time_stamp());
        if (!(smi_wait_.read() >> i & 1)) break;
        ++c;
      }
      after_edge(c);
      wr_ &= ~(1u << i);
      smi_wr_ = wr_;
    } else {
      after_edge(c);
      put(p, slice(smi_rdata_.read().range(i * 32 + 31, i * 32).to_uint(), a, len));
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
      m_addr_ = a;
      m_long_ = false;
      if (p.is_write()) {
        const unsigned char* d = p.get_data_ptr();
        m_wdata_ = uint32_t(d[0] << 8 | d[1]);
        m_wr_ = true;
      } else {
        m_rd_ = true;
      }
      after_edge(c);
      m_rd_ = false;
      m_wr_ = false;
      // The RTL answers a 32-bit register whole at its offset: a 16-bit read there is its high half.
      uint32_t v = m_rdata_.read();
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
    m_addr_ = a;
    m_long_ = len == 4;
    m_rd_ = true;
    after_edge(c);
    m_rd_ = false;
    put(p, slice(m_rdata_.read(), a, len));
    to_next_clock(c);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sc_core::sc_time period_;
  Vmonitor_sc rtl_;
  uint64_t bad_ = 0;
  // What all SMI initiators drive: each updates its own slice, the signal gets the whole.
  uint32_t wr_ = 0, addr_ = 0;
  sc_dt::sc_bv<80> wdata_;
  sc_core::sc_signal<bool> clk_{"clk"}, rst_{"rst"}, m_rd_{"m_rd"}, m_long_{"m_long"}, m_wr_{"m_wr"};
  sc_core::sc_signal<uint32_t> m_wdata_{"m_wdata"};
  // Driven by every SMI initiator (each writes the whole shadow, so the last write is right).
  sc_core::sc_signal<uint32_t, sc_core::SC_UNCHECKED_WRITERS> smi_wr_{"smi_wr"}, smi_addr_{"smi_addr"};
  sc_core::sc_signal<sc_dt::sc_bv<80>, sc_core::SC_UNCHECKED_WRITERS> smi_wdata_{"smi_wdata"};
  sc_core::sc_signal<uint32_t> smi_wait_{"smi_wait"};
  sc_core::sc_signal<sc_dt::sc_bv<160>> smi_rdata_{"smi_rdata"}, obs_smi_lost_{"obs_smi_lost"};
  sc_core::sc_signal<uint32_t> m_addr_{"m_addr"}, m_rdata_{"m_rdata"}, obs_ts_{"obs_ts"}, obs_wraps_{"obs_wraps"};
  sc_core::sc_signal<uint64_t> obs_smi_level_{"obs_smi_level"};
  sc_core::sc_signal<uint32_t> obs_mmi_level_{"obs_mmi_level"}, obs_stall_{"obs_stall"}, obs_poll_src_{"obs_poll_src"};
  sc_core::sc_signal<bool> obs_poll_{"obs_poll"}, obs_poll_ack_{"obs_poll_ack"}, obs_stalled_{"obs_stalled"};
};

}  // namespace tbrtl
