//===- InnerLoopBarriers.cpp - Inner loops run across the work-items ------===//
// SPDX-License-Identifier: Apache-2.0
//
// See InnerLoopBarriers.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/InnerLoopBarriers.h"

#include "loom/lowering/BarrierRegions.h"
#include "loom/lowering/WorkGroupUniformity.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/Triple.h"

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

/// Iterations below which a loop stays inside the work-item loop.
constexpr unsigned FewIterations = 8;

/// The condition `block` ends with (nullptr for an unconditional branch), or `block` itself when its
/// terminator chooses otherwise (never uniform).
const Value *chooser(const BasicBlock &block) {
  const Instruction *terminator = block.getTerminator();
  if (const auto *branch = dyn_cast<BranchInst>(terminator))
    return branch->isConditional() ? branch->getCondition() : nullptr;
  if (const auto *choice = dyn_cast<SwitchInst>(terminator))
    return choice->getCondition();
  return terminator->getNumSuccessors() > 1 ? terminator : nullptr;
}

class Finder {
public:
  Finder(Function &function, ArrayRef<const Argument *> perWorkItem)
      : function_(function), perWorkItem_(perWorkItem), dominators_(function), postDominators_(function),
        loops_(dominators_), libraryInfo_(Triple(function.getParent()->getTargetTriple())),
        library_(libraryInfo_, &function), assumptions_(function),
        evolution_(function, library_, assumptions_, dominators_, loops_),
        uniform_(lowering::workGroupUniformValues(function, perWorkItem)) {}

  /// The headers of the loops to cut.
  SmallVector<BasicBlock *, 4> headers() {
    SmallVector<BasicBlock *, 4> result;
    if (uniform_.empty())
      return result; // irreducible control flow: nothing is known to be uniform
    for (Loop *loop : loops_.getLoopsInPreorder())
      if (loop->isInnermost() && worthCutting(*loop) && !hasCut(*loop) && uniformExits(*loop) &&
          reachedByAll(*loop->getHeader()))
        result.push_back(loop->getHeader());
    return result;
  }

private:
  bool isUniform(const Value *value) const {
    if (const auto *argument = dyn_cast<Argument>(value))
      return !is_contained(perWorkItem_, argument);
    return isa<Constant>(value) || uniform_.count(value);
  }

  bool worthCutting(Loop &loop) {
    const unsigned trips = evolution_.getSmallConstantTripCount(&loop);
    return trips == 0 || trips >= FewIterations;
  }

  static bool hasCut(const Loop &loop) {
    for (const BasicBlock *block : loop.blocks())
      for (const Instruction &instruction : *block)
        if (const auto *call = dyn_cast<CallInst>(&instruction))
          if (const Function *callee = call->getCalledFunction())
            if (lowering::cutScope(callee->getName()))
              return true;
    return false;
  }

  bool uniformExits(const Loop &loop) const {
    SmallVector<BasicBlock *, 4> exiting;
    loop.getExitingBlocks(exiting);
    return all_of(exiting, [&](const BasicBlock *block) {
      const Value *condition = chooser(*block);
      return !condition || isUniform(condition);
    });
  }

  /// Whether every work-item that runs the kernel reaches `target`: each branch it depends on (whose
  /// one way leads to it for sure and the other not) tests a uniform value, and is itself reached by
  /// every work-item.
  bool reachedByAll(BasicBlock &target) {
    SetVector<BasicBlock *> work;
    work.insert(&target);
    for (size_t i = 0; i < work.size(); ++i) {
      BasicBlock *reached = work[i];
      for (BasicBlock &block : function_) {
        if (postDominators_.dominates(reached, &block) || !postDominators_.getNode(&block))
          continue;
        const bool decides = any_of(successors(&block), [&](BasicBlock *next) {
          return postDominators_.dominates(reached, next);
        });
        if (!decides)
          continue;
        const Value *condition = chooser(block);
        if (condition && !isUniform(condition))
          return false;
        work.insert(&block);
      }
    }
    return true;
  }

  Function &function_;
  ArrayRef<const Argument *> perWorkItem_;
  DominatorTree dominators_;
  PostDominatorTree postDominators_;
  LoopInfo loops_;
  TargetLibraryInfoImpl libraryInfo_;
  TargetLibraryInfo library_;
  AssumptionCache assumptions_;
  ScalarEvolution evolution_;
  DenseSet<const Value *> uniform_;
};

} // namespace

unsigned addInnerLoopBarriers(Function &workItem, ArrayRef<const Argument *> perWorkItem) {
  const SmallVector<BasicBlock *, 4> headers = Finder(workItem, perWorkItem).headers();
  if (headers.empty())
    return 0;
  Module &module = *workItem.getParent();
  LLVMContext &context = module.getContext();
  FunctionCallee barrier = module.getOrInsertFunction(
      "_Z7barrierj", FunctionType::get(Type::getVoidTy(context), {Type::getInt32Ty(context)}, false));
  for (BasicBlock *header : headers) {
    IRBuilder<> b(&*header->getFirstInsertionPt());
    b.CreateCall(barrier, {b.getInt32(0)});
  }
  return headers.size();
}

} // namespace loom::runtime::cpu
