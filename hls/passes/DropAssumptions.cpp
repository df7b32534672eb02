//===- DropAssumptions.cpp - __builtin_assume's calls out of the circuit ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function whose source may state facts with __builtin_assume (llvm.assume calls,
// which the optimizer and the passes before this one have used). After: the same function without
// them, nor the instructions that only computed their conditions: a fact is not a circuit, and a
// condition nothing reads would be one with an unread output. Runs on the IR, last before
// build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

namespace loom::hls {

void dropAssumptions(llvm::Function &kernel) {
  llvm::SmallVector<llvm::AssumeInst *, 4> assumptions;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *assume = llvm::dyn_cast<llvm::AssumeInst>(&inst))
      assumptions.push_back(assume);
  llvm::SmallVector<llvm::WeakTrackingVH, 4> conditions;
  for (llvm::AssumeInst *assume : assumptions) {
    conditions.push_back(assume->getArgOperand(0));
    assume->eraseFromParent();
  }
  llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(conditions);
}

} // namespace loom::hls
