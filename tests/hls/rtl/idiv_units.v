// Test wrapper: loom_idiv as udiv, urem, sdiv and srem on shared operands and handshake, so one
// Verilated model covers the four operations at a width and latency. The four pipelines must move
// together (agree): they share one contract, so any difference is a bug.
module idiv_units #(
    parameter integer WIDTH   = 32,
    parameter integer LATENCY = 34
) (
    input              clk,
    input              rst,
    input              in_valid,
    output             in_ready,
    input  [WIDTH-1:0] a,
    input  [WIDTH-1:0] b,
    output             out_valid,
    input              out_ready,
    output [WIDTH-1:0] udiv,
    output [WIDTH-1:0] urem,
    output [WIDTH-1:0] sdiv,
    output [WIDTH-1:0] srem,
    output             agree
);
  wire [3:0] ready, valid;
  wire [WIDTH-1:0] results[0:3];
  genvar u;
  generate
    for (u = 0; u < 4; u = u + 1) begin : g_unit
      loom_idiv #(.WIDTH(WIDTH), .SIGNED(u / 2), .REMAINDER(u % 2), .LATENCY(LATENCY)) u_div (
          .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(ready[u]), .a(a), .b(b),
          .out_valid(valid[u]), .out_ready(out_ready), .result(results[u]));
    end
  endgenerate
  assign in_ready  = ready[0];
  assign out_valid = valid[0];
  assign agree     = (&ready == |ready) && (&valid == |valid);
  assign udiv      = results[0];
  assign urem      = results[1];
  assign sdiv      = results[2];
  assign srem      = results[3];
endmodule
