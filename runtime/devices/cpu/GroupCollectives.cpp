//===- GroupCollectives.cpp - Work-group functions between two regions -----===//
// SPDX-License-Identifier: Apache-2.0
//
// One or two plain loops over the group's work-items: a reduction, all and any combine every operand
// then give the total to everyone; a scan stores the running value as it goes (before the operand for
// exclusive, after it for inclusive); a broadcast reads the source work-item's operand. The folding
// itself is the shared lowering's (loom/lowering/Collectives.h).
//===----------------------------------------------------------------------===//
#include "devices/cpu/GroupCollectives.h"

#include "loom/lowering/Collectives.h"

#include <functional>

namespace loom::runtime::cpu {
namespace {

using namespace llvm;
using Kind = lowering::Collective::Kind;

Value *slotAddress(IRBuilder<> &b, Value *context, Value *groupItems, const ContextSlot &slot, Value *item) {
  Value *byte = b.CreateAdd(b.CreateMul(groupItems, b.getInt64(slot.offset)), b.CreateMul(item, b.getInt64(slot.bytes)));
  return b.CreateBitCast(b.CreateInBoundsGEP(b.getInt8Ty(), context, byte), slot.type->getPointerTo());
}

/// for (i = 0; i < count; ++i) carried = body(i, carried); returns the final carried value. Without
/// an initial value nothing is carried (body gets and returns null).
Value *emitLoop(IRBuilder<> &b, Value *count, Value *initial, const std::function<Value *(Value *, Value *)> &body) {
  LLVMContext &context = b.getContext();
  Function *function = b.GetInsertBlock()->getParent();
  BasicBlock *before = b.GetInsertBlock();
  auto *loop = BasicBlock::Create(context, "collective.loop", function);
  auto *done = BasicBlock::Create(context, "collective.done", function);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *index = b.CreatePHI(b.getInt64Ty(), 2, "i");
  PHINode *carried = initial ? b.CreatePHI(initial->getType(), 2, "carried") : nullptr;
  index->addIncoming(b.getInt64(0), before);
  if (carried)
    carried->addIncoming(initial, before);
  Value *next = body(index, carried);
  Value *indexNext = b.CreateAdd(index, b.getInt64(1), "i.next", /*HasNUW=*/true);
  index->addIncoming(indexNext, b.GetInsertBlock());
  if (carried)
    carried->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(indexNext, count), loop, done); // A group has at least one work-item.
  b.SetInsertPoint(done);
  return next;
}

} // namespace

void emitGroupCollective(IRBuilder<> &b, const GroupCollective &collective, Value *context,
                         ArrayRef<Value *> localSizes, Value *first, Value *count) {
  Value *groupItems = b.CreateMul(b.CreateMul(localSizes[0], localSizes[1]), localSizes[2]);
  auto operandOf = [&](Value *item) {
    return b.CreateLoad(collective.operand.type, slotAddress(b, context, groupItems, collective.operand, item));
  };
  auto storeResult = [&](Value *value, Value *item) {
    b.CreateStore(value, slotAddress(b, context, groupItems, collective.result, item));
  };
  // for each work-item of the scope, in order: carried = body(its local linear id, carried).
  auto forEachItem = [&](Value *initial, const std::function<Value *(Value *, Value *)> &body) {
    return emitLoop(b, count, initial, [&](Value *index, Value *carried) { return body(b.CreateAdd(first, index), carried); });
  };
  auto giveEveryone = [&](Value *value) {
    forEachItem(nullptr, [&](Value *item, Value *) -> Value * {
      storeResult(value, item);
      return nullptr;
    });
  };

  const lowering::Collective &form = collective.form;
  Type *operandType = collective.operand.type;
  switch (form.kind) {
  case Kind::Broadcast: {
    // Every work-item passed the same local id; the first one's copy says which.
    Value *zero = b.getInt64(0);
    Value *ids[3] = {zero, zero, zero};
    for (unsigned d = 0; d < collective.source.size(); ++d)
      ids[d] = b.CreateZExtOrTrunc(
          b.CreateLoad(collective.source[d].type, slotAddress(b, context, groupItems, collective.source[d], first)),
          b.getInt64Ty());
    Value *linear = form.scope == lowering::Scope::SubGroup
                        ? b.CreateAdd(first, ids[0])
                        : b.CreateAdd(ids[0], b.CreateMul(localSizes[0], b.CreateAdd(ids[1], b.CreateMul(localSizes[1], ids[2]))));
    giveEveryone(operandOf(linear));
    return;
  }
  case Kind::All:
  case Kind::Any:
  case Kind::Reduce: {
    Value *total = forEachItem(lowering::collectiveIdentity(form, operandType), [&](Value *item, Value *accumulated) {
      return lowering::emitCollectiveCombine(b, form, accumulated, operandOf(item));
    });
    giveEveryone(lowering::emitCollectiveResult(b, form, total, collective.result.type));
    return;
  }
  case Kind::ScanInclusive:
  case Kind::ScanExclusive:
    forEachItem(lowering::collectiveIdentity(form, operandType), [&](Value *item, Value *accumulated) {
      Value *next = lowering::emitCollectiveCombine(b, form, accumulated, operandOf(item));
      storeResult(form.kind == Kind::ScanInclusive ? next : accumulated, item);
      return next;
    });
    return;
  }
}

} // namespace loom::runtime::cpu
