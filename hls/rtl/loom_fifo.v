// loom_fifo: registered elastic FIFO of DEPTH entries.
// SPDX-License-Identifier: Apache-2.0
//
// A circular buffer of DEPTH (>= 1) WIDTH-bit entries. An item written at edge t can leave at edge
// t+1 (one cycle of latency), and one item enters and one leaves per cycle while the FIFO is neither
// full nor empty. in_ready and out_valid are flip-flops and out_data is read from the storage at the
// read pointer, so there is no combinational path from in_* to out_* or from out_ready to in_ready;
// consequently a full FIFO does not accept in the cycle an item leaves (DEPTH=1 runs at half rate).
module loom_fifo #(
    parameter integer WIDTH = 32,
    parameter integer DEPTH = 2
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
  // Pointer and occupancy widths; at least one bit so DEPTH=1 stays legal.
  localparam integer AW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam integer CW = $clog2(DEPTH + 1);
  // Sized copies of DEPTH-derived constants (explicit truncation keeps the width lint quiet).
  localparam [31:0] LAST32 = DEPTH - 1;
  localparam [31:0] FULL32 = DEPTH;
  localparam [AW-1:0] LAST = LAST32[AW-1:0];
  localparam [CW-1:0] FULL = FULL32[CW-1:0];

  reg [WIDTH-1:0] mem [0:DEPTH-1];
  reg [AW-1:0]    wr_q, rd_q;
  reg [CW-1:0]    count_q;
  reg             in_ready_q, out_valid_q;

  wire push = in_valid && in_ready_q;
  wire pop  = out_valid_q && out_ready;

  reg [CW-1:0] count_d;
  always @* begin
    count_d = count_q;
    if (push && !pop) count_d = count_q + 1'b1;
    if (pop && !push) count_d = count_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) begin
      wr_q        <= {AW{1'b0}};
      rd_q        <= {AW{1'b0}};
      count_q     <= {CW{1'b0}};
      in_ready_q  <= 1'b1;
      out_valid_q <= 1'b0;
    end else begin
      if (push) wr_q <= (wr_q == LAST) ? {AW{1'b0}} : wr_q + 1'b1;
      if (pop)  rd_q <= (rd_q == LAST) ? {AW{1'b0}} : rd_q + 1'b1;
      count_q     <= count_d;
      // Flags are registered copies of the next occupancy so that no handshake output is combinational.
      in_ready_q  <= count_d != FULL;
      out_valid_q <= count_d != {CW{1'b0}};
    end
  end

  // Storage needs no reset: entries are read only after being written.
  always @(posedge clk)
    if (push) mem[wr_q] <= in_data;

  assign in_ready  = in_ready_q;
  assign out_valid = out_valid_q;
  assign out_data  = mem[rd_q];
endmodule
