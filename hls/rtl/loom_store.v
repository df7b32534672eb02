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
  wire credit;
  assign m_req_valid = in_valid && credit;
  assign m_req_addr  = in_addr;
  assign m_req_wdata = in_data;
  assign in_ready    = m_req_ready && credit;

  // An acknowledge is an answer; its token is what leaves.
  loom_credits #(.CREDITS(CREDITS)) u_credits (
      .clk(clk), .rst(rst), .issue(m_req_valid && m_req_ready), .response(m_resp_valid),
      .deliver(out_valid && out_ready), .credit(credit), .out_valid(out_valid));
endmodule
