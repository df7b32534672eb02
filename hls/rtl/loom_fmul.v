// loom_fmul: pipelined IEEE-754 binary32 multiplier (a * b, round to nearest even, flush to zero).
// SPDX-License-Identifier: Apache-2.0
//
// Two natural steps: multiply (unpack, 24x24 significand product, exponent sum: maps onto DSP
// blocks) | normalise and round (one-bit normalise, RNE, exponent range checks, pack). LATENCY >= 2
// puts a register after each step and LATENCY-2 plain delay registers after the last; LATENCY 1
// merges both steps before a single register. A result appears exactly LATENCY cycles after its
// operands are accepted; one operation per cycle unless the output is held (out_valid &&
// !out_ready), which freezes the whole pipeline (in_ready = 0).
// Special values: any NaN and inf * 0 give the canonical quiet NaN 32'h7fc00000; the sign is
// always a[31] ^ b[31] otherwise. Denormal inputs read as zero; a result flushes to zero of its
// sign exactly when IEEE gradual underflow would make it a denormal (so a product just below
// 2^-126 that rounds up to 2^-126 at denormal precision stays 2^-126); overflow gives infinity.
module loom_fmul #(
    parameter integer LATENCY = 2
) (
    input         clk,
    input         rst,
    input         in_valid,
    output        in_ready,
    input  [31:0] a,
    input  [31:0] b,
    output        out_valid,
    input         out_ready,
    output [31:0] result
);
  localparam integer EXTRA = (LATENCY > 2) ? LATENCY - 2 : 0;
  localparam integer PW = 61;  // multiply -> normalise bundle width

  // ---- Pipeline control: all registers advance together unless the output is held. ----
  wire en;
  loom_lockstep #(.LATENCY(LATENCY)) u_control (
      .clk(clk), .rst(rst), .in_valid(in_valid), .out_ready(out_ready), .en(en), .out_valid(out_valid));
  assign in_ready = en;

  // ---- Step 1: unpack and multiply. ----
  wire a_nan, a_inf, a_zero, b_nan, b_inf, b_zero;
  loom_fclass u_class_a (.magnitude(a[30:0]), .nan(a_nan), .inf(a_inf), .zero(a_zero));
  loom_fclass u_class_b (.magnitude(b[30:0]), .nan(b_nan), .inf(b_inf), .zero(b_zero));
  wire        s1_nan  = a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero);
  wire        s1_inf  = a_inf || b_inf;
  wire        s1_zero = a_zero || b_zero;
  wire        s1_sign = a[31] ^ b[31];
  wire [8:0]  s1_exp  = {1'b0, a[30:23]} + {1'b0, b[30:23]};
  wire [47:0] s1_prod = {1'b1, a[22:0]} * {1'b1, b[22:0]};
  wire [PW-1:0] s1_out = {s1_nan, s1_inf, s1_zero, s1_sign, s1_exp, s1_prod};

  // ---- Step 2: normalise, round to nearest even, pack. ----
  wire [PW-1:0] s2_in;
  wire        s2_nan, s2_inf, s2_zero, s2_sign;
  wire [8:0]  s2_exp;
  wire [47:0] s2_prod;
  assign {s2_nan, s2_inf, s2_zero, s2_sign, s2_exp, s2_prod} = s2_in;

  // The product of two significands in [1,2) lies in [1,4): at most a one-bit right shift.
  wire        top      = s2_prod[47];
  wire [22:0] frac     = top ? s2_prod[46:24] : s2_prod[45:23];
  wire        guard    = top ? s2_prod[23] : s2_prod[22];
  wire        sticky   = (|s2_prod[21:0]) || (top && s2_prod[22]);
  wire        round_up = guard && (sticky || frac[0]);
  // Bit 23 is the carry out of an all-ones fraction: the significand became 2.0.
  wire [23:0] rounded  = {1'b0, frac} + {23'd0, round_up};
  // 10-bit two's complement biased exponent before rounding: bit 9 set means negative.
  wire [9:0]  exp_n = {1'b0, s2_exp} - 10'd127 + {9'd0, top};
  wire [9:0]  exp_r = exp_n + {9'd0, rounded[23]};
  // Flush exactly when IEEE gradual underflow would give a denormal. Below 2^-126 only the binade
  // 2^-127 can still round up to 2^-126 at denormal precision: when its fraction is all ones
  // (value >= 2^-126 - 2^-150, ties to even), even if 24-bit rounding alone would stay below.
  wire        to_min = (exp_n == 10'd0) && (&frac);
  wire        tiny   = exp_n[9] || (exp_n == 10'd0);
  wire        huge   = !exp_r[9] && (exp_r[8:0] >= 9'd255);
  reg  [31:0] s2_out;
  always @* begin
    if (s2_nan)                     s2_out = 32'h7fc00000;
    else if (s2_inf)                s2_out = {s2_sign, 8'hff, 23'd0};
    else if (s2_zero)               s2_out = {s2_sign, 31'd0};
    else if (to_min)                s2_out = {s2_sign, 8'h01, 23'd0};
    else if (tiny)                  s2_out = {s2_sign, 31'd0};
    else if (huge)                  s2_out = {s2_sign, 8'hff, 23'd0};
    else                            s2_out = {s2_sign, exp_r[7:0], rounded[22:0]};
  end

  // ---- Register placement. ----
  generate
    if (LATENCY >= 2) begin : g_reg1
      reg [PW-1:0] q;
      always @(posedge clk) if (en) q <= s1_out;
      assign s2_in = q;
    end else begin : g_wire1
      assign s2_in = s1_out;
    end
  endgenerate

  reg [31:0] res_q;
  always @(posedge clk) if (en) res_q <= s2_out;

  loom_delay #(.WIDTH(32), .DEPTH(EXTRA)) u_extra (.clk(clk), .en(en), .in(res_q), .out(result));
endmodule
