// Global time-stamp counter (MONITOR_SPEC.md step 1). At clock t > 0 with t mod TICK_DIV == 0
// the time stamp advances; when it wraps to 0, `wrap` pulses and `wraps` counts up (mod 256).
// Outputs are the values after step 1 of the current clock (combinational from the registers).
module mon_timebase #(
    parameter int TICK_DIV = 10,
    parameter int TS_W = 16,
    localparam int DW = (TICK_DIV > 1) ? $clog2(TICK_DIV) : 1
) (
    input  logic            clk,
    input  logic            rst,
    output logic [TS_W-1:0] ts,
    output logic            tick,     // the time stamp advances in this clock
    output logic            wrap,
    output logic [7:0]      wraps
);
  logic [DW-1:0] div;
  logic started;
  logic [TS_W-1:0] ts_q;
  logic [7:0] wraps_q;

  assign tick = started && div == '0;
  assign ts = tick ? ts_q + 1'b1 : ts_q;
  assign wrap = tick && ts == '0;
  assign wraps = wraps_q + 8'(wrap);

  always_ff @(posedge clk) begin
    if (rst) begin
      div <= '0;
      started <= 1'b0;
      ts_q <= '0;
      wraps_q <= '0;
    end else begin
      div <= (div == DW'(TICK_DIV - 1)) ? '0 : div + 1'b1;
      started <= 1'b1;
      ts_q <= ts;
      wraps_q <= wraps;
    end
  end
endmodule
