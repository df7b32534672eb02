//===- SpinLoopYields.cpp - Yields in loops that wait for other work-items ===//
// SPDX-License-Identifier: Apache-2.0
//
// See SpinLoopYields.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/SpinLoopYields.h"

#include "loom/lowering/BarrierRegions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

/// A read another work-item's store can change from one iteration to the next.
bool readsSharedValue(const Instruction &instruction) {
  if (const auto *load = dyn_cast<LoadInst>(&instruction))
    return load->isAtomic() || load->isVolatile();
  return isa<AtomicRMWInst>(instruction) || isa<AtomicCmpXchgInst>(instruction);
}

/// Whether `loop` exits on a value computed from such a read inside it.
bool waitsForOthers(const Loop &loop) {
  SmallVector<BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  SmallVector<const Value *, 16> work;
  for (const BasicBlock *block : exiting)
    for (const Value *operand : block->getTerminator()->operands())
      if (!isa<BasicBlock>(operand))
        work.push_back(operand);
  SmallPtrSet<const Value *, 32> seen;
  while (!work.empty()) {
    const auto *instruction = dyn_cast<Instruction>(work.pop_back_val());
    if (!instruction || !loop.contains(instruction) || !seen.insert(instruction).second)
      continue;
    if (readsSharedValue(*instruction))
      return true;
    if (isa<LoadInst>(instruction))
      continue; // an address computed from a shared value is not the value
    work.append(instruction->op_begin(), instruction->op_end());
  }
  return false;
}

} // namespace

unsigned addSpinLoopYields(Function &workItem) {
  DominatorTree dominators(workItem);
  LoopInfo loops(dominators);
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> backEdges;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (waitsForOthers(*loop)) {
      SmallVector<BasicBlock *, 2> latches;
      loop->getLoopLatches(latches);
      for (BasicBlock *latch : latches)
        backEdges.emplace_back(latch, loop->getHeader());
    }
  if (backEdges.empty())
    return 0;
  Module &module = *workItem.getParent();
  FunctionCallee yield =
      module.getOrInsertFunction(lowering::YieldFunction, FunctionType::get(Type::getVoidTy(module.getContext()), false));
  // On the edge back, not before the latch's branch: a work-item that leaves the loop goes on.
  for (auto [latch, header] : backEdges)
    CallInst::Create(yield, "", SplitEdge(latch, header)->getTerminator());
  return backEdges.size();
}

} // namespace loom::runtime::cpu
