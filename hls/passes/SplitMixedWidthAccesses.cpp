//===- SplitMixedWidthAccesses.cpp - one element size per on-chip array ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: an on-chip array read or written in elements of different sizes: a union of a wide word
// and its bytes (`union { ulong16 b; uchar a[64]; }`), a `short` buffer refilled through a `char`
// pointer. After: each access wider than the array's narrowest one moves as that many narrow pieces
// at consecutive offsets, in the data layout's byte order: a load reads them and joins them into
// its value, a store cuts its value into them. An on-chip memory has one element width (a RAM's
// word); a wide access of it would need several words in one cycle. Atomic accesses are left whole
// (build-dataflow then names the array). Runs on the IR, after widenBoolMemory, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "loom/lowering/ArrayOffsets.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::hls {
namespace {

using namespace llvm;

/// A value a load or store can move as an integer of its size: no padding bits (an i1, a
/// <3 x float>), nothing aggregate.
bool movesAsInteger(Type *type, const DataLayout &layout) {
  Type *scalar = type->getScalarType();
  if (!(scalar->isIntegerTy() || scalar->isFloatingPointTy() || (scalar->isPointerTy() && !type->isVectorTy())))
    return false;
  return layout.getTypeSizeInBits(type) == layout.getTypeStoreSizeInBits(type);
}

void split(Instruction &access, uint64_t pieceBytes, const DataLayout &layout) {
  Value *pointer = getLoadStorePointerOperand(&access);
  Type *valueType = getLoadStoreType(&access);
  const uint64_t bytes = layout.getTypeStoreSize(valueType);
  const Align align = getLoadStoreAlignment(&access);
  IRBuilder<> b(&access);
  Type *piece = b.getIntNTy(unsigned(pieceBytes * 8)), *whole = b.getIntNTy(unsigned(bytes * 8));
  Type *piecePointer = piece->getPointerTo(pointer->getType()->getPointerAddressSpace());
  const uint64_t pieces = bytes / pieceBytes;
  // Piece `index` is at byte offset index * pieceBytes; its bits sit where the byte order puts them.
  auto pointerTo = [&](uint64_t index) {
    return lowering::pointerAtOffset(b, pointer, b.getInt64(index * pieceBytes), piecePointer);
  };
  auto shiftOf = [&](uint64_t index) {
    return 8 * pieceBytes * (layout.isLittleEndian() ? index : pieces - 1 - index);
  };
  if (auto *load = dyn_cast<LoadInst>(&access)) {
    Value *joined = ConstantInt::get(whole, 0);
    for (uint64_t index = 0; index < pieces; ++index) {
      LoadInst *read = b.CreateAlignedLoad(piece, pointerTo(index), commonAlignment(align, index * pieceBytes),
                                           load->isVolatile(), load->getName() + ".piece");
      read->copyMetadata(*load);
      joined = b.CreateOr(joined, b.CreateShl(b.CreateZExt(read, whole), shiftOf(index)));
    }
    load->replaceAllUsesWith(b.CreateBitOrPointerCast(joined, valueType, load->getName()));
  } else {
    auto &store = cast<StoreInst>(access);
    Value *value = b.CreateBitOrPointerCast(store.getValueOperand(), whole);
    for (uint64_t index = 0; index < pieces; ++index)
      b.CreateAlignedStore(b.CreateTrunc(b.CreateLShr(value, shiftOf(index)), piece), pointerTo(index),
                           commonAlignment(align, index * pieceBytes), store.isVolatile())
          ->copyMetadata(store);
  }
  access.eraseFromParent();
}

} // namespace

void splitMixedWidthAccesses(Function &kernel) {
  const DataLayout &layout = kernel.getParent()->getDataLayout();
  struct Access {
    Instruction *inst;
    Type *type;
  };
  struct ArrayAccesses {
    SmallVector<Access, 8> accesses;
    uint64_t narrowest = ~uint64_t(0);
  };
  MapVector<const Value *, ArrayAccesses> arrays;
  for (Instruction &inst : instructions(kernel)) {
    Value *pointer = getLoadStorePointerOperand(&inst);
    Type *type = nullptr;
    if (pointer)
      type = getLoadStoreType(&inst);
    else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
      pointer = rmw->getPointerOperand(), type = rmw->getType();
    else if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&inst))
      pointer = exchange->getPointerOperand(), type = exchange->getNewValOperand()->getType();
    else
      continue;
    const Value *array = getUnderlyingObject(pointer, /*MaxLookup=*/0);
    if (!isOnChipArray(array))
      continue;
    ArrayAccesses &found = arrays[array];
    found.narrowest = std::min<uint64_t>(found.narrowest, layout.getTypeStoreSize(type));
    found.accesses.push_back({&inst, type});
  }
  for (auto &[array, found] : arrays) {
    SmallVector<Instruction *, 8> wide;
    bool splittable = true;
    for (const auto &[access, type] : found.accesses) {
      const uint64_t bytes = layout.getTypeStoreSize(type);
      if (bytes == found.narrowest)
        continue;
      // An atomic access of the array must be one element; so must a value that is not bits alone.
      if (!getLoadStorePointerOperand(access) || !movesAsInteger(type, layout) || bytes % found.narrowest)
        splittable = false;
      wide.push_back(access);
    }
    if (!splittable)
      continue; // build-dataflow names the array and its two sizes
    for (Instruction *access : wide)
      split(*access, found.narrowest, layout);
  }
}

} // namespace loom::hls
