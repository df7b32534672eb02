//===- FullMaskFastPaths.cpp - Masked vector accesses with every lane on run plain ----===//
// SPDX-License-Identifier: Apache-2.0
#include "devices/cpu/FullMaskFastPaths.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace loom::runtime::cpu {

using namespace llvm;

namespace {

// Operand positions: llvm.masked.load(pointer, alignment, mask, passthru) and
// llvm.masked.store(value, pointer, alignment, mask).
void guard(IntrinsicInst &masked) {
  const bool isLoad = masked.getIntrinsicID() == Intrinsic::masked_load;
  Value *pointer = masked.getArgOperand(isLoad ? 0 : 1);
  const Align alignment(cast<ConstantInt>(masked.getArgOperand(isLoad ? 1 : 2))->getZExtValue());
  Value *mask = masked.getArgOperand(isLoad ? 2 : 3);

  IRBuilder<> builder(&masked);
  Value *everyLane = builder.CreateAndReduce(mask);
  Instruction *plainEnd = nullptr, *maskedEnd = nullptr;
  SplitBlockAndInsertIfThenElse(everyLane, &masked, &plainEnd, &maskedEnd);
  BasicBlock *tail = masked.getParent();
  masked.moveBefore(maskedEnd);

  builder.SetInsertPoint(plainEnd);
  Instruction *plain = isLoad ? static_cast<Instruction *>(
                                    builder.CreateAlignedLoad(masked.getType(), pointer, alignment))
                              : builder.CreateAlignedStore(masked.getArgOperand(0), pointer, alignment);
  plain->copyMetadata(masked, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope, LLVMContext::MD_noalias,
                               LLVMContext::MD_nontemporal});
  if (!isLoad)
    return;
  PHINode *joined = PHINode::Create(masked.getType(), 2, masked.getName(), &tail->front());
  masked.replaceAllUsesWith(joined);
  joined->addIncoming(plain, plainEnd->getParent());
  joined->addIncoming(&masked, maskedEnd->getParent());
}

} // namespace

unsigned addFullMaskFastPaths(Module &module, ArrayRef<std::string> symbols) {
  unsigned guarded = 0;
  for (const std::string &symbol : symbols) {
    Function *workGroup = module.getFunction(symbol);
    if (!workGroup || workGroup->isDeclaration())
      continue;
    SmallVector<IntrinsicInst *, 16> accesses;
    for (Instruction &inst : instructions(*workGroup))
      if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst);
          intrinsic && (intrinsic->getIntrinsicID() == Intrinsic::masked_load ||
                        intrinsic->getIntrinsicID() == Intrinsic::masked_store))
        accesses.push_back(intrinsic);
    for (IntrinsicInst *access : accesses)
      guard(*access);
    guarded += accesses.size();
  }
  return guarded;
}

} // namespace loom::runtime::cpu
