// loom_workitems: NDRange work-item generator.
// SPDX-License-Identifier: Apache-2.0
//
// A start pulse latches the offsets and sizes; from the next cycle the module emits size0*size1*size2
// work-items, one per cycle while out_ready, with gid = offset + index and dimension 0 counting
// fastest. A size of zero in any dimension emits nothing. A start while busy abandons the current
// range and restarts with the new inputs. gid0..2 come straight from registers (each counts from its
// offset up to offset+size-1 and wraps), so no adder sits on the output path; nothing multiplies.
// With LIMIT > 0 at most LIMIT work-items are in flight, each holding one of LIMIT slots (LIMIT at
// most 2^SLOT_BITS): a work-item leaves with a free slot in `slot` (after a start, slots 0..LIMIT-1
// in order, then those retired, in the order they were; an offered slot never changes) and frees
// it when a retire pulse names it in retire_slot (it completed, holding the slot); with no slot
// free, none leaves. Kernels
// whose on-chip arrays hold LIMIT work-items' copies index them by slot (LIMIT 1: each work-item
// runs alone). LIMIT 0 ignores retire and gives slot 0.
// With STEP0 > 1 each output stands for STEP0 consecutive work-items along dimension 0 (a kernel
// vectorised by num_simd_work_items): gid0 steps by STEP0, which must divide size0.
// With INTERLEAVED (a compute unit's generator) a dimension's size0..2 work-items come in blocks
// of block0..2 (multiples of the step): after each whole block the gid skips skip0..2 more, the
// blocks of the other units. Each dimension then counts its work-items and its block's instead of
// comparing the gid with the range's end. Without it, block and skip are unused.
module loom_workitems #(
    parameter integer LIMIT = 0,
    parameter integer SLOT_BITS = 1,
    parameter [63:0] STEP0 = 64'd1,
    parameter integer INTERLEAVED = 0
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
    input  [63:0] block0,
    input  [63:0] block1,
    input  [63:0] block2,
    input  [63:0] skip0,
    input  [63:0] skip1,
    input  [63:0] skip2,
    input         retire,
    input  [SLOT_BITS-1:0] retire_slot,
    output        out_valid,
    input         out_ready,
    output [63:0] gid0,
    output [63:0] gid1,
    output [63:0] gid2,
    output [SLOT_BITS-1:0] slot
);
  reg        busy_q;
  reg [63:0] gid0_q, gid1_q, gid2_q;
  reg [63:0] off0_q, off1_q;           // reload values when a dimension wraps (dim 2 never wraps)

  // Free slots, in a FIFO: a start fills it with slots 0..LIMIT-1; a work-item leaves with the slot
  // at its head, and a retire puts its slot at the tail. The head only moves when a work-item
  // leaves, so an offered slot never changes, and no cycle searches the slots.
  localparam integer SLOTS = 1 << SLOT_BITS;
  wire admit;
  generate
    if (LIMIT > 0) begin : g_limit
      localparam [31:0] LIMIT32 = LIMIT;
      localparam [SLOT_BITS:0] LIMIT_COUNT = LIMIT32[SLOT_BITS:0];
      reg [SLOT_BITS-1:0] free_q[0:SLOTS-1];
      reg [SLOT_BITS-1:0] head_q, tail_q;
      reg [SLOT_BITS:0] free_count_q;
      wire emit = busy_q && out_ready && admit;
      integer i;
      always @(posedge clk) begin
        if (rst || start) begin
          for (i = 0; i < SLOTS; i = i + 1)
            free_q[i] <= i[SLOT_BITS-1:0];
          head_q <= {SLOT_BITS{1'b0}};
          tail_q <= LIMIT_COUNT[SLOT_BITS-1:0];
          free_count_q <= LIMIT_COUNT;
        end else begin
          if (retire) begin
            free_q[tail_q] <= retire_slot;
            tail_q <= tail_q + 1'b1;
          end
          if (emit)
            head_q <= head_q + 1'b1;
          if (retire && !emit)
            free_count_q <= free_count_q + 1'b1;
          else if (emit && !retire)
            free_count_q <= free_count_q - 1'b1;
        end
      end
      assign admit = free_count_q != {(SLOT_BITS + 1){1'b0}};
      assign slot = free_q[head_q];
    end else begin : g_no_limit
      assign admit = 1'b1;
      assign slot = {SLOT_BITS{1'b0}};
      wire unused_retire = retire;
      wire [SLOT_BITS-1:0] unused_retire_slot = retire_slot;
    end
  endgenerate

  // Whether each dimension is at its range's last work-item, and the gid after the current one.
  wire last0, last1, last2;
  wire [63:0] next0, next1, next2;
  wire advance = busy_q && out_ready && admit;

  always @(posedge clk) begin
    if (rst) begin
      busy_q <= 1'b0;
    end else if (start) begin
      busy_q <= (size0 != 64'd0) && (size1 != 64'd0) && (size2 != 64'd0);
    end else if (advance && last0 && last1 && last2) begin
      busy_q <= 1'b0;
    end
  end

  generate
    if (INTERLEAVED != 0) begin : g_interleaved
      // Per dimension: the work-items counted so far, the position in the block, and their last
      // values; the gid adds skip at a block's end.
      reg [63:0] count0_q, count1_q, count2_q, in0_q, in1_q, in2_q;
      reg [63:0] last_count0_q, last_count1_q, last_count2_q, last_in0_q, last_in1_q, last_in2_q;
      reg [63:0] skip0_q, skip1_q, skip2_q;
      assign last0 = count0_q == last_count0_q;
      assign last1 = count1_q == last_count1_q;
      assign last2 = count2_q == last_count2_q;
      assign next0 = gid0_q + STEP0 + (in0_q == last_in0_q ? skip0_q : 64'd0);
      assign next1 = gid1_q + 64'd1 + (in1_q == last_in1_q ? skip1_q : 64'd0);
      assign next2 = gid2_q + 64'd1 + (in2_q == last_in2_q ? skip2_q : 64'd0);
      always @(posedge clk) begin
        if (start) begin
          {count0_q, count1_q, count2_q, in0_q, in1_q, in2_q} <= {6{64'd0}};
          last_count0_q <= size0 - STEP0;
          last_count1_q <= size1 - 64'd1;
          last_count2_q <= size2 - 64'd1;
          last_in0_q <= block0 - STEP0;
          last_in1_q <= block1 - 64'd1;
          last_in2_q <= block2 - 64'd1;
          skip0_q <= skip0;
          skip1_q <= skip1;
          skip2_q <= skip2;
        end else if (advance) begin
          if (!last0) begin
            count0_q <= count0_q + STEP0;
            in0_q <= in0_q == last_in0_q ? 64'd0 : in0_q + STEP0;
          end else begin
            count0_q <= 64'd0;
            in0_q <= 64'd0;
            if (!last1) begin
              count1_q <= count1_q + 64'd1;
              in1_q <= in1_q == last_in1_q ? 64'd0 : in1_q + 64'd1;
            end else begin
              count1_q <= 64'd0;
              in1_q <= 64'd0;
              count2_q <= count2_q + 64'd1;
              in2_q <= in2_q == last_in2_q ? 64'd0 : in2_q + 64'd1;
            end
          end
        end
      end
    end else begin : g_contiguous
      reg [63:0] end0_q, end1_q, end2_q; // last gid of each dimension (modulo 2^64)
      assign last0 = gid0_q == end0_q;
      assign last1 = gid1_q == end1_q;
      assign last2 = gid2_q == end2_q;
      assign next0 = gid0_q + STEP0;
      assign next1 = gid1_q + 64'd1;
      assign next2 = gid2_q + 64'd1;
      always @(posedge clk)
        if (start) begin
          end0_q <= offset0 + size0 - STEP0;
          end1_q <= offset1 + size1 - 64'd1;
          end2_q <= offset2 + size2 - 64'd1;
        end
      wire [64*6-1:0] unused_interleaving = {block0, block1, block2, skip0, skip1, skip2};
    end
  endgenerate

  // Range registers need no reset: they are only looked at while busy_q is set.
  always @(posedge clk) begin
    if (start) begin
      gid0_q <= offset0;
      gid1_q <= offset1;
      gid2_q <= offset2;
      off0_q <= offset0;
      off1_q <= offset1;
    end else if (advance) begin
      if (!last0) begin
        gid0_q <= next0;
      end else begin
        gid0_q <= off0_q;
        if (!last1) begin
          gid1_q <= next1;
        end else begin
          gid1_q <= off1_q;
          gid2_q <= next2;
        end
      end
    end
  end

  assign out_valid = busy_q && admit;
  assign gid0 = gid0_q;
  assign gid1 = gid1_q;
  assign gid2 = gid2_q;
endmodule
