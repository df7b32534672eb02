// loom_pipe: elastic pipeline register chain with LATENCY stages.
// SPDX-License-Identifier: Apache-2.0
//
// Carries WIDTH-bit items through LATENCY (>= 1) register stages. An item accepted at edge t is
// visible on out_* after edge t+LATENCY-1 at the earliest (LATENCY cycles of delay), and the chain
// moves one item per cycle in steady state. Bubbles collapse: a stage loads whenever it is empty or
// its item moves on in the same cycle, so a stalled output fills the chain up to LATENCY items.
// in_ready is a function of the stage valid bits and out_ready only (never of in_valid); it is a
// combinational chain through the stages, the price of full occupancy without extra buffers.
module loom_pipe #(
    parameter integer WIDTH = 32,
    parameter integer LATENCY = 1
) (
    input              clk,
    input              rst,
    input              in_valid,
    output             in_ready,
    input  [WIDTH-1:0] in_data,
    output             out_valid,
    input              out_ready,
    output [WIDTH-1:0] out_data
);
  reg [LATENCY-1:0] valid_q;
  // Stage i occupies bits [i*WIDTH +: WIDTH]; a flat vector keeps synthesis from inferring a RAM.
  reg [WIDTH*LATENCY-1:0] data_q;

  // load[i]: stage i may take a new item this cycle (empty, or its item leaves now).
  reg [LATENCY:0] load;
  integer i;
  always @* begin
    load[LATENCY] = out_ready;
    for (i = LATENCY - 1; i >= 0; i = i - 1)
      load[i] = !valid_q[i] || load[i + 1];
  end

  always @(posedge clk) begin
    if (rst) begin
      valid_q <= {LATENCY{1'b0}};
    end else begin
      if (load[0]) valid_q[0] <= in_valid;
      for (i = 1; i < LATENCY; i = i + 1)
        if (load[i]) valid_q[i] <= valid_q[i - 1];
    end
  end

  // Data needs no reset: it is only looked at where the matching valid bit is set.
  always @(posedge clk) begin
    if (load[0]) data_q[0 +: WIDTH] <= in_data;
    for (i = 1; i < LATENCY; i = i + 1)
      if (load[i]) data_q[i*WIDTH +: WIDTH] <= data_q[(i-1)*WIDTH +: WIDTH];
  end

  assign in_ready  = load[0];
  assign out_valid = valid_q[LATENCY-1];
  assign out_data  = data_q[(LATENCY-1)*WIDTH +: WIDTH];
endmodule
