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
  // A push never finds the FIFO full; a pop never finds it empty.
  wire [CW-1:0] count_a = count + CW'(push_a);
  wire [CW-1:0] count_p = count_a - CW'(pop);
  always_ff @(posedge clk) begin
    if (!rst) begin
      a_push_a_not_full : assert (!(push_a && count == FULL))
      else $error("mon_fifo: push into a full FIFO (push_a)");
      a_pop_not_empty : assert (!(pop && count_a == '0))
      else $error("mon_fifo: pop from an empty FIFO");
      a_push_b_not_full : assert (!(push_b && count_p == FULL))
      else $error("mon_fifo: push into a full FIFO (push_b)");
    end
  end
  c_full : cover property (@(posedge clk) disable iff (rst) count == FULL);
  c_empty : cover property (@(posedge clk) disable iff (rst) count == '0);
  c_fill_to_full : cover property (@(posedge clk) disable iff (rst) count != FULL && count_next == FULL);
  c_drain_to_empty : cover property (@(posedge clk) disable iff (rst) count != '0 && count_next == '0);
  c_pop_bypass : cover property (@(posedge clk) disable iff (rst) count == '0 && push_a && pop);
`endif
endmodule
