//===- ExpandMemoryIntrinsics.cpp - memset and memcpy to element loops ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may call llvm.memset (`int bins[64] = {0};`) or llvm.memcpy (a
// private array initialised from a constant table, a struct copied whole). After: each such call is
// a loop of loads and stores of the destination array's element type (int, float, ...: one element
// per iteration, so an on-chip array keeps one element size), or of bytes when the length is not a
// whole number of elements. The dataflow builder pipelines these loops like the user's own. Runs on
// the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::hls {
namespace {

/// The scalar every field of `type` is made of (through arrays, vectors and structs), or, when its
/// fields differ but share one size and leave no padding (a struct of ints and floats), an integer
/// of that size; null otherwise.
llvm::Type *commonScalarOf(llvm::Type *type, const llvm::DataLayout &layout) {
  if (type->isIntegerTy() || type->isFloatTy())
    return type;
  if (type->isArrayTy())
    return commonScalarOf(type->getArrayElementType(), layout);
  if (type->isVectorTy())
    return commonScalarOf(llvm::cast<llvm::VectorType>(type)->getElementType(), layout);
  auto *record = llvm::dyn_cast<llvm::StructType>(type);
  if (!record || record->getNumElements() == 0)
    return nullptr;
  llvm::Type *common = nullptr;
  uint64_t fieldBytes = 0;
  for (llvm::Type *field : record->elements()) {
    llvm::Type *scalar = commonScalarOf(field, layout);
    if (!scalar || (common && layout.getTypeStoreSize(scalar) != layout.getTypeStoreSize(common)))
      return nullptr;
    if (common && scalar != common)
      scalar = llvm::IntegerType::get(type->getContext(), 8 * layout.getTypeStoreSize(scalar));
    common = scalar;
    fieldBytes += layout.getTypeAllocSize(field);
  }
  return fieldBytes == layout.getTypeAllocSize(record) ? common : nullptr;
}

/// The scalar type the array behind `pointer` is made of (arrays, vectors and structs of it,
/// nested), or null when it has none.
llvm::Type *elementTypeOf(const llvm::Value *pointer, const llvm::DataLayout &layout) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(object))
    return commonScalarOf(alloca->getAllocatedType(), layout);
  if (const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(object))
    return commonScalarOf(global->getValueType(), layout);
  return nullptr;
}

/// `byte` repeated to fill `element`; null when `byte` is not a constant and `element` is wider.
llvm::Value *splat(llvm::IRBuilder<> &builder, llvm::Value *byte, llvm::Type *element) {
  const unsigned bits = element->getPrimitiveSizeInBits();
  if (bits == 8)
    return byte;
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(byte);
  if (!constant)
    return nullptr;
  llvm::Constant *value = builder.getInt(llvm::APInt::getSplat(bits, constant->getValue()));
  return element->isFloatTy() ? llvm::ConstantExpr::getBitCast(value, element) : value;
}

void expand(llvm::MemIntrinsic &call) {
  const llvm::DataLayout &layout = call.getModule()->getDataLayout();
  llvm::LLVMContext &context = call.getContext();
  llvm::IRBuilder<> builder(&call);
  auto *memset = llvm::dyn_cast<llvm::MemSetInst>(&call);
  auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(&call);
  // The on-chip side decides: a private or __local array's element, else the other side's.
  llvm::Type *element = elementTypeOf(call.getRawDest(), layout);
  if (!element && transfer)
    element = elementTypeOf(transfer->getRawSource(), layout);
  // A whole number of elements, also when the length is computed (LoopIdiomRecognize makes m * 4).
  const bool wholeElements =
      element && llvm::computeKnownBits(call.getLength(), layout).countMinTrailingZeros() >=
                     llvm::Log2_64(layout.getTypeStoreSize(element));
  llvm::Value *stored = wholeElements && memset ? splat(builder, memset->getValue(), element) : nullptr;
  if (!wholeElements || !llvm::isPowerOf2_64(layout.getTypeStoreSize(element)) || (memset && !stored)) {
    element = builder.getInt8Ty();
    stored = memset ? memset->getValue() : nullptr;
  }
  const uint64_t elementBytes = layout.getTypeStoreSize(element);
  llvm::Value *count = builder.CreateUDiv(builder.CreateZExtOrTrunc(call.getLength(), builder.getInt64Ty()),
                                          builder.getInt64(elementBytes));
  auto pointerTo = [&](llvm::Value *pointer) {
    return builder.CreateBitCast(pointer, element->getPointerTo(pointer->getType()->getPointerAddressSpace()));
  };
  llvm::Value *destination = pointerTo(call.getRawDest());
  llvm::Value *source = transfer ? pointerTo(transfer->getRawSource()) : nullptr;

  llvm::BasicBlock *before = call.getParent();
  llvm::BasicBlock *after = before->splitBasicBlock(call.getIterator(), "memory.done");
  llvm::BasicBlock *loop = llvm::BasicBlock::Create(context, "memory.loop", before->getParent(), after);
  before->getTerminator()->eraseFromParent();
  builder.SetInsertPoint(before);
  builder.CreateCondBr(builder.CreateICmpNE(count, builder.getInt64(0)), loop, after);

  builder.SetInsertPoint(loop);
  builder.SetCurrentDebugLocation(call.getDebugLoc());
  llvm::PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, "memory.index");
  index->addIncoming(builder.getInt64(0), before);
  llvm::Value *value = stored ? stored : builder.CreateLoad(element, builder.CreateInBoundsGEP(element, source, index));
  builder.CreateStore(value, builder.CreateInBoundsGEP(element, destination, index));
  llvm::Value *next = builder.CreateAdd(index, builder.getInt64(1));
  index->addIncoming(next, loop);
  builder.CreateCondBr(builder.CreateICmpULT(next, count), loop, after);
  call.eraseFromParent();
}

} // namespace

void expandMemoryIntrinsics(llvm::Function &kernel) {
  std::vector<llvm::MemIntrinsic *> calls;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (llvm::isa<llvm::MemSetInst>(inst) || llvm::isa<llvm::MemCpyInst>(inst))
      calls.push_back(llvm::cast<llvm::MemIntrinsic>(&inst));
  for (llvm::MemIntrinsic *call : calls)
    expand(*call);
}

} // namespace loom::hls
