// loom_store_lines: memory write port that combines consecutive element stores into whole lines.
// SPDX-License-Identifier: Apache-2.0
//
// The memory moves lines of LINE_BYTES bytes and a request costs a whole line, so consecutive element
// stores to the same line (in_addr with the low log2(LINE_BYTES) bits cleared) merge into one pending
// line: data and byte strobes, a later store to the same bytes overwriting (byte o of the line is
// m_req_wdata[8*o +: 8], enabled by m_req_strobe[o]; the memory writes only enabled bytes). The
// pending line is offered as one write request when
//   (a) a store to another line arrives: it is accepted in the cycle the pending line is issued and
//       starts the next pending line,
//   (b) all LINE_BYTES strobes are set,
//   (c) no store was accepted for IDLE (>= 1) consecutive cycles: whoever waits on a completion
//       token must not wait for a store that never comes, or
//   (d) the pending line holds all CREDITS stores: no further store could be accepted before it goes.
// A store in the cycle the pending line is offered for (b), (c) or (d) starts a new pending line.
// Otherwise a store that sets the last strobes of its line (merged into the pending line, or alone)
//   (e) goes with its line at once: the line is offered with the store merged in, and the store is
//       accepted only with it, so a stream's line leaves at the edge its last element arrives.
// in_addr is aligned to DW/8; DW is 8..8*LINE_BYTES, a power of two.
//
// One completion token per accepted store leaves in order, only after the memory acknowledged the
// line write that carried it (a FIFO remembers how many stores each issued line carries; an
// acknowledge makes that many tokens deliverable, the first in the cycle it arrives). At most CREDITS
// stores are accepted and without their token delivered. Acknowledges come in order, one per request, and cannot be refused; a line
// in flight carries at least one store, so they always find room. m_req_valid depends on in_valid,
// in_addr and registers, never on m_req_ready; in_ready depends on m_req_ready.
//
// Timing, with a memory that acknowledges L cycles after the request edge: a store accepted at edge
// a whose line goes at edge i has its token on the output from the cycle after edge i+L-1 (the
// acknowledge's); a credit freed by a token at edge t is spent from edge t+1. A stream of consecutive
// stores, one per cycle, issues a line every E = 8 * LINE_BYTES / DW cycles, at the edge of its last
// store, E-1 cycles after its first, so full rate needs
//   CREDITS >= E + L
// (each credit short costs up to a cycle a line).
//
// With POSTED, nothing but the kernel's completion waits for the tokens (see loom_store): a store's
// token is visible from the edge after its acceptance, credits count the stores whose line the
// memory has not acknowledged and the tokens not delivered, and drained is low while any store is
// not acknowledged. A stream's last line then costs its memory latency once, not that plus a cycle
// for each token it carries. Without it, drained is always high.
module loom_store_lines #(
    parameter integer DW = 32,
    parameter integer LINE_BYTES = 64,
    parameter integer CREDITS = 8,
    parameter integer IDLE = 4,
    parameter integer POSTED = 0
) (
    input                     clk,
    input                     rst,
    input                     in_valid,
    output                    in_ready,
    input  [63:0]             in_addr,
    input  [DW-1:0]           in_data,
    output                    m_req_valid,
    input                     m_req_ready,
    output [63:0]             m_req_addr,
    output [8*LINE_BYTES-1:0] m_req_wdata,
    output [LINE_BYTES-1:0]   m_req_strobe,
    input                     m_resp_valid,
    output                    out_valid,
    input                     out_ready,
    output                    drained
);
  localparam integer LW  = 8 * LINE_BYTES;      // line width in bits
  localparam integer EB  = DW / 8;              // element bytes
  localparam integer E   = LINE_BYTES / EB;     // elements a line
  localparam integer OB  = $clog2(LINE_BYTES);  // byte-offset bits of an address
  localparam integer EBB = $clog2(EB);          // byte-offset bits inside an element
  localparam integer TW  = (OB > EBB) ? OB - EBB : 1;  // element-index width, at least one bit
  localparam integer CW  = $clog2(CREDITS + 1);
  localparam integer IW  = $clog2(IDLE + 1);
  // Sized copies of the limits (explicit truncation keeps the width lint quiet).
  localparam [31:0] FULL32 = CREDITS;
  localparam [31:0] IDLE32 = IDLE;
  localparam [31:0] ONE32 = 1;
  localparam [CW-1:0] FULL = FULL32[CW-1:0];
  localparam [CW-1:0] ONE = ONE32[CW-1:0];
  localparam [CW-1:0] ZERO = {CW{1'b0}};
  localparam [IW-1:0] IDLE_OUT = IDLE32[IW-1:0];

  // The pending line and the cycles since its last store.
  reg                  pend_valid_q;
  reg [63-OB:0]        pend_line_q;
  reg [LW-1:0]         pend_data_q;
  reg [LINE_BYTES-1:0] pend_strb_q;
  reg [CW-1:0]         pend_count_q;  // stores merged into it
  reg [IW-1:0]         idle_q;

  reg [CW-1:0] used_q;       // stores accepted, token not delivered (POSTED: not acknowledged)
  reg          credit_q;     // used_q < CREDITS and tokens_q < CREDITS
  reg [CW-1:0] tokens_q;     // tokens deliverable, not delivered
  reg          out_valid_q;  // tokens_q != 0

  wire [63-OB:0] in_line = in_addr[63:OB];
  wire unused_offset = ^in_addr[OB-1:0];  // the element index is taken below
  wire flush = pend_valid_q && (&pend_strb_q || idle_q == IDLE_OUT || pend_count_q == FULL ||
                                (in_valid && in_line != pend_line_q));
  // The offered store merged into the pending line (same line when there is one and no flush).
  wire [TW-1:0]         in_index;
  wire [LW-1:0]         data_d;
  wire [LINE_BYTES-1:0] in_strb;  // the bytes the offered store writes
  wire [LINE_BYTES-1:0] merged_strb = in_strb | (pend_valid_q ? pend_strb_q : {LINE_BYTES{1'b0}});
  wire completes = in_valid && credit_q && !flush && &merged_strb;  // rule (e)
  wire [CW-1:0] merged_count = (pend_valid_q ? pend_count_q : ZERO) + ONE;

  wire offer   = flush || completes;
  wire issue   = offer && m_req_ready;
  wire accept  = in_valid && in_ready;
  wire start   = accept && (!pend_valid_q || flush);  // the store begins a new pending line
  wire deliver = out_valid && out_ready;

  assign m_req_valid  = offer;
  assign m_req_addr   = {flush ? pend_line_q : in_line, {OB{1'b0}}};
  assign m_req_wdata  = flush ? pend_data_q : data_d;
  assign m_req_strobe = flush ? pend_strb_q : merged_strb;
  assign in_ready     = credit_q && (!offer || m_req_ready);
  // Without POSTED an acknowledge carries at least one token, deliverable at once.
  assign out_valid    = out_valid_q || (POSTED == 0 && m_resp_valid);
  assign drained      = POSTED == 0 || used_q == ZERO;

  // The accepted store written into its element slot of the (new or merged) pending line.
  generate
    if (OB > EBB) begin : g_index
      assign in_index = in_addr[OB-1:EBB];
    end else begin : g_whole_line
      assign in_index = 1'b0;
    end
  endgenerate
  genvar k;
  generate
    for (k = 0; k < E; k = k + 1) begin : g_slot
      localparam [31:0] K32 = k;
      wire hit = in_index == K32[TW-1:0];
      assign data_d[k*DW +: DW]  = hit ? in_data : pend_data_q[k*DW +: DW];
      assign in_strb[k*EB +: EB] = {EB{hit}};
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) begin
      pend_valid_q <= 1'b0;
      pend_line_q  <= {(64 - OB){1'b0}};
      pend_strb_q  <= {LINE_BYTES{1'b0}};
      pend_count_q <= ZERO;
      idle_q       <= {IW{1'b0}};
    end else if (accept && !completes) begin
      pend_valid_q <= 1'b1;
      pend_line_q  <= in_line;
      pend_strb_q  <= start ? in_strb : pend_strb_q | in_strb;
      pend_count_q <= start ? ONE : pend_count_q + ONE;
      idle_q       <= {IW{1'b0}};
    end else if (issue) begin  // the pending line went, or the store went with it (e)
      pend_valid_q <= 1'b0;
      idle_q       <= {IW{1'b0}};
    end else if (pend_valid_q && idle_q != IDLE_OUT) begin
      idle_q       <= idle_q + 1'b1;
    end
  end

  // Line data needs no reset: only bytes whose strobe is set are ever written to memory.
  always @(posedge clk)
    if (accept) pend_data_q <= data_d;

  // How many stores each issued line carries, in request order (never full: see the header).
  wire          counts_in_ready, counts_out_valid;
  wire [CW-1:0] acked;
  wire unused_counts = counts_in_ready ^ counts_out_valid;
  loom_fifo #(.WIDTH(CW), .DEPTH(CREDITS)) u_counts (
      .clk(clk), .rst(rst),
      .in_valid(issue), .in_ready(counts_in_ready), .in_data(flush ? pend_count_q : merged_count),
      .out_valid(counts_out_valid), .out_ready(m_resp_valid), .out_data(acked));

  // What frees a store's credit, and what makes its token deliverable.
  wire [CW-1:0] acks      = m_resp_valid ? acked : ZERO;
  wire [CW-1:0] delivered = deliver ? ONE : ZERO;
  wire [CW-1:0] accepted  = accept ? ONE : ZERO;
  wire [CW-1:0] used_d    = used_q + accepted - (POSTED != 0 ? acks : delivered);
  wire [CW-1:0] tokens_d  = tokens_q + (POSTED != 0 ? accepted : acks) - delivered;
  always @(posedge clk) begin
    if (rst) begin
      used_q      <= ZERO;
      credit_q    <= 1'b1;
      tokens_q    <= ZERO;
      out_valid_q <= 1'b0;
    end else begin
      used_q      <= used_d;
      credit_q    <= used_d != FULL && tokens_d != FULL;
      tokens_q    <= tokens_d;
      out_valid_q <= tokens_d != ZERO;
    end
  end
endmodule
