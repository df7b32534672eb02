//===- GuardDivisions.cpp - Integer divisions that cannot trap on the host ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "devices/cpu/GuardDivisions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

/// A constant divisor no lane of which is 0, nor -1 for a signed division.
bool isSafeConstant(const Value &divisor, bool isSigned) {
  const auto *constant = dyn_cast<Constant>(&divisor);
  if (!constant)
    return false;
  auto safeLane = [&](const Constant *lane) {
    const auto *value = dyn_cast_or_null<ConstantInt>(lane);
    return value && !value->isZero() && !(isSigned && value->isMinusOne());
  };
  if (auto *vector = dyn_cast<FixedVectorType>(constant->getType())) {
    for (unsigned i = 0; i < vector->getNumElements(); ++i)
      if (!safeLane(constant->getAggregateElement(i)))
        return false;
    return true;
  }
  return safeLane(constant);
}

} // namespace

unsigned guardIntegerDivisions(Module &module) {
  SmallVector<BinaryOperator *, 32> divisions;
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *division = dyn_cast<BinaryOperator>(&instruction))
        switch (division->getOpcode()) {
        case Instruction::SDiv:
        case Instruction::SRem:
        case Instruction::UDiv:
        case Instruction::URem:
          divisions.push_back(division);
          break;
        default:
          break;
        }
  unsigned guarded = 0;
  for (BinaryOperator *division : divisions) {
    const bool isSigned =
        division->getOpcode() == Instruction::SDiv || division->getOpcode() == Instruction::SRem;
    Value *dividend = division->getOperand(0), *divisor = division->getOperand(1);
    if (isSafeConstant(*divisor, isSigned))
      continue;
    IRBuilder<> b(division);
    Type *type = divisor->getType();
    Value *traps = b.CreateICmpEQ(divisor, Constant::getNullValue(type), "divisor.zero");
    if (isSigned) {
      const unsigned bits = type->getScalarSizeInBits();
      Value *overflows = b.CreateAnd(b.CreateICmpEQ(dividend, ConstantInt::get(type, APInt::getSignedMinValue(bits))),
                                     b.CreateICmpEQ(divisor, Constant::getAllOnesValue(type)), "division.overflow");
      traps = b.CreateOr(traps, overflows);
    }
    division->setOperand(1, b.CreateSelect(traps, ConstantInt::get(type, 1), divisor, "divisor.safe"));
    ++guarded;
  }
  return guarded;
}

} // namespace loom::runtime::cpu
