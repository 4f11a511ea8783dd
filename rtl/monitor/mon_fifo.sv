// Synchronous FIFO used by the SMI (1024 x 32) and the MMI (512 x 20), one clock domain.
// Up to two pushes and one pop per clock, in the order of MONITOR_SPEC.md:
//   push_a (before the pop), then pop, then push_b (after the pop).
// The pop sees an entry pushed by push_a in the same clock (bypass), so `head` is the entry the
// pop takes. The user checks room/contents with `count`; assertions catch a push into a full
// FIFO and a pop from an empty one.
module mon_fifo #(
    parameter int WIDTH = 32,
    parameter int DEPTH = 1024,
    localparam int CW = $clog2(DEPTH + 1),
    localparam int PW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
    input  logic             clk,
    input  logic             rst,
    input  logic             push_a,
    input  logic [WIDTH-1:0] data_a,
    input  logic             pop,
    input  logic             push_b,
    input  logic [WIDTH-1:0] data_b,
    output logic [WIDTH-1:0] head,     // entry taken by `pop` this clock
    output logic [CW-1:0]    count,    // entries in use at the start of this clock
    output logic [CW-1:0]    count_next  // entries in use after this clock
);
  localparam logic [CW-1:0] FULL = CW'(DEPTH);
  localparam logic [PW-1:0] LAST = PW'(DEPTH - 1);

  logic [WIDTH-1:0] mem[DEPTH];
  logic [PW-1:0] rp, wp;

  function automatic logic [PW-1:0] inc(input logic [PW-1:0] p);
    inc = (p == LAST) ? '0 : p + 1'b1;  // (no `return`: yosys 0.23 reads this form)
  endfunction

  wire [PW-1:0] wp_b = push_a ? inc(wp) : wp;
  assign head = (count == '0) ? data_a : mem[rp];
  assign count_next = count + CW'(push_a) - CW'(pop) + CW'(push_b);

  always_ff @(posedge clk) begin
    if (push_a) mem[wp] <= data_a;
    if (push_b) mem[wp_b] <= data_b;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      rp <= '0;
      wp <= '0;
      count <= '0;
    end else begin
      if (pop) rp <= inc(rp);
      if (push_b) wp <= inc(wp_b);
      else wp <= wp_b;
      count <= count_next;
    end
  end

`ifndef SYNTHESIS
  // A push never finds the FIFO full; a pop never finds it empty. Immediate assertions and
  // covers: Verilator checks them in simulation, and yosys's formal frontend (which has no
  // concurrent `property` with a clocking event) proves them (rtl/formal).
  wire [CW-1:0] count_a = count + CW'(push_a);
  wire [CW-1:0] count_p = count_a - CW'(pop);
  always_ff @(posedge clk) begin
    if (!rst) begin
      a_push_a_not_full : assert (!(push_a && count == FULL));
      a_pop_not_empty : assert (!(pop && count_a == '0));
      a_push_b_not_full : assert (!(push_b && count_p == FULL));
      c_full : cover (count == FULL);
      c_empty : cover (count == '0);
      c_fill_to_full : cover (count != FULL && count_next == FULL);
      c_drain_to_empty : cover (count != '0 && count_next == '0);
      c_pop_bypass : cover (count == '0 && push_a && pop);
    end
  end

`ifdef FORMAL
  // Model checking (rtl/formal/prove.py). Alone (FORMAL_MON_FIFO) the FIFO assumes its user's
  // contract, the three assertions above; inside the SMI and the MMI they are proved of them.
`ifdef FORMAL_MON_FIFO
  initial assume (rst);
  always_comb begin
    if (!rst) begin
      assume (!(push_a && count == FULL));
      assume (!(pop && count_a == '0));
      assume (!(push_b && count_p == FULL));
    end
  end
`endif
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk) f_past_valid <= 1'b1;

  // Occupancy: never above DEPTH, and the pointers are `count` apart (mod DEPTH), in range.
  always_comb begin
    if (f_past_valid) begin
      f_count_le_depth : assert (count <= FULL);
      f_rp_in_range : assert (32'(rp) < DEPTH);
      f_wp_in_range : assert (32'(wp) < DEPTH);
      f_pointers_count_apart : assert (32'(wp) == (32'(rp) + 32'(count)) % DEPTH);
    end
  end
  always_ff @(posedge clk) begin
    if (f_past_valid && $past(rst)) f_reset_empty : assert (count == '0 && rp == '0 && wp == '0);
  end

  // Ordering and contents: one entry, chosen by the solver among all pushes, is tracked with
  // the number of entries ahead of it. It must leave exactly when that many pops have passed, as
  // the pushed word; any entry can be the one, so every entry leaves in order, unchanged.
  logic f_busy;
  logic [WIDTH-1:0] f_data;
  logic [CW-1:0] f_pos;
  wire f_pick_a = $anyseq;
  wire f_pick_b = $anyseq;
  wire f_start_a = !f_busy && push_a && f_pick_a;
  wire f_start_b = !f_busy && !f_start_a && push_b && f_pick_b;
  wire [PW-1:0] f_slot = PW'((32'(rp) + 32'(f_pos)) % DEPTH);
  always_comb begin
    if (!rst && f_busy) begin
      f_tracked_stored : assert (f_pos < count && mem[f_slot] == f_data);
      if (pop && f_pos == '0) f_tracked_leaves_in_order : assert (head == f_data);
    end
    if (!rst && f_start_a && pop && count == '0) f_bypass_gives_pushed : assert (head == data_a);
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      f_busy <= 1'b0;
      f_data <= '0;
      f_pos <= '0;
    end else if (f_busy) begin
      if (pop) begin
        if (f_pos == '0) f_busy <= 1'b0;
        else f_pos <= f_pos - 1'b1;
      end
    end else if (f_start_a) begin
      f_busy <= !(pop && count == '0);
      f_data <= data_a;
      f_pos <= count - CW'(pop && count != '0);
    end else if (f_start_b) begin
      f_busy <= 1'b1;
      f_data <= data_b;
      f_pos <= count_p;
    end
  end
  always_ff @(posedge clk) begin
    if (!rst) begin
      c_tracked_leaves : cover (f_busy && pop && f_pos == '0 && count == FULL);
    end
  end
`endif
`endif
endmodule
