// loom_fdiv: pipelined IEEE-754 binary32 divider (a / b, round to nearest even, flush to zero).
// SPDX-License-Identifier: Apache-2.0
//
// A radix-2 restoring digit recurrence on the 24-bit significands A and B, unrolled into 26 steps:
// unpack (special cases, exponent difference and the leading quotient digit: A/B lies in (1/2, 2),
// so when A < B the dividend doubles and the exponent drops by one; the remainder starts as A - B
// or 2A - B, both below B) | 24 iterations (each doubles the remainder and subtracts B where it
// fits, one quotient bit each: 23 fraction bits, then the guard bit) | round (RNE, exponent range
// checks, pack). An exact tie is impossible (a quotient (2k+1) * 2^-24 of the dividend and B would
// make 2^24 divide B < 2^24) and the quotient stays below 2 - 2^-24, so rounding is fraction + guard
// without sticky (the final remainder is not needed) or exponent carry.
// Latency: any LATENCY >= 1. Up to 26 the steps are spread over LATENCY stages, each ending in a
// register, as evenly as possible: stage s holds steps floor(26*s/LATENCY) to
// floor(26*(s+1)/LATENCY) - 1, at most ceil(26/LATENCY) steps (the default 13 gives two per stage,
// 26 one, 1 puts the whole recurrence before a single register); above 26 every step has its own
// stage and LATENCY-26 plain delay registers follow the last. A result appears exactly LATENCY
// cycles after its operands are accepted; one operation per cycle unless the output is held
// (out_valid && !out_ready), which freezes the whole pipeline (in_ready = 0).
// Special values: any NaN, 0/0 and inf/inf give the canonical quiet NaN 32'h7fc00000; otherwise
// x/0 and inf/x give infinity and 0/x and x/inf zero, the sign always a[31] ^ b[31]. Denormal inputs
// read as zero; a result flushes to zero of its sign exactly when IEEE gradual underflow would make
// it a denormal (so a quotient just below 2^-126 that rounds up to 2^-126 at denormal precision
// stays 2^-126); overflow gives infinity.
module loom_fdiv #(
    parameter integer LATENCY = 13
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
  localparam integer ITERS  = 24;         // quotient digits after the leading one
  localparam integer STEPS  = ITERS + 2;  // unpack, the iterations, round
  localparam integer STAGES = (LATENCY < STEPS) ? LATENCY : STEPS;
  localparam integer EXTRA  = LATENCY - STAGES;
  // Step -> step bundle: {nan, inf, zero, sign, exp[9:0], B fraction[22:0], rem[23:0], quo[23:0]}.
  localparam integer BW = 85;

  // ---- Pipeline control: all registers advance together unless the output is held. ----
  wire en;
  loom_lockstep #(.LATENCY(LATENCY)) u_control (
      .clk(clk), .rst(rst), .in_valid(in_valid), .out_ready(out_ready), .en(en), .out_valid(out_valid));
  assign in_ready = en;

  // ---- Step 0: unpack, exponent difference, leading quotient digit. ----
  wire a_nan, a_inf, a_zero, b_nan, b_inf, b_zero;
  loom_fclass u_class_a (.magnitude(a[30:0]), .nan(a_nan), .inf(a_inf), .zero(a_zero));
  loom_fclass u_class_b (.magnitude(b[30:0]), .nan(b_nan), .inf(b_inf), .zero(b_zero));
  wire        s0_nan  = a_nan || b_nan || (a_inf && b_inf) || (a_zero && b_zero);
  wire        s0_inf  = a_inf || b_zero;
  wire        s0_zero = a_zero || b_inf;
  wire [23:0] sig_a   = {1'b1, a[22:0]};
  wire [23:0] sig_b   = {1'b1, b[22:0]};
  // A - B (bit 24: A < B) and 2A - B; the latter is below B when A < B, so 24 bits modulo 2^24 do.
  wire [24:0] diff1   = {1'b0, sig_a} - {1'b0, sig_b};
  wire [23:0] diff2   = {sig_a[22:0], 1'b0} - sig_b;
  wire        low     = diff1[24];
  wire [23:0] s0_rem  = low ? diff2 : diff1[23:0];
  // 10-bit two's complement biased exponent of the quotient in [1, 2): bit 9 set means negative.
  wire [9:0]  s0_exp  = {2'b00, a[30:23]} - {2'b00, b[30:23]} + 10'd127 - {9'd0, low};
  wire [BW-1:0] s0_out = {s0_nan, s0_inf, s0_zero, a[31] ^ b[31], s0_exp, b[22:0], s0_rem, 24'd0};

  // ---- Steps 1..24: quotient digit j lands in quo[24-j]. ----
  // Step j's result (done) passes to step j+1 (next) through a stage register (a loom_delay of
  // depth 1, else 0: a wire) where step j ends a stage, i.e. where floor((j+1)*STAGES/STEPS) moves on.
  genvar j;
  generate
    for (j = 0; j <= ITERS; j = j + 1) begin : g_step
      wire [BW-1:0] done;
      wire [BW-1:0] next;
      if (j == 0) begin : g_unpack
        assign done = s0_out;
      end else begin : g_iter
        wire [BW-1:0] x   = g_step[j-1].next;
        wire [23:0]   rem = x[47:24];
        // The remainder R is below B: 2R - B fits when R[23] is set (2R >= 2^24 > B) or when the
        // subtraction of the low 24 bits of 2R does not borrow; either way 2R - B < 2^24.
        wire [24:0] trial    = {1'b0, rem[22:0], 1'b0} - {1'b0, 1'b1, x[70:48]};
        wire        fits     = rem[23] || !trial[24];
        wire [23:0] rem_next = fits ? trial[23:0] : {rem[22:0], 1'b0};
        wire [23:0] quo_next = x[23:0] | ({23'd0, fits} << (ITERS - j));
        assign done = {x[BW-1:48], rem_next, quo_next};
      end
      localparam integer CUT = (((j + 1) * STAGES) / STEPS != (j * STAGES) / STEPS) ? 1 : 0;
      loom_delay #(.WIDTH(BW), .DEPTH(CUT)) u_cut (.clk(clk), .en(en), .in(done), .out(next));
    end
  endgenerate

  // ---- Step 25: round to nearest even, range checks, pack. ----
  wire        r_nan, r_inf, r_zero, r_sign;
  wire [9:0]  r_exp;
  wire [46:0] unused_sig_b_rem;  // the divisor's fraction and the final remainder
  wire [23:0] r_quo;
  assign {r_nan, r_inf, r_zero, r_sign, r_exp, unused_sig_b_rem, r_quo} = g_step[ITERS].next;
  wire [22:0] frac    = r_quo[23:1];
  wire [22:0] rounded = frac + {22'd0, r_quo[0]};
  // Flush exactly when IEEE gradual underflow would give a denormal: a quotient in the binade
  // 2^-127 rounds up to 2^-126 at denormal precision when its fraction is all ones (value >=
  // 2^-126 - 2^-150, ties to even), as in loom_fmul.
  wire        to_min = (r_exp == 10'd0) && (&frac);
  wire        tiny   = r_exp[9] || (r_exp == 10'd0);
  wire        huge   = !r_exp[9] && (r_exp[8:0] >= 9'd255);
  reg  [31:0] r_out;
  always @* begin
    if (r_nan)                      r_out = 32'h7fc00000;
    else if (r_inf)                 r_out = {r_sign, 8'hff, 23'd0};
    else if (r_zero)                r_out = {r_sign, 31'd0};
    else if (to_min)                r_out = {r_sign, 8'h01, 23'd0};
    else if (tiny)                  r_out = {r_sign, 31'd0};
    else if (huge)                  r_out = {r_sign, 8'hff, 23'd0};
    else                            r_out = {r_sign, r_exp[7:0], rounded};
  end

  // The last stage register, then the delay registers beyond the natural latency.
  loom_delay #(.WIDTH(32), .DEPTH(1 + EXTRA)) u_result (.clk(clk), .en(en), .in(r_out), .out(result));
endmodule
