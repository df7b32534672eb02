//===- WorkGroupUniformity.cpp - Values the same in every work-item of a group ===//
// SPDX-License-Identifier: Apache-2.0
//
// LLVM's DivergenceAnalysisImpl with Loom's sources of divergence (the GPU targets' TTI hooks say
// nothing for a work-item function on the host). A value counts as uniform only if every use of it is
// too: a value computed in a loop whose exit differs between work-items is the same in each iteration
// but not after the loop (temporal divergence).
//===----------------------------------------------------------------------===//
#include "loom/lowering/WorkGroupUniformity.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/DivergenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/SyncDependenceAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::lowering {

using namespace llvm;

DenseSet<const Value *> workGroupUniformValues(const Function &function, ArrayRef<const Argument *> perWorkItem) {
  DenseSet<const Value *> uniform;
  DominatorTree dominators(const_cast<Function &>(function));
  PostDominatorTree postDominators(const_cast<Function &>(function));
  LoopInfo loops(dominators);
  ReversePostOrderTraversal<const Function *> order(&function);
  if (containsIrreducibleCFG<const BasicBlock *>(order, loops))
    return uniform;
  SyncDependenceAnalysis syncDependence(dominators, postDominators, loops);
  DivergenceAnalysisImpl divergence(function, /*RegionLoop=*/nullptr, dominators, loops, syncDependence,
                                    /*IsLCSSAForm=*/false);
  for (const Argument *argument : perWorkItem)
    divergence.markDivergent(*argument);
  // What memory holds may differ between work-items (each has its private memory, and they write
  // shared memory in turn); so may what a call returns.
  for (const Instruction &instruction : instructions(function)) {
    const auto *call = dyn_cast<CallBase>(&instruction);
    if (isa<AllocaInst>(instruction) || instruction.mayReadOrWriteMemory() ||
        (call && !call->doesNotAccessMemory()))
      divergence.markDivergent(instruction);
  }
  divergence.compute();
  for (const Instruction &instruction : instructions(function)) {
    if (instruction.getType()->isVoidTy() || divergence.isDivergent(instruction))
      continue;
    if (all_of(instruction.uses(), [&](const Use &use) { return !divergence.isDivergentUse(use); }))
      uniform.insert(&instruction);
  }
  return uniform;
}

} // namespace loom::lowering
