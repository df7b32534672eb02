//===- ControlFlow.cpp - Branches as predicates, phis as selects ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of BuildDataflowGraph (see GraphBuilder.h). Inside the kernel body and inside each loop
// iteration every block computes; a block's predicate says whether the work-item (the iteration)
// really reaches it, an edge's predicate whether it takes that edge. Predicates are built on demand
// at the position of the block they belong to and lifted to where they are used.
//===----------------------------------------------------------------------===//
#include "passes/build/GraphBuilder.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"

namespace loom::hls {

/// An i1 operation on predicates, located at `at`.
NodeId GraphBuilder::logic(OpKind kind, const llvm::Instruction &at, std::vector<NodeId> operands) {
  return add(Node{kind, 1}, at, std::move(operands));
}

/// When `from`'s terminator branches to `to`, at the current position: None if it always does.
llvm::Expected<llvm::Optional<NodeId>> GraphBuilder::branchTaken(const llvm::BasicBlock &from,
                                                                 const llvm::BasicBlock &to) {
  const auto *branch = llvm::dyn_cast<llvm::BranchInst>(from.getTerminator());
  if (!branch || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1))
    return llvm::None;
  auto condition = valueOf(branch->getCondition(), *branch);
  if (!condition)
    return condition.takeError();
  if (branch->getSuccessor(0) == &to)
    return *condition;
  auto one = valueOf(llvm::ConstantInt::getTrue(from.getContext()), *branch);
  if (!one)
    return one.takeError();
  return logic(OpKind::Xor, *branch, {*condition, *one});
}

/// When control passes from `from` to `to`, at `from`'s position: None if always (as far as the
/// work-item gets to `from`).
llvm::Expected<llvm::Optional<NodeId>> GraphBuilder::edgePredicate(const llvm::BasicBlock &from,
                                                                   const llvm::BasicBlock &to) {
  auto key = std::make_pair(&from, &to);
  if (auto it = edgePredicates_.find(key); it != edgePredicates_.end())
    return it->second;
  AtPosition at(*this, blockPosition_.lookup(&from));
  auto fromPredicate = blockPredicate(from);
  if (!fromPredicate)
    return fromPredicate.takeError();
  auto taken = branchTaken(from, to);
  if (!taken)
    return taken.takeError();
  llvm::Optional<NodeId> result = *fromPredicate;
  if (*taken)
    result = *fromPredicate ? logic(OpKind::And, *from.getTerminator(), {**fromPredicate, **taken}) : *taken;
  edgePredicates_[key] = result;
  return result;
}

/// Whether the work-item takes one of the edges `from` -> `block`, at the current position: None if
/// it always does.
llvm::Expected<llvm::Optional<NodeId>> GraphBuilder::orOfEdges(const llvm::BasicBlock &block,
                                                               llvm::ArrayRef<const llvm::BasicBlock *> from) {
  llvm::Optional<NodeId> predicate;
  for (const llvm::BasicBlock *pred : from) {
    auto edge = edgePredicate(*pred, block);
    if (!edge)
      return edge.takeError();
    if (!*edge)
      return llvm::None;
    NodeId here = lift(**edge, current_);
    predicate = predicate ? logic(OpKind::Or, *pred->getTerminator(), {*predicate, here}) : here;
  }
  return predicate;
}

/// Whether a work-item (an iteration) reaches `block`, at the block's position. None for blocks
/// always reached: the kernel's entry and the blocks every path passes (post-dominators of the
/// entry); in a loop, the header when every work-item enters and the blocks every iteration passes
/// before it can leave or continue (dominators of the latches and exiting blocks).
llvm::Expected<llvm::Optional<NodeId>> GraphBuilder::blockPredicate(const llvm::BasicBlock &block) {
  if (auto it = blockPredicates_.find(&block); it != blockPredicates_.end())
    return it->second;
  AtPosition at(*this, blockPosition_.lookup(&block));
  Region &region = *current_.region;
  llvm::Optional<NodeId> predicate;
  bool always;
  if (!region.loop) {
    always = &block == &kernel_.getEntryBlock() || postDominators_.dominates(&block, &kernel_.getEntryBlock());
  } else {
    llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
    region.loop->getExitingBlocks(exiting);
    for (const llvm::BasicBlock *latch : latches(region))
      exiting.push_back(const_cast<llvm::BasicBlock *>(latch));
    always = llvm::all_of(exiting, [&](const llvm::BasicBlock *b) { return dominators_.dominates(&block, b); });
    if (always && region.headerPredicate)
      predicate = lift(*region.headerPredicate, current_);
  }
  if (!always) {
    std::vector<const llvm::BasicBlock *> from;
    for (const llvm::BasicBlock *pred : llvm::predecessors(&block))
      if (reachable_.count(pred))
        from.push_back(pred);
    auto edges = orOfEdges(block, from);
    if (!edges)
      return edges.takeError();
    predicate = *edges;
  }
  blockPredicates_[&block] = predicate;
  return predicate;
}

llvm::Expected<NodeId> GraphBuilder::phiValue(const llvm::PHINode &node,
                                              llvm::ArrayRef<const llvm::BasicBlock *> from) {
  llvm::Optional<NodeId> result;
  for (unsigned i = node.getNumIncomingValues(); i-- > 0;) {
    const llvm::BasicBlock *incoming = node.getIncomingBlock(i);
    if (!llvm::is_contained(from, incoming))
      continue;
    auto value = valueOf(node.getIncomingValue(i), node);
    if (!value)
      return value.takeError();
    if (!result) {
      result = *value;
      continue;
    }
    auto edge = edgePredicate(*incoming, *node.getParent());
    if (!edge)
      return edge.takeError();
    if (!*edge) {
      result = *value;
      continue;
    }
    NodeId taken = lift(**edge, current_);
    result = add(Node{OpKind::Select, result_.graph[*value].width}, node, {taken, *value, *result});
  }
  return *result;
}

/// A phi as a chain of selects on the incoming edges' predicates (loop headers' phis are rings:
/// LoopRings.cpp).
llvm::Error GraphBuilder::phi(const llvm::PHINode &node) {
  if (auto width = widthOf(node.getType(), &node); !width)
    return width.takeError();
  std::vector<const llvm::BasicBlock *> from;
  for (const llvm::BasicBlock *pred : node.blocks())
    if (reachable_.count(pred))
      from.push_back(pred);
  auto value = phiValue(node, from);
  if (!value)
    return value.takeError();
  values_[&node] = *value;
  return llvm::Error::success();
}

} // namespace loom::hls
