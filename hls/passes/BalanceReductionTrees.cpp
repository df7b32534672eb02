//===- BalanceReductionTrees.cpp - chains of one operation as trees -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a chain of one associative operation, each step used once by the next, as Clang leaves an
// unrolled sum (`acc += taps[k] * window[k]` over 16 taps: 15 adds one after another, so the last
// product waits 15 adds for its sum and every earlier one is buffered until then). After: the same
// leaves combined in pairs, level by level: a tree log2(n) operations deep. A leaf that the chain's
// result comes back to through a phi (the running sum of a loop, `s = s + a + b + c`) is combined
// last, so the loop's recurrence stays one operation long. Integer add, mul, and, or and xor always
// (wrapping arithmetic is associative; no-wrap flags are dropped); float add and mul only where
// fast-math flags allow reassociation. Chains that index memory stay as they are: scalar evolution
// proves strides from their no-wrap flags. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

namespace loom::hls {
namespace {

using namespace llvm;

bool isReassociable(const Instruction &inst) {
  const auto *op = dyn_cast<BinaryOperator>(&inst);
  return op && op->isAssociative() && op->isCommutative() && !op->getType()->isVectorTy();
}

/// An operation of the chain rooted at `root`: the same operation, reassociable, in the same block,
/// used only there.
bool continuesChain(const Value *value, const Instruction &root) {
  const auto *inst = dyn_cast<Instruction>(value);
  return inst && inst->getOpcode() == root.getOpcode() && inst->getParent() == root.getParent() &&
         inst->hasOneUse() && isReassociable(*inst);
}

struct Leaf {
  Value *value;
  unsigned level; ///< Operations between it and the chain's result.
};

/// The chain's leaves, left to right, and its operations; returns its depth in operations.
unsigned collectChain(Instruction &node, Instruction &root, unsigned level, SmallVectorImpl<Leaf> &leaves,
                      SmallVectorImpl<Instruction *> &operations) {
  operations.push_back(&node);
  unsigned depth = 0;
  for (Value *operand : node.operands()) {
    if (continuesChain(operand, root))
      depth = std::max(depth, collectChain(*cast<Instruction>(operand), root, level + 1, leaves, operations));
    else
      leaves.push_back({operand, level + 1});
  }
  return depth + 1;
}

/// Whether `phi`'s incoming values are computed from `root` (within a few steps): the chain is then
/// a recurrence through it.
bool feedsBack(PHINode &phi, const Instruction &root) {
  SmallVector<const Value *, 16> work(phi.incoming_values().begin(), phi.incoming_values().end());
  SmallPtrSet<const Value *, 32> seen;
  while (!work.empty() && seen.size() < 64) {
    const Value *value = work.pop_back_val();
    if (value == &root)
      return true;
    const auto *inst = dyn_cast<Instruction>(value);
    if (!inst || isa<PHINode>(inst) || !seen.insert(inst).second)
      continue;
    work.append(inst->op_begin(), inst->op_end());
  }
  return false;
}

/// Whether `value` indexes memory (through casts): scalar evolution reads an index's no-wrap flags,
/// which a tree would drop, to prove strides.
bool isIndex(const Value &value) {
  return any_of(value.users(), [](const User *user) {
    return isa<GetElementPtrInst>(user) || (isa<CastInst>(user) && isIndex(*user));
  });
}

void balance(Instruction &root) {
  SmallVector<Leaf, 16> leaves;
  SmallVector<Instruction *, 16> chain;
  const unsigned depth = collectChain(root, root, 0, leaves, chain);
  SmallVector<Value *, 16> inTree, last;
  bool recurrenceDeep = false;
  for (const Leaf &leaf : leaves) {
    auto *phi = dyn_cast<PHINode>(leaf.value);
    const bool recurrent = phi && feedsBack(*phi, root);
    (recurrent ? last : inTree).push_back(leaf.value);
    recurrenceDeep |= recurrent && leaf.level > 1;
  }
  // Balanced already, with a recurrence (if any) one operation long.
  if (inTree.empty() || (depth <= Log2_32_Ceil(unsigned(inTree.size())) + last.size() && !recurrenceDeep))
    return;
  IRBuilder<> b(&root);
  if (isa<FPMathOperator>(root))
    b.setFastMathFlags(root.getFastMathFlags());
  const auto opcode = Instruction::BinaryOps(root.getOpcode());
  while (inTree.size() > 1) {
    SmallVector<Value *, 16> level;
    for (size_t i = 0; i + 1 < inTree.size(); i += 2)
      level.push_back(b.CreateBinOp(opcode, inTree[i], inTree[i + 1], root.getName() + ".tree"));
    if (inTree.size() % 2)
      level.push_back(inTree.back());
    inTree = std::move(level);
  }
  Value *result = inTree.front();
  for (Value *leaf : last)
    result = b.CreateBinOp(opcode, result, leaf, root.getName() + ".tree");
  result->takeName(&root);
  root.replaceAllUsesWith(result);
  // The old chain is used only by itself now.
  for (Instruction *operation : chain)
    operation->dropAllReferences();
  for (Instruction *operation : chain)
    operation->eraseFromParent();
}

} // namespace

void balanceReductionTrees(Function &kernel) {
  SmallVector<Instruction *, 16> roots;
  for (BasicBlock &block : kernel)
    for (Instruction &inst : block) {
      if (!isReassociable(inst))
        continue;
      const bool inner = inst.hasOneUse() && continuesChain(&inst, *cast<Instruction>(inst.user_back()));
      if (!inner && !isIndex(inst))
        roots.push_back(&inst);
    }
  for (Instruction *root : roots)
    balance(*root);
}

} // namespace loom::hls
