// loom_ram: an on-chip memory (a private or __local array) with READS read and WRITES write ports.
// SPDX-License-Identifier: Apache-2.0
//
// DEPTH words of WIDTH bits. Reads are combinational (rd_data follows rd_addr in the same cycle); the
// kernel registers the word in its access's pipeline stage, so a read costs one cycle. Writes take
// effect at the rising edge where wr_en is high; when several ports write one word at the same edge,
// the highest-numbered port wins (the builder orders a work-item's accesses, so that never happens
// for aliasing accesses of one work-item). Port i of a bus occupies bits [i*W +: W]. No reset: an
// array's contents are undefined until written, as in OpenCL; with INITIALIZED the memory starts
// with INIT (word i in bits [i*WIDTH +: WIDTH]), which makes a ROM of a constant table. INIT has no
// declared width: a WIDTH*DEPTH-bit default would be a constant as large as the memory, which yosys
// refuses from 16 Mbit (a 2 MiB array) on.
module loom_ram #(
    parameter integer WIDTH = 32,
    parameter integer DEPTH = 64,
    parameter integer ADDR_WIDTH = 6,
    parameter integer READS = 1,
    parameter integer WRITES = 1,
    parameter integer INITIALIZED = 0,
    parameter INIT = 0
) (
    input                         clk,
    input  [READS*ADDR_WIDTH-1:0] rd_addr,
    output [READS*WIDTH-1:0]      rd_data,
    input  [WRITES-1:0]           wr_en,
    input  [WRITES*ADDR_WIDTH-1:0] wr_addr,
    input  [WRITES*WIDTH-1:0]     wr_data
);
  reg [WIDTH-1:0] words[0:DEPTH-1];

  genvar r;
  generate
    for (r = 0; r < READS; r = r + 1) begin : g_read
      assign rd_data[r*WIDTH +: WIDTH] = words[rd_addr[r*ADDR_WIDTH +: ADDR_WIDTH]];
    end
  endgenerate

  generate
    if (INITIALIZED != 0) begin : g_contents
      integer i;
      initial
        for (i = 0; i < DEPTH; i = i + 1) words[i] = INIT[i*WIDTH +: WIDTH];
    end
  endgenerate

  integer w;
  always @(posedge clk) begin
    for (w = 0; w < WRITES; w = w + 1)
      if (wr_en[w]) words[wr_addr[w*ADDR_WIDTH +: ADDR_WIDTH]] <= wr_data[w*WIDTH +: WIDTH];
  end
endmodule
