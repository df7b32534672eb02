// loom_ftoi: IEEE-754 binary32 to a WIDTH-bit integer (two's complement when SIGNED), combinational.
// SPDX-License-Identifier: Apache-2.0
//
// Rounds toward zero, as C and OpenCL C conversions do. Values out of the integer's range and NaN
// are undefined in C; here they give the most negative integer when SIGNED (what x86's cvttss2si
// gives for 32 and 64 bits) and 0 otherwise.
module loom_ftoi #(
    parameter integer WIDTH  = 32,
    parameter integer SIGNED = 1
) (
    input  [31:0]      a,
    output [WIDTH-1:0] result
);
  localparam integer XW = WIDTH + 24;  // the significand shifted anywhere into the integer's range

  wire        sign     = a[31];
  wire [7:0]  exponent = a[30:23];
  wire        is_nan   = (exponent == 8'hff) && (a[22:0] != 23'd0);
  // Below 1.0 (denormals included) truncates to 0.
  wire        below_one = exponent < 8'd127;
  wire [8:0]  power     = {1'b0, exponent} - 9'd127;  // the value is 1.fraction x 2^power
  // The largest power that fits: WIDTH-2 when SIGNED (the most negative value, -2^(WIDTH-1), is the
  // out-of-range result anyway), WIDTH-1 otherwise; negatives do not fit an unsigned result.
  localparam [8:0] LIMIT = (SIGNED != 0) ? WIDTH[8:0] - 9'd1 : WIDTH[8:0];
  wire        too_large = !below_one && (power >= LIMIT);
  wire        invalid   = is_nan || too_large || ((SIGNED == 0) && sign && !below_one);

  // The significand at bits [23:0] is 1.fraction x 2^23: shift by power - 23 (left or right).
  wire [XW-1:0]    significand = {{WIDTH{1'b0}}, 1'b1, a[22:0]};
  wire [XW-1:0]    shifted     = (power >= 9'd23) ? significand << (power - 9'd23)
                                                  : significand >> (9'd23 - power);
  wire [WIDTH-1:0] magnitude   = shifted[WIDTH-1:0];
  wire [WIDTH-1:0] value       = ((SIGNED != 0) && sign) ? -magnitude : magnitude;
  wire [WIDTH-1:0] out_of_range = (SIGNED != 0) ? {1'b1, {(WIDTH - 1) {1'b0}}} : {WIDTH{1'b0}};
  // Bits of the shifted significand above the integer (nonzero only when too large).
  wire unused_high = |shifted[XW-1:WIDTH];

  assign result = invalid ? out_of_range : below_one ? {WIDTH{1'b0}} : value;
endmodule
