// loom_fcmp: IEEE-754 binary32 comparison a PREDICATE b, combinational.
// SPDX-License-Identifier: Apache-2.0
//
// PREDICATE is LLVM's fcmp numbering, whose bits say when the predicate holds: bit 0 if a == b,
// bit 1 if a > b, bit 2 if a < b, bit 3 if unordered (either is NaN); so 1 = oeq, 4 = olt,
// 14 = une, 15 = true. Comparisons are exact: denormals compare by value (the float units flush
// them, a comparison need not) and +0 == -0, so results match any IEEE CPU bit for bit.
module loom_fcmp #(
    parameter integer PREDICATE = 1
) (
    input  [31:0] a,
    input  [31:0] b,
    output        result
);
  wire a_nan = (a[30:23] == 8'hff) && (a[22:0] != 23'd0);
  wire b_nan = (b[30:23] == 8'hff) && (b[22:0] != 23'd0);
  wire unordered = a_nan || b_nan;
  wire both_zero = (a[30:0] == 31'd0) && (b[30:0] == 31'd0);
  // Sign-magnitude to keys that order as unsigned integers: negatives reversed below positives.
  wire [31:0] key_a = a[31] ? ~a : {1'b1, a[30:0]};
  wire [31:0] key_b = b[31] ? ~b : {1'b1, b[30:0]};
  wire equal   = !unordered && (both_zero || a == b);
  wire less    = !unordered && !both_zero && key_a < key_b;
  wire greater = !unordered && !both_zero && key_a > key_b;
  localparam [3:0] HOLDS = PREDICATE[3:0];
  assign result = (unordered && HOLDS[3]) || (less && HOLDS[2]) || (greater && HOLDS[1]) ||
                  (equal && HOLDS[0]);
endmodule
