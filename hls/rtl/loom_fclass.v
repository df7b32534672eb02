// loom_fclass: the classes of an IEEE-754 binary32 operand the float units decide special cases by.
// SPDX-License-Identifier: Apache-2.0
//
// Combinational, on the magnitude bits (the sign is no class). Under the library's flush-to-zero rule
// a denormal (zero exponent) is a zero.
module loom_fclass (
    input  [30:0] magnitude,
    output        nan,
    output        inf,
    output        zero
);
  wire max_exponent = magnitude[30:23] == 8'hff;
  assign nan  = max_exponent && (magnitude[22:0] != 23'd0);
  assign inf  = max_exponent && (magnitude[22:0] == 23'd0);
  assign zero = magnitude[30:23] == 8'd0;
endmodule
