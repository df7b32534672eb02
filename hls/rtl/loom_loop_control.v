// loom_loop_control: admits work-items into a loop and issues one token per iteration.
// SPDX-License-Identifier: Apache-2.0
//
// A work-item enters on `entry` and comes around again on `back` for each further iteration; the
// output token's `out_first` marks an entry, so the loop's multiplexers take the entering values.
// Entries go first while fewer than LIMIT work-items are inside, so work-items interleave and one
// work-item's recurrence latency is hidden by the others; a work-item leaving is reported on `exit`.
// Holding at most LIMIT work-items is what keeps the rings free of deadlock: each ring's back-edge
// FIFO has room for all of them. A choice offered and not yet taken is kept (an entry appearing
// while a continuing iteration waits must not change the token under the loop's eager forks, some
// of whose consumers may already have taken it). Combinational handshakes; the count and the
// pending choice are registered.
module loom_loop_control #(
    parameter integer LIMIT = 32
) (
    input  clk,
    input  rst,
    input  entry_valid,
    output entry_ready,
    input  back_valid,
    output back_ready,
    input  exit_valid,
    output exit_ready,
    output out_valid,
    input  out_ready,
    output out_first
);
  localparam integer CW = $clog2(LIMIT + 1);
  localparam [31:0] LIMIT32 = LIMIT;
  reg [CW-1:0] inside_q;
  reg held_q, held_first_q;
  wire room = inside_q != LIMIT32[CW-1:0];
  // A held entry keeps its room (only an entry fills it) and its valid (channels hold their tokens).
  wire may_enter = held_q ? held_first_q : room;
  wire admit = may_enter && entry_valid;
  assign out_valid   = admit || back_valid;
  assign out_first   = admit;
  assign entry_ready = out_ready && may_enter;
  assign back_ready  = out_ready && !admit;
  assign exit_ready  = 1'b1;
  wire entered = admit && out_ready;
  always @(posedge clk) begin
    if (rst)
      inside_q <= {CW{1'b0}};
    else if (entered && !exit_valid)
      inside_q <= inside_q + 1'b1;
    else if (exit_valid && !entered)
      inside_q <= inside_q - 1'b1;
  end
  always @(posedge clk) begin
    held_q <= !rst && out_valid && !out_ready;
    held_first_q <= admit;
  end
endmodule
