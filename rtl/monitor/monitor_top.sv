// The Testbed monitoring hardware in one clock domain: the global time-stamp counter, N_SMI Slave
// Monitoring Interfaces (sources 1..N_SMI), the monitoring bus (a wired-OR of the slaves) and the
// Master Monitoring Interface. Implements hw/monitor/MONITOR_SPEC.md clock for clock.
// CPU ports are packed per SMI: SMI i (source i+1) uses bits [i*W +: W].
module monitor_top #(
    parameter int N_SMI = 5,
    parameter int SMI_DEPTH = 1024,
    parameter int MMI_DEPTH = 512,
    parameter int TS_W = 16,
    parameter int TICK_DIV = 10,
    parameter int WORD_CLOCKS = 36,
    parameter int EMPTY_CLOCKS = 36,
    parameter int WRITE_GAP = 2,
    localparam int SCW = $clog2(SMI_DEPTH + 1),
    localparam int MCW = $clog2(MMI_DEPTH + 1)
) (
    input  logic                 clk,
    input  logic                 rst,
    // slave CPUs
    input  logic [N_SMI-1:0]     smi_wr,
    input  logic [N_SMI*4-1:0]   smi_addr,
    input  logic [N_SMI*16-1:0]  smi_wdata,
    output logic [N_SMI-1:0]     smi_wait,
    output logic [N_SMI*32-1:0]  smi_rdata,
    // master CPU
    input  logic                 m_rd,
    input  logic                 m_wr,      // one access per clock: m_rd or m_wr
    input  logic                 m_long,
    input  logic [7:0]           m_addr,
    input  logic [15:0]          m_wdata,
    output logic [31:0]          m_rdata,
    // observation: state after the last clock
    output logic [TS_W-1:0]      obs_ts,
    output logic [7:0]           obs_wraps,
    output logic [N_SMI*SCW-1:0] obs_smi_level,
    output logic [N_SMI*32-1:0]  obs_smi_lost,
    output logic [MCW-1:0]       obs_mmi_level,
    output logic [31:0]          obs_stall_clocks,
    output logic                 obs_poll,      // a slot started in the last clock
    output logic [3:0]           obs_poll_src,
    output logic                 obs_poll_ack,
    output logic                 obs_stalled
);
  logic [TS_W-1:0] ts;
  logic tick, wrap;
  logic [7:0] wraps;

  mon_timebase #(.TICK_DIV(TICK_DIV), .TS_W(TS_W)) u_time (.clk, .rst, .ts, .tick, .wrap, .wraps);

  // monitoring bus
  logic mb_poll, mb_xfer, mb_xfer_ev, mb_ack;
  logic [3:0] mb_poll_src, mb_xfer_src;
  logic [15:0] mb_data;
  logic [N_SMI-1:0] ack;
  logic [15:0] data[N_SMI];
  // the master's filter port
  logic [3:0] flt_sel;
  logic cfg_wr;
  logic [31:0] flt_rd[N_SMI];
  logic [31:0] flt_rdata;

  for (genvar i = 0; i < N_SMI; i++) begin : g_smi
    mon_smi #(.DEPTH(SMI_DEPTH), .TS_W(TS_W), .WRITE_GAP(WRITE_GAP), .SRC(4'(i + 1))) u_smi (
        .clk, .rst, .ts, .tick, .wrap, .wraps,
        .c_wr(smi_wr[i]), .c_addr(smi_addr[i*4+:4]), .c_wdata(smi_wdata[i*16+:16]),
        .c_wait(smi_wait[i]), .c_rdata(smi_rdata[i*32+:32]),
        .cfg_wr(cfg_wr && flt_sel == 4'(i + 1)), .cfg_addr(m_addr), .cfg_wdata(m_wdata),
        .flt_addr(m_addr), .flt_rdata(flt_rd[i]),
        .mb_poll, .mb_poll_src, .mb_xfer, .mb_xfer_src, .mb_xfer_ev,
        .mb_ack(ack[i]), .mb_data(data[i]),
        .level(obs_smi_level[i*SCW+:SCW]), .lost(obs_smi_lost[i*32+:32]));
  end

  assign mb_ack = |ack;
  always_comb begin
    mb_data = '0;
    flt_rdata = '0;
    for (int i = 0; i < N_SMI; i++) begin
      mb_data = mb_data | data[i];
      if (flt_sel == 4'(i + 1)) flt_rdata = flt_rd[i];
    end
  end

  mon_mmi #(.N_SMI(N_SMI), .DEPTH(MMI_DEPTH), .WORD_CLOCKS(WORD_CLOCKS),
            .EMPTY_CLOCKS(EMPTY_CLOCKS)) u_mmi (
      .clk, .rst,
      .mb_poll, .mb_poll_src, .mb_xfer, .mb_xfer_src, .mb_xfer_ev, .mb_ack, .mb_data,
      .m_rd, .m_wr, .m_long, .m_addr, .m_wdata(m_wdata[3:0]), .m_rdata, .flt_sel, .cfg_wr, .flt_rdata,
      .level(obs_mmi_level), .stall_clocks(obs_stall_clocks), .stalled(obs_stalled));

  always_ff @(posedge clk) begin
    if (rst) begin
      obs_ts <= '0;
      obs_wraps <= '0;
      obs_poll <= 1'b0;
      obs_poll_src <= '0;
      obs_poll_ack <= 1'b0;
    end else begin
      obs_ts <= ts;
      obs_wraps <= wraps;
      obs_poll <= mb_poll;
      obs_poll_src <= mb_poll_src;
      obs_poll_ack <= mb_ack;
    end
  end

`ifndef SYNTHESIS
  // Only the polled SMI answers, and only one SMI drives a data phase.
  always_ff @(posedge clk) begin
    if (!rst) a_ack_onehot : assert ($onehot0(ack));
  end
`endif
endmodule
