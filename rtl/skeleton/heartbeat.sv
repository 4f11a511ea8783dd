// Walking-skeleton RTL: a free-running counter with a synchronous reset. It only proves that the
// verilated model, the CMake build and the SystemC side meet; the monitor RTL replaces its role.
module heartbeat #(
    parameter int WIDTH = 16
) (
    input  logic             clk,
    input  logic             rst,
    output logic [WIDTH-1:0] count
);
  always_ff @(posedge clk) begin
    if (rst) count <= '0;
    else count <= count + 1'b1;
  end
endmodule
