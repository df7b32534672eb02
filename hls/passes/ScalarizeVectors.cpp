//===- ScalarizeVectors.cpp - Vector operations to one operation per lane -===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may compute on vector types (float4, uint16, char3, swizzles,
// vector literals, vloadn/vstoren). After: the same function with every vector operation, load and
// store split into one scalar operation per lane (LLVM's Scalarizer, loads and stores included,
// variable-index element accesses as selects), and the vector shells it leaves behind removed. A
// lane is a wire in hardware, so a float4 add becomes four float adders working side by side and a
// float4 load four loads of consecutive addresses. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

namespace loom::hls {

void scalarizeVectors(llvm::Function &kernel) {
  const bool hasVectors = llvm::any_of(llvm::instructions(kernel), [](const llvm::Instruction &inst) {
    return inst.getType()->isVectorTy() ||
           llvm::any_of(inst.operands(), [](const llvm::Use &use) { return use->getType()->isVectorTy(); });
  });
  if (!hasVectors)
    return;
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder().registerFunctionAnalyses(analyses);
  llvm::ScalarizerPass scalarizer;
  scalarizer.setScalarizeLoadStore(true);
  scalarizer.setScalarizeVariableInsertExtract(true);
  scalarizer.run(kernel, analyses);
  // The Scalarizer leaves the vectors it split (and their insertelement chains) for a later cleanup.
  analyses.clear();
  llvm::DCEPass().run(kernel, analyses);
}

} // namespace loom::hls
