// loom_workitems: NDRange work-item generator.
// SPDX-License-Identifier: Apache-2.0
//
// A start pulse latches the offsets and sizes; from the next cycle the module emits size0*size1*size2
// work-items, one per cycle while out_ready, with gid = offset + index and dimension 0 counting
// fastest. A size of zero in any dimension emits nothing. A start while busy abandons the current
// range and restarts with the new inputs. gid0..2 come straight from registers (each counts from its
// offset up to offset+size-1 and wraps), so no adder sits on the output path; nothing multiplies.
// With LIMIT > 0 at most LIMIT work-items are in flight: one more enters only after a retire pulse
// (a work-item completed) brings the count below LIMIT (LIMIT 1: each work-item runs alone, for
// kernels whose on-chip arrays hold one work-item's copy). LIMIT 0 ignores retire.
// With STEP0 > 1 each output stands for STEP0 consecutive work-items along dimension 0 (a kernel
// vectorised by num_simd_work_items): gid0 steps by STEP0, which must divide size0.
module loom_workitems #(
    parameter integer LIMIT = 0,
    parameter [63:0] STEP0 = 64'd1
) (
    input         clk,
    input         rst,
    input         start,
    input  [63:0] offset0,
    input  [63:0] offset1,
    input  [63:0] offset2,
    input  [63:0] size0,
    input  [63:0] size1,
    input  [63:0] size2,
    input         retire,
    output        out_valid,
    input         out_ready,
    output [63:0] gid0,
    output [63:0] gid1,
    output [63:0] gid2
);
  reg        busy_q;
  reg [63:0] gid0_q, gid1_q, gid2_q;
  reg [63:0] off0_q, off1_q;           // reload values when a dimension wraps (dim 2 never wraps)
  reg [63:0] end0_q, end1_q, end2_q;   // last gid of each dimension (modulo 2^64)

  // Work-items emitted and not yet retired (only with LIMIT > 0).
  wire admit;
  generate
    if (LIMIT > 0) begin : g_limit
      reg [31:0] inflight_q;
      wire emit = busy_q && out_ready && admit;
      always @(posedge clk) begin
        if (rst || start) inflight_q <= 32'd0;
        else inflight_q <= inflight_q + {31'd0, emit} - {31'd0, retire};
      end
      assign admit = inflight_q < LIMIT;
    end else begin : g_no_limit
      assign admit = 1'b1;
      wire unused_retire = retire;
    end
  endgenerate

  wire last0 = gid0_q == end0_q;
  wire last1 = gid1_q == end1_q;
  wire last2 = gid2_q == end2_q;

  always @(posedge clk) begin
    if (rst) begin
      busy_q <= 1'b0;
    end else if (start) begin
      busy_q <= (size0 != 64'd0) && (size1 != 64'd0) && (size2 != 64'd0);
    end else if (busy_q && out_ready && admit && last0 && last1 && last2) begin
      busy_q <= 1'b0;
    end
  end

  // Range registers need no reset: they are only looked at while busy_q is set.
  always @(posedge clk) begin
    if (start) begin
      gid0_q <= offset0;
      gid1_q <= offset1;
      gid2_q <= offset2;
      off0_q <= offset0;
      off1_q <= offset1;
      end0_q <= offset0 + size0 - STEP0;
      end1_q <= offset1 + size1 - 64'd1;
      end2_q <= offset2 + size2 - 64'd1;
    end else if (busy_q && out_ready && admit) begin
      if (!last0) begin
        gid0_q <= gid0_q + STEP0;
      end else begin
        gid0_q <= off0_q;
        if (!last1) begin
          gid1_q <= gid1_q + 64'd1;
        end else begin
          gid1_q <= off1_q;
          gid2_q <= gid2_q + 64'd1;
        end
      end
    end
  end

  assign out_valid = busy_q && admit;
  assign gid0 = gid0_q;
  assign gid1 = gid1_q;
  assign gid2 = gid2_q;
endmodule
