// loom_fsqrt: pipelined IEEE-754 binary32 square root (sqrt(a), round to nearest even, flush to zero).
// SPDX-License-Identifier: Apache-2.0
//
// A radix-2 restoring digit recurrence (the integer square root, two radicand bits per root bit),
// unrolled into 25 steps: 24 iterations, the first of which also unpacks (special cases, halved
// exponent, the significand scaled to the radicand X in [1, 4) by doubling it when the unbiased
// exponent is odd, the leading root digit 1), each appending one root bit by subtracting 4Q + 1 from
// the remainder shifted by the next two radicand bits where it fits: 23 fraction bits, then the
// guard bit | round (RNE, pack). An exact tie is impossible (the square of a root with 25
// significant bits ending in 1 has 49 or 50; X has at most 25) and the root stays below 2 - 2^-24,
// so rounding is fraction + guard without sticky or exponent carry; a normal input always gives
// a normal result, so there is no overflow or underflow.
// Latency: any LATENCY >= 1. Up to 25 the steps are spread over LATENCY stages, each ending in a
// register, as evenly as possible: stage s holds steps floor(25*s/LATENCY) to
// floor(25*(s+1)/LATENCY) - 1, at most ceil(25/LATENCY) steps (the default 13 gives two per stage,
// the rounding alone in the last; 25 one, 1 puts the whole recurrence before a single register);
// above 25 every step has its own stage and LATENCY-25 plain delay registers follow the last. A
// result appears exactly LATENCY cycles after its operand is accepted; one operation per cycle
// unless the output is held (out_valid && !out_ready), which freezes the whole pipeline
// (in_ready = 0).
// Special values: any NaN and any negative number other than -0 (-inf included) give the canonical
// quiet NaN 32'h7fc00000; sqrt(+-0) = +-0 and sqrt(+inf) = +inf. Denormal inputs read as zero of
// their sign.
module loom_fsqrt #(
    parameter integer LATENCY = 13
) (
    input         clk,
    input         rst,
    input         in_valid,
    output        in_ready,
    input  [31:0] a,
    output        out_valid,
    input         out_ready,
    output [31:0] result
);
  localparam integer ITERS  = 24;         // root digits after the leading one
  localparam integer STEPS  = ITERS + 1;  // the iterations (the first unpacks too), round
  localparam integer STAGES = (LATENCY < STEPS) ? LATENCY : STEPS;
  localparam integer EXTRA  = LATENCY - STAGES;
  // Step -> step bundle: {nan, inf, zero, sign, exp[7:0], radicand bits left[22:0], rem[24:0],
  // root[24:0]}.
  localparam integer BW = 85;

  // ---- Pipeline control: all registers advance together unless the output is held. ----
  wire en;
  loom_lockstep #(.LATENCY(LATENCY)) u_control (
      .clk(clk), .rst(rst), .in_valid(in_valid), .out_ready(out_ready), .en(en), .out_valid(out_valid));
  assign in_ready = en;

  // ---- Unpack: special cases, halved exponent, radicand, leading root digit. ----
  wire a_nan, a_inf, a_zero;
  loom_fclass u_class (.magnitude(a[30:0]), .nan(a_nan), .inf(a_inf), .zero(a_zero));
  wire u_nan  = a_nan || (a[31] && !a_zero);
  // Biased exponent floor((e - 127) / 2) + 127 = floor((e + 127) / 2).
  wire [7:0]  u_exp = {1'b0, a[30:24]} + 8'd63 + {7'd0, a[23]};
  // X = significand * 2^(e[0] ? 0 : 1) in [1, 4), as 25 bits with 23 fraction bits.
  wire [24:0] rad   = a[23] ? {2'b01, a[22:0]} : {1'b1, a[22:0], 1'b0};
  // The leading root digit is 1: the remainder starts as the top two radicand bits minus 1.
  wire [1:0]  u_rem = rad[24:23] - 2'd1;
  wire [BW-1:0] u_out = {u_nan, a_nan || a_inf, a_zero, a[31], u_exp, rad[22:0], 23'd0, u_rem, 25'd1};

  // ---- Steps 0..23: one root digit each. ----
  // Step j's result (done) passes to step j+1 (next) through a stage register (a loom_delay of
  // depth 1, else 0: a wire) where step j ends a stage, i.e. where floor((j+1)*STAGES/STEPS) moves on.
  genvar j;
  generate
    for (j = 0; j < ITERS; j = j + 1) begin : g_step
      wire [BW-1:0] x;
      wire [BW-1:0] done;
      wire [BW-1:0] next;
      if (j == 0) begin : g_first
        assign x = u_out;
      end else begin : g_chain
        assign x = g_step[j-1].next;
      end
      // With Q the partial root (j+1 bits) and R <= 2Q the remainder, the trial is
      // 4R + pair - (4Q + 1); afterwards R <= 2Q' < 2^(j+3), so the bits above are known zero.
      localparam [24:0] KEEP = ~({25{1'b1}} << (j + 3));
      wire [22:0] rest     = x[72:50];
      wire [24:0] rem      = x[49:25];
      wire [24:0] root     = x[24:0];
      wire [26:0] rp       = {rem, rest[22:21]};
      wire [27:0] trial    = {1'b0, rp} - {1'b0, root, 2'b01};
      wire        fits     = !trial[27];
      wire [24:0] rem_next = (fits ? trial[24:0] : rp[24:0]) & KEEP;
      // rp and trial stay below 2^26 (2^25 before the last step) where they are kept.
      wire        unused_high = |{rp[26:25], trial[26:25]};
      assign done = {x[BW-1:73], rest[20:0], 2'b00, rem_next, root[23:0], fits};
      localparam integer CUT = (((j + 1) * STAGES) / STEPS != (j * STAGES) / STEPS) ? 1 : 0;
      loom_delay #(.WIDTH(BW), .DEPTH(CUT)) u_cut (.clk(clk), .en(en), .in(done), .out(next));
    end
  endgenerate

  // ---- Step 24: round to nearest even, pack. ----
  wire        r_nan, r_inf, r_zero, r_sign;
  wire [7:0]  r_exp;
  wire [47:0] unused_rest_rem;  // radicand bits (all consumed) and the final remainder
  wire        unused_lead;      // the leading root digit, always 1
  wire [23:0] r_root;
  assign {r_nan, r_inf, r_zero, r_sign, r_exp, unused_rest_rem, unused_lead, r_root} =
      g_step[ITERS-1].next;
  reg  [31:0] r_out;
  always @* begin
    if (r_nan)                      r_out = 32'h7fc00000;
    else if (r_inf)                 r_out = 32'h7f800000;
    else if (r_zero)                r_out = {r_sign, 31'd0};
    else                            r_out = {1'b0, r_exp, r_root[23:1] + {22'd0, r_root[0]}};
  end

  // The last stage register, then the delay registers beyond the natural latency.
  loom_delay #(.WIDTH(32), .DEPTH(1 + EXTRA)) u_result (.clk(clk), .en(en), .in(r_out), .out(result));
endmodule
