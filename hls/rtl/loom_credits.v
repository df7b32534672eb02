// loom_credits: the credit bookkeeping of a memory port (loom_load, loom_store).
// SPDX-License-Identifier: Apache-2.0
//
// The memory answers every request, in order, and never waits, so a port may issue a request only
// while it has room for the answer: `used` counts requests in flight plus answers not yet delivered,
// and `credit` is high while used < CREDITS. `out_valid` is high while answers wait for delivery
// and in the cycle an answer arrives: the port hands an arriving answer on at once when none waits
// before it (the memory's own latency is the port's). `credit` is a flip-flop: a credit freed at
// edge t shows from edge t+1.
module loom_credits #(
    parameter integer CREDITS = 8
) (
    input  clk,
    input  rst,
    input  issue,     // a request fires this cycle
    input  response,  // an answer arrives this cycle
    input  deliver,   // an answer leaves this cycle
    output credit,
    output out_valid
);
  localparam integer CW = $clog2(CREDITS + 1);
  // Sized copy of CREDITS (explicit truncation keeps the width lint quiet).
  localparam [31:0] FULL32 = CREDITS;
  localparam [CW-1:0] FULL = FULL32[CW-1:0];

  reg [CW-1:0] used_q;      // requests in flight + answers waiting
  reg          credit_q;    // used_q < CREDITS, a flop so request valids stay shallow
  reg [CW-1:0] waiting_q;   // answers arrived, not delivered
  reg          out_valid_q; // waiting_q != 0

  reg [CW-1:0] used_d, waiting_d;
  always @* begin
    used_d = used_q;
    if (issue && !deliver) used_d = used_q + 1'b1;
    if (deliver && !issue) used_d = used_q - 1'b1;
    waiting_d = waiting_q;
    if (response && !deliver) waiting_d = waiting_q + 1'b1;
    if (deliver && !response) waiting_d = waiting_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) begin
      used_q      <= {CW{1'b0}};
      credit_q    <= 1'b1;
      waiting_q   <= {CW{1'b0}};
      out_valid_q <= 1'b0;
    end else begin
      used_q      <= used_d;
      credit_q    <= used_d != FULL;
      waiting_q   <= waiting_d;
      out_valid_q <= waiting_d != {CW{1'b0}};
    end
  end

  assign credit    = credit_q;
  assign out_valid = out_valid_q || response;
endmodule
