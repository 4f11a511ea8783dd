// Slave Monitoring Interface (MONITOR_SPEC.md): CPU write port (EVENT) with write-gap wait
// states, STATUS/LEVEL/LOST registers, the event FIFO of {time stamp, event} entries, wrap
// markers, and the monitoring-bus slave.
//
// Monitoring bus (slave side; the MMI is the only master, see mon_mmi.sv):
//   poll phase   mb_poll & mb_poll_src == SRC: if the FIFO holds an entry (after this clock's
//                wrap marker) the SMI pops its head into the bus holding register and answers
//                mb_ack = 1 in the same clock; an empty SMI leaves mb_ack = 0.
//   data phases  mb_xfer & mb_xfer_src == SRC: the SMI drives one 16-bit word of the held entry
//                on mb_data (mb_xfer_ev = 0: time stamp, 1: event); otherwise it drives 0, so
//                the bus is the OR of all slaves.
// Event filter (mon_filter.sv) between the CPU write and the FIFO, programmed by the master
// through the MMI (cfg_*, flt_*). A settings change queues a filter marker {ts, 0xABnn}; markers
// take one FIFO entry per step (a wrap marker first), and an event that finds a marker still
// waiting is lost (markers enter before any later event).
// Register offsets and bits: the generated package testbed_regs_pkg (sw/tables/registers/monitor.toml).
// relative to rtl/ (-I rtl)
`include "generated/testbed_regs_pkg.sv"
`include "generated/testbed_events_pkg.sv"
module mon_smi
#(
    parameter int DEPTH = 1024,
    parameter int TS_W = 16,
    parameter int WRITE_GAP = 2,
    parameter logic [3:0] SRC = 4'd1,
    localparam int CW = $clog2(DEPTH + 1),
    localparam int GW = (WRITE_GAP > 1) ? $clog2(WRITE_GAP) : 1
) (
    input  logic            clk,
    input  logic            rst,
    // global time stamp after step 1 of this clock
    input  logic [TS_W-1:0] ts,
    input  logic            tick,
    input  logic            wrap,
    input  logic [7:0]      wraps,
    // CPU port: c_rdata is the register at byte offset c_addr (16-bit ones in bits 15..0); LOST
    // is 32-bit at +8 (a move.l), its halves at +8 (bits 31..16) and +0xA (bits 15..0)
    input  logic            c_wr,       // write strobe, held while c_wait
    input  logic [3:0]      c_addr,
    input  logic [15:0]     c_wdata,
    output logic            c_wait,     // write held: closer than WRITE_GAP to the previous one
    output logic [31:0]     c_rdata,    // register at c_addr, after this clock (registered)
    // the master's filter port (MMI, step 5): settings write, register read
    input  logic            cfg_wr,
    input  logic [7:0]      cfg_addr,
    input  logic [15:0]     cfg_wdata,
    input  logic [7:0]      flt_addr,
    output logic [31:0]     flt_rdata,  // the filter register at flt_addr after step 4 (combinational)
    // monitoring bus
    input  logic            mb_poll,
    input  logic [3:0]      mb_poll_src,
    input  logic            mb_xfer,
    input  logic [3:0]      mb_xfer_src,
    input  logic            mb_xfer_ev,
    output logic            mb_ack,
    output logic [15:0]     mb_data,
    // observation (state after the last clock)
    output logic [CW-1:0]   level,
    output logic [31:0]     lost
);
  localparam logic [CW-1:0] FULL = CW'(DEPTH);
  localparam int EW = TS_W + 16;
  localparam logic [3:0] A_EVENT = 4'(testbed_regs_pkg::TB_MON_SMI_EVENT_OFF), A_STATUS = 4'(testbed_regs_pkg::TB_MON_SMI_STATUS_OFF),
                         A_LEVEL = 4'(testbed_regs_pkg::TB_MON_SMI_LEVEL_OFF), A_LOST = 4'(testbed_regs_pkg::TB_MON_SMI_LOST_OFF),
                         A_LOST_LO = 4'(testbed_regs_pkg::TB_MON_SMI_LOST_OFF + 16'd2);

  logic marker_pending, fmarker_pending;
  logic [GW-1:0] gap;
  logic [EW-1:0] hold;
  logic [CW-1:0] count, count_next;
  logic [EW-1:0] head;

  logic [7:0] gen;
  localparam logic [7:0] WRAP_TAG = testbed_events_pkg::EV_WRAP_MARKER_VALUE[15:8]; // the wrap marker's tag (events.toml)
  wire [EW-1:0] marker = {ts, WRAP_TAG, wraps};
  wire [EW-1:0] fmarker = {ts, testbed_events_pkg::EV_FILTER_MARKER_VALUE[15:8], gen};
  wire [EW-1:0] event_entry = {ts, c_wdata};

  // step 2: one pending marker (a wrap marker first) enters if there is room
  wire pend = marker_pending || wrap;
  wire mark_a = (pend || fmarker_pending) && count != FULL;
  wire pend_a = pend && !mark_a;
  wire fpend_a = fmarker_pending && !(mark_a && !pend);
  wire [CW-1:0] count_a = count + CW'(mark_a);
  // step 3: the poller pops the head
  wire pop = mb_poll && mb_poll_src == SRC && count_a != '0;
  wire [CW-1:0] count_p = count_a - CW'(pop);
  // step 4: CPU event write; a pending marker that now finds room goes first
  wire gap_ok = gap == '0;
  wire is_event = c_wr && c_addr == A_EVENT;
  wire wr_acc = is_event && gap_ok;
  wire mark_b = wr_acc && (pend_a || fpend_a) && !mark_a && count_p != FULL;
  wire pend_b = pend_a && !mark_b;
  wire fpend_b = fpend_a && !(mark_b && !pend_a);
  wire ev_pass;
  wire flt_changed;
  mon_filter u_filter (
      .clk, .rst, .tick,
      .ev_wr(wr_acc), .ev_word(c_wdata), .ev_pass,
      .cfg_wr, .cfg_addr, .cfg_wdata, .changed(flt_changed),
      .rd_addr(flt_addr), .rd_data(flt_rdata), .gen);
  // A marker still waiting keeps its place ahead of the event: the event is lost.
  wire ev_push = wr_acc && ev_pass && !mark_b && !pend_b && !fpend_b && count_p != FULL;
  wire ev_lost = wr_acc && ev_pass && !ev_push;

  assign c_wait = is_event && !gap_ok;
  assign mb_ack = pop;
  assign mb_data = (mb_xfer && mb_xfer_src == SRC) ? (mb_xfer_ev ? hold[15:0] : 16'(hold[EW-1:16])) : '0;
  assign level = count;

  mon_fifo #(.WIDTH(EW), .DEPTH(DEPTH)) u_fifo (
      .clk, .rst,
      .push_a(mark_a), .data_a(pend ? marker : fmarker),
      .pop,
      .push_b(mark_b || ev_push), .data_b(mark_b ? (pend_a ? marker : fmarker) : event_entry),
      .head, .count, .count_next);

  wire [31:0] lost_next = lost + 32'(ev_lost);
  // FULL: the next event would be lost, so a pending marker counts as the entry it will take.
  wire pend_next = pend_b;
  wire fpend_next = fpend_b || flt_changed;
  // (a filter marker queued by this clock's step 5 is not yet counted: STATUS reads after step 4)
  wire full_next = {1'b0, count_next} + (CW + 1)'(pend_next) + (CW + 1)'(fpend_b) >= {1'b0, FULL};
  wire empty_next = count_next == '0;
  wire [15:0] status_next = (full_next ? testbed_regs_pkg::TB_MON_SMI_STATUS_FULL : 16'd0) | (empty_next ? testbed_regs_pkg::TB_MON_SMI_STATUS_EMPTY : 16'd0);

  always_ff @(posedge clk) begin
    if (rst) begin
      marker_pending <= 1'b0;
      fmarker_pending <= 1'b0;
      gap <= '0;
      hold <= '0;
      lost <= '0;
      c_rdata <= '0;
    end else begin
      marker_pending <= pend_next;
      fmarker_pending <= fpend_next;
      if (wr_acc) gap <= GW'(WRITE_GAP - 1);
      else if (!gap_ok) gap <= gap - 1'b1;
      if (pop) hold <= head;
      lost <= lost_next;
      unique case (c_addr)
        A_STATUS: c_rdata <= 32'(status_next);
        A_LEVEL:  c_rdata <= 32'(count_next);
        A_LOST:   c_rdata <= lost_next;
        A_LOST_LO: c_rdata <= {16'd0, lost_next[15:0]};
        default:  c_rdata <= '0;
      endcase
    end
  end

`ifndef SYNTHESIS
  // The SMI's corners (the regression requires each to be hit; the formal cover run reaches them).
  always_ff @(posedge clk) begin
    if (!rst) begin
      c_event_lost : cover (ev_lost);
      c_event_filtered : cover (wr_acc && !ev_pass);
      c_fmarker_step2 : cover (mark_a && !pend);
      c_fmarker_waits : cover (fpend_b);
      c_fmarker_step4 : cover (mark_b && !pend_a);
      c_marker_waits : cover (pend && !mark_a && !mark_b);
      c_marker_after_pop : cover (mark_b);
      c_write_wait : cover (c_wait);
      c_poll_empty : cover (mb_poll && mb_poll_src == SRC && !pop);
      c_poll_pop : cover (pop);
    end
  end
`endif

`ifdef FORMAL
  // Model checking (rtl/formal/prove.py). Alone (FORMAL_MON_SMI) the SMI assumes what the time
  // base promises (a wrap only with a tick); in monitor_top that is proved of mon_timebase.
`ifdef FORMAL_MON_SMI
  initial assume (rst);
  always_comb assume (!wrap || tick);
`endif
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk) f_past_valid <= 1'b1;

  // Accounting: every accepted event write is pushed into the FIFO, counted LOST, or filtered,
  // exactly once (32-bit sums wrap as LOST does).
  logic [31:0] f_accepted, f_pushed, f_filtered;
  always_ff @(posedge clk) begin
    if (rst) begin
      f_accepted <= '0;
      f_pushed <= '0;
      f_filtered <= '0;
    end else begin
      f_accepted <= f_accepted + 32'(wr_acc);
      f_pushed <= f_pushed + 32'(ev_push);
      f_filtered <= f_filtered + 32'(wr_acc && !ev_pass);
    end
  end
  // Markers: each wrap (or settings change) that finds none waiting queues one marker, which
  // enters the FIFO exactly once.
  wire f_wmark_in = (mark_a && pend) || (mark_b && pend_a);
  wire f_fmark_in = (mark_a && !pend) || (mark_b && !pend_a);
  logic [31:0] f_wrap_req, f_wrap_in, f_flt_req, f_flt_in;
  always_ff @(posedge clk) begin
    if (rst) begin
      f_wrap_req <= '0;
      f_wrap_in <= '0;
      f_flt_req <= '0;
      f_flt_in <= '0;
    end else begin
      f_wrap_req <= f_wrap_req + 32'(wrap && !marker_pending);
      f_wrap_in <= f_wrap_in + 32'(f_wmark_in);
      f_flt_req <= f_flt_req + 32'(flt_changed && !fpend_b);
      f_flt_in <= f_flt_in + 32'(f_fmark_in);
    end
  end
  always_comb begin
    if (f_past_valid) begin
      f_every_event_accounted : assert (f_accepted == f_pushed + lost + f_filtered);
      f_wrap_markers_kept : assert (f_wrap_req == f_wrap_in + 32'(marker_pending));
      f_filter_markers_kept : assert (f_flt_req == f_flt_in + 32'(fmarker_pending));
    end
    if (!rst) begin
      // An event is lost only when it finds no room: the FIFO full or a marker still waiting.
      if (ev_lost) f_lost_only_without_room : assert (count_next == FULL || pend_b || fpend_b);
      // A wrap marker enters before any event written after its wrap.
      if (ev_push) f_markers_before_events : assert (!pend_b && !fpend_b);
      if (f_wmark_in) f_wrap_marker_entry : assert ((mark_a ? (pend ? marker : fmarker) : (pend_a ? marker : fmarker)) == {ts, WRAP_TAG, wraps});
      // The bus: only the polled SMI answers, only with an entry; it drives only its own phases.
      f_ack_only_polled_nonempty : assert (!mb_ack || (mb_poll && mb_poll_src == SRC && count_a != '0));
      f_bus_quiet_unless_addressed : assert (mb_data == '0 || (mb_xfer && mb_xfer_src == SRC));
    end
  end
  // The write gap: accepted writes at least WRITE_GAP clocks apart.
  logic [7:0] f_since_write;
  always_ff @(posedge clk) begin
    if (rst) f_since_write <= 8'(WRITE_GAP);
    else f_since_write <= wr_acc ? 8'd1 : (f_since_write == 8'hFF ? f_since_write : f_since_write + 8'd1);
  end
  always_ff @(posedge clk) begin
    if (!rst && wr_acc) f_write_gap_kept : assert (32'(f_since_write) >= WRITE_GAP);
    if (f_past_valid && !rst) f_gap_in_step : assert (f_since_write >= 8'(WRITE_GAP) || 32'(gap) == WRITE_GAP - 32'(f_since_write));
    // Reset values: in the clock after reset STATUS, LEVEL and LOST read as sw/tables says.
    if (f_past_valid && $past(rst) && !rst && !wrap && !is_event && !flt_changed)
      f_reset_values : assert (status_next == testbed_regs_pkg::TB_MON_SMI_STATUS_RESET && count_next == '0 && lost_next == '0);
  end
  always_ff @(posedge clk) begin
    if (!rst) c_lost_and_wrap_marker_waits : cover (ev_lost && pend_b);
  end
`endif
endmodule
