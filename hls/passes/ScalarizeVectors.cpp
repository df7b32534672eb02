//===- ScalarizeVectors.cpp - Vector operations to one operation per lane -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may compute on vector types (float4, uint16, char3, swizzles,
// vector literals, vloadn/vstoren). After: the same function with every vector operation split into
// one scalar operation per lane (LLVM's Scalarizer, variable-index element accesses as selects), and
// the vector shells it leaves behind removed. A lane is a wire in hardware, so a float4 add becomes
// four float adders working side by side. A load or store of a whole vector of global memory stays
// one access, a wide port moving the vector in one request (its lanes are slices of the port's data);
// other vector accesses (of private or __local arrays, or of 3 lanes) become one access per lane.
// Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

namespace loom::hls {
namespace {

/// Whether a load or store of `type` through `pointer` stays one access of a wide port: a vector of
/// 2 or more byte-sized lanes in global or constant memory, of a power-of-two size a port can carry.
bool staysWhole(llvm::Type *type, const llvm::Value *pointer, const llvm::DataLayout &layout) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vector || vector->getNumElements() < 2 || vector->getScalarSizeInBits() % 8)
    return false;
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  const uint64_t bytes = layout.getTypeStoreSize(vector);
  return (space == 1 || space == 2) && llvm::isPowerOf2_64(bytes) && bytes <= MaxPortBytes &&
         layout.getTypeAllocSize(vector) == bytes;
}

/// Splits a vector load or store that does not stay whole into one access per lane.
void splitAccess(llvm::Instruction &access, const llvm::DataLayout &layout) {
  llvm::IRBuilder<> builder(&access);
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&access);
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&access);
  auto *vector = llvm::cast<llvm::FixedVectorType>(load ? load->getType() : store->getValueOperand()->getType());
  llvm::Type *lane = vector->getElementType();
  const uint64_t laneBytes = layout.getTypeAllocSize(lane);
  llvm::Value *pointer = llvm::getLoadStorePointerOperand(&access);
  llvm::Value *base = builder.CreateBitCast(pointer, lane->getPointerTo(pointer->getType()->getPointerAddressSpace()));
  const llvm::Align align = llvm::getLoadStoreAlignment(&access);
  llvm::Value *result = llvm::PoisonValue::get(vector);
  for (unsigned i = 0; i < vector->getNumElements(); ++i) {
    llvm::Value *address = builder.CreateConstInBoundsGEP1_64(lane, base, i);
    const llvm::Align laneAlign = llvm::commonAlignment(align, i * laneBytes);
    if (load)
      result = builder.CreateInsertElement(result, builder.CreateAlignedLoad(lane, address, laneAlign), i);
    else
      builder.CreateAlignedStore(builder.CreateExtractElement(store->getValueOperand(), i), address, laneAlign);
  }
  if (load)
    load->replaceAllUsesWith(result);
  access.eraseFromParent();
}

} // namespace

void scalarizeVectors(llvm::Function &kernel) {
  const bool hasVectors = llvm::any_of(llvm::instructions(kernel), [](const llvm::Instruction &inst) {
    return inst.getType()->isVectorTy() ||
           llvm::any_of(inst.operands(), [](const llvm::Use &use) { return use->getType()->isVectorTy(); });
  });
  if (!hasVectors)
    return;
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  std::vector<llvm::Instruction *> split;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
        load && load->getType()->isVectorTy() && !staysWhole(load->getType(), load->getPointerOperand(), layout))
      split.push_back(&inst);
    else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
             store && store->getValueOperand()->getType()->isVectorTy() &&
             !staysWhole(store->getValueOperand()->getType(), store->getPointerOperand(), layout))
      split.push_back(&inst);
  for (llvm::Instruction *access : split)
    splitAccess(*access, layout);
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder().registerFunctionAnalyses(analyses);
  llvm::ScalarizerPass scalarizer;
  scalarizer.setScalarizeLoadStore(false);
  scalarizer.setScalarizeVariableInsertExtract(true);
  scalarizer.run(kernel, analyses);
  // The Scalarizer leaves the vectors it split (and their insertelement chains) for a later cleanup.
  analyses.clear();
  llvm::DCEPass().run(kernel, analyses);
}

} // namespace loom::hls
