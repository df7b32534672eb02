//===- LoopRings.cpp - Loops as elastic rings, values carried through them ===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). A loop becomes:
//   - a LoopControl that admits work-items (up to DefaultLoopWorkItems at once; SizeLoopControls
//     may raise it) and emits one token per iteration, marked on a work-item's first one;
//   - per value live in the loop, a ring: a LoopMux at the header choosing the entering value or the
//     one the previous iteration carried back, a Steer at the end of the iteration sending the next
//     value back while the loop continues, and a FIFO on the back edge (the ring's register, deep
//     enough for every admitted work-item, so a ring never blocks);
//   - per value used after the loop, an exit Steer passing the last iteration's value on.
// The iteration continues when it takes a back edge (keepGoing, computed at the loop's end by the
// predicates of ControlFlow.cpp), so `break`, `continue` and early exits are predicates like any
// branch. Work-items interleave in the rings; they may leave in any order, which is why every value
// used after a loop goes through it.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"
#include "loom/lowering/WorkItemFunction.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

namespace loom::hls {
namespace {

/// The variable as the user wrote it: without the ".047" LLVM's passes append.
std::string variableName(const llvm::PHINode &node) {
  return node.getName().rtrim("0123456789").rtrim('.').str();
}

/// The II `#pragma ii N` asked of the loop (Clang's pipeline_initiation_interval), or 0. With
/// `#pragma ivdep` on the same loop Clang nests it in the vectorizer's follow-up attributes, which
/// stay unused: the vectorizer leaves a loop of width 1 alone.
unsigned requestedInitiationInterval(const llvm::Loop &loop) {
  std::function<unsigned(const llvm::MDNode *)> find = [&](const llvm::MDNode *node) -> unsigned {
    for (unsigned i = 1; node && i < node->getNumOperands(); ++i) {
      const auto *attribute = llvm::dyn_cast<llvm::MDNode>(node->getOperand(i));
      const auto *name = attribute && attribute->getNumOperands() == 2
                             ? llvm::dyn_cast<llvm::MDString>(attribute->getOperand(0))
                             : nullptr;
      if (!name)
        continue;
      if (name->getString() == "llvm.loop.pipeline.initiationinterval")
        if (auto *value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(attribute->getOperand(1)))
          return static_cast<unsigned>(value->getZExtValue());
      if (name->getString() == "llvm.loop.vectorize.followup_all")
        if (unsigned ii = find(llvm::dyn_cast<llvm::MDNode>(attribute->getOperand(1))))
          return ii;
    }
    return 0;
  };
  return find(loop.getLoopID());
}

using Inductions = llvm::SmallPtrSet<const llvm::PHINode *, 4>;

/// Whether `value` is the same for every work-item, in every iteration of every loop: made of
/// arguments, constants and the NDRange's sizes alone. Not an id, nor a local size where work-groups
/// may be non-uniform (the last group has what is left), nor a loop's variable, nor anything loaded.
/// With `inductions`, the same in a given iteration of one loop: its variables among them are too.
bool sameForEveryWorkItem(const llvm::Value *value, const Inductions *inductions = nullptr, unsigned depth = 0) {
  if (llvm::isa<llvm::Argument, llvm::Constant>(value))
    return true;
  const auto *computed = llvm::dyn_cast<llvm::Instruction>(value);
  if (const auto *phi = llvm::dyn_cast_or_null<llvm::PHINode>(computed); phi && inductions)
    return inductions->contains(phi);
  if (!computed || depth == 8 || llvm::isa<llvm::PHINode>(computed))
    return false;
  auto operandsAre = [&](auto operands) {
    return llvm::all_of(operands, [&](const llvm::Use &operand) {
      return sameForEveryWorkItem(operand.get(), inductions, depth + 1);
    });
  };
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(computed)) {
    const llvm::Function *callee = call->getCalledFunction();
    const llvm::Optional<WorkItemFn> fn = callee ? workItemFnNamed(callee->getName()) : llvm::None;
    const bool sameSize = fn && (llvm::is_contained({WorkItemFn::GlobalSize, WorkItemFn::GlobalOffset,
                                                     WorkItemFn::EnqueuedLocalSize, WorkItemFn::NumGroups,
                                                     WorkItemFn::WorkDim},
                                                    *fn) ||
                                 (*fn == WorkItemFn::LocalSize && lowering::hasUniformWorkGroups(*call->getFunction())));
    return sameSize && operandsAre(call->args());
  }
  if (computed->mayReadOrWriteMemory() || computed->mayHaveSideEffects())
    return false;
  return operandsAre(computed->operands());
}

/// The same for a trip count: no loop's recurrence, and its other terms the same for every work-item.
bool sameForEveryWorkItem(const llvm::SCEV *expr) {
  return !llvm::SCEVExprContains(expr, [](const llvm::SCEV *term) {
    if (llvm::isa<llvm::SCEVAddRecExpr>(term))
      return true;
    const auto *unknown = llvm::dyn_cast<llvm::SCEVUnknown>(term);
    return unknown && !sameForEveryWorkItem(unknown->getValue());
  });
}

/// Whether every work-item runs `loop` the same number of times, where scalar evolution has no trip
/// count to show it (one whose division it cannot prove exact, as a work-group's rounds over a
/// count of items): the loop leaves at one test, which every iteration takes (at its header or its
/// latch), made of values the same for every work-item and of the loop's variables that start with
/// such values and step by them.
bool exitTestSameForEveryWorkItem(const llvm::Loop &loop) {
  // One latch: the header's variables then take their next values from one place, not from
  // whichever way a work-item came round.
  const llvm::BasicBlock *exiting = loop.getExitingBlock();
  const llvm::BasicBlock *latch = loop.getLoopLatch();
  if (!exiting || !latch || (exiting != loop.getHeader() && exiting != latch))
    return false;
  const auto *branch = llvm::dyn_cast<llvm::BranchInst>(exiting->getTerminator());
  if (!branch || !branch->isConditional())
    return false;
  // The largest set of variables each of which is the same for every work-item if they all are.
  Inductions inductions;
  for (const llvm::PHINode &phi : loop.getHeader()->phis())
    inductions.insert(&phi);
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (const llvm::PHINode *phi : Inductions(inductions))
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        if (!sameForEveryWorkItem(phi->getIncomingValue(i),
                                  loop.contains(phi->getIncomingBlock(i)) ? &inductions : nullptr)) {
          dropped = inductions.erase(phi);
          break;
        }
  }
  return sameForEveryWorkItem(branch->getCondition(), &inductions);
}

} // namespace

std::vector<const llvm::BasicBlock *> GraphBuilder::entering(const Region &loop) const {
  std::vector<const llvm::BasicBlock *> from;
  for (const llvm::BasicBlock *pred : llvm::predecessors(loop.loop->getHeader()))
    if (reachable_.count(pred) && !loop.loop->contains(pred))
      from.push_back(pred);
  return from;
}

std::vector<const llvm::BasicBlock *> GraphBuilder::latches(const Region &loop) const {
  std::vector<const llvm::BasicBlock *> from;
  for (const llvm::BasicBlock *pred : llvm::predecessors(loop.loop->getHeader()))
    if (reachable_.count(pred) && loop.loop->contains(pred))
      from.push_back(pred);
  return from;
}

llvm::Error GraphBuilder::buildRegions() {
  regions_.push_back(std::make_unique<Region>());
  root_ = regions_.back().get();
  current_ = {root_, 0};
  return orderItems(*root_);
}

/// The region's blocks and child loops in an order that respects its forward edges (a topological
/// order of the region with each child loop collapsed), by reverse post-order among the ready ones.
llvm::Error GraphBuilder::orderItems(Region &region) {
  std::vector<Item> items;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> itemOfHeader;
  auto childLoopOf = [&](const llvm::BasicBlock *block) -> const llvm::Loop * {
    if (region.loop && !region.loop->contains(block))
      return nullptr; // An exit.
    const llvm::Loop *loop = loops_.getLoopFor(block);
    if (loop == region.loop)
      return nullptr;
    while (loop->getParentLoop() != region.loop)
      loop = loop->getParentLoop();
    return loop;
  };
  for (const llvm::BasicBlock *block : reversePostOrder_) {
    if (region.loop && !region.loop->contains(block))
      continue;
    if (const llvm::Loop *child = childLoopOf(block)) {
      if (block != child->getHeader())
        continue;
      regions_.push_back(std::make_unique<Region>());
      Region *sub = regions_.back().get();
      sub->loop = child;
      sub->parent = &region;
      result_.loops.emplace_back();
      sub->number = result_.loops.size();
      itemOfHeader[block] = items.size();
      items.push_back({nullptr, sub});
    } else {
      itemOfHeader[block] = items.size();
      items.push_back({block, nullptr});
    }
  }
  // Forward edges between items; back edges to the region's header and exits are not edges here.
  auto itemOf = [&](const llvm::BasicBlock *block) -> llvm::Optional<unsigned> {
    if (!reachable_.count(block) || (region.loop && !region.loop->contains(block)) ||
        (region.loop && block == region.loop->getHeader()))
      return llvm::None;
    const llvm::Loop *child = childLoopOf(block);
    auto it = itemOfHeader.find(child ? child->getHeader() : block);
    return it == itemOfHeader.end() ? llvm::None : llvm::Optional<unsigned>(it->second);
  };
  std::vector<std::vector<unsigned>> successors(items.size());
  std::vector<unsigned> inDegree(items.size(), 0);
  for (unsigned i = 0; i < items.size(); ++i) {
    llvm::SmallVector<const llvm::BasicBlock *, 4> next;
    if (items[i].block) {
      next.append(llvm::succ_begin(items[i].block), llvm::succ_end(items[i].block));
    } else {
      llvm::SmallVector<llvm::BasicBlock *, 4> exits;
      items[i].loop->loop->getExitBlocks(exits);
      next.append(exits.begin(), exits.end());
    }
    std::set<unsigned> targets;
    for (const llvm::BasicBlock *block : next)
      if (auto target = itemOf(block); target && *target != i)
        targets.insert(*target);
    for (unsigned target : targets) {
      successors[i].push_back(target);
      ++inDegree[target];
    }
  }
  std::set<unsigned> ready;
  for (unsigned i = 0; i < items.size(); ++i)
    if (!inDegree[i])
      ready.insert(i);
  unsigned segment = 0;
  while (!ready.empty()) {
    unsigned i = *ready.begin();
    ready.erase(ready.begin());
    region.items.push_back(items[i]);
    if (items[i].block) {
      blockPosition_[items[i].block] = {&region, segment};
    } else {
      items[i].loop->segment = segment++;
      region.children.push_back(items[i].loop);
    }
    for (unsigned target : successors[i])
      if (!--inDegree[target])
        ready.insert(target);
  }
  if (region.items.size() != items.size()) {
    const llvm::BasicBlock *block = region.loop ? region.loop->getHeader() : &kernel_.getEntryBlock();
    return fail(*block->getFirstNonPHIOrDbg(), "irreducible control flow is not supported by the hardware flow");
  }
  for (Region *child : region.children)
    if (auto err = orderItems(*child))
      return err;
  return llvm::Error::success();
}

llvm::Error GraphBuilder::visitRegion(Region &region) {
  for (const Item &item : region.items) {
    if (item.loop) {
      if (auto err = openLoop(*item.loop))
        return err;
      if (auto err = visitRegion(*item.loop))
        return err;
      if (auto err = closeLoop(*item.loop))
        return err;
      for (const auto &[node, entry, segment] : region.tailPhis)
        if (segment == item.loop->segment + 1)
          phiRing(region, *node, entry, segment);
      continue;
    }
    current_ = blockPosition_.lookup(item.block);
    const bool header = region.loop && item.block == region.loop->getHeader();
    for (const auto &inst : *item.block) {
      if (header && llvm::isa<llvm::PHINode>(inst))
        continue; // Made a ring by openLoop.
      AtPosition at(*this, placement(inst, current_));
      if (auto err = visit(inst))
        return err;
    }
  }
  return llvm::Error::success();
}

unsigned GraphBuilder::segmentOf(const Region &region, const llvm::Value *value) const {
  auto it = values_.find(value);
  if (it == values_.end() || result_.graph[it->second].isStatic)
    return 0;
  const Position home = home_.lookup(it->second);
  const Region *inner = outermostWithin(region, home.region);
  if (!inner)
    return 0; // Made outside the region.
  return inner == &region ? home.segment : inner->segment + 1;
}

/// `inner` itself when it is `region`, else the child loop of `region` that holds it; null when
/// `inner` is not in `region`.
const GraphBuilder::Region *GraphBuilder::outermostWithin(const Region &region, const Region *inner) {
  while (inner && inner != &region && inner->parent != &region)
    inner = inner->parent;
  return inner;
}

GraphBuilder::Position GraphBuilder::placement(const llvm::Instruction &inst, Position at) const {
  const bool computation =
      llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::CmpInst, llvm::CastInst, llvm::SelectInst,
                llvm::GetElementPtrInst, llvm::ExtractElementInst, llvm::InsertElementInst, llvm::ShuffleVectorInst>(
          inst);
  // In the kernel body a value made early would be carried through the loops after it instead of
  // its operands, which is no better.
  if (!at.region->loop || at.segment == 0 || !computation)
    return at;
  unsigned segment = 0;
  for (const llvm::Value *operand : inst.operands())
    segment = std::max(segment, segmentOf(*at.region, operand));
  return {at.region, std::min(segment, at.segment)};
}

unsigned GraphBuilder::closingSegment(const Region &loop) {
  const unsigned last = loop.children.size();
  if (!last)
    return last;
  LoopReport &report = result_.loops[loop.number - 1];
  auto wait = [&](std::string reason) {
    report.innerLoopsWaitFor = std::move(reason);
    return last;
  };
  const auto latchBlocks = latches(loop);
  const auto *branch = latchBlocks.size() == 1 && loop.loop->getExitingBlock() == latchBlocks.front()
                           ? llvm::dyn_cast<llvm::BranchInst>(latchBlocks.front()->getTerminator())
                           : nullptr;
  if (!branch || !branch->isConditional())
    return wait("it continues or leaves elsewhere than at its end");
  // A memory-order ring carries a summary of the whole iteration's accesses, and a forwarding
  // queue compares a load with the stores issued before it: both need the previous iteration's.
  if (loop.ordersMemory)
    return wait("its iterations' memory accesses may depend on each other");
  for (const auto &forwarding : forwardingLoadOf_)
    if (loops_.getLoopFor(forwarding.first->getParent()) == loop.loop)
      return wait("its read-modify-write of memory forwards from one iteration to the next");
  unsigned segment = segmentOf(loop, branch->getCondition());
  if (segment == last)
    return wait("its exit test is known only after them");
  for (const llvm::PHINode &node : loop.loop->getHeader()->phis()) {
    if (home_.lookup(values_.lookup(&node)).segment)
      continue; // Its ring starts and closes in the tail.
    const unsigned ready = segmentOf(loop, node.getIncomingValueForBlock(latchBlocks.front()));
    if (ready == last)
      return wait("the next value of '" + variableName(node) + "' is known only after them");
    segment = std::max(segment, ready);
  }
  for (unsigned i = segment; i < last; ++i)
    if (std::string reason = reorderingIn(*loop.children[i]); !reason.empty())
      return wait(reason);
  report.overlapsFrom = result_.loops[loop.children[segment]->number - 1].location;
  return segment;
}

std::string GraphBuilder::reorderingIn(const Region &child) const {
  const std::string &where = result_.loops[child.number - 1].location;
  const llvm::SCEV *trips = scalarEvolution_->getBackedgeTakenCount(child.loop);
  // The iterations in the child at once come from several work-items, each in its own iteration of
  // the loops around the child: a trip count or a branch that differs between them lets one
  // overtake another.
  if ((llvm::isa<llvm::SCEVCouldNotCompute>(trips) || !sameForEveryWorkItem(trips)) &&
      !exitTestSameForEveryWorkItem(*child.loop))
    return "the trip count of the loop at " + where + " may differ between them";
  for (const Item &item : child.parent->items) {
    if (item.loop == &child)
      break;
    const auto *branch = item.block ? llvm::dyn_cast<llvm::BranchInst>(item.block->getTerminator()) : nullptr;
    if (branch && branch->isConditional() && !sameForEveryWorkItem(branch->getCondition()))
      return "some of them may skip the loop at " + where;
  }
  for (const Region *inner : child.children)
    if (std::string reason = reorderingIn(*inner); !reason.empty())
      return reason;
  return "";
}

NodeId GraphBuilder::trigger(Position at) {
  Region &region = *at.region;
  if (!region.token) {
    // The work-item's (iteration's) token without its data: free to carry through loops.
    Node n{OpKind::Join, 0};
    n.name = region.loop ? "iteration" : "workitem";
    region.token = addAt(n, {&region, 0}, {region.loop ? region.control : workItems()});
  }
  return lift(*region.token, at);
}

NodeId GraphBuilder::steer(NodeId value, NodeId condition, bool when, Position at) {
  // The control's tokens carry their data to the loop's muxes only, not around its ring.
  const Node &v = result_.graph[value];
  Node n{OpKind::Steer, v.kind == OpKind::LoopControl ? 0 : v.width};
  n.constant = when;
  n.name = result_.graph[value].name;
  n.location = result_.graph[value].location;
  return addAt(n, at, {value, condition});
}

NodeId GraphBuilder::exitValue(Region &loop, NodeId last) {
  if (auto it = exits_.find(last); it != exits_.end())
    return it->second;
  NodeId out = steer(last, lift(loop.keepGoing, loop.last()), false, {loop.parent, loop.segment + 1});
  exits_[last] = out;
  return out;
}

NodeId GraphBuilder::lift(NodeId node, Position to) {
  if (result_.graph[node].isStatic)
    return node;
  Position from = home_.lookup(node);
  if (from.region == to.region && from.segment == to.segment)
    return node;
  auto key = std::make_tuple(node, to.region, to.segment);
  if (auto it = lifted_.find(key); it != lifted_.end())
    return it->second;
  // An extension is wiring: the narrow value travels through the rings, extended where it arrives.
  if (const Node extension = result_.graph[node]; extension.kind == OpKind::ZExt || extension.kind == OpKind::SExt) {
    const NodeId narrow = lift(result_.operands(node)[0], to);
    const NodeId result = addAt(extension, to, {narrow});
    lifted_[key] = result;
    return result;
  }
  auto contains = [](const Region *outer, const Region *inner) {
    for (; inner; inner = inner->parent)
      if (inner == outer)
        return true;
    return false;
  };
  NodeId result;
  if (from.region == to.region) {
    // Through the sibling loop that ends this segment.
    assert(from.segment < to.segment && "a value is used before it is made");
    Region &loop = *from.region->children[from.segment];
    NodeId inside = ring(loop, node);
    result = lift(exitValue(loop, lift(inside, loop.last())), to);
  } else if (!contains(from.region, to.region)) {
    // Out of the loop the value is made in, with its last iteration's value.
    Region &loop = *from.region;
    result = lift(exitValue(loop, lift(node, loop.last())), to);
  } else {
    // Into the child loop on the way to the use.
    Region *child = to.region;
    while (child->parent != from.region)
      child = child->parent;
    result = lift(ring(*child, lift(node, {from.region, child->segment})), to);
  }
  lifted_[key] = result;
  return result;
}

NodeId GraphBuilder::ring(Region &loop, NodeId entry, std::function<llvm::Expected<NodeId>()> back,
                          unsigned segment) {
  const bool invariant = !back;
  if (invariant)
    if (auto it = rings_.find({entry, &loop}); it != rings_.end())
      return it->second;
  const Node &value = result_.graph[entry];
  Node mux{OpKind::LoopMux, value.width};
  mux.name = value.name;
  mux.location = value.location;
  // The control's token carries the iteration's first flag, through child loops too.
  NodeId id = addAt(mux, {&loop, segment}, {lift(loop.control, {&loop, segment}), entry});
  if (invariant) {
    rings_[{entry, &loop}] = id;
    back = [id] { return id; };
  }
  if (loop.closed) {
    // Only invariant rings are made after the loop is built (to carry a value through it).
    auto err = closeRing(loop, id, id);
    assert(!err && "an invariant ring cannot fail");
    llvm::consumeError(std::move(err));
  } else {
    loop.pendingRings.emplace_back(id, std::move(back));
  }
  return id;
}

llvm::Error GraphBuilder::closeRing(Region &loop, NodeId mux, NodeId back, unsigned operand) {
  const Position closing = loop.closingFor(home_.lookup(mux).segment);
  NodeId last = lift(back, closing);
  if (result_.graph[last].isStatic && result_.graph[loop.keepGoing].isStatic)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   result_.graph[mux].location + ": error: a loop that never exits and carries "
                                                                 "a constant is not supported by the hardware flow");
  NodeId next = steer(last, lift(loop.keepGoing, closing), true, closing);
  Node fifo{OpKind::Fifo, result_.graph[next].width};
  // Deep enough for every admitted work-item, and, under a smaller max_interleaving, for a fast
  // ring (the induction variable feeding loads) to run ahead of a slow one by as much. A loop that
  // admits more (sizeLoopControls) deepens it.
  fifo.depth = DefaultLoopWorkItems + 1;
  fifo.latency = 1;
  fifo.name = result_.graph[mux].name;
  fifo.location = result_.graph[mux].location;
  NodeId buffer = addAt(fifo, closing, {next});
  result_.connect(buffer, mux, operand, /*back=*/true);
  return llvm::Error::success();
}

void GraphBuilder::phiRing(Region &loop, const llvm::PHINode &node, NodeId entry, unsigned segment) {
  if (segment) {
    // The entering value rides with every iteration from the loop's start, as any value carried
    // into the loop does, and the first iteration's is kept: taken at the start, it never holds up
    // what produced it while earlier iterations fill the child loops.
    const Position tail{&loop, segment};
    entry = steer(lift(entry, tail), lift(loop.control, tail), true, tail);
  }
  // A counter whose values fit fewer bits (NarrowArithmetic) goes round in that many.
  const unsigned width = result_.graph[entry].width, bits = narrowWidth(node);
  if (bits)
    entry = result_.graph[entry].isStatic ? lowBits(entry, bits, node)
                                          : addAt(Node{OpKind::Trunc, bits}, home_.lookup(entry), {entry});
  NodeId mux = ring(
      loop, entry,
      [this, &node, &loop, segment, bits]() -> llvm::Expected<NodeId> {
        AtPosition at(*this, loop.closingFor(segment));
        auto next = phiValue(node, latches(loop));
        if (!next || !bits)
          return next;
        return lowBits(*next, bits, node);
      },
      segment);
  // At the loop when the phi merges several lines.
  result_.graph[mux].name = variableName(node);
  result_.graph[mux].location = node.getDebugLoc() && node.getDebugLoc().getLine()
                                    ? locationOf(node, kernel_)
                                    : result_.loops[loop.number - 1].location;
  values_[&node] = bits ? addAt(Node{OpKind::ZExt, width}, home_.lookup(mux), {mux}) : mux;
}

unsigned GraphBuilder::tailSegment(const Region &loop, const llvm::PHINode &node) const {
  unsigned first = loop.children.size();
  for (const llvm::User *user : node.users()) {
    const auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
    if (!inst || !reachable_.count(inst->getParent()) || !loop.loop->contains(inst))
      continue; // After the loop, it uses the exit value.
    if (llvm::isa<llvm::PHINode>(inst) && inst->getParent() == loop.loop->getHeader())
      return 0; // Carried into another ring.
    const Position at = blockPosition_.lookup(inst->getParent());
    const Region *inner = outermostWithin(loop, at.region);
    first = std::min(first, inner == &loop ? at.segment : inner->segment);
  }
  for (unsigned i = 0; i < first; ++i)
    if (!reorderingIn(*loop.children[i]).empty())
      return 0;
  return first;
}

llvm::Error GraphBuilder::openLoop(Region &loop) {
  const Position outside{loop.parent, loop.segment};
  const llvm::BasicBlock *header = loop.loop->getHeader();
  LoopReport &report = result_.loops[loop.number - 1];
  report.depth = loop.loop->getLoopDepth();
  report.innermost = loop.loop->isInnermost();
  report.tripCount = scalarEvolution_->getSmallConstantTripCount(const_cast<llvm::Loop *>(loop.loop));
  report.requestedII = requestedInitiationInterval(*loop.loop);
  // A loop without memory accesses is "parallel" to LLVM too; ivdep is the programmer's word.
  report.ivdep = loop.loop->isAnnotatedParallel() &&
                 llvm::findOptionMDForLoop(loop.loop, "llvm.loop.parallel_accesses") != nullptr;
  for (const auto &array : ivdepArrays(*loop.loop))
    report.ivdepArrays.push_back(array.second ? llvm::formatv("array({0}) safelen({1})", array.first(), array.second).str()
                                              : llvm::formatv("array({0})", array.first()).str());
  llvm::sort(report.ivdepArrays);
  report.overWorkItems = llvm::findOptionMDForLoop(loop.loop, WorkItemLoopAttribute) != nullptr;
  report.interleaved = std::max(1, llvm::getOptionalIntLoopAttribute(loop.loop, InterleavedLoopAttribute).value_or(1));
  const int maxInterleaving = llvm::getOptionalIntLoopAttribute(loop.loop, MaxInterleavingLoopAttribute).value_or(0);
  if (maxInterleaving > 0 && unsigned(maxInterleaving) < DefaultLoopWorkItems)
    report.maxInterleaving = unsigned(maxInterleaving);
  report.location = locationOf(*header->getFirstNonPHIOrDbg(), kernel_);
  if (auto start = loop.loop->getStartLoc())
    report.location = llvm::formatv("{0}:{1}", llvm::cast<llvm::DIScope>(start->getScope())->getFilename(), start.getLine());

  llvm::Optional<NodeId> enteringPredicate;
  NodeId entryToken;
  {
    AtPosition at(*this, outside);
    auto predicate = orOfEdges(*header, entering(loop));
    if (!predicate)
      return predicate.takeError();
    enteringPredicate = *predicate;
    entryToken = trigger(outside);
  }
  Node control{OpKind::LoopControl, 1};
  control.depth = report.maxInterleaving ? report.maxInterleaving : DefaultLoopWorkItems;
  control.name = "loop" + std::to_string(loop.number);
  control.location = report.location;
  loop.control = addAt(control, {&loop, 0}, {entryToken});
  current_ = {&loop, 0};
  if (enteringPredicate)
    loop.headerPredicate = lift(*enteringPredicate, current_);
  for (const llvm::PHINode &node : header->phis()) {
    if (auto width = widthOf(node.getType(), &node); !width)
      return width.takeError();
    llvm::Expected<NodeId> entry = [&] {
      AtPosition at(*this, outside);
      return phiValue(node, entering(loop));
    }();
    if (!entry)
      return entry.takeError();
    if (unsigned tail = tailSegment(loop, node))
      loop.tailPhis.emplace_back(&node, *entry, tail);
    else
      phiRing(loop, node, *entry, 0);
  }
  enterLoopMemory(loop);
  return llvm::Error::success();
}

llvm::Error GraphBuilder::closeLoop(Region &loop) {
  loop.closingSegment = closingSegment(loop);
  current_ = loop.closing();
  const llvm::BasicBlock *header = loop.loop->getHeader();
  auto keepGoing = loop.closingSegment == loop.children.size() ? orOfEdges(*header, latches(loop))
                                                                 : branchTaken(*latches(loop).front(), *header);
  if (!keepGoing)
    return keepGoing.takeError();
  // Closing early, the latch is the loop's one exit and the predicate of any iteration.
  if (*keepGoing && loop.closingSegment < loop.children.size() && loop.headerPredicate)
    *keepGoing = logic(OpKind::And, *header->getFirstNonPHIOrDbg(), {lift(*loop.headerPredicate, current_), **keepGoing});
  if (*keepGoing) {
    loop.keepGoing = **keepGoing;
  } else {
    Node always{OpKind::Constant, 1, true};
    always.constant = 1;
    loop.keepGoing = result_.addNode(always);
  }
  loop.closed = true;
  // The control's own ring, and its count of work-items inside (a work-item leaves with its last
  // iteration's tail).
  if (auto err = closeRing(loop, loop.control, loop.control, /*operand=*/1))
    return err;
  result_.connect(exitValue(loop, lift(loop.control, loop.last())), loop.control, 2, /*back=*/true);
  // Closing a ring may carry values through child loops, never open new rings here.
  for (size_t i = 0; i < loop.pendingRings.size(); ++i) {
    auto back = loop.pendingRings[i].second();
    if (!back)
      return back.takeError();
    if (auto err = closeRing(loop, loop.pendingRings[i].first, *back))
      return err;
  }
  loop.pendingRings.clear();
  leaveLoopMemory(loop);
  current_ = {loop.parent, loop.segment + 1};
  return llvm::Error::success();
}

} // namespace loom::hls
