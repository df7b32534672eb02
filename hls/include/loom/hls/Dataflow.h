//===- Dataflow.h - The typed dataflow graph between LLVM IR and Verilog -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One graph per kernel: nodes are operations on a work-item's values, edges carry values. Values are
// either *static* (the same for every work-item of a launch: arguments, constants, NDRange sizes and
// what is computed from them only — wires in hardware) or *dynamic* (a token per work-item on an
// elastic valid/ready channel). Every pass reads and writes this graph, and it prints as text after
// every pass (`loomc --dump-after=all`), so each step of the flow can be inspected.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace loom::hls {

enum class OpKind {
  // Sources.
  WorkItems,  ///< Emits one token per work-item; data: {slot, gid2, gid1, gid0}, 3 x 64 bits and the slot's.
  Argument,   ///< Static: kernel argument `index`.
  Constant,   ///< Static: `constant`.
  GlobalSize, ///< Static: global_size_<index>.
  GlobalOffset, ///< Static: global_offset_<index>.
  // Work-item values.
  GlobalId,   ///< Slice `index` of the WorkItems token.
  WorkItemSlot, ///< The work-item's slot (KernelGraph::workItemLimit): bits 192 up of the WorkItems token.
  // Integer arithmetic on operands 0 and 1.
  Add, Sub, Mul, UDiv, SDiv, URem, SRem, And, Or, Xor, Shl, LShr, AShr,
  ICmp,       ///< Predicate in `predicate` (LLVM's CmpInst numbering).
  Select,     ///< operand 0 ? operand 1 : operand 2.
  ZExt, SExt, ///< Width changes: pure wiring.
  Trunc,      ///< Bits [constant + width - 1 : constant] of operand 0 (a lane when constant > 0).
  InsertLane, ///< Operand 0 (a vector) with bits [constant + w - 1 : constant] replaced by operand 1
              ///< (w bits): a lane of a vector a wide port stores.
  Address,    ///< operand 0 (pointer) + constant + sum(operand i * scales[i-1]).
  FAdd, FSub, FMul, FDiv, FNeg,
  FSqrt,      ///< Square root of operand 0, correctly rounded.
  FCmp,       ///< Predicate in `predicate` (LLVM's FCmpInst numbering).
  SIToFP, UIToFP, ///< 32- or 64-bit integer operand to float.
  FPToSI, FPToUI, ///< Float operand to a 32- or 64-bit integer, toward zero.
  // Memory.
  Load,       ///< operand 0 = address, then the predicate if `predicated`; further operands are
              ///< ordering tokens. A false predicate makes no request and yields 0.
  Store,      ///< operand 0 = address, 1 = data, then the predicate if `predicated`; further operands
              ///< are ordering tokens. Output: token (also for a false predicate, which writes nothing).
  StoreAddress, ///< The address of store port `index`'s next store, ahead of its data, for the load
              ///< that forwards from it (MemoryPort::forwardsFrom): operand 0 = address, then the
              ///< predicate if `predicated`. No output; that Store's own address operand is the
              ///< constant 0.
  Atomic,     ///< Read-modify-write of global memory through atomic port `index` (the operation is
              ///< the port's): operand 0 = address, 1 = operand (cmpxchg: the new value), 2 = the
              ///< compare value when `constant` is 1 (cmpxchg), then the predicate if `predicated`;
              ///< further operands are ordering tokens. Output: the memory's old value (0 for a false
              ///< predicate, which changes nothing).
  RamLoad,    ///< Read of on-chip memory `index` (KernelGraph::memories); operands as Load, the address
              ///< a byte offset into the memory.
  RamStore,   ///< Write of on-chip memory `index`; operands as Store.
  PipeRead,   ///< Takes a W-bit packet from pipe port `index` (KernelGraph::pipePorts): operands: the
              ///< predicate if `predicated`, then ordering tokens. `constant` 1: waits for a packet and
              ///< yields it; 0: yields {1, packet} (W + 1 bits) or 0 at once when the pipe is empty.
              ///< A false predicate takes none and yields 0.
  PipeWrite,  ///< Gives packet operand 0 to pipe port `index`; then the predicate if `predicated`, then
              ///< ordering tokens. `constant` 1: waits for room, output a token; 0: output 1 bit, 1 when
              ///< the packet went in, 0 when the pipe was full. A false predicate gives none.
  PipeReserve, ///< Claims operand 0 (32 bits) packets of pipe port `index` at once, or none when the
               ///< pipe has too few (reads) or too little room (writes); then the predicate if
               ///< `predicated`, then ordering tokens. Output: the reservation, 64 bits: count << 32
               ///< | its first position, or all ones (CLK_NULL_RESERVE_ID) when none was claimed.
  PipeSlotRead, ///< The packet at position operand 0 (32 bits) of a read reservation of pipe port
                ///< `index`; then the predicate if `predicated`, then ordering tokens. Output: W bits.
  PipeSlotWrite, ///< Writes packet operand 0 at position operand 1 of a write reservation of pipe
                 ///< port `index`; then the predicate, then ordering tokens. Output: a token.
  PipeCommit, ///< Ends reservation operand 0 (64 bits, PipeReserve's; all ones: none, nothing
              ///< happens) of pipe port `index`; then the predicate, then ordering tokens. Output: a
              ///< token.
  PipeQuery,  ///< The packets in pipe port `index` (`constant` 0) or its depth (1), 32 bits; operands:
              ///< ordering tokens (at least one: the work-item's).
  // Loops: elastic rings, one per value live in the loop, with work-items interleaved.
  LoopControl, ///< Admits work-items into loop `index` (at most `depth` at once) and emits one token
               ///< per iteration; data: 1 on a work-item's first iteration. Operands: the entry
               ///< token, the back token (continuing iterations), the exit token (a work-item left).
  LoopMux,    ///< operand 0 (the LoopControl token) ? operand 1 (value entering the loop) : operand 2
              ///< (the value the previous iteration carried back). Consumes only the chosen input.
  Steer,      ///< Passes operand 0 when operand 1 (a condition) equals `constant`, else drops it.
  Join,       ///< A token once every operand has one: summarises memory-ordering tokens.
  // Inserted by passes, or by the builder on a loop's back edge.
  Fifo,       ///< Elastic buffer of `depth` entries, inserted to balance path latencies.
  Completion, ///< Consumes one token per finished work-item and raises `done`.
};

const char *opName(OpKind kind);

/// Done by a pipelined library unit or a memory port, not a wire expression: such a node is dynamic
/// (per work-item) even when its operands are static.
bool isUnit(OpKind kind);
/// A node on a pipe port (PipeRead ... PipeQuery): its `index` is the port's.
bool isPipeAccess(OpKind kind);

struct Node;
/// How many leading operands of `node` carry data; the operands after them are tokens that only
/// order or trigger it (memory ordering, the work-item token of a unit on static operands).
unsigned dataOperandCount(const Node &node);
/// The stores the queue of forwarding store `store` (announced by StoreAddress `announce`) holds
/// (loom_forward_queue's ENTRIES): each one from its announcement to its acknowledge, so one
/// iteration a cycle never waits for a free entry.
unsigned forwardingEntries(const Node &store, const Node &announce);
/// Node::bank of an access that may reach any bank of its memory.
constexpr unsigned AllBanks = ~0u;

struct Node {
  OpKind kind = OpKind::Constant;
  unsigned width = 0;          ///< Data bits of the result; 0 for a pure token.
  bool isStatic = false;       ///< Same value for every work-item (a wire, no handshake).
  uint64_t index = 0;          ///< Argument number, dimension, or memory port number.
  uint64_t constant = 0;       ///< Constant value, Address's constant offset; Atomic: 1 for cmpxchg.
  std::vector<uint64_t> scales; ///< Address: bytes per unit of each index operand.
  unsigned predicate = 0;      ///< ICmp or FCmp predicate.
  /// RamLoad/RamStore: the bank of its memory the access reaches (OnChipMemory::bankBits), or
  /// AllBanks when the index's bank bits are known only at run time.
  unsigned bank = 0;
  /// RamLoad of a memory whose reads share ports (OnChipMemory::readsShared): the port it
  /// takes turns at.
  unsigned ramPort = 0;
  bool predicated = false;     ///< Load/Store/Atomic: the access happens only when its predicate operand is 1.
  /// Load/Store: a stream: consecutive iterations of its loop, or consecutive work-items, access
  /// consecutive addresses (or the same one), so its accesses share memory lines.
  bool stream = false;
  /// Store: only the kernel's completion waits for its token, so its port gives the token at
  /// acceptance and the completion waits for the port's writes instead (PostCompletionStores).
  bool posted = false;
  unsigned latency = 0;        ///< Cycles from input to output, from the board (AssignLatencies).
  unsigned depth = 0;          ///< Fifo entries; Load/Store/Atomic credits.
  unsigned startCycle = 0;     ///< Scheduled entry time of a work-item's token (ScheduleASAP).
  unsigned loop = 0;           ///< Innermost loop the node runs in (KernelGraph::loops index + 1); 0: none.
  std::string location;        ///< "file:line:col" of the source operation, when known.
  std::string name;            ///< LLVM value name, for readable dumps and Verilog.
};

/// An edge carries the source node's value into operand `operand` of the target node.
struct Edge {
  unsigned operand = 0;
  bool back = false; ///< Closes a loop's ring: carries the next iteration's value (or the exit count).
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Node, Edge>;
using NodeId = Graph::vertex_descriptor;
using EdgeId = Graph::edge_descriptor;

/// An array kept on chip (a private array, or a __local array of a kernel whose work-items run one
/// at a time), or a constant table: a RAM with one read port per RamLoad and one write port per
/// RamStore, or a ROM.
struct OnChipMemory {
  std::string name;        ///< The variable's name in the source.
  int argument = -1;       ///< The number of the __local pointer argument it serves, else -1.
  std::string location;    ///< "file:line:col" of its first access.
  unsigned elementBytes = 4; ///< Every access reads or writes one element of this size.
  uint64_t depth = 0;      ///< Elements, of all copies.
  /// Copies of a private array, one per work-item slot: the slot is the high bits of the index, the
  /// element's offset the low ones (each copy a power of two of elements). 1: one copy.
  unsigned copies = 1;
  /// Bits of an element's index that pick its bank (ascending; empty: one bank), from the array's
  /// banking attributes: each bank is a memory of its own, holding the elements whose index has the
  /// bank's number in those bits, at the index without them.
  std::vector<unsigned> bankBits;
  struct Ports {
    unsigned reads = 0, writes = 0;
  };
  /// Each bank's ports: an access whose bank is known has a port on that bank only, any other
  /// access one on every bank (Node::bank).
  std::vector<Ports> banks = std::vector<Ports>(1);
  /// doublepump: its RAM blocks run at twice the kernel's clock, four ports a block (the area
  /// estimate's concern: the kernel sees the same ports either way).
  bool doublePumped = false;
  /// Its reads take turns at its read ports (banks[0].reads of them) through an arbiter, each at
  /// its Node::ramPort (ShareRamReadPorts: a read port per read would not fit the board's RAM);
  /// else each read has a port of its own.
  bool readsShared = false;
  /// The words of a constant table (a ROM: a __constant array or a constant private one), element
  /// i at index i; empty for an array the kernel writes.
  std::vector<uint64_t> contents;
  /// Bits of an element index (at least 1).
  unsigned indexBits() const;
  /// Bits of an element's index within its bank (at least 1), and a bank's elements.
  unsigned bankIndexBits() const;
  uint64_t bankDepth() const { return bankBits.empty() ? depth : uint64_t(1) << bankIndexBits(); }
};

/// "R read and W write ports" of a memory's banks ("... each" when alike; else bank by bank).
std::string portsText(const OnChipMemory &memory);

/// A kernel on its way to hardware: the graph plus what codegen needs around it.
struct KernelGraph {
  std::string kernelName;
  unsigned numArgs = 0;
  std::map<unsigned, unsigned> wideArgBytes; ///< See HardwareKernel::wideArgBytes.
  unsigned argBytes(unsigned index) const { return argumentPortBytes(wideArgBytes, index); }
  bool workGroupArgs = false; ///< See HardwareKernel::workGroupArgs.
  bool printfBuffer = false;  ///< See HardwareKernel::printfBuffer.
  Graph graph;
  std::vector<MemoryPort> ports; ///< Indexed by Load/Store/Atomic nodes' `index`.
  std::vector<OnChipMemory> memories; ///< Indexed by RamLoad/RamStore nodes' `index`.
  std::vector<PipePort> pipePorts;    ///< Indexed by pipe access nodes' `index`.
  /// Work-items in flight at most, each holding a slot: set when private arrays live in on-chip
  /// memories, which hold a copy per slot (OnChipMemory::copies), or a __local array, which holds one
  /// work-group's copy (1: work-items take turns). 0: no limit.
  unsigned workItemLimit = 0;
  /// The slot each finishing work-item gives back (operand 0 of the Completion node, whose
  /// `constant` is then 1), when the on-chip memories hold more than one copy.
  llvm::Optional<NodeId> retiredSlot;
  /// Consecutive work-items along dimension 0 that one token carries (num_simd_work_items): the
  /// work-item generator steps dimension 0 by this much.
  unsigned simdWorkItems = 1;
  /// Copies of the kernel's hardware (HardwareKernel::computeUnits): the graph is one unit's, which
  /// takes its part of the range from unit_offset_<d> and unit_size_<d> inputs when this is above 1.
  unsigned computeUnits = 1;
  /// The kernel never asks which work-item it is (a single work-item kernel): its outermost loops
  /// hold one invocation at a time.
  bool workItemsAlike = false;

  /// Loop `n` of the nodes is loops[n - 1]; the builder fills where and how often, the report the II.
  std::vector<LoopReport> loops;

  NodeId addNode(Node node) { return boost::add_vertex(std::move(node), graph); }
  void connect(NodeId from, NodeId to, unsigned operand, bool back = false) {
    boost::add_edge(from, to, Edge{operand, back}, graph);
  }
  /// Operand sources of `node`, ordered by operand number.
  std::vector<NodeId> operands(NodeId node) const;
  /// Dynamic consumers of `node`'s value, as edges in a stable order.
  std::vector<EdgeId> consumers(NodeId node) const;
  /// Nodes in a topological order (sources first), ignoring back edges.
  std::vector<NodeId> topologicalOrder() const;
};

/// Work-items a loop admits at once (its LoopControl's depth), unless its rings take longer
/// (SizeLoopControls) or `#pragma max_interleaving` asks fewer: enough to hide a carried recurrence
/// of this many cycles behind other work-items.
constexpr unsigned DefaultLoopWorkItems = 32;
/// The most a loop admits at once to cover its rings (its back-edge FIFOs are one deeper).
constexpr unsigned MaxLoopWorkItems = 256;

/// The most iterations apart a loop's memory order keeps them (a chain of that many data-less
/// rings): beyond a memory round trip's cycles, a longer distance gains nothing.
constexpr unsigned MaxMemoryOrderDistance = 16;

/// A loop's longest ring: the cycles a work-item's iteration takes to come back around it (the
/// longest path from the LoopMux or LoopControl that starts a ring to the back edge that closes it,
/// each FIFO counting one cycle, what it costs a token in steady state), and that start node.
/// 0 cycles and no start for a loop without rings.
struct LongestRing {
  unsigned cycles = 0;
  llvm::Optional<NodeId> start;
};
/// Each loop's longest ring, in KernelGraph::loops order (the loop's II).
std::vector<LongestRing> longestRings(const KernelGraph &kernel);
/// The data-less LoopMux of `loop` whose token `back` (a back edge's source) passes on unchanged,
/// through the steer and lifts of closing a ring (a memory order kept several iterations apart
/// passes a token down a chain of rings); none when `back` carries anything else.
llvm::Optional<NodeId> passedMux(const KernelGraph &kernel, NodeId back, unsigned loop);
/// The source of the back edge into ring start `mux` (`mux` itself when it has none).
NodeId backSource(const KernelGraph &kernel, NodeId mux);

/// The lines a line load port's unit buffers (loom_load_lines' LINES) for Load `load` with `depth`
/// credits: enough for a stream's lines over the round trip outside loops and in a loop that holds
/// one invocation at a time (a single work-item kernel's outermost loops, an innermost loop whose
/// rings close in a cycle); in other loops, where
/// interleaved work-items make its requests hop between lines, one per credit.
unsigned lineBuffers(const KernelGraph &kernel, NodeId load);

/// Nodes that are only wiring in hardware, with no logic nor latency: width changes, lane slices and
/// inserts, and shifts by a constant.
bool isWiring(const KernelGraph &kernel, NodeId id);

/// Text form: one line per node, "%id = kind [attrs] (operands) ; location".
std::string printGraph(const KernelGraph &kernel);

} // namespace loom::hls
