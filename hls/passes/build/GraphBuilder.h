//===- GraphBuilder.h - State shared by the parts of BuildDataflowGraph -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The IR -> graph builder, split by what it lowers: instructions (BuildDataflowGraph.cpp), control
// flow as predicates and phis as selects (ControlFlow.cpp), loops as elastic rings (LoopRings.cpp),
// memory ports and their ordering (MemoryAccesses.cpp).
//
// Positions. Blocks are visited in a structured order: each loop's blocks contiguously, a loop as a
// whole between the blocks around it. A Region is the kernel body or a loop; its child loops cut it
// into segments (segment i lies between child i-1 and child i). Every dynamic node has a home
// Position (region, segment). A node used at another position is *lifted* there: carried out of
// loops by exit Steers, through sibling loops and into loops by rings. So every dynamic value a node
// joins belongs to the same (work-item, iteration), whatever order work-items leave loops in.
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <functional>
#include <map>
#include <memory>
#include <tuple>

namespace loom::hls {

/// The OpenCL work-item functions the hardware flow computes.
enum class WorkItemFn {
  GlobalId,
  GlobalSize,
  GlobalOffset,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  LocalId,
  GroupId,
  WorkDim
};
/// The work-item function of mangled name `name`; None for any other function.
llvm::Optional<WorkItemFn> workItemFnNamed(llvm::StringRef name);

/// Bytes of on-chip memory the copies of a kernel's private arrays may take.
constexpr uint64_t PrivateCopiesBudget = 256 * 1024;

/// A __local pointer argument: an on-chip memory of localArgumentBytes whose base address is 0 (the
/// launch checks that clSetKernelArg's size fits).
bool isLocalArgument(const llvm::Value *value);
/// A struct argument passed by value (a byval pointer): the hardware takes its bytes whole, as a
/// wide argument, and reads its fields as slices of it.
bool isStructArgument(const llvm::Value *value);
/// Whether `pointer` points into a struct argument (isStructArgument).
bool pointsIntoStructArgument(const llvm::Value *pointer);
/// local_mem_size(N) of the argument (the frontend's "loom.local_mem_size"), else
/// DefaultLocalArgumentBytes.
uint64_t localArgumentBytes(const llvm::Argument &argument);
/// The variables `#pragma ivdep array(x) [safelen(N)]` names on `loop` (IvdepArrayLoopAttribute),
/// each with its N (0: its accesses never meet across iterations).
llvm::StringMap<unsigned> ivdepArrays(const llvm::Loop &loop);

class GraphBuilder {
public:
  explicit GraphBuilder(const llvm::Function &kernel);
  llvm::Expected<KernelGraph> build();

private:
  struct Region;
  /// A memory access node and its instruction; no instruction: a token standing for accesses (the
  /// summary of a loop's iterations). `aliasClass`: the memory it may touch (see aliasClassOf);
  /// null: any.
  struct Access {
    NodeId node;
    const llvm::Instruction *inst = nullptr;
    const llvm::Value *aliasClass = nullptr;
  };
  struct Position {
    Region *region = nullptr;
    unsigned segment = 0;
  };
  /// A block, or a child loop taken as a whole, in a region's structured order.
  struct Item {
    const llvm::BasicBlock *block = nullptr;
    Region *loop = nullptr;
  };
  struct Region {
    const llvm::Loop *loop = nullptr; ///< Null for the kernel body.
    Region *parent = nullptr;
    unsigned number = 0;              ///< Node::loop of the nodes inside; 0 for the kernel body.
    unsigned segment = 0;             ///< The parent's segment this loop starts at.
    std::vector<Item> items;
    std::vector<Region *> children;   ///< Child loops in order: child i ends segment i.
    NodeId control = 0;               ///< LoopControl: one token per iteration.
    llvm::Optional<NodeId> token;     ///< Its data-less token (the work-item's, for the kernel body).
    llvm::Optional<NodeId> headerPredicate; ///< Work-item entered the loop (None: all do).
    /// Where the rings close: the last segment, or an earlier one when the next iteration's values
    /// and exit test are known there and the child loops after it keep their iterations in order
    /// (closingSegment): the next iteration then enters those child loops while earlier ones are
    /// still in them, and the segments after it are each iteration's tail.
    unsigned closingSegment = 0;
    NodeId keepGoing = 0;             ///< At the closing segment: the iteration continues the loop.
    bool closed = false;              ///< keepGoing is known; rings close as they are made.
    /// For each alias class whose memory-ordering state circulates (a store of the loop meets
    /// another access of the class): the summary token of an iteration's accesses to it, which is
    /// also the class's state after the loop.
    std::vector<Access> memorySummaries;
    /// Some alias class's memory order circulates: set when the loop is entered, long before its
    /// summaries are made at the closing segment (which must then be the last).
    bool ordersMemory = false;
    /// Rings waiting for keepGoing: their LoopMux and the value the iteration carries back.
    std::vector<std::pair<NodeId, std::function<llvm::Expected<NodeId>()>>> pendingRings;
    /// Header phis whose rings start in a later segment, where the iteration first uses them
    /// (tailSegment): the phi, its entering value and that segment.
    std::vector<std::tuple<const llvm::PHINode *, NodeId, unsigned>> tailPhis;
    Position last() { return {this, unsigned(children.size())}; }
    Position closing() { return {this, closingSegment}; }
    /// Where the ring whose mux is at `muxSegment` closes: a ring that starts in a tail, at the end.
    Position closingFor(unsigned muxSegment) { return muxSegment ? last() : closing(); }
  };
  /// A work-item's memory-ordering state: the accesses a later one may have to wait for.
  struct MemoryState {
    std::vector<Access> stores;
    std::vector<Access> loads;
  };
  /// Sets the builder's position for a scope.
  class AtPosition {
  public:
    AtPosition(GraphBuilder &b, Position p) : b_(b), saved_(b.current_) { b.current_ = p; }
    ~AtPosition() { b_.current_ = saved_; }

  private:
    GraphBuilder &b_;
    Position saved_;
  };

  // BuildDataflowGraph.cpp: instructions.
  llvm::Error fail(const llvm::Instruction &inst, const llvm::Twine &message);
  /// `inst` makes or uses the value; without one, the value is kernel argument `argument`.
  llvm::Expected<unsigned> widthOf(llvm::Type *type, const llvm::Instruction *inst,
                                   const llvm::Argument *argument = nullptr);
  NodeId add(Node node, const llvm::Instruction &inst, std::vector<NodeId> operands);
  NodeId addAt(Node node, Position at, std::vector<NodeId> operands);
  llvm::Expected<NodeId> valueOf(const llvm::Value *value, const llvm::Instruction &user);
  /// The bits of a scalar constant known at compile time: an integer, a float, or an on-chip
  /// address made an integer (its byte offset, as the pointer's value is), maybe truncated.
  llvm::Optional<uint64_t> constantBits(const llvm::Constant &constant);
  /// A constant vector as one static value of all its lanes (undefined lanes read as zero).
  llvm::Expected<NodeId> constantVector(const llvm::Constant &vector, const llvm::FixedVectorType &type,
                                        const llvm::Instruction &user);
  llvm::Expected<std::vector<NodeId>> operandsOf(const llvm::Instruction &inst);
  llvm::Error simple(const llvm::Instruction &inst, OpKind kind);
  // NarrowArithmetic.cpp
  /// The bits of `value`'s unsigned range (scalar evolution's), at least 1.
  unsigned valueBits(const llvm::Value &value);
  /// The bits `inst`'s values need when fewer than its type's and narrowing applies to it, else 0.
  unsigned narrowWidth(const llvm::Instruction &inst);
  /// The low `bits` of `value`, for `user`.
  NodeId lowBits(NodeId value, unsigned bits, const llvm::Instruction &user);
  /// A full-width product's factors that fit fewer bits become those bits zero-extended, which
  /// synthesis (and the area estimate) multiply as narrow: a group id times a group size.
  void narrowFactors(const llvm::Instruction &mul, std::vector<NodeId> &factors);
  /// A comparison of operands that both fit fewer bits compares those bits (a signed one of
  /// operands that are never negative, unsigned).
  void narrowComparison(const llvm::ICmpInst &compare, Node &node, std::vector<NodeId> &operands);
  /// An extension every user of which took the narrow value elsewhere (lift extends it where it
  /// arrives) is left without consumers: detached from its operand, it is a static node nothing
  /// reads, which nothing emits or counts.
  void detachUnusedExtensions();
  llvm::Error resize(const llvm::Instruction &inst, OpKind widen);
  llvm::Error convert(const llvm::Instruction &inst, OpKind kind);
  NodeId workItems();
  /// The work-item's slot (OpKind::WorkItemSlot), at the kernel body's start.
  NodeId workItemSlot();
  llvm::Error call(const llvm::CallInst &call);
  NodeId workGroupArg(unsigned k);
  NodeId rangeValue(OpKind kind, unsigned d, const llvm::CallInst &call);
  llvm::Optional<llvm::Error> workItemFunction(const llvm::CallInst &call, llvm::StringRef name);
  // Intrinsics.cpp
  NodeId constantNode(unsigned width, uint64_t value);
  llvm::Optional<llvm::Error> intrinsic(const llvm::CallInst &call);
  llvm::Error address(const llvm::GetElementPtrInst &gep);
  llvm::Error extractLane(const llvm::ExtractElementInst &extract);
  llvm::Error insertLane(const llvm::InsertElementInst &insert);
  llvm::Error visit(const llvm::Instruction &inst);

  // ControlFlow.cpp: predicates and phis.
  NodeId logic(OpKind kind, const llvm::Instruction &at, std::vector<NodeId> operands);
  llvm::Expected<llvm::Optional<NodeId>> branchTaken(const llvm::BasicBlock &from, const llvm::BasicBlock &to);
  llvm::Expected<llvm::Optional<NodeId>> edgePredicate(const llvm::BasicBlock &from, const llvm::BasicBlock &to);
  llvm::Expected<llvm::Optional<NodeId>> blockPredicate(const llvm::BasicBlock &block);
  llvm::Expected<llvm::Optional<NodeId>> orOfEdges(const llvm::BasicBlock &block,
                                                   llvm::ArrayRef<const llvm::BasicBlock *> from);
  /// The phi's value over the incoming edges from `from`, as selects at the current position.
  llvm::Expected<NodeId> phiValue(const llvm::PHINode &node, llvm::ArrayRef<const llvm::BasicBlock *> from);
  llvm::Error phi(const llvm::PHINode &node);

  // LoopRings.cpp: regions, lifting, loops.
  llvm::Error buildRegions();
  llvm::Error orderItems(Region &region);
  llvm::Error visitRegion(Region &region);
  /// The segment of `region` where `value` is first available: its home's, the exit of the child
  /// loop it is made in, or 0 for values from outside the region and static ones.
  unsigned segmentOf(const Region &region, const llvm::Value *value) const;
  static const Region *outermostWithin(const Region &region, const Region *inner);
  /// Where `inst` of a block at `at` is placed: a computation without effects in a loop, at the
  /// earliest segment its operands allow, so that it need not wait for the child loops before it.
  Position placement(const llvm::Instruction &inst, Position at) const;
  /// The earliest segment where `loop`'s rings can close (see Region::closingSegment); the loop's
  /// report says from which inner loop on its iterations overlap, or why they do not.
  unsigned closingSegment(const Region &loop);
  /// Why the iterations that enter `child` (a loop in a loop's body) may leave it in another order
  /// than they entered; empty when they cannot: every loop of the child's nest is entered by all of
  /// them and runs a trip count the same for all (for every work-item, see sameForEveryWorkItem).
  std::string reorderingIn(const Region &child) const;
  llvm::Error openLoop(Region &loop);
  llvm::Error closeLoop(Region &loop);
  NodeId lift(NodeId node, Position to);
  /// `entry`'s value inside `loop`: a LoopMux at `segment` whose back edge carries it on (or
  /// `back`'s value).
  NodeId ring(Region &loop, NodeId entry, std::function<llvm::Expected<NodeId>()> back = nullptr,
              unsigned segment = 0);
  /// The ring of header phi `node` entering with `entry`, its mux at `segment`: the phi's value.
  void phiRing(Region &loop, const llvm::PHINode &node, NodeId entry, unsigned segment);
  /// The segment of `loop` where an iteration first uses header phi `node`, when it is after child
  /// loops that keep their iterations in order (so the iterations arrive there in order, as they
  /// do at the loop's start); else 0. A ring that starts there lets the next iteration enter those
  /// child loops before this one's value is known (a running total of the rows).
  unsigned tailSegment(const Region &loop, const llvm::PHINode &node) const;
  /// Sends `back` (at the loop's end) to operand `operand` of `mux` for the next iteration.
  llvm::Error closeRing(Region &loop, NodeId mux, NodeId back, unsigned operand = 2);
  NodeId steer(NodeId value, NodeId condition, bool when, Position at);
  /// The value a work-item has when it leaves `loop` (`last` is at the loop's last segment).
  NodeId exitValue(Region &loop, NodeId last);
  /// A token per work-item (kernel body) or iteration (loop) at `at`.
  NodeId trigger(Position at);
  std::vector<const llvm::BasicBlock *> entering(const Region &loop) const;
  std::vector<const llvm::BasicBlock *> latches(const Region &loop) const;

  // MemoryAccesses.cpp: ports, on-chip memories and program order.
  llvm::Error memory(const llvm::Instruction &inst, const llvm::Value *pointer, llvm::Type *valueType, bool isStore);
  /// An atomicrmw or cmpxchg: on __global memory an Atomic node on an atomic port; on an on-chip
  /// array (private or __local) a read, the operation and a write of the array (onChipAtomic).
  llvm::Error atomic(const llvm::Instruction &inst);
  /// `op` on on-chip memory `memory` at `address` (reached through `pointer`) with operands `values`
  /// (cmpxchg: new, compare).
  llvm::Error onChipAtomic(const llvm::Instruction &inst, unsigned memory, const llvm::Value *pointer,
                           MemoryPort::AtomicOp op, NodeId address, const std::vector<NodeId> &values,
                           unsigned width);
  /// extractvalue of a cmpxchg's {old value, success} (the Atomic node's value, or old == compare)
  /// or of a StreamTryRead's {packet, read} (slices of its PipeRead's value).
  llvm::Error extractField(const llvm::ExtractValueInst &extract);
  /// A call of stream function `function` (lowerPipeCalls): a pipe access node (PipeRead ...
  /// PipeQuery) on the pipe argument's stream port, an access of an alias class of the pipe's own,
  /// after the work-item's earlier ones on the pipe, and the work-item completes after it.
  llvm::Error pipeAccess(const llvm::CallInst &call, llvm::StringRef function);
  /// Adds memory access `n` of `inst` with operands `ops` (the predicate is appended when the block
  /// is conditional) and orders it after the earlier accesses it may alias; `writes`: it writes
  /// memory (a store or an atomic), else it only reads.
  llvm::Error place(Node n, const llvm::Instruction &inst, std::vector<NodeId> ops, bool writes);
  /// Whether `inst`'s accesses of `bytes` through `pointer` form a stream (Node::stream): by scalar
  /// evolution, along its innermost loop, or along dimension 0 of the NDRange outside loops.
  bool isStream(const llvm::Instruction &inst, const llvm::Value *pointer, unsigned bytes);
  /// The pointer a load, store or atomic accesses; null for other instructions.
  /// A load of a field of a struct argument: a slice of the argument's wide value at the field's
  /// constant offset.
  llvm::Error structArgumentField(const llvm::Instruction &inst, const llvm::Value *pointer, unsigned width,
                                  bool isStore);
  /// The on-chip memory `pointer` points into (a private or __local array), made on first use.
  llvm::Expected<llvm::Optional<unsigned>> onChipMemory(const llvm::Instruction &inst, const llvm::Value *pointer,
                                                        unsigned elementBytes);
  /// A pointer constant into an on-chip memory (the array itself, or a constant offset into it): the
  /// byte offset. None for any other value.
  llvm::Optional<uint64_t> onChipOffset(const llvm::Value *value);
  /// Copies of the private arrays the on-chip memories hold, one per work-item in flight: twice a
  /// loop's default (DefaultLoopWorkItems), so a loop's rings stay full with the pipeline around them, within
  /// PrivateCopiesBudget. 1 when the kernel asks no work-item id (its work-items run alike: a
  /// single work-item kernel) or has a __local array that is not heldPerWorkItem (one work-group's
  /// copy: work-items take turns).
  unsigned privateArrayCopies() const;
  /// Whether on-chip array `array` (an alloca, a __local array or argument) has a copy per work-item
  /// slot: a private array, or a __local one of a kernel that runs a work-group per invocation.
  bool heldPerWorkItem(const llvm::Value &array) const;
  /// The bytes of on-chip array `array`: a static alloca's, a global's, a __local argument's
  /// local_mem_size.
  uint64_t arrayBytes(const llvm::Value &array) const;
  /// The bank of on-chip memory `memory` that an access through `pointer` reaches: known when the
  /// bank bits of its offset into the array are (LLVM's known bits: constants, unrolled copies of
  /// an induction variable; scalar evolution's range of the offset), else AllBanks.
  unsigned bankOf(unsigned memory, const llvm::Value *pointer);
  /// A RamLoad or RamStore of `memory` through `pointer`: its bank, and a port there (or on every bank).
  Node ramAccess(OpKind kind, unsigned width, unsigned memory, const llvm::Value *pointer);
  /// `address` (a byte offset into on-chip memory `memory`) in the work-item's copy of the memory.
  NodeId copyAddress(unsigned memory, NodeId address, const llvm::Instruction &inst);
  /// The tokens of the `earlier` accesses (lifted here) a new node with operands `ops` must wait
  /// for: youngest first, leaving out those it already waits for, through `ops` or a younger one
  /// (whose own wait stands for them), so a long straight run of accesses is a chain, not a fan.
  std::vector<NodeId> orderingTokens(std::vector<const Access *> earlier, const std::vector<NodeId> &ops);
  void orderAfter(NodeId before, NodeId after);
  /// The memory an access may touch, as a class: its array or argument when no other object's
  /// accesses reach it (an on-chip array, a `restrict` argument), else the kernel itself, standing
  /// for all global memory that may alias. Accesses of different classes never meet.
  const llvm::Value *aliasClassOf(const llvm::Instruction &inst);
  /// Whether `earlier` and `inst` may touch the same bytes (alias classes, then alias analysis; a
  /// summary may whenever its class does).
  bool mayAlias(const Access &earlier, const llvm::Instruction &inst);
  /// Whether `later` (a store) overwrites every byte `earlier` touches, so waiting for `later`
  /// implies waiting for `earlier`.
  bool covers(const llvm::Instruction &later, const Access &earlier);
  /// One data-less token standing for every access of `state` (or for the work-item or iteration
  /// when there are none), at the current position.
  NodeId summary(const MemoryState &state);
  /// Two accesses of a loop, one of them a write, that may meet `distance` iterations apart.
  struct CarriedDependence {
    const llvm::Instruction *first, *second;
    unsigned distance;
  };
  /// The two accesses of `aliasClass` in `loop` that may meet the fewest iterations apart (LLVM's
  /// dependence analysis: a direction other than '=' at the loop's level; its constant distance,
  /// else 1); an atomic on an on-chip array meets itself in the next iteration. None when no two
  /// may meet in different iterations.
  llvm::Optional<CarriedDependence> carriedDependence(const Region &loop, const llvm::Value *aliasClass);
  /// "k.cl:12:5 (store) and k.cl:10:9 (load), 4 iterations apart": a memory recurrence's accesses.
  std::string accessesText(const CarriedDependence &dependence);
  /// The load and the store of a read-modify-write in `loop` that a forwarding queue serves instead
  /// of a ring (MemoryPort::forwardsFrom): the class's only accesses in the loop, both in the loop
  /// itself (not a nested one), plain, of global memory, of one naturally aligned size up to 8
  /// bytes, the load first in the iteration. None for any other class.
  llvm::Optional<std::pair<const llvm::LoadInst *, const llvm::StoreInst *>> forwardingPair(const Region &loop,
                                                                                           const llvm::Value *aliasClass);
  /// Appends the predicate of `inst`'s block to `ops` when the block is conditional, and marks `n`.
  llvm::Error appendPredicate(Node &n, const llvm::Instruction &inst, std::vector<NodeId> &ops);
  /// Before a loop's body: carry the memory state around the loop when the loop stores.
  void enterLoopMemory(Region &loop);
  MemoryState accessesOf(const MemoryState &state, const llvm::Value *aliasClass);
  void forgetAccessesOf(const llvm::Value *aliasClass);
  void leaveLoopMemory(Region &loop);

  const llvm::Function &kernel_;
  const llvm::DataLayout &layout_;
  KernelGraph result_;
  llvm::DominatorTree dominators_;
  llvm::PostDominatorTree postDominators_;
  llvm::LoopInfo loops_;
  std::unique_ptr<llvm::ScalarEvolution> scalarEvolution_; ///< For trip counts.
  std::unique_ptr<llvm::TargetLibraryInfoImpl> libraryInfoImpl_;
  std::unique_ptr<llvm::TargetLibraryInfo> libraryInfo_;
  std::unique_ptr<llvm::AssumptionCache> assumptions_;
  std::unique_ptr<llvm::BasicAAResult> basicAliases_;
  /// Scoped alias metadata: the lanes of num_simd_work_items never meet (VectorizeWorkItems), nor
  /// do an inlined helper's `restrict` parameters.
  llvm::ScopedNoAliasAAResult scopedAliases_;
  std::unique_ptr<llvm::AAResults> aliases_; ///< Which accesses of a work-item need ordering.
  std::unique_ptr<llvm::DependenceInfo> dependences_; ///< Which loops carry memory order; made on demand.
  llvm::DenseMap<const llvm::Value *, NodeId> values_;
  /// Each struct argument's Argument node: its bytes, whole.
  llvm::DenseMap<const llvm::Value *, NodeId> structArguments_;
  /// Reachable blocks, by position in reverse post-order.
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> reachable_;
  std::vector<const llvm::BasicBlock *> reversePostOrder_;
  std::vector<std::unique_ptr<Region>> regions_;
  Region *root_ = nullptr;
  llvm::DenseMap<const llvm::BasicBlock *, Position> blockPosition_;
  llvm::DenseMap<NodeId, Position> home_;
  std::map<std::tuple<NodeId, Region *, unsigned>, NodeId> lifted_;
  std::map<std::pair<NodeId, Region *>, NodeId> rings_;
  llvm::DenseMap<NodeId, NodeId> exits_;
  Position current_;
  /// When a work-item reaches a block, for the blocks asked about so far.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::Optional<NodeId>> blockPredicates_;
  std::map<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, llvm::Optional<NodeId>> edgePredicates_;
  llvm::Optional<NodeId> workItems_, workItemSlot_;
  /// Copies of each private array: one per work-item in flight (privateArrayCopies).
  unsigned privateCopies_ = 1;
  /// The work-group arguments: local_size_0..2, work_dim, last_group_size_0..2.
  NodeId workGroupArgs_[WorkGroupArgs] = {};
  llvm::Optional<NodeId> printfBuffer_; ///< The printf buffer's argument, once a call asks for it.
  MemoryState memory_;
  /// Forwarding pairs (see forwardingPair): the store's load, and the load's port once placed.
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *> forwardingLoadOf_;
  llvm::DenseMap<const llvm::Instruction *, unsigned> forwardingLoadPort_;
  llvm::DenseMap<const llvm::Value *, unsigned> memories_; ///< On-chip arrays, by their variable.
};

} // namespace loom::hls
