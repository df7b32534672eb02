//===- SplitAggregatePhis.cpp - a phi of a cmpxchg's pair, one per field ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel where a phi (or select) carries a struct, as loop rotation leaves one around a
// compare-exchange retry loop: %pair = phi { i32, i1 } [ %first, %entry ], [ %next, %loop ], read by
// extractvalues. After: a phi per field read, of extractvalues taken where each incoming value is
// available, and the reads use them. The dataflow graph carries integers, not structs; a cmpxchg's
// own pair is read field by field there. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <map>
#include <vector>

namespace loom::hls {
namespace {

using namespace llvm;

/// Field `index` of struct value `value`, as an instruction after its definition (or at the end of
/// `incoming` for a phi's operand, where it is available).
Value *fieldOf(Value *value, unsigned index, Instruction *insertBefore) {
  IRBuilder<> b(insertBefore);
  return b.CreateExtractValue(value, index, value->getName() + ".field" + Twine(index));
}

/// Replaces `node` (a phi or select of a struct read only by single-index extractvalues) by one per
/// field read. Returns false, changing nothing, when it is read otherwise.
bool split(Instruction &node) {
  std::map<unsigned, std::vector<ExtractValueInst *>> reads;
  for (User *user : node.users()) {
    auto *extract = dyn_cast<ExtractValueInst>(user);
    if (!extract || extract->getNumIndices() != 1)
      return false;
    reads[extract->getIndices()[0]].push_back(extract);
  }
  for (auto &[index, extracts] : reads) {
    Type *fieldType = extracts.front()->getType();
    Value *replacement = nullptr;
    if (auto *phi = dyn_cast<PHINode>(&node)) {
      PHINode *field = PHINode::Create(fieldType, phi->getNumIncomingValues(), phi->getName() + ".field" + Twine(index), phi);
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        field->addIncoming(fieldOf(phi->getIncomingValue(i), index, phi->getIncomingBlock(i)->getTerminator()),
                           phi->getIncomingBlock(i));
      replacement = field;
    } else {
      auto *select = cast<SelectInst>(&node);
      IRBuilder<> b(select);
      replacement = b.CreateSelect(select->getCondition(), fieldOf(select->getTrueValue(), index, select),
                                   fieldOf(select->getFalseValue(), index, select), select->getName() + ".field" + Twine(index));
    }
    for (ExtractValueInst *extract : extracts) {
      extract->replaceAllUsesWith(replacement);
      extract->eraseFromParent();
    }
  }
  node.eraseFromParent();
  return true;
}

} // namespace

void splitAggregatePhis(Function &kernel) {
  // A phi's incoming value may itself be such a phi: split until none is left that can be.
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<Instruction *> nodes; // Collected first: splitting erases the reads that follow.
    for (Instruction &instruction : instructions(kernel))
      if ((isa<PHINode>(instruction) || isa<SelectInst>(instruction)) && instruction.getType()->isStructTy())
        nodes.push_back(&instruction);
    for (Instruction *node : nodes)
      changed |= split(*node);
  }
}

} // namespace loom::hls
