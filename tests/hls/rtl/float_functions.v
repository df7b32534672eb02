// Test wrapper: every fcmp predicate and the 32- and 64-bit conversions on shared inputs, so one
// Verilated model covers the combinational float functions of hls/rtl.
module float_functions (
    input  [31:0] a,
    input  [31:0] b,
    input  [63:0] integer_in,
    output [15:0] compare,
    output [31:0] from_s32,
    output [31:0] from_u32,
    output [31:0] from_s64,
    output [31:0] from_u64,
    output [31:0] to_s32,
    output [31:0] to_u32,
    output [63:0] to_s64,
    output [63:0] to_u64
);
  genvar p;
  generate
    for (p = 0; p < 16; p = p + 1) begin : g_compare
      loom_fcmp #(.PREDICATE(p)) u_compare (.a(a), .b(b), .result(compare[p]));
    end
  endgenerate
  loom_itof #(.WIDTH(32), .SIGNED(1)) u_from_s32 (.in(integer_in[31:0]), .result(from_s32));
  loom_itof #(.WIDTH(32), .SIGNED(0)) u_from_u32 (.in(integer_in[31:0]), .result(from_u32));
  loom_itof #(.WIDTH(64), .SIGNED(1)) u_from_s64 (.in(integer_in), .result(from_s64));
  loom_itof #(.WIDTH(64), .SIGNED(0)) u_from_u64 (.in(integer_in), .result(from_u64));
  loom_ftoi #(.WIDTH(32), .SIGNED(1)) u_to_s32 (.a(a), .result(to_s32));
  loom_ftoi #(.WIDTH(32), .SIGNED(0)) u_to_u32 (.a(a), .result(to_u32));
  loom_ftoi #(.WIDTH(64), .SIGNED(1)) u_to_s64 (.a(a), .result(to_s64));
  loom_ftoi #(.WIDTH(64), .SIGNED(0)) u_to_u64 (.a(a), .result(to_u64));
endmodule
