// loom_forward_queue: a load port and a store port of one memory, with store-to-load forwarding.
// SPDX-License-Identifier: Apache-2.0
//
// Serves one load and one store of the same alias class in a loop, the load before the store in each
// iteration (a read-modify-write at data-dependent addresses, `hist[bin[i]] += w[i]`), so that loads
// issue every cycle instead of waiting for the previous iteration's store to be acknowledged.
//
// Streams, each in program order:
//   ld_*  the loads: address and predicate (ld_pred = 0: no access, the answer is zero);
//   an_*  the store announcements: each iteration's store address and predicate (an_pred = 0: that
//         iteration does not store), sent as soon as the address is known, long before the data;
//   st_*  the store data of the announced stores with an_pred = 1, in order;
//   ld_out_* the load answers, st_out_* one completion token per stored element, both in order;
//   ml_* / ms_* the memory's read and write ports, with loom_load's and loom_store's m_* contracts.
// Loads and stores move DW-bit elements (DW 8..64) at naturally aligned addresses, so two accesses
// touch the same bytes or disjoint ones.
// Loads and announcements strictly alternate: load 0, announcement 0, load 1, announcement 1, ...;
// load k sees the stores of iterations < k and not the store of iteration k. A state bit says an
// announcement is owed (its load went first). Not owed: a load is taken as usual and announcement k
// may be taken in the same cycle as load k (an_ready depends on ld_valid and ld_ready). Owed: the
// announcement is taken as usual and load k+1 may be taken in the same cycle as announcement k (ld_ready
// depends on an_valid and an_ready, and load k+1 searches announcement k combinationally). So one load
// and one announcement a cycle go in any arrival pattern. The valids must not depend on the readies
// (that would close a combinational loop); ld_ready also depends on ld_addr and ld_pred, as the search
// decides whether the load needs the memory.
//
// An announcement with an_pred = 1 allocates an entry at the tail of an ENTRIES-entry circular store
// queue {address, data, has-data, references}; an_ready is low for it while the queue is full (one with
// an_pred = 0 allocates nothing and is never held for room). Store data fills the oldest entry without
// data (st_ready is a flop: data never arrives in its announcement's cycle). Entries with data are
// written through the store port in order, one a cycle (ms_req_valid is a flop, never depending on
// ms_req_ready); acknowledges come in order, one per request, and cannot be refused. A completion
// token is due for each acknowledged entry.
//
// A load with ld_pred = 1 compares its address (all 64 bits) with every live entry and, when an
// announcement is taken in the same cycle (owed state), with that one: the youngest match forwards.
// A forwarding load is accepted at once, whether or not the entry has its data; its answer, queued in
// order, waits for the data and then is that entry's data. A load without a match issues its memory
// read in the cycle it is accepted (ld_ready needs ml_req_ready then; ml_req_valid depends on ld_valid,
// the search and a credit flop, never on ml_req_ready), so no later store can overtake it. An entry is
// freed, in order from the oldest, one a cycle, once the memory acknowledged its write, its completion
// token left and no waiting answer refers to it (a reference count per entry; a load taking a reference
// to the oldest entry holds it that cycle): a load never reads the memory at an address with an
// announced store that is not acknowledged, and a forwarded answer's data stays until it has left.
//
// Answers leave in load order, memory answers, forwarded answers and pred-0 zeros interleaved. At most
// CREDITS loads are accepted and not answered (a CREDITS-entry FIFO of answer tags {kind, entry}; its
// registered in_ready is the credit), which reserves room for every memory response as in loom_load.
//
// Timing, with a memory that answers a read L and a write Ls cycles after the request edge:
//   - loads: one a cycle. A memory answer at edge t leaves from edge t+1 and its credit is spent from
//     edge t+2, so full rate for independent addresses needs CREDITS >= L + 2;
//   - a forwarded answer whose data is there leaves the cycle after its load at the earliest (so does a
//     pred-0 zero); data stored at edge t serves a waiting forwarded answer from edge t+1, so a chain of
//     loads of one address whose store data comes D cycles after the previous answer runs at D + 1
//     cycles an iteration, with no memory round trip. No answer overtakes an earlier one;
//   - stores: data at edge t is written from edge t+1 (in order, one a cycle), acknowledged at t+1+Ls,
//     its token leaves from t+2+Ls, the entry is freed at t+3+Ls at the earliest (later while an
//     answer refers to it) and taken again from t+4+Ls. So full rate needs ENTRIES >= A + Ls + 4, A
//     the cycles from an announcement to its data: with the announcement beside its load and the data
//     D cycles after the answer from memory, ENTRIES >= L + D + Ls + 5. One entry short costs one
//     cycle once (the announcements then trail their loads by a cycle, A shrinks by one); more stall.
// Stalls: a load waits for a credit, for ml_req_ready when it needs the memory, and in owed state for
// the owed announcement; an announcement with an_pred = 1 waits for a free entry (not owed: also for its
// load); store data waits for its announcement. An answer waits for the data of the entry it forwards
// from, and the answers behind it wait too. A held st_out holds entries (they are freed after their
// token), a held ld_out holds credits and the entries its answers refer to.
module loom_forward_queue #(
    parameter integer DW = 32,
    parameter integer CREDITS = 8,
    parameter integer ENTRIES = 128
) (
    input           clk,
    input           rst,
    input           ld_valid,
    output          ld_ready,
    input  [63:0]   ld_addr,
    input           ld_pred,
    output          ld_out_valid,
    input           ld_out_ready,
    output [DW-1:0] ld_out_data,
    input           an_valid,
    output          an_ready,
    input  [63:0]   an_addr,
    input           an_pred,
    input           st_valid,
    output          st_ready,
    input  [DW-1:0] st_data,
    output          st_out_valid,
    input           st_out_ready,
    output          ml_req_valid,
    input           ml_req_ready,
    output [63:0]   ml_req_addr,
    input           ml_resp_valid,
    input  [DW-1:0] ml_resp_rdata,
    output          ms_req_valid,
    input           ms_req_ready,
    output [63:0]   ms_req_addr,
    output [DW-1:0] ms_req_wdata,
    input           ms_resp_valid
);
  localparam integer EW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;  // entry index
  localparam integer NW = $clog2(ENTRIES + 1);                  // entry counts
  localparam integer RW = (CREDITS > 1) ? $clog2(CREDITS) : 1;  // response buffer index
  localparam integer CW = $clog2(CREDITS + 1);                  // answer counts, references
  // Sized copies of the limits (explicit truncation keeps the width lint quiet).
  localparam [31:0] ELAST32 = ENTRIES - 1;
  localparam [31:0] EFULL32 = ENTRIES;
  localparam [31:0] RLAST32 = CREDITS - 1;
  localparam [EW-1:0] ELAST = ELAST32[EW-1:0];
  localparam [NW-1:0] EFULL = EFULL32[NW-1:0];
  localparam [RW-1:0] RLAST = RLAST32[RW-1:0];
  localparam [NW-1:0] NZERO = {NW{1'b0}};
  localparam [CW-1:0] CZERO = {CW{1'b0}};
  // Answer kinds in the tag FIFO.
  localparam [1:0] KIND_ZERO = 2'd0, KIND_MEM = 2'd1, KIND_FWD = 2'd2;

  // ---- Store queue: circular, allocated at tail, filled at fill, written at iss, freed at head.
  reg [63:0]    addr_q [0:ENTRIES-1];
  reg [DW-1:0]  data_q [0:ENTRIES-1];
  // Per entry (registers in g_entry): allocated and not freed; its data arrived (meaningful while
  // live); no waiting answer refers to it.
  wire [ENTRIES-1:0] live, has_data, refs_zero;
  reg [EW-1:0]  tail_q, fill_q, iss_q, head_q;
  // Entries counted by stage; each flag is a registered "count != 0" (or "== ENTRIES").
  reg [NW-1:0]  n_live_q, n_nodata_q, n_unissued_q, n_tokens_q, n_done_q;
  reg           full_q, st_ready_q, ms_valid_q, st_out_valid_q, done_q;

  reg owed_q;  // a load was taken and its announcement not yet

  // ---- Answers: tags in load order, memory responses in a buffer.
  wire          credit, tag_valid;
  wire [1:0]    tag_kind;
  wire [EW-1:0] tag_entry;
  reg [DW-1:0]  rbuf_q [0:CREDITS-1];
  reg [RW-1:0]  rwr_q, rrd_q;
  reg [CW-1:0]  n_resp_q;  // responses arrived, not delivered
  reg           resp_q;    // n_resp_q != 0

  // ---- The search: youngest live entry with the load's address. Entries below the tail are younger
  // than those at or above it, so the highest match below the tail wins, else the highest match.
  wire [ENTRIES-1:0] match, below_tail;
  genvar e;
  generate
    for (e = 0; e < ENTRIES; e = e + 1) begin : g_match
      localparam [31:0] E32 = e;
      assign match[e] = live[e] && addr_q[e] == ld_addr;
      if (e == (1 << EW) - 1) begin : g_top  // the largest index an EW-bit tail can hold
        assign below_tail[e] = 1'b0;
      end else begin : g_below
        assign below_tail[e] = E32[EW-1:0] < tail_q;
      end
    end
  endgenerate
  wire [ENTRIES-1:0] match_young = match & below_tail;
  reg [EW-1:0] cam_entry;
  integer i;
  always @* begin
    cam_entry = {EW{1'b0}};
    for (i = 0; i < ENTRIES; i = i + 1)
      if (match[i]) cam_entry = i[EW-1:0];
    for (i = 0; i < ENTRIES; i = i + 1)
      if (match_young[i]) cam_entry = i[EW-1:0];
  end
  // Owed state: the announcement taken in this cycle (announcement k for load k+1) is the youngest.
  wire pair_hit = owed_q && an_pred && an_addr == ld_addr;
  wire hit = pair_hit || |match;
  wire [EW-1:0] ref_entry = pair_hit ? tail_q : cam_entry;

  // ---- Handshakes.
  wire an_room  = !an_pred || !full_q;
  wire pair_ok  = !owed_q || (an_valid && an_room);   // owed: the load goes with its announcement
  wire need_mem = ld_pred && !hit;
  assign ld_ready     = credit && pair_ok && (!need_mem || ml_req_ready);
  assign an_ready     = an_room && (owed_q || (ld_valid && ld_ready));
  assign ml_req_valid = ld_valid && need_mem && credit && pair_ok;
  assign ml_req_addr  = ld_addr;

  wire ld_fire  = ld_valid && ld_ready;
  wire an_fire  = an_valid && an_ready;
  wire ref_fire = ld_fire && ld_pred && hit;
  wire alloc    = an_fire && an_pred;
  wire fill     = st_valid && st_ready_q;
  wire issue    = ms_valid_q && ms_req_ready;
  wire token    = st_out_valid_q && st_out_ready;
  wire deliver  = ld_out_valid && ld_out_ready;
  wire deliver_fwd = deliver && tag_kind == KIND_FWD;
  wire deliver_mem = deliver && tag_kind == KIND_MEM;
  // The oldest entry goes once done with; a load referring to it in this cycle keeps it.
  wire free     = done_q && refs_zero[head_q] && !(ref_fire && ref_entry == head_q);

  assign st_ready     = st_ready_q;
  assign ms_req_valid = ms_valid_q;
  assign ms_req_addr  = addr_q[iss_q];
  assign ms_req_wdata = data_q[iss_q];
  assign st_out_valid = st_out_valid_q;

  always @(posedge clk) begin
    if (rst) owed_q <= 1'b0;
    else if (owed_q) owed_q <= !an_fire || ld_fire;
    else owed_q <= ld_fire && !an_fire;
  end

  // ---- Store queue bookkeeping.
  wire [NW-1:0] n_live_d     = n_live_q + {{(NW-1){1'b0}}, alloc} - {{(NW-1){1'b0}}, free};
  wire [NW-1:0] n_nodata_d   = n_nodata_q + {{(NW-1){1'b0}}, alloc} - {{(NW-1){1'b0}}, fill};
  wire [NW-1:0] n_unissued_d = n_unissued_q + {{(NW-1){1'b0}}, fill} - {{(NW-1){1'b0}}, issue};
  wire [NW-1:0] n_tokens_d   = n_tokens_q + {{(NW-1){1'b0}}, ms_resp_valid} - {{(NW-1){1'b0}}, token};
  wire [NW-1:0] n_done_d     = n_done_q + {{(NW-1){1'b0}}, token} - {{(NW-1){1'b0}}, free};
  always @(posedge clk) begin
    if (rst) begin
      tail_q <= {EW{1'b0}};
      fill_q <= {EW{1'b0}};
      iss_q  <= {EW{1'b0}};
      head_q <= {EW{1'b0}};
      n_live_q <= NZERO;
      n_nodata_q <= NZERO;
      n_unissued_q <= NZERO;
      n_tokens_q <= NZERO;
      n_done_q <= NZERO;
      full_q <= 1'b0;
      st_ready_q <= 1'b0;
      ms_valid_q <= 1'b0;
      st_out_valid_q <= 1'b0;
      done_q <= 1'b0;
    end else begin
      if (alloc) tail_q <= (tail_q == ELAST) ? {EW{1'b0}} : tail_q + 1'b1;
      if (fill)  fill_q <= (fill_q == ELAST) ? {EW{1'b0}} : fill_q + 1'b1;
      if (issue) iss_q  <= (iss_q == ELAST) ? {EW{1'b0}} : iss_q + 1'b1;
      if (free)  head_q <= (head_q == ELAST) ? {EW{1'b0}} : head_q + 1'b1;
      n_live_q <= n_live_d;
      n_nodata_q <= n_nodata_d;
      n_unissued_q <= n_unissued_d;
      n_tokens_q <= n_tokens_d;
      n_done_q <= n_done_d;
      full_q <= n_live_d == EFULL;
      st_ready_q <= n_nodata_d != NZERO;
      ms_valid_q <= n_unissued_d != NZERO;
      st_out_valid_q <= n_tokens_d != NZERO;
      done_q <= n_done_d != NZERO;
    end
  end

  // Addresses and data need no reset: an entry is searched only while live, read only after written.
  always @(posedge clk) begin
    if (alloc) addr_q[tail_q] <= an_addr;
    if (fill)  data_q[fill_q] <= st_data;
  end

  // Per entry: live and has-data bits, and the count of waiting answers that refer to it (at most
  // CREDITS). An entry is allocated only after it was freed with no references, so counts need no
  // clearing; a taken and a delivered reference in one cycle cancel.
  generate
    for (e = 0; e < ENTRIES; e = e + 1) begin : g_entry
      localparam [31:0] E32 = e;
      wire [EW-1:0] me = E32[EW-1:0];
      reg          live_q, has_data_q;
      reg [CW-1:0] refs_q;
      wire take = ref_fire && ref_entry == me;
      wire drop = deliver_fwd && tag_entry == me;
      always @(posedge clk) begin
        if (rst) begin
          live_q <= 1'b0;
          has_data_q <= 1'b0;
          refs_q <= CZERO;
        end else begin
          if (alloc && tail_q == me) live_q <= 1'b1;
          else if (free && head_q == me) live_q <= 1'b0;
          if (alloc && tail_q == me) has_data_q <= 1'b0;
          else if (fill && fill_q == me) has_data_q <= 1'b1;
          if (take && !drop) refs_q <= refs_q + 1'b1;
          else if (drop && !take) refs_q <= refs_q - 1'b1;
        end
      end
      assign live[e]      = live_q;
      assign has_data[e]  = has_data_q;
      assign refs_zero[e] = refs_q == CZERO;
    end
  endgenerate

  // ---- Answers. The tag FIFO holds every accepted load's answer kind (and entry, when forwarded).
  wire [1:0] ld_kind = !ld_pred ? KIND_ZERO : (hit ? KIND_FWD : KIND_MEM);
  loom_fifo #(.WIDTH(2 + EW), .DEPTH(CREDITS)) u_tags (
      .clk(clk), .rst(rst),
      .in_valid(ld_fire), .in_ready(credit), .in_data({ld_kind, ref_entry}),
      .out_valid(tag_valid), .out_ready(deliver), .out_data({tag_kind, tag_entry}));

  assign ld_out_valid = tag_valid && (tag_kind == KIND_FWD ? has_data[tag_entry] :
                                      tag_kind == KIND_MEM ? resp_q : 1'b1);
  assign ld_out_data  = tag_kind == KIND_FWD ? data_q[tag_entry] :
                        tag_kind == KIND_MEM ? rbuf_q[rrd_q] : {DW{1'b0}};

  // Memory responses: the credit rule leaves an entry for each, so writes are unconditional.
  wire [CW-1:0] n_resp_d = n_resp_q + {{(CW-1){1'b0}}, ml_resp_valid} - {{(CW-1){1'b0}}, deliver_mem};
  always @(posedge clk) begin
    if (rst) begin
      rwr_q <= {RW{1'b0}};
      rrd_q <= {RW{1'b0}};
      n_resp_q <= CZERO;
      resp_q <= 1'b0;
    end else begin
      if (ml_resp_valid) rwr_q <= (rwr_q == RLAST) ? {RW{1'b0}} : rwr_q + 1'b1;
      if (deliver_mem)   rrd_q <= (rrd_q == RLAST) ? {RW{1'b0}} : rrd_q + 1'b1;
      n_resp_q <= n_resp_d;
      resp_q <= n_resp_d != CZERO;
    end
  end
  always @(posedge clk)
    if (ml_resp_valid) rbuf_q[rwr_q] <= ml_resp_rdata;
endmodule
