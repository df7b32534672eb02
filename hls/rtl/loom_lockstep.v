// loom_lockstep: the valid bits of a LATENCY-stage pipeline whose registers all advance together.
// SPDX-License-Identifier: Apache-2.0
//
// The whole pipeline moves (en) unless its last stage holds a result the consumer does not take; the
// float units accept an operand exactly when it moves (in_ready = en).
module loom_lockstep #(
    parameter integer LATENCY = 2
) (
    input  clk,
    input  rst,
    input  in_valid,
    input  out_ready,
    output en,
    output out_valid
);
  reg [LATENCY-1:0] valid_q;
  assign en        = !valid_q[LATENCY-1] || out_ready;
  assign out_valid = valid_q[LATENCY-1];

  generate
    if (LATENCY == 1) begin : g_valid1
      always @(posedge clk)
        if (rst) valid_q <= 1'b0;
        else if (en) valid_q <= in_valid;
    end else begin : g_validn
      always @(posedge clk)
        if (rst) valid_q <= {LATENCY{1'b0}};
        else if (en) valid_q <= {valid_q[LATENCY-2:0], in_valid};
    end
  endgenerate
endmodule
