// Master Monitoring Interface (MONITOR_SPEC.md): the round-robin poller (monitoring-bus master),
// the FIFO of {4-bit source, 16-bit word} entries and the master's read port.
//
// Poller: `wait_q` is s - t, the clocks until the next slot may start (0: a slot is due now).
// At a due clock with >= 2 free entries it polls SMI k (poll phase). An answering SMI (mb_ack)
// is served by two data phases at t + WORD_CLOCKS (time stamp) and t + 2*WORD_CLOCKS (event),
// each pushing {k, word} into the FIFO; the next slot starts with the second data phase. A silent
// SMI costs EMPTY_CLOCKS. With < 2 free entries the poller stalls one clock on the same SMI.
// Register offsets and bits: the generated package testbed_regs_pkg (sw/tables/registers/monitor.toml).
// relative to rtl/ (-I rtl)
`include "generated/testbed_regs_pkg.sv"
module mon_mmi
#(
    parameter int N_SMI = 5,
    parameter int DEPTH = 512,
    parameter int WORD_CLOCKS = 36,
    parameter int EMPTY_CLOCKS = 36,
    localparam int CW = $clog2(DEPTH + 1),
    localparam int WW = $clog2(2 * WORD_CLOCKS + EMPTY_CLOCKS + 1)
) (
    input  logic          clk,
    input  logic          rst,
    // monitoring bus (master side)
    output logic          mb_poll,
    output logic [3:0]    mb_poll_src,
    output logic          mb_xfer,
    output logic [3:0]    mb_xfer_src,
    output logic          mb_xfer_ev,
    input  logic          mb_ack,
    input  logic [15:0]   mb_data,
    // master read port: 16-bit registers at byte offsets, STALL is 32-bit at +8 (halves at +8
    // bits 31..16 and +0xA bits 15..0); m_long with
    // m_addr == 0 is a move.l: DATA_HI in bits 31..16 and then DATA_LO in bits 15..0
    // The filter registers (offsets from FLT_SEL up): FLT_SEL lives here; the others are the
    // selected SMI's (cfg_* writes, flt_rdata reads); with no SMI selected writes are dropped and
    // reads give 0 (flt_rdata is 0 then).
    input  logic          m_rd,
    input  logic          m_wr,
    input  logic          m_long,
    input  logic [7:0]    m_addr,
    input  logic [3:0]    m_wdata,   // FLT_SEL.SMI (the other settings go to the SMIs)
    output logic [31:0]   m_rdata,   // registered: valid after the clock of the read
    output logic [3:0]    flt_sel,
    output logic          cfg_wr,
    input  logic [31:0]   flt_rdata,
    // observation (state after the last clock)
    output logic [CW-1:0] level,
    output logic [31:0]   stall_clocks,
    output logic          stalled    // the poller stalled in the last clock
);
  localparam logic [CW-1:0] FULL = CW'(DEPTH);
  localparam logic [7:0] A_DATA_HI = 8'(testbed_regs_pkg::TB_MON_MMI_DATA_HI_OFF), A_DATA_LO = 8'(testbed_regs_pkg::TB_MON_MMI_DATA_LO_OFF),
                         A_STATUS = 8'(testbed_regs_pkg::TB_MON_MMI_STATUS_OFF), A_LEVEL = 8'(testbed_regs_pkg::TB_MON_MMI_LEVEL_OFF),
                         A_STALL = 8'(testbed_regs_pkg::TB_MON_MMI_STALL_OFF), A_STALL_LO = 8'(testbed_regs_pkg::TB_MON_MMI_STALL_OFF + 16'd2),
                         A_FLT_SEL = 8'(testbed_regs_pkg::TB_MON_FLT_SEL_OFF);
  localparam logic [3:0] LAST_SMI = 4'(N_SMI);

  logic [3:0] k;               // SMI of the next slot
  logic [WW-1:0] wait_q;       // s - t
  logic xfer_active;           // a pair is on its way
  logic [3:0] xfer_src;
  logic [15:0] hold_word;
  logic [CW-1:0] count, count_next;
  logic [19:0] head;

  // step 3a: due data phases
  wire push_ts = xfer_active && wait_q == WW'(WORD_CLOCKS);
  wire push_ev = xfer_active && wait_q == '0;
  assign mb_xfer = push_ts || push_ev;
  assign mb_xfer_src = xfer_src;
  assign mb_xfer_ev = push_ev;
  wire [CW-1:0] count_a = count + CW'(mb_xfer);
  // step 3b: a slot is due
  wire due = wait_q == '0;
  wire room = (FULL - count_a) >= CW'(2);
  wire stall = due && !room;
  assign mb_poll = due && room;
  assign mb_poll_src = k;
  wire [3:0] k_next = (k == LAST_SMI) ? 4'd1 : k + 4'd1;
  // step 5: master read
  wire rd_hi = m_rd && m_addr == A_DATA_HI;
  wire pop = rd_hi && count_a != '0;

  mon_fifo #(.WIDTH(20), .DEPTH(DEPTH)) u_fifo (
      .clk, .rst,
      .push_a(mb_xfer), .data_a({xfer_src, mb_data}),
      .pop,
      .push_b(1'b0), .data_b('0),
      .head, .count, .count_next);

  wire [15:0] data_hi = pop ? 16'(head[19:16]) << testbed_regs_pkg::TB_MON_MMI_DATA_HI_SOURCE_SHIFT : testbed_regs_pkg::TB_MON_MMI_DATA_HI_EMPTY;
  wire [15:0] data_lo = pop ? head[15:0] : 16'd0;  // an empty read clears the holding register
  wire [31:0] stall_next = stall_clocks + 32'(stall);
  wire [15:0] status_next = (count_next == FULL ? testbed_regs_pkg::TB_MON_MMI_STATUS_FULL : 16'd0) |
                            (count_next == '0 ? testbed_regs_pkg::TB_MON_MMI_STATUS_EMPTY : 16'd0);

  assign level = count;
  wire sel_ok = flt_sel >= 4'd1 && flt_sel <= LAST_SMI;
  assign cfg_wr = m_wr && m_addr != A_FLT_SEL && sel_ok;

  always_ff @(posedge clk) begin
    if (rst) begin
      k <= 4'd1;
      wait_q <= '0;
      xfer_active <= 1'b0;
      xfer_src <= '0;
      hold_word <= '0;
      stall_clocks <= '0;
      stalled <= 1'b0;
      flt_sel <= '0;
      m_rdata <= '0;
    end else begin
      stalled <= stall;
      stall_clocks <= stall_next;
      if (push_ev) xfer_active <= 1'b0;
      if (mb_poll) begin
        k <= k_next;
        if (mb_ack) begin
          wait_q <= WW'(2 * WORD_CLOCKS - 1);
          xfer_active <= 1'b1;
          xfer_src <= k;
        end else begin
          wait_q <= WW'(EMPTY_CLOCKS - 1);
        end
      end else if (!due) begin
        wait_q <= wait_q - 1'b1;
      end
      if (rd_hi) hold_word <= data_lo;
      if (m_wr && m_addr == A_FLT_SEL) flt_sel <= m_wdata;
      if (m_rd) begin
        unique case (m_addr)
          A_DATA_HI: m_rdata <= m_long ? {data_hi, data_lo} : {16'd0, data_hi};
          A_DATA_LO: m_rdata <= {16'd0, hold_word};
          A_STATUS:  m_rdata <= 32'(status_next);
          A_LEVEL:   m_rdata <= 32'(count_next);
          A_STALL:   m_rdata <= stall_next;
          A_STALL_LO: m_rdata <= {16'd0, stall_next[15:0]};
          A_FLT_SEL: m_rdata <= {28'd0, flt_sel};
          default:   m_rdata <= m_addr > A_FLT_SEL ? flt_rdata : '0;
        endcase
      end
    end
  end

`ifndef SYNTHESIS
  // One pair per SMI per poll round: a round is the slots from SMI 1 to SMI N_SMI.
  // (Immediate assertions and covers: Verilator checks them, yosys's formal frontend proves them.)
  logic [N_SMI:1] served;
  always_ff @(posedge clk) begin
    if (rst) served <= '0;
    else if (mb_poll) begin
      if (k == 4'd1) served <= '0;
      if (mb_ack) served[k] <= 1'b1;
    end
  end
  always_ff @(posedge clk) begin
    if (!rst) begin
      if (mb_poll && mb_ack) a_one_pair_per_round : assert (k == 4'd1 || !served[k]);
      // A new pair is never accepted while the previous one is still on the bus.
      a_no_overlap : assert (!mb_ack || !xfer_active || push_ev);
      a_ack_only_when_polled : assert (!mb_ack || mb_poll);
      a_k_in_range : assert (k >= 4'd1 && k <= LAST_SMI);
      c_stall : cover (stall);
      c_bus_poll_ack : cover (mb_poll && mb_ack);
      c_bus_poll_empty : cover (mb_poll && !mb_ack);
      c_bus_xfer_ts : cover (push_ts);
      c_bus_xfer_ev : cover (push_ev);
      c_bus_ev_and_poll : cover (push_ev && mb_poll);
      c_read_empty : cover (rd_hi && !pop);
      c_filter_write_refused : cover (m_wr && m_addr != A_FLT_SEL && !sel_ok);
      c_read_bypass : cover (pop && count == '0);
    end
  end
`endif

`ifdef FORMAL
  // Model checking (rtl/formal/prove.py). Alone (FORMAL_MON_MMI) the MMI assumes the slaves'
  // side of the bus: an answer only to a poll (a_ack_only_when_polled, proved in monitor_top).
`ifdef FORMAL_MON_MMI
  initial assume (rst);
  always_comb if (!rst) assume (!mb_ack || mb_poll);
`endif
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk) f_past_valid <= 1'b1;
  localparam int SLOT = (2 * WORD_CLOCKS > EMPTY_CLOCKS) ? 2 * WORD_CLOCKS : EMPTY_CLOCKS;

  // The round: SMI f_k (any one, chosen by the solver) is polled within N_SMI slots of at most
  // SLOT clocks each, not counting the clocks the poller stalls on a full FIFO.
  (* anyconst *) logic [3:0] f_k;
  logic [15:0] f_wait;  // clocks since f_k was last polled (or since reset), stalls not counted
  wire [3:0] f_dist = (f_k >= k) ? f_k - k : f_k + LAST_SMI - k;  // slots before f_k's
  always_ff @(posedge clk) begin
    if (rst) f_wait <= '0;
    else if (mb_poll && k == f_k) f_wait <= '0;
    else if (!stall) f_wait <= f_wait + 16'd1;
  end
  logic [N_SMI:1] f_from_k;
  always_comb begin
    for (int j = 1; j <= N_SMI; j++) f_from_k[j] = 4'(j) >= k;
  end
  always_comb begin
    f_k_is_an_smi : assume (f_k >= 4'd1 && f_k <= LAST_SMI);
    if (f_past_valid) begin
      f_every_smi_polled_in_round : assert (32'(f_wait) <= N_SMI * SLOT);
      f_round_in_step : assert (32'(f_wait) + 32'(wait_q) + 32'(f_dist) * SLOT <= N_SMI * SLOT);
      f_wait_below_slot : assert (32'(wait_q) < SLOT);
      // The pair in flight always has room: no FIFO overflow, no stall mid-pair.
      if (xfer_active) f_pair_has_room : assert (32'(count) + (32'(wait_q) >= WORD_CLOCKS ? 2 : 1) <= DEPTH);
      // (for a_one_pair_per_round: the SMIs from k on are not yet served in this round)
      if (k != 4'd1) f_round_ahead_unserved : assert ((served & f_from_k) == '0);
      f_xfer_src_polled : assert (!xfer_active || (xfer_src >= 4'd1 && xfer_src <= LAST_SMI));
    end
  end
  always_ff @(posedge clk) begin
    if (f_past_valid && !rst && !$past(rst)) begin
      f_stall_counted : assert (stall_clocks == $past(stall_clocks) + 32'($past(stall)));
      // The data phases: the time stamp WORD_CLOCKS after the answer, the event WORD_CLOCKS later.
      if ($past(mb_poll && mb_ack)) f_pair_follows_answer : assert (xfer_active && xfer_src == $past(k) && 32'(wait_q) == 2 * WORD_CLOCKS - 1);
    end
    // Reset values: in the clock after reset STATUS and an empty DATA_HI read as sw/tables says.
    if (f_past_valid && $past(rst) && !rst)
      f_reset_values : assert (status_next == testbed_regs_pkg::TB_MON_MMI_STATUS_RESET && !pop &&
                               data_hi == testbed_regs_pkg::TB_MON_MMI_DATA_HI_RESET);
  end
  always_ff @(posedge clk) begin
    if (!rst) c_polled_after_stall : cover (mb_poll && k == f_k && f_wait > 16'(SLOT) && stall_clocks != '0);
  end
`endif
endmodule
