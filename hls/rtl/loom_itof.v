// loom_itof: WIDTH-bit integer (two's complement when SIGNED) to IEEE-754 binary32, combinational.
// SPDX-License-Identifier: Apache-2.0
//
// Rounds to nearest even, as C and OpenCL C conversions do; 0 gives +0. Every integer of up to 64
// bits is within binary32's range, so there is no overflow.
module loom_itof #(
    parameter integer WIDTH  = 32,
    parameter integer SIGNED = 1
) (
    input  [WIDTH-1:0] in,
    output [31:0]      result
);
  localparam integer XW = WIDTH + 24;  // the magnitude with room below it for rounding

  wire             negative  = (SIGNED != 0) && in[WIDTH-1];
  wire [WIDTH-1:0] magnitude = negative ? -in : in;

  // Leading zeros of the magnitude (WIDTH when it is zero): a priority encoder.
  function automatic [7:0] leading_zeros(input [WIDTH-1:0] value);
    integer i;
    begin
      leading_zeros = WIDTH[7:0];
      for (i = 0; i < WIDTH; i = i + 1)
        if (value[i]) leading_zeros = WIDTH[7:0] - 8'd1 - i[7:0];
    end
  endfunction

  wire [7:0]    shift      = leading_zeros(magnitude);
  // The leading one lands on bit XW-1; the 23 bits below it are the fraction.
  wire [XW-1:0] normalized = {magnitude, 24'd0} << shift;
  wire [22:0]   fraction   = normalized[XW-2:XW-24];
  wire          guard      = normalized[XW-25];
  wire          sticky     = |normalized[XW-26:0];
  wire          round_up   = guard && (sticky || fraction[0]);
  wire [23:0]   rounded    = {1'b0, fraction} + {23'd0, round_up};  // bit 23: carried into the exponent
  wire [7:0]    exponent   = 8'd127 + WIDTH[7:0] - 8'd1 - shift + {7'd0, rounded[23]};

  assign result = (magnitude == {WIDTH{1'b0}}) ? 32'd0 : {negative, exponent, rounded[22:0]};
endmodule
