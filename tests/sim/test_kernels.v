// Hand-written kernels for the simulator tests.
// SPDX-License-Identifier: Apache-2.0
//
// They obey the top-module contract of hls/include/loom/hls/HardwareKernel.h without using the HLS
// library, so sim/ can be tested while the code generator is written. loom_test_add computes
// out[i] = in[i] + arg_2 for i in [global_offset_0, global_offset_0 + global_size_0) with one load
// port (m0) and one store port (m1), keeping up to 16 loads in flight so memory latency overlaps.
// loom_test_hang is the same circuit waiting for one store response too many: it never raises done,
// which is what the watchdog tests need.

// The arguments and NDRange inputs of the module contract, as every test kernel takes them.
`define LOOM_TEST_ARGS \
  input [63:0] arg_0, input [63:0] arg_1, input [63:0] arg_2, \
  input [63:0] global_offset_0, input [63:0] global_offset_1, input [63:0] global_offset_2, \
  input [63:0] global_size_0, input [63:0] global_size_1, input [63:0] global_size_2

module loom_test_core #(parameter EXTRA = 0) (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr,
  input m0_resp_valid, input [31:0] m0_resp_rdata,
  output m1_req_valid, input m1_req_ready, output [63:0] m1_req_addr, output [31:0] m1_req_wdata,
  input m1_resp_valid);

  reg running;
  reg [63:0] issued, stored, completed, total;
  reg [31:0] fifo [0:15];
  reg [3:0] head, tail;
  reg [4:0] count, inflight;   // loaded values waiting for their store; loads awaiting a response

  // A load may issue only if the FIFO has room for its response (the port's credits).
  assign m0_req_valid = running && issued != total && ({1'b0, inflight} + {1'b0, count}) < 6'd16;
  assign m0_req_addr = arg_0 + ((global_offset_0 + issued) << 2);
  assign m1_req_valid = running && count != 5'd0;
  assign m1_req_addr = arg_1 + ((global_offset_0 + stored) << 2);
  assign m1_req_wdata = fifo[head] + arg_2[31:0];

  wire load_fire = m0_req_valid && m0_req_ready;
  wire store_fire = m1_req_valid && m1_req_ready;
  assign retired = m1_resp_valid;  // a work-item finishes with its store
  wire [63:0] completed_next = completed + {63'd0, m1_resp_valid};

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0;
      issued <= 64'd0; stored <= 64'd0; completed <= 64'd0; total <= global_size_0;
      head <= 4'd0; tail <= 4'd0; count <= 5'd0; inflight <= 5'd0;
    end else if (running) begin
      if (load_fire) issued <= issued + 64'd1;
      if (m0_resp_valid) begin fifo[tail] <= m0_resp_rdata; tail <= tail + 4'd1; end
      if (store_fire) begin head <= head + 4'd1; stored <= stored + 64'd1; end
      count <= count + {4'd0, m0_resp_valid} - {4'd0, store_fire};
      inflight <= inflight + {4'd0, load_fire} - {4'd0, m0_resp_valid};
      completed <= completed_next;
      if (completed_next == total + EXTRA) begin running <= 1'b0; done <= 1'b1; end
    end
  end
endmodule

module loom_test_add (
  input clk, input rst, input start, output done, output retired,
  `LOOM_TEST_ARGS,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr,
  input m0_resp_valid, input [31:0] m0_resp_rdata,
  output m1_req_valid, input m1_req_ready, output [63:0] m1_req_addr, output [31:0] m1_req_wdata,
  input m1_resp_valid);
  loom_test_core #(.EXTRA(0)) core(.*);
endmodule

module loom_test_hang (
  input clk, input rst, input start, output done, output retired,
  `LOOM_TEST_ARGS,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr,
  input m0_resp_valid, input [31:0] m0_resp_rdata,
  output m1_req_valid, input m1_req_ready, output [63:0] m1_req_addr, output [31:0] m1_req_wdata,
  input m1_resp_valid);
  loom_test_core #(.EXTRA(1)) core(.*);
endmodule

// loom_test_atomic: global_size_0 atomic requests to the word at arg_0 on port m0, one per cycle
// while 16 may be in flight: request i sends req_wdata = i + 1 and req_cmp = i. It sums the old values
// the memory answers and, after the last, stores the sum to arg_1 through port m1. The operation is the
// port's (HardwareKernel): as an add the word ends at n(n+1)/2, as a cmpxchg served in order at n;
// the old values a cmpxchg sees are 0 .. n-1. arg_2 is unused. The model is built with a cmpxchg
// port (it passes req_cmp); a simulation may describe the port as another operation.
module loom_test_atomic (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr, output [31:0] m0_req_wdata,
  output [31:0] m0_req_cmp, input m0_resp_valid, input [31:0] m0_resp_rdata,
  output m1_req_valid, input m1_req_ready, output [63:0] m1_req_addr, output [31:0] m1_req_wdata,
  input m1_resp_valid);
  assign retired = 1'b0;  // its progress is in its ports

  reg running, stored;
  reg [63:0] issued, answered, total;
  reg [4:0] inflight;
  reg [31:0] sum;

  assign m0_req_valid = running && issued != total && inflight < 5'd16;
  assign m0_req_addr = arg_0;
  assign m0_req_wdata = issued[31:0] + 32'd1;
  assign m0_req_cmp = issued[31:0];
  assign m1_req_valid = running && !stored && answered == total;
  assign m1_req_addr = arg_1;
  assign m1_req_wdata = sum;

  wire fire = m0_req_valid && m0_req_ready;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0; stored <= 1'b0;
      issued <= 64'd0; answered <= 64'd0; total <= global_size_0; inflight <= 5'd0; sum <= 32'd0;
    end else if (running) begin
      if (fire) issued <= issued + 64'd1;
      if (m0_resp_valid) begin answered <= answered + 64'd1; sum <= sum + m0_resp_rdata; end
      inflight <= inflight + {4'd0, fire} - {4'd0, m0_resp_valid};
      if (m1_req_valid && m1_req_ready) stored <= 1'b1;
      if (m1_resp_valid) begin running <= 1'b0; done <= 1'b1; end
    end
  end
endmodule

// loom_test_produce: writes arg_2 + i for i < global_size_0 into the pipe of arg_0 (pipe port s0), one
// packet per cycle while its FIFO has room; done once all are written. No memory ports.
module loom_test_produce (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  input s0_ready, output s0_push, output [31:0] s0_data);
  assign retired = 1'b0;  // its progress is in its ports

  reg running;
  reg [63:0] sent, total;

  assign s0_push = running && sent != total;
  assign s0_data = arg_2[31:0] + sent[31:0];

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0; sent <= 64'd0; total <= global_size_0;
    end else if (running) begin
      if (s0_push && s0_ready) sent <= sent + 64'd1;
      if (sent == total) begin running <= 1'b0; done <= 1'b1; end
    end
  end
endmodule

// loom_test_consume: reads global_size_0 packets from the pipe of arg_0 (pipe port s0) and stores
// packet i to arg_1 + 4i through port m0, taking a packet in the cycle its store fires; done once
// every store is answered.
module loom_test_consume (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  input s0_valid, input [31:0] s0_data, output s0_pop,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr, output [31:0] m0_req_wdata,
  input m0_resp_valid);
  assign retired = 1'b0;  // its progress is in its ports

  reg running;
  reg [63:0] got, acked, total;

  assign m0_req_valid = running && s0_valid && got != total;
  assign s0_pop = m0_req_valid && m0_req_ready;
  assign m0_req_addr = arg_1 + (got << 2);
  assign m0_req_wdata = s0_data;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0; got <= 64'd0; acked <= 64'd0; total <= global_size_0;
    end else if (running) begin
      if (s0_pop) got <= got + 64'd1;
      if (m0_resp_valid) acked <= acked + 64'd1;
      if (acked == total) begin running <= 1'b0; done <= 1'b1; end
    end
  end
endmodule

// The reserves and slots signal groups of pipe port s0, but for the slot's data.
`define LOOM_TEST_RESERVE_PORTS \
  input [31:0] s0_reservable, input [31:0] s0_reserve_base, output s0_reserve, \
  output [31:0] s0_reserve_count, output s0_slot_en, output [31:0] s0_slot

// loom_test_reservations: the sequence both reservation kernels follow on their pipe port: reserve
// up to `chunk` of the `total_in` packets once `reservable` allows, step through the reservation's
// slots one per cycle where `advance` is high, commit, again until all are committed (`finished`).
// `element` is the packet number of the current slot, from 0.
module loom_test_reservations (
  input clk, input rst, input start, input [31:0] total_in, input [31:0] chunk, input advance,
  input [31:0] reservable, input [31:0] reserve_base,
  output reserve, output [31:0] reserve_count, output slot_en, output [31:0] slot,
  output commit, output [31:0] commit_base, output [31:0] element, output finished);

  localparam RESERVE = 2'd0, SLOTS = 2'd1, COMMIT = 2'd2;
  reg running;
  reg [1:0] state;
  reg [31:0] moved, total, base, count, index;
  wire [31:0] left = total - moved;
  wire [31:0] want = left < chunk ? left : chunk;

  assign reserve = running && state == RESERVE && moved != total && reservable >= want;
  assign reserve_count = want;
  assign slot_en = running && state == SLOTS;
  assign slot = base + index;
  assign commit = running && state == COMMIT;
  assign commit_base = base;
  assign element = moved + index;
  assign finished = running && state == RESERVE && moved == total;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0;
    end else if (start) begin
      running <= 1'b1; state <= RESERVE; moved <= 32'd0; index <= 32'd0; total <= total_in;
    end else if (running) begin
      case (state)
        RESERVE: if (reserve) begin base <= reserve_base; count <= want; state <= SLOTS; end
        SLOTS:
          if (advance) begin
            index <= index + 32'd1;
            if (index + 32'd1 == count) state <= COMMIT;
          end
        default: begin moved <= moved + count; index <= 32'd0; state <= RESERVE; end
      endcase
    end
  end
endmodule

// loom_test_reserve_produce: writes global_size_0 packets arg_2, arg_2 + 1, ... into the pipe of
// arg_0 (pipe port s0, reserves/slots/commits only) through write reservations of up to
// arg_1[30:0] packets, one slot per cycle. With arg_1[31] set it commits at its reservation's
// base + 1, which is no reservation (a kernel bug the board reports).
module loom_test_reserve_produce (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  `LOOM_TEST_RESERVE_PORTS,
  output [31:0] s0_slot_wdata, output s0_commit, output [31:0] s0_commit_base);
  assign retired = 1'b0;  // its progress is in its ports

  reg running;
  wire finished;
  wire [31:0] base, element;
  loom_test_reservations reservations (
    .clk(clk), .rst(rst), .start(start), .total_in(global_size_0[31:0]), .chunk({1'b0, arg_1[30:0]}),
    .advance(1'b1), .reservable(s0_reservable), .reserve_base(s0_reserve_base), .reserve(s0_reserve),
    .reserve_count(s0_reserve_count), .slot_en(s0_slot_en), .slot(s0_slot), .commit(s0_commit),
    .commit_base(base), .element(element), .finished(finished));
  assign s0_slot_wdata = arg_2[31:0] + element;
  assign s0_commit_base = arg_1[31] ? base + 32'd1 : base;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0;
    end else if (running && finished) begin
      running <= 1'b0; done <= 1'b1;
    end
  end
endmodule

// loom_test_reserve_consume: reads global_size_0 packets from the pipe of arg_0 (pipe port s0,
// reserves/slots/commits/queries only) through read reservations of up to arg_2 packets, storing
// packet i to arg_1 + 4i through port m0 in the cycle it reads its slot; then stores the pipe's
// capacity (s0_capacity) at arg_1 + 4 * global_size_0. Done once every store is answered.
module loom_test_reserve_consume (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS,
  `LOOM_TEST_RESERVE_PORTS,
  input [31:0] s0_slot_rdata, output s0_commit, output [31:0] s0_commit_base,
  input [31:0] s0_packets, input [31:0] s0_capacity,
  output m0_req_valid, input m0_req_ready, output [63:0] m0_req_addr, output [31:0] m0_req_wdata,
  input m0_resp_valid);
  assign retired = 1'b0;  // its progress is in its ports

  localparam READING = 2'd0, LAST = 2'd1, WAIT = 2'd2;
  reg running;
  reg [1:0] phase;
  reg [31:0] total, acked;
  wire finished;
  wire [31:0] element;
  loom_test_reservations reservations (
    .clk(clk), .rst(rst), .start(start), .total_in(global_size_0[31:0]), .chunk(arg_2[31:0]),
    .advance(m0_req_ready), .reservable(s0_reservable), .reserve_base(s0_reserve_base),
    .reserve(s0_reserve), .reserve_count(s0_reserve_count), .slot_en(s0_slot_en), .slot(s0_slot),
    .commit(s0_commit), .commit_base(s0_commit_base), .element(element), .finished(finished));
  assign m0_req_valid = running && (phase == READING ? s0_slot_en : phase == LAST);
  assign m0_req_addr = arg_1 + {30'd0, phase == LAST ? total : element, 2'b00};
  assign m0_req_wdata = phase == LAST ? s0_capacity : s0_slot_rdata;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0; phase <= READING; acked <= 32'd0; total <= global_size_0[31:0];
    end else if (running) begin
      if (m0_resp_valid) acked <= acked + 32'd1;
      case (phase)
        READING: if (finished) phase <= LAST;
        LAST: if (m0_req_ready) phase <= WAIT;
        default: if (acked == total + 32'd1) begin running <= 1'b0; done <= 1'b1; end
      endcase
    end
  end
endmodule

// loom_test_quiet: global_size_0 work-items, one finishing each cycle, that touch no memory (a large
// NDRange whose work-items but one store nothing); done after the last. The watchdog must see them.
module loom_test_quiet (
  input clk, input rst, input start, output reg done, output retired,
  `LOOM_TEST_ARGS);

  reg running;
  reg [63:0] finished;

  assign retired = running && finished != global_size_0;

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0; done <= 1'b0;
    end else if (start) begin
      running <= 1'b1; done <= 1'b0; finished <= 64'd0;
    end else if (running) begin
      if (retired) finished <= finished + 64'd1;
      else begin running <= 1'b0; done <= 1'b1; end
    end
  end
endmodule
