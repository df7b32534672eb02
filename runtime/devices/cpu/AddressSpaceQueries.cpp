//===- AddressSpaceQueries.cpp - to_global, to_local, to_private on the CPU ===//
// SPDX-License-Identifier: Apache-2.0
// See AddressSpaceQueries.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/AddressSpaceQueries.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/lowering/AddressSpaceQueries.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace loom::runtime::cpu {

bool isAddressSpaceQuery(StringRef symbol) {
  return symbol == lowering::ToGlobalFunction || symbol == lowering::ToLocalFunction ||
         symbol == lowering::ToPrivateFunction;
}

void answerAddressSpaceQueries(Function &workItem, Value *scratch, Value *info) {
  std::vector<CallInst *> calls;
  for (Instruction &inst : instructions(workItem))
    if (auto *call = dyn_cast<CallInst>(&inst);
        call && call->getCalledFunction() && isAddressSpaceQuery(call->getCalledFunction()->getName()))
      calls.push_back(call);
  for (CallInst *call : calls) {
    IRBuilder<> b(call);
    Type *i64 = b.getInt64Ty();
    Value *pointer = call->getArgOperand(0);
    Value *address = b.CreatePtrToInt(pointer, i64);
    Value *words = b.CreateBitCast(info, i64->getPointerTo());
    auto infoAt = [&](unsigned index) { return b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, words, index)); };
    auto within = [&](Value *start, Value *end) {
      return b.CreateAnd(b.CreateICmpUGE(address, start), b.CreateICmpULT(address, end));
    };
    Value *scratchStart = b.CreatePtrToInt(scratch, i64);
    Value *isLocal = within(scratchStart, b.CreateAdd(scratchStart, infoAt(WorkGroupInfo::LocalBytes)));
    Value *isPrivate =
        b.CreateOr(within(infoAt(WorkGroupInfo::StackBounds), infoAt(WorkGroupInfo::StackBounds + 1)),
                   within(infoAt(WorkGroupInfo::ContextBounds), infoAt(WorkGroupInfo::ContextBounds + 1)));
    const StringRef name = call->getCalledFunction()->getName();
    Value *is = name == lowering::ToLocalFunction     ? isLocal
                : name == lowering::ToPrivateFunction ? isPrivate
                                                      : b.CreateNot(b.CreateOr(isLocal, isPrivate));
    auto *type = cast<PointerType>(call->getType());
    call->replaceAllUsesWith(
        b.CreateSelect(is, b.CreatePointerBitCastOrAddrSpaceCast(pointer, type), ConstantPointerNull::get(type)));
    call->eraseFromParent();
  }
}

} // namespace loom::runtime::cpu
