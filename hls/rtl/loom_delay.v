// loom_delay: DEPTH plain registers of WIDTH bits that advance together when `en` is high.
// SPDX-License-Identifier: Apache-2.0
//
// The float units add these after their last natural step when the board asks for more latency than
// they need (synthesis retiming may pull them into the logic). DEPTH 0 is a wire.
module loom_delay #(
    parameter integer WIDTH = 32,
    parameter integer DEPTH = 1
) (
    input              clk,
    input              en,
    input  [WIDTH-1:0] in,
    output [WIDTH-1:0] out
);
  generate
    if (DEPTH > 0) begin : g_delay
      reg [WIDTH*DEPTH-1:0] dly_q;
      integer k;
      always @(posedge clk)
        if (en) begin
          dly_q[WIDTH-1:0] <= in;
          for (k = 1; k < DEPTH; k = k + 1) dly_q[WIDTH*k +: WIDTH] <= dly_q[WIDTH*(k-1) +: WIDTH];
        end
      assign out = dly_q[WIDTH*(DEPTH-1) +: WIDTH];
    end else begin : g_wire
      wire unused_clocking = clk ^ en;  // no registers at DEPTH 0
      assign out = in;
    end
  endgenerate
endmodule
