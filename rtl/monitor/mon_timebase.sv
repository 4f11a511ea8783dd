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

`ifdef FORMAL
  // Model checking (rtl/formal/prove.py): the spec's clock, time stamp and wrap marker.
`ifdef FORMAL_MON_TIMEBASE
  initial assume (rst);
`endif
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk) f_past_valid <= 1'b1;
  // Clocks since the last tick, counted from clock 0 after reset: the spec ticks at clock t > 0
  // with t mod TICK_DIV == 0, so a tick comes exactly when this reaches TICK_DIV.
  logic [DW:0] f_since;
  always_ff @(posedge clk) begin
    if (rst) f_since <= '0;
    else f_since <= tick ? (DW + 1)'(1) : f_since + 1'b1;
  end
  always_comb begin
    if (f_past_valid) begin
      f_tick_every_tick_div : assert (tick == (32'(f_since) == TICK_DIV));
      f_since_le_div : assert (32'(f_since) <= TICK_DIV);
      f_div_in_step : assert (32'(div) == 32'(f_since) % TICK_DIV && started == (f_since != '0));
    end
  end
  always_ff @(posedge clk) begin
    if (f_past_valid && !rst) begin
      if ($past(rst)) begin
        f_reset_values : assert (ts == '0 && wraps == '0 && !tick && !wrap);
      end else begin
        f_ts_counts_ticks : assert (ts == $past(ts) + TS_W'(tick));
        // The wrap marker: exactly when a tick takes the time stamp from all ones to 0.
        f_wrap_iff_ts_wraps : assert (wrap == (tick && $past(ts) == '1));
        f_wraps_counts_wraps : assert (wraps == $past(wraps) + 8'(wrap));
      end
    end
  end
  always_ff @(posedge clk) begin
    if (!rst) begin
      c_tick : cover (tick);
      c_wrap : cover (wrap);
      c_second_wrap : cover (wrap && wraps == 8'd2);
    end
  end
`endif
endmodule
