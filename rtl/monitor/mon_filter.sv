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

`ifdef FORMAL
  // Model checking (rtl/formal/prove.py). The filter's inputs need no contract: every property
  // holds for any sequence of events, settings writes and ticks.
`ifdef FORMAL_MON_FILTER
  initial assume (rst);
`endif
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk) f_past_valid <= 1'b1;

  // The decision, stage by stage, for an event's first word.
  wire [15:0] f_code_word = code_pass[info_index[6:4]];
  always_comb begin
    if (!rst && first) begin
      f_disabled_passes : assert (enable || ev_pass);
      f_masked_class_never_passes : assert (!(enable && !class_pass[cls_first]) || !ev_pass);
      f_masked_code_never_passes : assert (!(enable && code_known && !f_code_word[info_index[3:0]]) || !ev_pass);
      f_mismatch_never_passes : assert (!(enable && match_classes[cls_first] && ((ev_word ^ match_value) & match_mask) != '0)
                                        || !ev_pass);
      f_guard_full_never_passes : assert (!(enable && guarded && gcount_c >= guard_limit) || !ev_pass);
      f_all_stages_pass : assert (!(enable && class_ok && code_ok && match_ok && decim_ok && guard_ok) || ev_pass);
    end
  end
  // Continuation words share their first word's fate (as decided then, whatever changed since).
  logic f_fate;
  logic [3:0] f_fate_cls;
  always_ff @(posedge clk) begin
    if (rst) begin
      f_fate <= 1'b1;
      f_fate_cls <= '0;
    end else if (first) begin
      f_fate <= ev_pass;
      f_fate_cls <= cls_first;
    end
  end
  always_comb begin
    if (!rst && ev_wr && cont) f_continuation_shares_fate : assert (ev_pass == f_fate && cls == f_fate_cls);
  end

  // The rate guard passes at most guard_limit first words of a guarded class per window, and the
  // decimation count stays below its N.
  logic f_gcounts_le_limit;
  always_comb begin
    f_gcounts_le_limit = 1'b1;
    for (int c = 0; c < NC; c++) f_gcounts_le_limit = f_gcounts_le_limit && gcount[c] <= guard_limit;
  end
  always_comb begin
    if (f_past_valid) begin
      f_guard_count_le_limit : assert (f_gcounts_le_limit);
      f_decim_count_below_n : assert (dcount == '0 || dcount < decim_n);
    end
    if (!rst && first && enable && guarded && ev_pass) f_guard_counts_each_pass : assert (gcount_n[cls_first] == gcount_c + 16'd1);
  end

  // The counters add up: every accepted word is counted once, as passed or as filtered, in
  // its class (sums mod 2^32, as the 32-bit registers wrap).
  logic [31:0] f_words, f_passed;
  logic [31:0] f_sum_passed, f_sum_filtered;
  always_comb begin
    f_sum_passed = '0;
    f_sum_filtered = '0;
    for (int c = 0; c < NC; c++) begin
      f_sum_passed = f_sum_passed + passed[c];
      f_sum_filtered = f_sum_filtered + filtered[c];
    end
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      f_words <= '0;
      f_passed <= '0;
    end else begin
      f_words <= f_words + 32'(ev_wr);
      f_passed <= f_passed + 32'(ev_wr && ev_pass);
    end
  end
  always_comb begin
    if (f_past_valid) begin
      f_passed_counts_passes : assert (f_sum_passed == f_passed);
      f_counters_add_up : assert (f_sum_passed + f_sum_filtered == f_words);
    end
  end

  // Reset values: in the clock after reset every register reads as sw/tables says (the
  // generated constants where the table gives one, else 0).
  wire f_rd_code = rd_addr >= A_CODE && rd_addr < A_CODE + 8'd16 && !rd_addr[0];
  wire [31:0] f_reset_rd = rd_addr == A_CLASS ? 32'(testbed_regs_pkg::TB_MON_FLT_CLASS_PASS_RESET) :
                           f_rd_code ? 32'(testbed_regs_pkg::TB_MON_FLT_CODE_PASS_RESET) : '0;
  always_ff @(posedge clk) begin
    if (f_past_valid && $past(rst) && !rst && !ev_wr) f_reset_values : assert (rd_data == f_reset_rd && gen == '0);
  end
  always_ff @(posedge clk) begin
    if (!rst) begin
      c_continuation_of_masked_class : cover (ev_wr && cont && !f_fate && f_fate_cls != '0);
      c_guard_at_limit : cover (guard_on && guard_limit == 16'd2 && gcount[cls_first] == 16'd2 && first && guarded);
    end
  end
`endif
endmodule
