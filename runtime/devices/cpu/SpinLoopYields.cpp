//===- SpinLoopYields.cpp - Yields in loops that wait for other work-items ===//
// SPDX-License-Identifier: Apache-2.0
//
// See SpinLoopYields.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/SpinLoopYields.h"
#include "devices/cpu/PipeOperations.h"

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

/// What a loop may wait for.
enum class Wait { Nothing, Store, Pipe };

/// A read another work-item's store can change from one iteration to the next, or a pipe call
/// another work-item's (or kernel's) packets can make succeed.
Wait readsSharedValue(const Instruction &instruction) {
  if (const auto *load = dyn_cast<LoadInst>(&instruction))
    return load->isAtomic() || load->isVolatile() ? Wait::Store : Wait::Nothing;
  if (const auto *call = dyn_cast<CallInst>(&instruction))
    return call->getCalledFunction() && isPipeOperation(call->getCalledFunction()->getName()) ? Wait::Pipe
                                                                                               : Wait::Nothing;
  return isa<AtomicRMWInst>(instruction) || isa<AtomicCmpXchgInst>(instruction) ? Wait::Store : Wait::Nothing;
}

/// Whether `loop` exits on a value computed from such a read inside it, and on which kind.
Wait waitsForOthers(const Loop &loop) {
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
    if (Wait wait = readsSharedValue(*instruction); wait != Wait::Nothing)
      return wait;
    if (isa<LoadInst>(instruction))
      continue; // an address computed from a shared value is not the value
    work.append(instruction->op_begin(), instruction->op_end());
  }
  return Wait::Nothing;
}

} // namespace

unsigned addSpinLoopYields(Function &workItem) {
  DominatorTree dominators(workItem);
  LoopInfo loops(dominators);
  struct BackEdge {
    BasicBlock *latch, *header;
    Wait wait;
  };
  SmallVector<BackEdge, 4> backEdges;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (Wait wait = waitsForOthers(*loop); wait != Wait::Nothing) {
      SmallVector<BasicBlock *, 2> latches;
      loop->getLoopLatches(latches);
      for (BasicBlock *latch : latches)
        backEdges.push_back({latch, loop->getHeader(), wait});
    }
  if (backEdges.empty())
    return 0;
  Module &module = *workItem.getParent();
  FunctionType *noArguments = FunctionType::get(Type::getVoidTy(module.getContext()), false);
  FunctionCallee yield = module.getOrInsertFunction(lowering::YieldFunction, noArguments);
  // On the edge back, not before the latch's branch: a work-item that leaves the loop goes on. A
  // pipe's waiter tells the deadlock watch first (PipeOperations.h).
  for (const BackEdge &edge : backEdges) {
    Instruction *back = SplitEdge(edge.latch, edge.header)->getTerminator();
    if (edge.wait == Wait::Pipe)
      CallInst::Create(module.getOrInsertFunction(PipeSpinFunction, noArguments), "", back);
    CallInst::Create(yield, "", back);
  }
  return backEdges.size();
}

} // namespace loom::runtime::cpu
