// loom_fadd: pipelined IEEE-754 binary32 adder (a + b, round to nearest even, flush to zero).
// SPDX-License-Identifier: Apache-2.0
//
// Three natural steps: align (swap so |a| >= |b|, shift the smaller significand right keeping guard,
// round and sticky bits) | add (28-bit add or subtract) | normalise and round (leading-zero shift,
// RNE, pack). LATENCY >= 3 puts a register after each step and LATENCY-3 plain delay registers after
// the last; LATENCY 2 merges align+add, LATENCY 1 merges all three before a single register. A result
// appears exactly LATENCY cycles after its operands are accepted; one operation per cycle unless the
// output is held (out_valid && !out_ready), which freezes the whole pipeline (in_ready = 0).
// Special values: any NaN gives the canonical quiet NaN 32'h7fc00000, inf + -inf is NaN, inf wins
// otherwise; denormal inputs read as zero of their sign and denormal results flush to zero of the
// result's sign; x + -x = +0 and -0 + -0 = -0 as IEEE RNE says; overflow rounds to infinity.
// The generator implements fsub as this adder with b's sign bit flipped.
module loom_fadd #(
    parameter integer LATENCY = 3
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
  localparam integer EXTRA = (LATENCY > 3) ? LATENCY - 3 : 0;
  localparam integer AW = 64;  // align -> add bundle width
  localparam integer BW = 41;  // add -> normalise bundle width

  // ---- Pipeline control: all registers advance together unless the output is held. ----
  wire en;
  loom_lockstep #(.LATENCY(LATENCY)) u_control (
      .clk(clk), .rst(rst), .in_valid(in_valid), .out_ready(out_ready), .en(en), .out_valid(out_valid));
  assign in_ready = en;

  // ---- Step 1: unpack and align. ----
  wire a_nan, a_inf, a_zero, b_nan, b_inf, b_zero;
  loom_fclass u_class_a (.magnitude(a[30:0]), .nan(a_nan), .inf(a_inf), .zero(a_zero));
  loom_fclass u_class_b (.magnitude(b[30:0]), .nan(b_nan), .inf(b_inf), .zero(b_zero));
  // Flush denormal inputs: a zero exponent means a zero magnitude.
  wire [30:0] mag_a = a_zero ? 31'd0 : a[30:0];
  wire [30:0] mag_b = b_zero ? 31'd0 : b[30:0];
  wire        swap  = mag_b > mag_a;
  wire [30:0] mag_l = swap ? mag_b : mag_a;
  wire [30:0] mag_s = swap ? mag_a : mag_b;
  wire        s1_sign = swap ? b[31] : a[31];
  wire        s1_sub  = a[31] ^ b[31];
  wire [23:0] sig_l = {mag_l[30:23] != 8'd0, mag_l[22:0]};
  wire [23:0] sig_s = {mag_s[30:23] != 8'd0, mag_s[22:0]};
  wire [7:0]  shift = mag_l[30:23] - mag_s[30:23];
  // Significand with guard, round and sticky positions; everything shifted past bit 0 is ORed
  // into the sticky bit, which is all RNE needs after at most a one-bit normalising left shift.
  wire [26:0] s_ext   = {sig_s, 3'b000};
  wire [26:0] s_shift = s_ext >> shift;
  wire [26:0] s_lost  = s_ext & ~({27{1'b1}} << shift);
  wire [26:0] s_align = {s_shift[26:1], s_shift[0] | (|s_lost)};
  wire        s1_nan  = a_nan || b_nan || (a_inf && b_inf && s1_sub);
  wire        s1_inf  = a_inf || b_inf;
  wire        s1_isgn = a_inf ? a[31] : b[31];
  wire [AW-1:0] s1_out = {s1_nan, s1_inf, s1_isgn, s1_sign, s1_sub, mag_l[30:23], sig_l, s_align};

  // ---- Step 2: add or subtract (|large| >= |small|, so the difference is never negative). ----
  wire [AW-1:0] s2_in;
  wire        s2_nan, s2_inf, s2_isgn, s2_sign, s2_sub;
  wire [7:0]  s2_exp;
  wire [23:0] s2_sig_l;
  wire [26:0] s2_align;
  assign {s2_nan, s2_inf, s2_isgn, s2_sign, s2_sub, s2_exp, s2_sig_l, s2_align} = s2_in;
  wire [27:0] s2_sum = s2_sub ? {1'b0, s2_sig_l, 3'b000} - {1'b0, s2_align}
                              : {1'b0, s2_sig_l, 3'b000} + {1'b0, s2_align};
  wire [BW-1:0] s2_out = {s2_nan, s2_inf, s2_isgn, s2_sign, s2_sub, s2_exp, s2_sum};

  // ---- Step 3: normalise, round to nearest even, pack. ----
  wire [BW-1:0] s3_in;
  wire        s3_nan, s3_inf, s3_isgn, s3_sign, s3_sub;
  wire [7:0]  s3_exp;
  wire [27:0] s3_sum;
  assign {s3_nan, s3_inf, s3_isgn, s3_sign, s3_sub, s3_exp, s3_sum} = s3_in;

  // Leading-zero normaliser for the no-carry case (a shift cascade: no priority encoder needed).
  reg [26:0] n_left;
  reg [4:0]  lz;
  always @* begin
    n_left = s3_sum[26:0];
    lz     = 5'd0;
    if (n_left[26:11] == 16'd0) begin n_left = {n_left[10:0], 16'd0}; lz[4] = 1'b1; end
    if (n_left[26:19] == 8'd0)  begin n_left = {n_left[18:0], 8'd0};  lz[3] = 1'b1; end
    if (n_left[26:23] == 4'd0)  begin n_left = {n_left[22:0], 4'd0};  lz[2] = 1'b1; end
    if (n_left[26:25] == 2'd0)  begin n_left = {n_left[24:0], 2'd0};  lz[1] = 1'b1; end
    if (!n_left[26])            begin n_left = {n_left[25:0], 1'b0};  lz[0] = 1'b1; end
  end
  wire        carry = s3_sum[27];
  // Normalised fraction (hidden bit dropped, it is 1 for every nonzero sum), then G and sticky.
  wire [25:0] norm  = carry ? {s3_sum[26:2], s3_sum[1] | s3_sum[0]} : n_left[25:0];
  wire        round_up = norm[2] && (norm[1] || norm[0] || norm[3]);
  // Bit 23 of the rounded fraction is the carry out of an all-ones fraction: the significand became
  // 2.0, so the exponent steps up and the fraction bits are already zero.
  wire [23:0] rounded  = {1'b0, norm[25:3]} + {23'd0, round_up};
  // 10-bit two's complement exponent: bit 9 set means negative.
  wire [4:0]  lshift = carry ? 5'd0 : lz;
  wire [9:0]  exp_r = {2'b00, s3_exp} + {9'd0, carry} - {5'd0, lshift} + {9'd0, rounded[23]};
  wire        tiny  = exp_r[9] || (exp_r == 10'd0);
  wire        huge  = !exp_r[9] && (exp_r[8:0] >= 9'd255);
  reg  [31:0] s3_out;
  always @* begin
    if (s3_nan)                 s3_out = 32'h7fc00000;
    else if (s3_inf)            s3_out = {s3_isgn, 8'hff, 23'd0};
    else if (s3_sum == 28'd0)   s3_out = {s3_sign && !s3_sub, 31'd0};  // exact zero: +0 unless -0 + -0
    else if (tiny)              s3_out = {s3_sign, 31'd0};
    else if (huge)              s3_out = {s3_sign, 8'hff, 23'd0};
    else                        s3_out = {s3_sign, exp_r[7:0], rounded[22:0]};
  end

  // ---- Register placement. ----
  generate
    if (LATENCY >= 3) begin : g_reg1
      reg [AW-1:0] q;
      always @(posedge clk) if (en) q <= s1_out;
      assign s2_in = q;
    end else begin : g_wire1
      assign s2_in = s1_out;
    end
    if (LATENCY >= 2) begin : g_reg2
      reg [BW-1:0] q;
      always @(posedge clk) if (en) q <= s2_out;
      assign s3_in = q;
    end else begin : g_wire2
      assign s3_in = s2_out;
    end
  endgenerate

  reg [31:0] res_q;
  always @(posedge clk) if (en) res_q <= s3_out;

  loom_delay #(.WIDTH(32), .DEPTH(EXTRA)) u_extra (.clk(clk), .en(en), .in(res_q), .out(result));
endmodule
