//===- WidenBoolMemory.cpp - bool loads and stores as bytes ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel that loads or stores an i1 (or another integer narrower than a byte): a `bool`
// live across a barrier, which formWorkGroupLoops keeps per work-item in an alloca of its own type,
// or a flag that LLVM's passes left in memory as i1. After: each such access moves the byte that
// holds it (the store size of an i1 is a byte): a store writes the value zero-extended, a load reads
// the byte and truncates it. Memories and ports move whole bytes; nothing else changes. Runs on the
// IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::hls {
namespace {

using namespace llvm;

bool narrowerThanByte(Type *type) { return type->isIntegerTy() && type->getIntegerBitWidth() < 8; }

Value *asBytePointer(IRBuilder<> &b, Value *pointer) {
  return b.CreateBitCast(pointer, b.getInt8PtrTy(pointer->getType()->getPointerAddressSpace()));
}

} // namespace

void widenBoolMemory(Function &kernel) {
  SmallVector<Instruction *, 8> accesses;
  for (Instruction &inst : instructions(kernel))
    if ((isa<LoadInst>(inst) && narrowerThanByte(inst.getType())) ||
        (isa<StoreInst>(inst) && narrowerThanByte(cast<StoreInst>(inst).getValueOperand()->getType())))
      accesses.push_back(&inst);
  for (Instruction *inst : accesses) {
    IRBuilder<> b(inst);
    if (auto *load = dyn_cast<LoadInst>(inst)) {
      LoadInst *byte = b.CreateAlignedLoad(b.getInt8Ty(), asBytePointer(b, load->getPointerOperand()),
                                           load->getAlign(), load->isVolatile(), load->getName() + ".byte");
      byte->copyMetadata(*load);
      load->replaceAllUsesWith(b.CreateTrunc(byte, load->getType()));
    } else {
      auto *store = cast<StoreInst>(inst);
      StoreInst *byte = b.CreateAlignedStore(b.CreateZExt(store->getValueOperand(), b.getInt8Ty()),
                                             asBytePointer(b, store->getPointerOperand()), store->getAlign(),
                                             store->isVolatile());
      byte->copyMetadata(*store);
    }
    inst->eraseFromParent();
  }
}

} // namespace loom::hls
