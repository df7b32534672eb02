//===- Collectives.cpp - What a work-group or sub-group function computes --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/lowering/Collectives.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"

namespace loom::lowering {

using namespace llvm;
using Kind = Collective::Kind;
using Operation = Collective::Operation;
using Element = Collective::Element;

namespace {
bool foldsTruth(const Collective &collective) {
  return collective.kind == Kind::All || collective.kind == Kind::Any;
}
} // namespace

Type *collectiveAccumulatorType(const Collective &collective, Type *operandType) {
  return foldsTruth(collective) ? Type::getInt1Ty(operandType->getContext()) : operandType;
}

Value *collectiveIdentity(const Collective &collective, Type *type) {
  if (collective.kind == Kind::All)
    return ConstantInt::getTrue(type->getContext());
  if (collective.kind == Kind::Any)
    return ConstantInt::getFalse(type->getContext());
  if (collective.operation != Operation::Min && collective.operation != Operation::Max)
    return Constant::getNullValue(type); // add's
  // min starts from the largest value, max from the smallest.
  const bool largest = collective.operation == Operation::Min;
  if (collective.element == Element::Float)
    return ConstantFP::getInfinity(type, /*Negative=*/!largest);
  const unsigned bits = type->getIntegerBitWidth();
  if (collective.element == Element::Signed)
    return ConstantInt::get(type, largest ? APInt::getSignedMaxValue(bits) : APInt::getSignedMinValue(bits));
  return ConstantInt::get(type, largest ? APInt::getMaxValue(bits) : APInt::getMinValue(bits));
}

Value *emitCollectiveCombine(IRBuilder<> &b, const Collective &collective, Value *accumulated, Value *operand) {
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

Value *emitCollectiveResult(IRBuilder<> &b, const Collective &collective, Value *accumulated, Type *resultType) {
  return foldsTruth(collective) ? b.CreateZExt(accumulated, resultType) : accumulated;
}

} // namespace loom::lowering
