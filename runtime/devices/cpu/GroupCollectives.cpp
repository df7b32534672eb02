//===- GroupCollectives.cpp - Work-group functions between two regions -----===//
// SPDX-License-Identifier: Apache-2.0
//
// One or two plain loops over the group's work-items: a reduction, all and any combine every operand
// then give the total to everyone; a scan stores the running value as it goes (before the operand for
// exclusive, after it for inclusive); a broadcast reads the source work-item's operand. Float sums are
// taken in local linear id order (the spec leaves the order open). The identities are the spec's:
// 0 for add, the type's largest value (+inf) for min, its smallest (-inf) for max.
//===----------------------------------------------------------------------===//
#include "devices/cpu/GroupCollectives.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"

#include <functional>

namespace loom::runtime::cpu {
namespace {

using namespace llvm;
using Kind = lowering::Collective::Kind;
using Operation = lowering::Collective::Operation;
using Element = lowering::Collective::Element;

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

Value *identity(const GroupCollective &collective) {
  Type *type = collective.operand.type;
  if (collective.kind == Kind::All)
    return ConstantInt::getTrue(type->getContext());
  if (collective.kind == Kind::Any)
    return ConstantInt::getFalse(type->getContext());
  const bool isFloat = collective.element == Element::Float;
  switch (collective.operation) {
  case Operation::Min:
    if (isFloat)
      return ConstantFP::getInfinity(type, /*Negative=*/false);
    return ConstantInt::get(type, collective.element == Element::Signed
                                      ? APInt::getSignedMaxValue(type->getIntegerBitWidth())
                                      : APInt::getMaxValue(type->getIntegerBitWidth()));
  case Operation::Max:
    if (isFloat)
      return ConstantFP::getInfinity(type, /*Negative=*/true);
    return ConstantInt::get(type, collective.element == Element::Signed
                                      ? APInt::getSignedMinValue(type->getIntegerBitWidth())
                                      : APInt::getMinValue(type->getIntegerBitWidth()));
  default:
    return Constant::getNullValue(type);
  }
}

Value *combine(IRBuilder<> &b, const GroupCollective &collective, Value *accumulated, Value *operand) {
  switch (collective.kind) {
  case Kind::All:
    return b.CreateAnd(accumulated, b.CreateIsNotNull(operand));
  case Kind::Any:
    return b.CreateOr(accumulated, b.CreateIsNotNull(operand));
  default:
    break;
  }
  const Element element = collective.element;
  switch (collective.operation) {
  case Operation::Add:
    return element == Element::Float ? b.CreateFAdd(accumulated, operand) : b.CreateAdd(accumulated, operand);
  case Operation::Min:
    return b.CreateBinaryIntrinsic(element == Element::Float    ? Intrinsic::minnum
                                   : element == Element::Signed ? Intrinsic::smin
                                                                : Intrinsic::umin,
                                   accumulated, operand);
  case Operation::Max:
    return b.CreateBinaryIntrinsic(element == Element::Float    ? Intrinsic::maxnum
                                   : element == Element::Signed ? Intrinsic::smax
                                                                : Intrinsic::umax,
                                   accumulated, operand);
  case Operation::None:
    break;
  }
  llvm_unreachable("a reduction or scan without an operation");
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

  switch (collective.kind) {
  case Kind::Broadcast: {
    // Every work-item passed the same local id; the first one's copy says which.
    Value *zero = b.getInt64(0);
    Value *ids[3] = {zero, zero, zero};
    for (unsigned d = 0; d < collective.source.size(); ++d)
      ids[d] = b.CreateZExtOrTrunc(
          b.CreateLoad(collective.source[d].type, slotAddress(b, context, groupItems, collective.source[d], first)),
          b.getInt64Ty());
    Value *linear = collective.scope == lowering::Scope::SubGroup
                        ? b.CreateAdd(first, ids[0])
                        : b.CreateAdd(ids[0], b.CreateMul(localSizes[0], b.CreateAdd(ids[1], b.CreateMul(localSizes[1], ids[2]))));
    giveEveryone(operandOf(linear));
    return;
  }
  case Kind::All:
  case Kind::Any:
  case Kind::Reduce: {
    Value *total = forEachItem(identity(collective), [&](Value *item, Value *accumulated) {
      return combine(b, collective, accumulated, operandOf(item));
    });
    if (collective.kind != Kind::Reduce)
      total = b.CreateZExt(total, collective.result.type);
    giveEveryone(total);
    return;
  }
  case Kind::ScanInclusive:
  case Kind::ScanExclusive:
    forEachItem(identity(collective), [&](Value *item, Value *accumulated) {
      Value *next = combine(b, collective, accumulated, operandOf(item));
      storeResult(collective.kind == Kind::ScanInclusive ? next : accumulated, item);
      return next;
    });
    return;
  }
}

} // namespace loom::runtime::cpu
