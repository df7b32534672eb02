// Test wrapper: a loom_load behind loom_skip_merge, wired as the kernel generator wires a load in an
// if: items with in_pred = 0 make no request and come out as zero, in order.
module predicated_load (
    input         clk,
    input         rst,
    input         in_valid,
    output        in_ready,
    input  [63:0] in_addr,
    input         in_pred,
    output        m_req_valid,
    input         m_req_ready,
    output [63:0] m_req_addr,
    input         m_resp_valid,
    input  [31:0] m_resp_rdata,
    output        out_valid,
    input         out_ready,
    output [31:0] out_data
);
  wire        unit_in_valid, unit_in_ready, unit_out_valid, unit_out_ready;
  wire [31:0] unit_out_data;
  loom_skip_merge #(.DW(32), .DEPTH(6)) u_skip (
      .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_pred(in_pred),
      .unit_in_valid(unit_in_valid), .unit_in_ready(unit_in_ready), .unit_out_valid(unit_out_valid),
      .unit_out_ready(unit_out_ready), .unit_out_data(unit_out_data), .out_valid(out_valid),
      .out_ready(out_ready), .out_data(out_data));
  loom_load #(.DW(32), .CREDITS(4)) u_load (
      .clk(clk), .rst(rst), .in_valid(unit_in_valid), .in_ready(unit_in_ready), .in_addr(in_addr),
      .m_req_valid(m_req_valid), .m_req_ready(m_req_ready), .m_req_addr(m_req_addr),
      .m_resp_valid(m_resp_valid), .m_resp_rdata(m_resp_rdata), .out_valid(unit_out_valid),
      .out_ready(unit_out_ready), .out_data(unit_out_data));
endmodule
