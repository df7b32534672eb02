// loom_skip_merge: lets a memory unit skip the work-items whose predicate is false, in order.
// SPDX-License-Identifier: Apache-2.0
//
// Sits around a loom_load or loom_store whose access is conditional (an access in an if). Items
// with in_pred = 1 go to the unit; items with in_pred = 0 make no memory request. A DEPTH-entry FIFO
// remembers which items went to the unit, so results leave in arrival order: the unit's result for
// a real item, DW zero bits (or just a token) for a skipped one, one cycle after it was accepted at
// the earliest. DEPTH bounds the items between input and output; it should cover the unit's CREDITS.
// in_ready depends on in_pred (a skipped item needs no unit credit); no valid depends on its ready.
module loom_skip_merge #(
    parameter integer DW = 32,
    parameter integer DEPTH = 8
) (
    input           clk,
    input           rst,
    input           in_valid,
    output          in_ready,
    input           in_pred,
    output          unit_in_valid,
    input           unit_in_ready,
    input           unit_out_valid,
    output          unit_out_ready,
    input  [DW-1:0] unit_out_data,
    output          out_valid,
    input           out_ready,
    output [DW-1:0] out_data
);
  wire order_in_ready, order_out_valid, head_real;
  wire order_out_ready = out_valid && out_ready;

  assign unit_in_valid  = in_valid && in_pred && order_in_ready;
  assign in_ready       = order_in_ready && (!in_pred || unit_in_ready);
  assign out_valid      = order_out_valid && (!head_real || unit_out_valid);
  assign out_data       = head_real ? unit_out_data : {DW{1'b0}};
  assign unit_out_ready = order_out_valid && head_real && out_ready;

  loom_fifo #(.WIDTH(1), .DEPTH(DEPTH)) u_order (
      .clk(clk), .rst(rst),
      .in_valid(in_valid && in_ready), .in_ready(order_in_ready), .in_data(in_pred),
      .out_valid(order_out_valid), .out_ready(order_out_ready), .out_data(head_real));
endmodule
