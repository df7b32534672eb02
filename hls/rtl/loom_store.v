// loom_store: credit-based memory write port.
// SPDX-License-Identifier: Apache-2.0
//
// Turns each accepted (address, data) pair into one memory write request and emits one completion
// token per store, in order, after the memory acknowledged it. Acknowledges arrive in order, one per
// request, and cannot be refused, so they are counted in a buffer of up to CREDITS pending tokens
// and a request is issued only while (requests in flight + tokens pending) < CREDITS. Requests pass
// straight through (combinational, one per cycle while credits last); m_req_valid depends on
// in_valid and a registered credit flag, never on m_req_ready. An acknowledge's token is visible in
// the cycle it arrives; a credit freed at edge t can be spent from edge t+1.
// With POSTED, nothing but the kernel's completion waits for the tokens: a store's token is visible
// from the edge after its acceptance, credits count the writes in flight (freed by their
// acknowledge) and the tokens not delivered, and drained is low while a write is in flight, so the
// completion waits for the memory instead of each token. Without it, drained is always high.
module loom_store #(
    parameter integer DW = 32,
    parameter integer CREDITS = 8,
    parameter integer POSTED = 0
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
    input           out_ready,
    output          drained
);
  wire credit;
  wire issue = m_req_valid && m_req_ready;
  assign m_req_valid = in_valid && credit;
  assign m_req_addr  = in_addr;
  assign m_req_wdata = in_data;
  assign in_ready    = m_req_ready && credit;

  generate
    if (POSTED != 0) begin : g_posted
      localparam integer CW = $clog2(CREDITS + 1);
      localparam [31:0] FULL32 = CREDITS;
      localparam [CW-1:0] FULL = FULL32[CW-1:0];
      reg [CW-1:0] flight_q, tokens_q;
      reg          credit_q, out_valid_q;
      wire [CW-1:0] flight_d = flight_q + {{(CW - 1){1'b0}}, issue} - {{(CW - 1){1'b0}}, m_resp_valid};
      wire [CW-1:0] tokens_d = tokens_q + {{(CW - 1){1'b0}}, issue} - {{(CW - 1){1'b0}}, out_valid && out_ready};
      always @(posedge clk) begin
        if (rst) begin
          flight_q    <= {CW{1'b0}};
          tokens_q    <= {CW{1'b0}};
          credit_q    <= 1'b1;
          out_valid_q <= 1'b0;
        end else begin
          flight_q    <= flight_d;
          tokens_q    <= tokens_d;
          credit_q    <= flight_d != FULL && tokens_d != FULL;
          out_valid_q <= tokens_d != {CW{1'b0}};
        end
      end
      assign credit    = credit_q;
      assign out_valid = out_valid_q;
      assign drained   = flight_q == {CW{1'b0}};
    end else begin : g_acknowledged
      // An acknowledge is an answer; its token is what leaves.
      loom_credits #(.CREDITS(CREDITS)) u_credits (
          .clk(clk), .rst(rst), .issue(issue), .response(m_resp_valid),
          .deliver(out_valid && out_ready), .credit(credit), .out_valid(out_valid));
      assign drained = 1'b1;
    end
  endgenerate
endmodule
