//===- AddressSpaceQueries.cpp - to_global, to_local, to_private on the CPU ===//
// SPDX-License-Identifier: Apache-2.0
// See AddressSpaceQueries.h.
//===----------------------------------------------------------------------===//
#include "devices/cpu/AddressSpaceQueries.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/lowering/AddressSpaceQueries.h"

#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace loom::runtime::cpu {

void answerAddressSpaceQueries(Function &workItem, Value *scratch, Value *info) {
  for (auto [call, query] : lowering::addressSpaceQueries(workItem)) {
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
    Value *is = query == lowering::AddressSpaceQuery::Local     ? isLocal
                : query == lowering::AddressSpaceQuery::Private ? isPrivate
                                                                : b.CreateNot(b.CreateOr(isLocal, isPrivate));
    auto *type = cast<PointerType>(call->getType());
    call->replaceAllUsesWith(
        b.CreateSelect(is, b.CreatePointerBitCastOrAddrSpaceCast(pointer, type), ConstantPointerNull::get(type)));
    call->eraseFromParent();
  }
}

} // namespace loom::runtime::cpu
