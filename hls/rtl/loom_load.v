// loom_load: credit-based memory read port.
// SPDX-License-Identifier: Apache-2.0
//
// Turns each accepted address into one memory read request and delivers the read data in request
// order. The memory answers in order, one response per request, and never waits (there is no
// m_resp_ready), so every request must have a place reserved in a CREDITS-entry response buffer:
// a request is issued only while (requests in flight + responses buffered) < CREDITS. Requests pass
// straight through (in -> m_req is combinational, one per cycle while credits last); m_req_valid
// depends on in_valid and a registered credit flag, never on m_req_ready. A response is on out_* in
// the cycle it arrives when no earlier one waits in the buffer (it bypasses the buffer), else after
// those. A credit freed by an out transfer at edge t can be spent from edge t+1, so full request rate
// needs CREDITS >= memory round trip + 1 cycle. It also serves atomic ports: their operands go to the
// memory beside the address (the top module wires them, valid with in_valid) and the old value comes
// back as the data.
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
  // Sized copy of CREDITS-1 (explicit truncation keeps the width lint quiet).
  localparam [31:0] LAST32 = CREDITS - 1;
  localparam [AW-1:0] LAST = LAST32[AW-1:0];

  wire         credit;
  reg [AW-1:0] wr_q, rd_q;
  reg [DW-1:0] buf_q [0:CREDITS-1];

  assign m_req_valid = in_valid && credit;
  assign m_req_addr  = in_addr;
  assign in_ready    = m_req_ready && credit;

  wire issue   = m_req_valid && m_req_ready;
  wire deliver = out_valid && out_ready;

  loom_credits #(.CREDITS(CREDITS)) u_credits (
      .clk(clk), .rst(rst), .issue(issue), .response(m_resp_valid), .deliver(deliver),
      .credit(credit), .out_valid(out_valid));

  // The response buffer: written at the arriving answer, read at delivery.
  always @(posedge clk) begin
    if (rst) begin
      wr_q <= {AW{1'b0}};
      rd_q <= {AW{1'b0}};
    end else begin
      if (m_resp_valid) wr_q <= (wr_q == LAST) ? {AW{1'b0}} : wr_q + 1'b1;
      if (deliver)      rd_q <= (rd_q == LAST) ? {AW{1'b0}} : rd_q + 1'b1;
    end
  end

  // The credit rule guarantees a free entry for every response, so writes are unconditional (a
  // response delivered as it arrives is written and read past in the same cycle).
  always @(posedge clk)
    if (m_resp_valid) buf_q[wr_q] <= m_resp_rdata;

  // The buffer is empty when a response arrives with rd_q == wr_q: a full buffer holds every credit,
  // so no response can be on its way.
  assign out_data = (m_resp_valid && rd_q == wr_q) ? m_resp_rdata : buf_q[rd_q];
endmodule
