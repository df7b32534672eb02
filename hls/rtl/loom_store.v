// loom_store: credit-based memory write port.
// SPDX-License-Identifier: Apache-2.0
//
// Turns each accepted (address, data) pair into one memory write request and emits one completion
// token per store, in order, after the memory acknowledged it. Acknowledges arrive in order, one per
// request, and cannot be refused, so they are counted in a buffer of up to CREDITS pending tokens
// and a request is issued only while (requests in flight + tokens pending) < CREDITS. Requests pass
// straight through (combinational, one per cycle while credits last); m_req_valid depends on
// in_valid and a registered credit flag, never on m_req_ready. An acknowledge at edge t makes a
// token visible from edge t+1; a credit freed at edge t can be spent from edge t+1.
module loom_store #(
    parameter integer DW = 32,
    parameter integer CREDITS = 8
) (
    input           clk,
    input           rst,
    input           in_valid,
    output          in_ready,
    input  [63:0]   in_addr,
    input  [DW-1:0] in_data,
    output          m_req_valid,
    input           m_req_ready,
    output [63:0]   m_req_addr,
    output [DW-1:0] m_req_wdata,
    input           m_resp_valid,
    output          out_valid,
    input           out_ready
);
  localparam integer CW = $clog2(CREDITS + 1);
  localparam [31:0] FULL32 = CREDITS;
  localparam [CW-1:0] FULL = FULL32[CW-1:0];

  reg [CW-1:0] used_q;      // requests in flight + tokens pending
  reg          credit_q;    // used_q < CREDITS
  reg [CW-1:0] pending_q;   // acknowledged stores whose token has not left yet
  reg          out_valid_q; // pending_q != 0

  assign m_req_valid = in_valid && credit_q;
  assign m_req_addr  = in_addr;
  assign m_req_wdata = in_data;
  assign in_ready    = m_req_ready && credit_q;

  wire issue   = m_req_valid && m_req_ready;
  wire deliver = out_valid_q && out_ready;

  reg [CW-1:0] used_d, pending_d;
  always @* begin
    used_d = used_q;
    if (issue && !deliver) used_d = used_q + 1'b1;
    if (deliver && !issue) used_d = used_q - 1'b1;
    pending_d = pending_q;
    if (m_resp_valid && !deliver) pending_d = pending_q + 1'b1;
    if (deliver && !m_resp_valid) pending_d = pending_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) begin
      used_q      <= {CW{1'b0}};
      credit_q    <= 1'b1;
      pending_q   <= {CW{1'b0}};
      out_valid_q <= 1'b0;
    end else begin
      used_q      <= used_d;
      credit_q    <= used_d != FULL;
      pending_q   <= pending_d;
      out_valid_q <= pending_d != {CW{1'b0}};
    end
  end

  assign out_valid = out_valid_q;
endmodule
