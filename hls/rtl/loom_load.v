// loom_load: credit-based memory read port.
// SPDX-License-Identifier: Apache-2.0
//
// Turns each accepted address into one memory read request and delivers the read data in request
// order. The memory answers in order, one response per request, and never waits (there is no
// m_resp_ready), so every request must have a place reserved in a CREDITS-entry response buffer:
// a request is issued only while (requests in flight + responses buffered) < CREDITS. Requests pass
// straight through (in -> m_req is combinational, one per cycle while credits last); m_req_valid
// depends on in_valid and a registered credit flag, never on m_req_ready. A response written at edge
// t is on out_* from edge t+1 (one cycle of latency through the buffer). A credit freed by an
// out transfer at edge t can be spent from edge t+1, so full request rate needs CREDITS >= memory
// round trip + 2 cycles.
module loom_load #(
    parameter integer DW = 32,
    parameter integer CREDITS = 8
) (
    input           clk,
    input           rst,
    input           in_valid,
    output          in_ready,
    input  [63:0]   in_addr,
    output          m_req_valid,
    input           m_req_ready,
    output [63:0]   m_req_addr,
    input           m_resp_valid,
    input  [DW-1:0] m_resp_rdata,
    output          out_valid,
    input           out_ready,
    output [DW-1:0] out_data
);
  localparam integer AW = (CREDITS > 1) ? $clog2(CREDITS) : 1;
  localparam integer CW = $clog2(CREDITS + 1);
  // Sized copies of CREDITS-derived constants (explicit truncation keeps the width lint quiet).
  localparam [31:0] LAST32 = CREDITS - 1;
  localparam [31:0] FULL32 = CREDITS;
  localparam [AW-1:0] LAST = LAST32[AW-1:0];
  localparam [CW-1:0] FULL = FULL32[CW-1:0];

  reg [CW-1:0] used_q;      // requests in flight + responses buffered
  reg          credit_q;    // used_q < CREDITS, kept as a flop so m_req_valid stays shallow
  reg [CW-1:0] count_q;     // responses buffered
  reg          out_valid_q; // count_q != 0
  reg [AW-1:0] wr_q, rd_q;
  reg [DW-1:0] buf_q [0:CREDITS-1];

  assign m_req_valid = in_valid && credit_q;
  assign m_req_addr  = in_addr;
  assign in_ready    = m_req_ready && credit_q;

  wire issue   = m_req_valid && m_req_ready;
  wire deliver = out_valid_q && out_ready;

  reg [CW-1:0] used_d, count_d;
  always @* begin
    used_d = used_q;
    if (issue && !deliver) used_d = used_q + 1'b1;
    if (deliver && !issue) used_d = used_q - 1'b1;
    count_d = count_q;
    if (m_resp_valid && !deliver) count_d = count_q + 1'b1;
    if (deliver && !m_resp_valid) count_d = count_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) begin
      used_q      <= {CW{1'b0}};
      credit_q    <= 1'b1;
      count_q     <= {CW{1'b0}};
      out_valid_q <= 1'b0;
      wr_q        <= {AW{1'b0}};
      rd_q        <= {AW{1'b0}};
    end else begin
      used_q      <= used_d;
      credit_q    <= used_d != FULL;
      count_q     <= count_d;
      out_valid_q <= count_d != {CW{1'b0}};
      if (m_resp_valid) wr_q <= (wr_q == LAST) ? {AW{1'b0}} : wr_q + 1'b1;
      if (deliver)      rd_q <= (rd_q == LAST) ? {AW{1'b0}} : rd_q + 1'b1;
    end
  end

  // The credit rule guarantees a free entry for every response, so writes are unconditional.
  always @(posedge clk)
    if (m_resp_valid) buf_q[wr_q] <= m_resp_rdata;

  assign out_valid = out_valid_q;
  assign out_data  = buf_q[rd_q];
endmodule
