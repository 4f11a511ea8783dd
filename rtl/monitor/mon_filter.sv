// The SMI's event filter (MONITOR_SPEC.md "The event filter"; seed 000 section 2.2.4's
// "additional filtering logic"): decides, for each accepted CPU event write (step 4), whether the
// word goes on to the FIFO. Stages for an event's first word: class mask, code mask, data-word
// match, decimation (one in N), rate guard (per class, per window of time-stamp ticks).
// Continuation words share their first word's fate and class. The master's settings writes
// (step 5, through the MMI) take effect from the next clock and restart the decimation count and
// the guard's window; `changed` tells the SMI to queue a filter marker.
// Register offsets: testbed_regs_pkg; the code lookup: testbed_events_pkg (both generated).
// relative to rtl/ (-I rtl)
`include "generated/testbed_regs_pkg.sv"
`include "generated/testbed_events_pkg.sv"
module mon_filter
(
    input  logic        clk,
    input  logic        rst,
    input  logic        tick,       // the time stamp advanced in step 1 of this clock
    // step 4: an accepted event write
    input  logic        ev_wr,
    input  logic [15:0] ev_word,
    output logic        ev_pass,
    // step 5: the master's settings write and register read (MON offsets)
    input  logic        cfg_wr,
    input  logic [7:0]  cfg_addr,
    input  logic [15:0] cfg_wdata,
    output logic        changed,    // a settings register was written
    input  logic [7:0]  rd_addr,
    output logic [31:0] rd_data,    // the register after this clock's step 4 (combinational)
    output logic [7:0]  gen         // settings changes mod 256 (the filter marker's nn)
);
  localparam int NC = 16;
  localparam logic [7:0] A_CTL = 8'(testbed_regs_pkg::TB_MON_FLT_CTL_OFF), A_CLASS = 8'(testbed_regs_pkg::TB_MON_FLT_CLASS_PASS_OFF),
      A_MCLS = 8'(testbed_regs_pkg::TB_MON_FLT_MATCH_CLASSES_OFF), A_MVAL = 8'(testbed_regs_pkg::TB_MON_FLT_MATCH_VALUE_OFF),
      A_MMASK = 8'(testbed_regs_pkg::TB_MON_FLT_MATCH_MASK_OFF), A_DSEL = 8'(testbed_regs_pkg::TB_MON_FLT_DECIM_SEL_OFF),
      A_DN = 8'(testbed_regs_pkg::TB_MON_FLT_DECIM_N_OFF), A_GCLS = 8'(testbed_regs_pkg::TB_MON_FLT_GUARD_CLASSES_OFF),
      A_GLIM = 8'(testbed_regs_pkg::TB_MON_FLT_GUARD_LIMIT_OFF), A_GWIN = 8'(testbed_regs_pkg::TB_MON_FLT_GUARD_WINDOW_OFF),
      A_TRIP = 8'(testbed_regs_pkg::TB_MON_FLT_TRIPPED_OFF), A_GDROP = 8'(testbed_regs_pkg::TB_MON_FLT_GUARD_DROPS_OFF),
      A_CODE = 8'(testbed_regs_pkg::TB_MON_FLT_CODE_PASS0_OFF), A_PASSED = 8'(testbed_regs_pkg::TB_MON_FLT_PASSED0_OFF),
      A_FILTERED = 8'(testbed_regs_pkg::TB_MON_FLT_FILTERED0_OFF);

  // settings
  logic enable;
  logic [15:0] class_pass, match_classes, match_value, match_mask, decim_sel, decim_n;
  logic [15:0] guard_classes, guard_limit, window;
  logic [15:0] code_pass[8];
  // state
  logic [15:0] dcount, wcount;
  logic [15:0] gcount[NC];
  logic [1:0] follow_left;
  logic follow_pass;
  logic [3:0] follow_cls;
  logic [31:0] passed[NC], filtered[NC];
  logic [31:0] guard_drops;

  // --- step 1: the guard's window ends after `window` ticks ---
  wire guard_on = window != '0;
  wire new_window = guard_on && tick && wcount + 16'd1 == window;
  wire [15:0] wcount_t = new_window ? '0 : wcount + 16'(tick);

  // --- step 4: classify ---
  wire [13:0] info_w = testbed_events_pkg::ev_info(ev_word[13:0]);
  wire info_known = info_w[13];
  wire [3:0] info_cls = info_w[12:9];
  wire [6:0] info_index = info_w[8:2];
  wire [1:0] info_follows = info_w[1:0];
  wire cont = follow_left != '0;
  wire sched = ev_word[14];
  wire [3:0] cls_first = sched ? testbed_events_pkg::EV_FILTER_CLASS_SCHED : info_cls;
  wire [1:0] follows = !ev_word[15] ? 2'd0 : (sched || !info_known) ? 2'd1 : info_follows;
  wire code_known = !sched && info_known;
  wire [15:0] code_word = code_pass[info_index[6:4]];
  wire code_ok = !code_known || code_word[info_index[3:0]];
  wire class_ok = class_pass[cls_first];
  wire match_ok = !match_classes[cls_first] || ((ev_word & match_mask) == (match_value & match_mask));
  wire decim_sel_hit = decim_sel[15] ? cls_first == decim_sel[3:0] : ev_word[14:0] == decim_sel[14:0];
  wire decim_on = decim_sel_hit && decim_n > 16'd1;
  wire decim_ok = !decim_on || dcount == '0;
  wire guarded = guard_on && guard_classes[cls_first];
  wire [15:0] gcount_c = new_window ? '0 : gcount[cls_first];
  wire guard_ok = !guarded || gcount_c < guard_limit;
  // Each stage sees only what the ones before it passed.
  wire at_decim = enable && class_ok && code_ok && match_ok;
  wire at_guard = at_decim && decim_ok;
  wire pass_first = !enable || (at_guard && guard_ok);
  wire first = ev_wr && !cont;
  assign ev_pass = cont ? follow_pass : pass_first;
  wire [3:0] cls = cont ? follow_cls : cls_first;

  // --- step 5: settings ---
  wire is_code = cfg_addr >= A_CODE && cfg_addr < A_CODE + 8'd16 && !cfg_addr[0];
  wire writable = cfg_addr == A_CTL || cfg_addr == A_CLASS || cfg_addr == A_MCLS || cfg_addr == A_MVAL ||
                  cfg_addr == A_MMASK || cfg_addr == A_DSEL || cfg_addr == A_DN || cfg_addr == A_GCLS ||
                  cfg_addr == A_GLIM || cfg_addr == A_GWIN || is_code;
  assign changed = cfg_wr && writable;

  // --- next state (for reads after step 4) ---
  logic [31:0] passed_n[NC], filtered_n[NC];
  logic [15:0] gcount_n[NC];
  logic [31:0] guard_drops_n;
  logic [15:0] tripped_n;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      passed_n[c] = passed[c] + 32'(ev_wr && ev_pass && cls == 4'(c));
      filtered_n[c] = filtered[c] + 32'(ev_wr && !ev_pass && cls == 4'(c));
      gcount_n[c] = new_window ? '0 : gcount[c];
    end
    if (first && at_guard && guarded && guard_ok) gcount_n[cls_first] = gcount_c + 16'd1;
    guard_drops_n = guard_drops + 32'(first && at_guard && guarded && !guard_ok);
    for (int c = 0; c < NC; c++)
      tripped_n[c] = guard_on && guard_classes[c] && gcount_n[c] >= guard_limit;
  end

  // The arrays are aligned (checked below), so an element's number is a slice of the offset.
  if (A_CODE[3:0] != '0 || A_PASSED[5:0] != '0 || A_FILTERED[5:0] != '0)
    $error("mon_filter: FLT_CODE_PASS must be 16-aligned, FLT_PASSED and FLT_FILTERED 64-aligned");
  always_comb begin
    rd_data = '0;
    unique case (rd_addr)
      A_CTL: rd_data = 32'({gen, 7'd0, enable});
      A_CLASS: rd_data = 32'(class_pass);
      A_MCLS: rd_data = 32'(match_classes);
      A_MVAL: rd_data = 32'(match_value);
      A_MMASK: rd_data = 32'(match_mask);
      A_DSEL: rd_data = 32'(decim_sel);
      A_DN: rd_data = 32'(decim_n);
      A_GCLS: rd_data = 32'(guard_classes);
      A_GLIM: rd_data = 32'(guard_limit);
      A_GWIN: rd_data = 32'(window);
      A_TRIP: rd_data = 32'(tripped_n);
      A_GDROP: rd_data = guard_drops_n;
      A_GDROP + 8'd2: rd_data = {16'd0, guard_drops_n[15:0]};
      default: begin
        if (rd_addr >= A_CODE && rd_addr < A_CODE + 8'd16 && !rd_addr[0]) rd_data = 32'(code_pass[rd_addr[3:1]]);
        else if (rd_addr >= A_PASSED && rd_addr < A_PASSED + 8'd64 && !rd_addr[0])
          rd_data = rd_addr[1] ? {16'd0, passed_n[rd_addr[5:2]][15:0]} : passed_n[rd_addr[5:2]];
        else if (rd_addr >= A_FILTERED && rd_addr < A_FILTERED + 8'd64 && !rd_addr[0])
          rd_data = rd_addr[1] ? {16'd0, filtered_n[rd_addr[5:2]][15:0]} : filtered_n[rd_addr[5:2]];
      end
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      enable <= 1'b0;
      class_pass <= testbed_regs_pkg::TB_MON_FLT_CLASS_PASS_RESET;
      match_classes <= '0;
      match_value <= '0;
      match_mask <= '0;
      decim_sel <= '0;
      decim_n <= '0;
      guard_classes <= '0;
      guard_limit <= '0;
      window <= '0;
      for (int i = 0; i < 8; i++) code_pass[i] <= testbed_regs_pkg::TB_MON_FLT_CODE_PASS_RESET;
      gen <= '0;
      dcount <= '0;
      wcount <= '0;
      for (int c = 0; c < NC; c++) begin
        gcount[c] <= '0;
        passed[c] <= '0;
        filtered[c] <= '0;
      end
      follow_left <= '0;
      follow_pass <= 1'b1;
      follow_cls <= '0;
      guard_drops <= '0;
    end else begin
      for (int c = 0; c < NC; c++) begin
        passed[c] <= passed_n[c];
        filtered[c] <= filtered_n[c];
      end
      guard_drops <= guard_drops_n;
      if (ev_wr) begin
        if (cont) begin
          follow_left <= follow_left - 2'd1;
        end else begin
          follow_left <= follows;
          follow_pass <= pass_first;
          follow_cls <= cls_first;
        end
      end
      if (changed) begin
        // A new window 0 and a new decimation count start with the new settings.
        gen <= gen + 8'd1;
        dcount <= '0;
        wcount <= '0;
        for (int c = 0; c < NC; c++) gcount[c] <= '0;
        unique case (cfg_addr)
          A_CTL: enable <= cfg_wdata[0];
          A_CLASS: class_pass <= cfg_wdata;
          A_MCLS: match_classes <= cfg_wdata;
          A_MVAL: match_value <= cfg_wdata;
          A_MMASK: match_mask <= cfg_wdata;
          A_DSEL: decim_sel <= cfg_wdata;
          A_DN: decim_n <= cfg_wdata;
          A_GCLS: guard_classes <= cfg_wdata;
          A_GLIM: guard_limit <= cfg_wdata;
          A_GWIN: window <= cfg_wdata;
          default: code_pass[cfg_addr[3:1]] <= cfg_wdata;
        endcase
      end else begin
        wcount <= wcount_t;
        for (int c = 0; c < NC; c++) gcount[c] <= gcount_n[c];
        if (first && at_decim && decim_on) dcount <= (dcount + 16'd1 == decim_n) ? '0 : dcount + 16'd1;
      end
    end
  end

`ifndef SYNTHESIS
  // Every path of the filter (the regression requires each to be hit).
  always_ff @(posedge clk) begin
    if (!rst) begin
      c_pass_disabled : cover (first && !enable);
      c_drop_class : cover (first && enable && !class_ok);
      c_drop_code : cover (first && enable && class_ok && !code_ok);
      c_drop_match : cover (first && enable && class_ok && code_ok && !match_ok);
      c_match_pass : cover (first && enable && match_classes[cls_first] && match_ok);
      c_decim_keep : cover (first && at_decim && decim_on && decim_ok);
      c_drop_decim : cover (first && at_decim && !decim_ok);
      c_guard_count : cover (first && at_guard && guarded && guard_ok);
      c_drop_guard : cover (first && at_guard && guarded && !guard_ok);
      c_new_window : cover (new_window);
      c_cont_pass : cover (ev_wr && cont && follow_pass);
      c_cont_drop : cover (ev_wr && cont && !follow_pass);
      c_sched_word : cover (first && sched);
      c_other_code : cover (first && !sched && !info_known);
      c_settings_write : cover (changed);
      c_settings_and_event : cover (changed && ev_wr);
      c_refused_write : cover (cfg_wr && !writable);
    end
  end
`endif
endmodule
