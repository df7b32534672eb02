// loom_load_lines: memory read port that fetches whole lines and serves consecutive elements from them.
// SPDX-License-Identifier: Apache-2.0
//
// The memory moves lines of LINE_BYTES bytes and a request costs a whole line, so an element whose
// line (in_addr with the low log2(LINE_BYTES) bits cleared) is the line of the previously accepted
// element (since reset) makes no request: it is served from that line, held in a register once the
// element before it has left. Any other element requests its line. Results leave in order; out_data
// is the DW bits at byte offset in_addr mod LINE_BYTES of the line (little-endian: byte o of a line
// is m_resp_rdata[8*o +: 8]). in_addr is aligned to DW/8; DW is 8..8*LINE_BYTES, a power of two.
//
// Two bounds, both counted by registered flags: at most CREDITS elements accepted and not delivered
// (a CREDITS-entry FIFO of tags {offset, new line}), and at most LINES line requests in flight plus
// lines buffered (a loom_load of whole lines; a line leaves its buffer for the held register when its
// first element is delivered). The memory contract is loom_load's: responses in request order, one
// per request, never refused; m_req_valid depends on in_valid, in_addr and registers, never on
// m_req_ready; in_ready depends on m_req_ready and, through the line compare, on in_addr.
//
// Timing, with a memory that answers L cycles after the request edge: a line is on the output in the
// cycle its response arrives, an element of the held line one cycle after it was accepted, one element
// a cycle. A credit or line freed by a delivery at edge t is spent from edge t+1. A stream of
// consecutive elements, one a cycle with out_ready high, is accepted and delivered at full rate when
//   CREDITS >= L + 1   and   LINES >= ceil((L + 1) / E),   E = 8 * LINE_BYTES / DW elements a line;
// each credit short costs about one cycle a line, each line short stalls every line. Any stream is at
// full rate with LINES = CREDITS >= L + 1 (an element brings at most one line).
module loom_load_lines #(
    parameter integer DW = 32,
    parameter integer LINE_BYTES = 64,
    parameter integer CREDITS = 8,
    parameter integer LINES = 4
) (
    input                       clk,
    input                       rst,
    input                       in_valid,
    output                      in_ready,
    input  [63:0]               in_addr,
    output                      m_req_valid,
    input                       m_req_ready,
    output [63:0]               m_req_addr,
    input                       m_resp_valid,
    input  [8*LINE_BYTES-1:0]   m_resp_rdata,
    output                      out_valid,
    input                       out_ready,
    output [DW-1:0]             out_data
);
  localparam integer LW  = 8 * LINE_BYTES;      // line width in bits
  localparam integer OB  = $clog2(LINE_BYTES);  // byte-offset bits of an address
  localparam integer EBB = $clog2(DW / 8);      // byte-offset bits inside an element
  localparam integer OW  = OB - EBB;            // element-index bits inside a line (0: one a line)
  localparam integer TW  = (OW > 0) ? OW : 1;   // stored index width, at least one bit

  // The line of the previously accepted element.
  reg [63-OB:0] last_line_q;
  reg           last_valid_q;
  wire [63-OB:0] in_line = in_addr[63:OB];
  wire same_line = last_valid_q && in_line == last_line_q;
  wire unused_offset = ^in_addr[OB-1:0];  // the element index is taken below

  // Per-element tags in acceptance order; the FIFO's in_ready is the element credit.
  wire          tag_ready, tag_valid, head_new;
  wire [TW-1:0] in_index, head_index;
  wire          accept, deliver;

  // Line requests and buffered lines.
  wire          lines_in_ready, line_valid;
  wire [LW-1:0] line_head;
  reg  [LW-1:0] held_q;

  assign accept    = in_valid && in_ready;
  assign deliver   = out_valid && out_ready;
  assign in_ready  = tag_ready && (same_line || lines_in_ready);
  assign out_valid = tag_valid && (!head_new || line_valid);

  loom_fifo #(.WIDTH(TW + 1), .DEPTH(CREDITS)) u_tags (
      .clk(clk), .rst(rst),
      .in_valid(accept), .in_ready(tag_ready), .in_data({in_index, !same_line}),
      .out_valid(tag_valid), .out_ready(deliver), .out_data({head_index, head_new}));

  // loom_load's lines are this port's requests: one per element that starts a new line.
  loom_load #(.DW(LW), .CREDITS(LINES)) u_lines (
      .clk(clk), .rst(rst),
      .in_valid(in_valid && tag_ready && !same_line), .in_ready(lines_in_ready),
      .in_addr({in_line, {OB{1'b0}}}),
      .m_req_valid(m_req_valid), .m_req_ready(m_req_ready), .m_req_addr(m_req_addr),
      .m_resp_valid(m_resp_valid), .m_resp_rdata(m_resp_rdata),
      .out_valid(line_valid), .out_ready(deliver && head_new), .out_data(line_head));

  always @(posedge clk) begin
    if (rst) begin
      last_line_q  <= {(64 - OB){1'b0}};
      last_valid_q <= 1'b0;
    end else if (accept) begin
      last_line_q  <= in_line;
      last_valid_q <= 1'b1;
    end
  end

  // The held line needs no reset: the first element after reset always brings a new line.
  always @(posedge clk)
    if (deliver && head_new) held_q <= line_head;

  wire [LW-1:0] head_line = head_new ? line_head : held_q;
  generate
    if (OW > 0) begin : g_index
      assign in_index = in_addr[OB-1:EBB];
      assign out_data = head_line[head_index * DW +: DW];
    end else begin : g_whole_line
      assign in_index = 1'b0;
      assign out_data = head_line;
      wire unused_index = head_index;
    end
  endgenerate
endmodule
