//===- ScalarizeVectors.cpp - Vector operations to one operation per lane -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may compute on vector types (float4, uint16, char3, swizzles,
// vector literals, vloadn/vstoren). After: the same function with every vector operation split into
// one scalar operation per lane (LLVM's Scalarizer, variable-index element accesses as selects), and
// the vector shells it leaves behind removed. A lane is a wire in hardware, so a float4 add becomes
// four float adders working side by side. A load or store of a whole vector of global memory stays
// one access, a wide port moving the vector in one request (its lanes are slices of the port's data),
// or, wider than a port, one access per port's worth of lanes; other vector accesses (of private or
// __local arrays, of constant tables, or of 3 lanes) become one access per lane. A vector reduction
// (llvm.vector.reduce.*) becomes its lanes' operations, a tree where rounding allows.
// Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

#include <algorithm>

namespace loom::hls {
namespace {

/// The lanes of a load or store of `type` through `pointer` that one access moves: all of them when
/// it stays one access of a wide port (a vector of 2 or more byte-sized lanes in global or constant
/// memory, not a constant table, of a power-of-two size a port can carry); a port's worth of them
/// when it is wider (a pipe's packet of a struct, a long16), so it becomes a few full-width
/// accesses; else 1.
unsigned lanesPerAccess(llvm::Type *type, const llvm::Value *pointer, const llvm::DataLayout &layout) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vector || vector->getNumElements() < 2 || vector->getScalarSizeInBits() % 8)
    return 1;
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  const uint64_t bytes = layout.getTypeStoreSize(vector);
  if ((space != 1 && space != 2) || constantTable(llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0)) ||
      !llvm::isPowerOf2_64(bytes) || layout.getTypeAllocSize(vector) != bytes)
    return 1;
  return unsigned(std::min<uint64_t>(bytes, MaxPortBytes) / layout.getTypeAllocSize(vector->getElementType()));
}

bool staysWhole(llvm::Type *type, const llvm::Value *pointer, const llvm::DataLayout &layout) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector && lanesPerAccess(type, pointer, layout) == vector->getNumElements();
}

/// Splits a vector load or store that does not stay whole into accesses of `lanes` lanes each.
void splitAccess(llvm::Instruction &access, const llvm::DataLayout &layout) {
  llvm::IRBuilder<> builder(&access);
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&access);
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&access);
  auto *vector = llvm::cast<llvm::FixedVectorType>(load ? load->getType() : store->getValueOperand()->getType());
  llvm::Value *pointer = llvm::getLoadStorePointerOperand(&access);
  const unsigned lanes = lanesPerAccess(vector, pointer, layout);
  llvm::Type *lane = vector->getElementType();
  llvm::Type *part = lanes == 1 ? lane : llvm::FixedVectorType::get(lane, lanes);
  const uint64_t partBytes = layout.getTypeAllocSize(part);
  llvm::Value *base = builder.CreateBitCast(pointer, part->getPointerTo(pointer->getType()->getPointerAddressSpace()));
  const llvm::Align align = llvm::getLoadStoreAlignment(&access);
  llvm::Value *result = llvm::PoisonValue::get(vector);
  for (unsigned first = 0; first < vector->getNumElements(); first += lanes) {
    llvm::Value *address = builder.CreateConstInBoundsGEP1_64(part, base, first / lanes);
    const llvm::Align partAlign = llvm::commonAlignment(align, first / lanes * partBytes);
    if (load) {
      llvm::Value *value = builder.CreateAlignedLoad(part, address, partAlign);
      for (unsigned i = 0; i < lanes; ++i)
        result = builder.CreateInsertElement(result, lanes == 1 ? value : builder.CreateExtractElement(value, i),
                                             first + i);
    } else {
      llvm::Value *value = llvm::PoisonValue::get(part);
      for (unsigned i = 0; i < lanes; ++i) {
        llvm::Value *element = builder.CreateExtractElement(store->getValueOperand(), first + i);
        value = lanes == 1 ? element : builder.CreateInsertElement(value, element, i);
      }
      builder.CreateAlignedStore(value, address, partAlign);
    }
  }
  if (load)
    load->replaceAllUsesWith(result);
  access.eraseFromParent();
}

/// The operation vector reduction `id` applies between lanes, on `x` and `y` at `b`.
llvm::Value *reductionStep(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::Value *x, llvm::Value *y) {
  switch (id) {
  case llvm::Intrinsic::vector_reduce_add: return b.CreateAdd(x, y);
  case llvm::Intrinsic::vector_reduce_mul: return b.CreateMul(x, y);
  case llvm::Intrinsic::vector_reduce_and: return b.CreateAnd(x, y);
  case llvm::Intrinsic::vector_reduce_or: return b.CreateOr(x, y);
  case llvm::Intrinsic::vector_reduce_xor: return b.CreateXor(x, y);
  case llvm::Intrinsic::vector_reduce_smax: return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y);
  case llvm::Intrinsic::vector_reduce_smin: return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y);
  case llvm::Intrinsic::vector_reduce_umax: return b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, x, y);
  case llvm::Intrinsic::vector_reduce_umin: return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, y);
  case llvm::Intrinsic::vector_reduce_fadd: return b.CreateFAdd(x, y);
  case llvm::Intrinsic::vector_reduce_fmul: return b.CreateFMul(x, y);
  case llvm::Intrinsic::vector_reduce_fmax: return b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y);
  case llvm::Intrinsic::vector_reduce_fmin: return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y);
  default: llvm_unreachable("every llvm.vector.reduce of LLVM 15 is listed");
  }
}

/// A vector reduction (llvm.vector.reduce.*, which LLVM's SLP vectorizer makes of a sum of
/// neighbouring elements) as its lanes' operations: a tree, or lane after lane from the start value
/// where float rounding asks for that order (fadd and fmul without reassociation).
void expandReduction(llvm::IntrinsicInst &call) {
  const llvm::Intrinsic::ID id = call.getIntrinsicID();
  const bool hasStart = id == llvm::Intrinsic::vector_reduce_fadd || id == llvm::Intrinsic::vector_reduce_fmul;
  llvm::Value *vector = call.getArgOperand(hasStart ? 1 : 0);
  llvm::IRBuilder<> b(&call);
  if (llvm::isa<llvm::FPMathOperator>(call))
    b.setFastMathFlags(call.getFastMathFlags());
  std::vector<llvm::Value *> lanes;
  for (unsigned i = 0; i < llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements(); ++i)
    lanes.push_back(b.CreateExtractElement(vector, i));
  llvm::Value *result = nullptr;
  if (hasStart && !call.hasAllowReassoc()) {
    result = call.getArgOperand(0);
    for (llvm::Value *lane : lanes)
      result = reductionStep(b, id, result, lane);
  } else {
    while (lanes.size() > 1) {
      std::vector<llvm::Value *> next;
      for (size_t i = 0; i + 1 < lanes.size(); i += 2)
        next.push_back(reductionStep(b, id, lanes[i], lanes[i + 1]));
      if (lanes.size() % 2)
        next.push_back(lanes.back());
      lanes = std::move(next);
    }
    result = hasStart ? reductionStep(b, id, call.getArgOperand(0), lanes[0]) : lanes[0];
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
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
  std::vector<llvm::IntrinsicInst *> reductions;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
        call && call->getCalledFunction()->getName().startswith("llvm.vector.reduce."))
      reductions.push_back(call);
  for (llvm::IntrinsicInst *call : reductions)
    expandReduction(*call);
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
