// loom_idiv: pipelined integer divider, quotient or remainder of a / b (LLVM's udiv, sdiv, urem, srem).
// SPDX-License-Identifier: Apache-2.0
//
// A radix-2 restoring long division of the operands' magnitudes, one quotient bit a step: the
// partial remainder R (below the divisor D) takes the dividend's next bit, 2R + bit, and D is
// subtracted where it fits; after WIDTH steps the shifted-out dividend register holds the quotient
// and R the remainder. SIGNED adds an unpack step before (magnitudes, result signs: the quotient is
// negative when the signs differ, the remainder takes the dividend's sign, as C truncates toward
// zero) and a sign step after (negation). REMAINDER selects the output: 0 the quotient, 1 the
// remainder. WIDTH >= 2.
// Latency: any LATENCY >= 1, as in loom_fdiv. The STEPS = WIDTH (+ 2 when SIGNED) steps are spread
// over min(LATENCY, STEPS) stages, each ending in a register, as evenly as possible: stage s holds
// steps floor(STEPS*s/LATENCY) to floor(STEPS*(s+1)/LATENCY) - 1 (the default board's 34 gives a
// 32-bit signed divide one step a stage, a 64-bit one two); above STEPS, LATENCY-STEPS plain delay
// registers follow the last. A result appears exactly LATENCY cycles after its operands are
// accepted; one operation per cycle unless the output is held (out_valid && !out_ready), which
// freezes the whole pipeline (in_ready = 0).
// Undefined in C, defined here (RISC-V's choice), never a hang: x / 0 gives all ones (-1 when
// SIGNED: no step subtracts anything from a zero divisor, so every quotient bit is one) and x % 0
// gives x; INT_MIN / -1 gives INT_MIN (the magnitude 2^(WIDTH-1) read back as signed) and
// INT_MIN % -1 gives 0.
module loom_idiv #(
    parameter integer WIDTH     = 32,
    parameter integer SIGNED    = 0,
    parameter integer REMAINDER = 0,
    parameter integer LATENCY   = 34
) (
    input              clk,
    input              rst,
    input              in_valid,
    output             in_ready,
    input  [WIDTH-1:0] a,
    input  [WIDTH-1:0] b,
    output             out_valid,
    input              out_ready,
    output [WIDTH-1:0] result
);
  localparam integer PRE    = (SIGNED != 0) ? 1 : 0;  // the unpack step
  localparam integer STEPS  = WIDTH + 2 * PRE;
  localparam integer STAGES = (LATENCY < STEPS) ? LATENCY : STEPS;
  localparam integer EXTRA  = LATENCY - STAGES;
  // Step -> step bundle: {negate quotient, negate remainder, divisor, remainder, dividend/quotient};
  // the last field shifts left a bit a step, the dividend's next bit out, a quotient bit in.
  localparam integer BW = 2 + 3 * WIDTH;

  // ---- Pipeline control: all registers advance together unless the output is held. ----
  wire en;
  loom_lockstep #(.LATENCY(LATENCY)) u_control (
      .clk(clk), .rst(rst), .in_valid(in_valid), .out_ready(out_ready), .en(en), .out_valid(out_valid));
  assign in_ready = en;

  // ---- Unpack: magnitudes and result signs (a step of its own when SIGNED, wires otherwise). ----
  wire             a_neg    = (SIGNED != 0) && a[WIDTH-1];
  wire             b_neg    = (SIGNED != 0) && b[WIDTH-1];
  wire [WIDTH-1:0] a_mag    = a_neg ? -a : a;
  wire [WIDTH-1:0] b_mag    = b_neg ? -b : b;
  // x / 0 keeps its all-ones quotient whatever the dividend's sign.
  wire             negate_q = (a_neg && !b_neg && (|b)) || (!a_neg && b_neg);
  wire [BW-1:0]    unpacked = {negate_q, a_neg, b_mag, {WIDTH{1'b0}}, a_mag};

  // ---- Steps: step j's result (done) passes to step j+1 (next) through a stage register (a
  // loom_delay of depth 1, else 0: a wire) where step j ends a stage, i.e. where
  // floor((j+1)*STAGES/STEPS) moves on; the last step ends in the output register. ----
  genvar j;
  generate
    for (j = 0; j < STEPS; j = j + 1) begin : g_step
      wire [BW-1:0] done;
      wire [BW-1:0] next;
      if (j < PRE) begin : g_unpack
        assign done = unpacked;
      end else if (j < PRE + WIDTH) begin : g_iter
        wire [BW-1:0]    x;
        if (j == 0) begin : g_first
          assign x = unpacked;
        end else begin : g_chain
          assign x = g_step[j-1].next;
        end
        wire [WIDTH-1:0] divisor = x[3*WIDTH-1:2*WIDTH];
        wire [WIDTH-1:0] rem     = x[2*WIDTH-1:WIDTH];
        wire [WIDTH-1:0] shift   = x[WIDTH-1:0];
        // R < D, so 2R + bit < 2D: one subtraction decides the quotient bit and leaves R < D.
        wire [WIDTH:0]   partial = {rem, shift[WIDTH-1]};
        wire [WIDTH:0]   trial   = partial - {1'b0, divisor};
        wire             fits    = !trial[WIDTH];
        wire [WIDTH-1:0] rem_next = fits ? trial[WIDTH-1:0] : partial[WIDTH-1:0];
        assign done = {x[BW-1:2*WIDTH], rem_next, shift[WIDTH-2:0], fits};
      end else begin : g_sign
        assign done = g_step[j-1].next;  // the negation below
      end
      localparam integer CUT = (j < STEPS - 1 && ((j + 1) * STAGES) / STEPS != (j * STAGES) / STEPS) ? 1 : 0;
      loom_delay #(.WIDTH(BW), .DEPTH(CUT)) u_cut (.clk(clk), .en(en), .in(done), .out(next));
    end
  endgenerate

  // ---- The last step's end: signs, the chosen output, the output register and any delay. ----
  wire             r_negate_q, r_negate_r;
  wire [WIDTH-1:0] unused_divisor, r_rem, r_quo;
  assign {r_negate_q, r_negate_r, unused_divisor, r_rem, r_quo} = g_step[STEPS-1].next;
  wire [WIDTH-1:0] out_value = (REMAINDER != 0) ? (r_negate_r ? -r_rem : r_rem)
                                                : (r_negate_q ? -r_quo : r_quo);
  loom_delay #(.WIDTH(WIDTH), .DEPTH(1 + EXTRA)) u_result (.clk(clk), .en(en), .in(out_value), .out(result));
endmodule
