//===- ExpandConstantDivisions.cpp - x / 130 as a multiply by a magic number ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: an integer division or remainder by a constant is a loom_idiv, a subtract and select
// per quotient bit (at 32 bits: 34 cycles, 2,150 LUTs). After: as CPU compilers do, a division by
// 2^k is a shift (with a rounding bias for a signed dividend), any other one the high half of the
// product with LLVM's magic number (Hacker's Delight, chapter 10) and a shift; a remainder is the
// dividend less the quotient times the constant, which DecomposeConstantMultiplies turns into
// adders when the constant has few digits. The work is done as narrow as the dividend's known bits
// and the constant allow, and only where the product fits 64 bits (the graph's widest value): a
// 64-bit dividend of unknown range keeps its divider. Index arithmetic such as `p / W`, `p % W`
// of a row width is the common case.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/DivisionByConstantInfo.h"
#include "llvm/Support/KnownBits.h"

namespace loom::hls {
namespace {

/// The high `width` bits of the `2 * width`-bit product of `x` and `magic`, both `width` bits. The
/// product is always unsigned, of zero-extended factors (a multiplier of `width`-bit pieces); a
/// signed one is that less `magic` when `x` is negative and less `x` when `magic` is.
llvm::Value *multiplyHigh(llvm::IRBuilder<> &b, llvm::Value *x, const llvm::APInt &magic, bool isSigned) {
  const unsigned width = magic.getBitWidth();
  llvm::Type *wide = b.getIntNTy(2 * width);
  llvm::Value *product = b.CreateMul(b.CreateZExt(x, wide), b.getInt(magic.zext(2 * width)));
  llvm::Value *high = b.CreateTrunc(b.CreateLShr(product, width), x->getType());
  if (!isSigned)
    return high;
  llvm::Value *negative = b.CreateICmpSLT(x, b.getIntN(width, 0));
  high = b.CreateSub(high, b.CreateSelect(negative, b.getInt(magic), b.getIntN(width, 0)));
  return magic.isNegative() ? b.CreateSub(high, x) : high;
}

/// `x / divisor` unsigned, at `divisor`'s width, for a dividend of at least `leadingZeros` known
/// leading zero bits (LLVM's TargetLowering::BuildUDIV).
llvm::Value *unsignedQuotient(llvm::IRBuilder<> &b, llvm::Value *x, const llvm::APInt &divisor,
                              unsigned leadingZeros) {
  if (divisor.isPowerOf2())
    return b.CreateLShr(x, divisor.logBase2());
  auto magic = llvm::UnsignedDivisionByConstantInfo::get(divisor, leadingZeros);
  unsigned preShift = 0;
  // An even divisor's magic that needs the add-back fixup does without it once the dividend and
  // the divisor are shifted right by the divisor's trailing zeros.
  if (magic.IsAdd && !divisor[0]) {
    preShift = divisor.countTrailingZeros();
    magic = llvm::UnsignedDivisionByConstantInfo::get(divisor.lshr(preShift), leadingZeros + preShift);
  }
  llvm::Value *q = multiplyHigh(b, preShift ? b.CreateLShr(x, preShift) : x, magic.Magic, false);
  if (!magic.IsAdd)
    return b.CreateLShr(q, magic.ShiftAmount);
  llvm::Value *halfGap = b.CreateLShr(b.CreateSub(x, q), 1);
  return b.CreateLShr(b.CreateAdd(halfGap, q), magic.ShiftAmount - 1);
}

/// `x / divisor` signed, rounding toward zero, at `divisor`'s width (LLVM's BuildSDIV and
/// BuildSDIVPow2).
llvm::Value *signedQuotient(llvm::IRBuilder<> &b, llvm::Value *x, const llvm::APInt &divisor) {
  const unsigned width = divisor.getBitWidth();
  const llvm::APInt magnitude = divisor.abs();
  if (magnitude.isPowerOf2()) {
    const unsigned k = magnitude.logBase2();
    llvm::Value *q = x;
    if (k) {
      // A negative dividend rounds toward zero: add 2^k - 1 before the arithmetic shift.
      llvm::Value *bias = b.CreateLShr(b.CreateAShr(x, width - 1), width - k);
      q = b.CreateAShr(b.CreateAdd(x, bias), k);
    }
    return divisor.isNegative() ? b.CreateNeg(q) : q;
  }
  const auto magic = llvm::SignedDivisionByConstantInfo::get(divisor);
  llvm::Value *q = multiplyHigh(b, x, magic.Magic, true);
  if (divisor.isStrictlyPositive() && magic.Magic.isNegative())
    q = b.CreateAdd(q, x);
  else if (divisor.isNegative() && magic.Magic.isStrictlyPositive())
    q = b.CreateSub(q, x);
  q = b.CreateAShr(q, magic.ShiftAmount);
  // Toward zero: a negative quotient so far is one too small.
  return b.CreateAdd(q, b.CreateLShr(q, width - 1));
}

/// Expands `division` when its divisor is a constant and its product fits; true if it did.
bool expand(llvm::BinaryOperator &division, const llvm::DataLayout &layout) {
  const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(division.getOperand(1));
  if (!constant || constant->isZero() || !division.getType()->isIntegerTy())
    return false;
  const auto opcode = division.getOpcode();
  const bool isSigned = opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
  const bool isRemainder = opcode == llvm::Instruction::URem || opcode == llvm::Instruction::SRem;
  llvm::Value *dividend = division.getOperand(0);
  const llvm::APInt &divisor = constant->getValue();
  const unsigned fullWidth = divisor.getBitWidth();
  // Shifts cost nothing at any width; a multiply is as narrow as the dividend's known range and the
  // divisor allow.
  const bool powerOfTwo = isSigned ? divisor.abs().isPowerOf2() : divisor.isPowerOf2();
  unsigned width = fullWidth, leadingZeros = 0;
  if (!powerOfTwo) {
    if (isSigned) {
      const unsigned signBits = llvm::ComputeNumSignBits(dividend, layout);
      width = std::max(fullWidth - signBits + 1, divisor.getMinSignedBits());
    } else {
      const unsigned significant = fullWidth - llvm::computeKnownBits(dividend, layout).countMinLeadingZeros();
      width = std::max(significant, divisor.getActiveBits());
      leadingZeros = width - significant;
    }
    width = std::max(width, 2u);
    if (2 * width > 64)
      return false;
  }
  llvm::IRBuilder<> b(&division);
  llvm::Value *x = b.CreateIntCast(dividend, b.getIntNTy(width), isSigned);
  const llvm::APInt d = divisor.zextOrTrunc(width);
  llvm::Value *result = isSigned ? signedQuotient(b, x, d) : unsignedQuotient(b, x, d, leadingZeros);
  if (isRemainder)
    result = b.CreateSub(x, b.CreateMul(result, b.getInt(d)));
  result = b.CreateIntCast(result, division.getType(), isSigned);
  result->takeName(&division);
  division.replaceAllUsesWith(result);
  division.eraseFromParent();
  return true;
}

} // namespace

void expandConstantDivisions(llvm::Function &kernel) {
  std::vector<llvm::BinaryOperator *> divisions;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst))
      if (op->getOpcode() == llvm::Instruction::UDiv || op->getOpcode() == llvm::Instruction::SDiv ||
          op->getOpcode() == llvm::Instruction::URem || op->getOpcode() == llvm::Instruction::SRem)
        divisions.push_back(op);
  for (llvm::BinaryOperator *division : divisions)
    expand(*division, kernel.getParent()->getDataLayout());
}

} // namespace loom::hls
