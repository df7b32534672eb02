//===- ArrayOffsets.h - a pointer rebuilt from its array and byte offset -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A pointer that must name its array (for hardware, where each on-chip array is a memory of its
// own) is kept as a byte offset and rebuilt from the array where it is used: after a barrier
// (BarrierRegions.cpp) and after a choice between arrays (hls/passes/SplitArrayChoices.cpp).
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/IRBuilder.h"

namespace loom::lowering {

/// `array` plus `offset` bytes, as a pointer of `pointerType`, built at `b`.
inline llvm::Value *pointerAtOffset(llvm::IRBuilder<> &b, llvm::Value *array, llvm::Value *offset,
                                    llvm::Type *pointerType, const llvm::Twine &name = "") {
  llvm::Value *bytes =
      b.CreatePointerBitCastOrAddrSpaceCast(array, b.getInt8PtrTy(array->getType()->getPointerAddressSpace()));
  return b.CreatePointerBitCastOrAddrSpaceCast(b.CreateGEP(b.getInt8Ty(), bytes, offset), pointerType, name);
}

} // namespace loom::lowering
