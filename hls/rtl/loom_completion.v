// loom_completion: counts a kernel's completion tokens and reports when the range is finished.
// SPDX-License-Identifier: Apache-2.0
//
// done is high after reset (idle). A start pulse latches the sizes and drops done at the next edge;
// done rises at the edge where the size0*size1*size2-th token since start is received, or stays high
// when that product is zero. Tokens are always accepted (in_ready = 1); tokens arriving while idle
// or in the start cycle itself are ignored. A start while counting restarts the count. The count is
// kept as three nested counters compared against size-1 per dimension, so no multiplier is needed.
// With STEP0 > 1 each token stands for STEP0 work-items along dimension 0 (see loom_workitems).
// drained is low while a posted store port still has writes the memory has not acknowledged (those
// ports give their tokens at acceptance, see loom_store): done waits for it as well.
module loom_completion #(
    parameter [63:0] STEP0 = 64'd1
) (
    input         clk,
    input         rst,
    input         start,
    input  [63:0] size0,
    input  [63:0] size1,
    input  [63:0] size2,
    input         in_valid,
    output        in_ready,
    input         drained,
    output        done
);
  reg        done_q;
  reg [63:0] cnt0_q, cnt1_q, cnt2_q;
  reg [63:0] last0_q, last1_q, last2_q;

  wire at0 = cnt0_q == last0_q;
  wire at1 = cnt1_q == last1_q;
  wire at2 = cnt2_q == last2_q;
  wire take = in_valid && !done_q;

  always @(posedge clk) begin
    if (rst) begin
      done_q <= 1'b1;
    end else if (start) begin
      done_q <= (size0 == 64'd0) || (size1 == 64'd0) || (size2 == 64'd0);
    end else if (take && at0 && at1 && at2) begin
      done_q <= 1'b1;
    end
  end

  // Counters need no reset: they are only looked at while done_q is low, which requires a start.
  always @(posedge clk) begin
    if (start) begin
      cnt0_q  <= 64'd0;
      cnt1_q  <= 64'd0;
      cnt2_q  <= 64'd0;
      last0_q <= size0 - STEP0;
      last1_q <= size1 - 64'd1;
      last2_q <= size2 - 64'd1;
    end else if (take) begin
      if (!at0) begin
        cnt0_q <= cnt0_q + STEP0;
      end else begin
        cnt0_q <= 64'd0;
        if (!at1) begin
          cnt1_q <= cnt1_q + 64'd1;
        end else begin
          cnt1_q <= 64'd0;
          cnt2_q <= cnt2_q + 64'd1;
        end
      end
    end
  end

  assign in_ready = 1'b1;
  assign done     = done_q && drained;
endmodule
